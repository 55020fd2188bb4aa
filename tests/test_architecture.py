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


def template_branches(path: Path) -> list[str]:
    """Comparisons with a system's name in a page template (Jinja2's own parse of it),
    and any system named in its text."""
    from jinja2 import Environment, nodes

    source = path.read_text(encoding="utf-8")
    found = []
    for node in Environment().parse(source).find_all(nodes.Compare):
        for side in (node.expr, *(op.expr for op in node.ops)):
            if isinstance(side, nodes.Const) and side.value in affray.systems():
                found.append(f"line {node.lineno}: compares with {side.value!r}")
    for number, line in enumerate(source.splitlines(), start=1):
        for name in affray.systems():
            if f'"{name}"' in line or f"'{name}'" in line:
                found.append(f"line {number}: names {name!r}")
    return sorted(set(found))


def templates() -> list[Path]:
    return sorted(SRC.rglob("templates/*.html"))


def test_no_template_branches_on_a_rule_system() -> None:
    pages = templates()
    assert len(pages) > 10
    problems = {str(p.relative_to(SRC)): found for p in pages if (found := template_branches(p))}
    assert problems == {}


def test_the_template_check_finds_a_branch_where_there_is_one(tmp_path: Path) -> None:
    sample = tmp_path / "sample.html"
    sample.write_text('<p>{% if p.system == "mst2" %}low fantasy{% endif %}</p>\n')
    assert template_branches(sample) == ["line 1: compares with 'mst2'", "line 1: names 'mst2'"]


def test_no_generic_command_names_a_rule_system_in_its_help() -> None:
    """A system's words are its own: the generic commands' help names none (examples of
    `--system mst2` aside, which show what to type)."""
    import click

    from affray.cli.main import cli

    def helps(command: click.Command, path: str) -> list[tuple[str, str]]:
        found = [(path, command.help or "")]
        found += [(f"{path} {p.name}", getattr(p, "help", "") or "") for p in command.params]
        if isinstance(command, click.Group) and path.split()[-1] not in affray.systems():
            for name in command.list_commands(click.Context(command)):
                sub = command.get_command(click.Context(command), name)
                if sub is not None:
                    found += helps(sub, f"{path} {name}")
        return found

    titles = [s.title for s in affray.registry.all_systems()]
    named = [
        (path, title)
        for path, text in helps(cli, "affray")[1:]  # the program's own line names its systems
        if path.split()[1:2] not in ([name] for name in affray.systems())
        for title in titles
        if title in text.replace("--system mst2", "")
    ]
    assert named == []


def system_imports(path: Path) -> list[str]:
    """The imports of a rule system's package (``affray.rulesystems.*``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else []
        )
        found += [f"line {node.lineno}: {n}" for n in names if n.startswith("affray.rulesystems")]
    return found


def test_no_generic_module_imports_a_rule_systems_package() -> None:
    # the systems come in through the registry's entry points alone
    problems = {
        str(path.relative_to(SRC)): found
        for path in generic_modules()
        if (found := system_imports(path))
    }
    assert problems == {}


def test_the_import_check_finds_an_import_where_there_is_one(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import affray.rulesystems.mst2\nfrom affray.duels import MAX_ROUNDS\n")
    assert system_imports(sample) == ["line 1: affray.rulesystems.mst2"]


def loaded_after(*args: str) -> set[str]:
    """The rule-system modules loaded by ``affray ARGS`` (in a fresh process)."""
    import subprocess
    import sys

    code = (
        "import contextlib, io, sys\n"
        "from affray.cli.main import cli\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        f"    cli.main({list(args)!r})\n"
        "print(' '.join(m for m in sys.modules if m.startswith('affray.rulesystems')))\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(ran.stdout.split())


def test_commands_load_only_the_rule_systems_they_need() -> None:
    assert loaded_after("roll", "3d6", "--seed", "1") == set()
    listed = loaded_after("--help")  # each system's command group, none of its rules
    assert listed == {
        "affray.rulesystems",
        "affray.rulesystems.mst2",
        "affray.rulesystems.mst2.cli",
        "affray.rulesystems.midian",
        "affray.rulesystems.midian.cli",
    }
    assert "affray.rulesystems.mst2.system" in loaded_after("duel", "ogre", "goblin")
