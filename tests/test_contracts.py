"""The house's import contracts (pyproject's ``[tool.importlinter]``) hold, and break
when what they forbid is planted in a copy of the tree: a cycle between two sibling
packages, and a rule system's rules reaching for the table. They hold too when what a
module imports for its types alone (under ``if TYPE_CHECKING:``, which the house's
config leaves out) is counted: no cycle hides there either."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import affray

SRC = Path(affray.__file__).resolve().parent
ROOT = SRC.parent.parent
LINT = Path(sys.executable).with_name("lint-imports")
CYCLE = "No two sibling packages or modules import each other, at any depth"
EDGE = "A rule system's rules know no edge"
LAYERS = "The layers: the edges"
FOR_TYPES_ALONE = "exclude_type_checking_imports = false"


def lint(tree: Path) -> str:
    """What lint-imports says of the package in ``tree/src`` (its own config)."""
    done = subprocess.run(
        [str(LINT), str(tree / "pyproject.toml"), "--no-cache"],
        capture_output=True,
        text=True,
        cwd=tree,
        env={"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin", "COLUMNS": "400"},
        check=False,
    )
    return done.stdout + done.stderr


def copy(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    shutil.copytree(SRC, tree / "src" / "affray", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def plant(tree: Path, module: str, line: str) -> None:
    path = tree / "src" / "affray" / module
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")


def broken(said: str) -> set[str]:
    return {line.split(" BROKEN")[0].strip() for line in said.splitlines() if "BROKEN" in line}


@pytest.fixture(scope="module")
def untouched(tmp_path_factory: pytest.TempPathFactory) -> str:
    return lint(copy(tmp_path_factory.mktemp("untouched")))


def test_the_copy_keeps_every_contract(untouched: str) -> None:
    assert "0 broken" in untouched, untouched


def test_a_planted_cycle_breaks_the_acyclic_contract(tmp_path: Path) -> None:
    tree = copy(tmp_path)
    plant(tree, "dice/limits.py", "import affray.narration.core  # planted")
    plant(tree, "narration/core.py", "import affray.dice.limits  # planted")
    said = lint(tree)
    assert any(name.startswith(CYCLE[:40]) for name in broken(said)), said


def test_a_rule_system_reaching_for_the_table_breaks_the_edge_contract(tmp_path: Path) -> None:
    tree = copy(tmp_path)
    plant(tree, "rulesystems/mst2/attacks.py", "import affray.table.model  # planted")
    said = lint(tree)
    assert any(name.startswith(EDGE) for name in broken(said)), said


def test_imports_for_types_alone_count(untouched: str) -> None:
    """No type-only cycle: a module's types come from below it (affray.totals,
    affray.stats and affray.estimates under the powers and the answers, not the sim),
    and the contracts count what a module imports under ``if TYPE_CHECKING:``."""
    assert (ROOT / "pyproject.toml").read_text(encoding="utf-8").count(FOR_TYPES_ALONE) == 1
    assert "0 broken" in untouched, untouched


def test_a_planted_import_for_types_alone_breaks_the_contracts(
    tmp_path: Path,
) -> None:
    tree = copy(tmp_path)
    for_types = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import affray.sim.chunks"
    plant(tree, "answers.py", f"{for_types}  # planted")
    said = lint(tree)
    names = broken(said)
    assert any(name.startswith(LAYERS) for name in names), said
    assert any(name.startswith(CYCLE[:40]) for name in names), said
