"""affray without its extras (issue 28): the core runs where numba, matplotlib and Dask
are missing (the engines that need no compiler give the same kind of answers), and a
command that needs a missing extra says which one to install, exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from affray.extras import installed, need
from tests.helpers import EXAMPLES

WITHOUT = """
import importlib.abc, sys
MISSING = {"numba", "llvmlite", "matplotlib", "dask", "distributed"}
class Missing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in MISSING:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Missing())
from affray.cli.main import main
sys.argv = ["affray", *sys.argv[1:]]
main()
"""


def bare(*args: str) -> subprocess.CompletedProcess[str]:
    """``affray ARGS`` in a process where the extras cannot be imported."""
    return subprocess.run(
        [sys.executable, "-c", WITHOUT, *args], capture_output=True, text=True, timeout=300
    )


KNIGHT, OGRE = str(EXAMPLES / "mst2" / "knight.json"), str(EXAMPLES / "mst2" / "ogre.toml")


@pytest.mark.slow
def test_the_core_runs_without_the_extras(tmp_path: Path) -> None:
    duel = bare("duel", KNIGHT, OGRE, "-n", "600000", "--seed", "1", "--workers", "1", "--json")
    assert duel.returncode == 0, duel.stderr
    assert 0.5 < json.loads(duel.stdout)["p_a_wins"] < 1
    fight = bare(
        "fight", str(EXAMPLES / "encounters" / "ambush.toml"), "-n", "3000", "--seed", "1",
        "--workers", "1", "--json",
    )  # fmt: skip
    assert fight.returncode == 0, fight.stderr
    assert json.loads(fight.stdout)["engine"] == "fast MST-2 group engine"
    exact = bare("duel", KNIGHT, OGRE, "--json")
    assert exact.returncode == 0 and "p_a_wins" in json.loads(exact.stdout)
    sweep = str(EXAMPLES / "sweeps" / "knight_vs_ogre.toml")
    explored = bare("explore", sweep, "--out", str(tmp_path / "out"), "--workers", "1")
    assert explored.returncode == 0, explored.stderr
    assert "no heatmap.png" in explored.stderr and "affray[plot]" in explored.stderr
    written = {p.name for p in (tmp_path / "out").iterdir()}
    assert {"results.csv", "report.html"} <= written and "heatmap.png" not in written
    dask = bare("explore", sweep, "--out", str(tmp_path / "d"), "--dask", "local")
    assert dask.returncode == 2 and "affray[dask]" in dask.stderr


@pytest.mark.slow
def test_a_command_that_needs_a_missing_extra_names_it(tmp_path: Path) -> None:
    plot = bare("duel", KNIGHT, OGRE, "--plot", str(tmp_path / "duel.png"))
    assert plot.returncode == 2, plot.stderr
    assert "matplotlib" in plot.stderr and "affray[plot]" in plot.stderr
    assert "Traceback" not in plot.stderr and not (tmp_path / "duel.png").exists()
    fight = bare(
        "fight", str(EXAMPLES / "encounters" / "ogre.toml"), "-n", "100",
        "--plot", str(tmp_path / "fight.png"),
    )  # fmt: skip
    assert fight.returncode == 2 and "affray[plot]" in fight.stderr


def test_what_is_installed_is_found_without_importing_it() -> None:
    assert installed("numpy") and not installed("no_such_module_here")
    need("matplotlib", "a plot")  # installed with the dev tools: nothing to say
