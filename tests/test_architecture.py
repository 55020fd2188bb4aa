"""The one door: nothing outside ``rulesystems/<system>/`` branches on a rule system's name
or sheet class."""

from __future__ import annotations

import ast
from pathlib import Path

import affray

SRC = Path(affray.__file__).resolve().parent
SYSTEM_CLASSES = {"Fighter", "Character", "Mst2Ruleset", "MidianRuleset"}


def generic_modules() -> list[Path]:
    return [
        path
        for path in sorted(SRC.rglob("*.py"))
        if not path.relative_to(SRC).as_posix().startswith("rulesystems/")
    ]


def branches(path: Path) -> list[str]:
    """Comparisons with a system's name, isinstance checks on a system's classes."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if isinstance(side, ast.Constant) and side.value in affray.systems():
                    found.append(f"line {node.lineno}: compares with {side.value!r}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance"
        ):
            names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            if names & SYSTEM_CLASSES:
                found.append(f"line {node.lineno}: isinstance on {sorted(names)}")
    return found


def test_no_generic_module_branches_on_a_rule_system() -> None:
    modules = generic_modules()
    assert len(modules) > 30
    problems = {str(path.relative_to(SRC)): found for path in modules if (found := branches(path))}
    assert problems == {}


def test_the_check_finds_a_branch_where_there_is_one(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('if system == "midian":\n    pass\nisinstance(x, Fighter)\n')
    assert branches(sample) == [
        "line 1: compares with 'midian'",
        "line 3: isinstance on ['Fighter']",
    ]
