"""docs/explorer.md's finding is the example sweep's real output."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from affray.explore import Cache, InProcess, load_sweep, run_sweep
from affray.explore.heatmap import chances
from affray.explore.values import value_text
from tests.helpers import EXAMPLES

DOC = Path(__file__).resolve().parents[2] / "docs" / "explorer.md"


def test_the_knight_and_ogre_table_is_what_the_sweep_gives(tmp_path: Path) -> None:
    sweep = load_sweep(EXAMPLES / "sweeps" / "knight_vs_ogre.toml")
    grid = chances(sweep, run_sweep(sweep, Cache(tmp_path), InProcess()).rows)
    skills, armours = sweep.axes
    lines = [
        "| skill | " + " | ".join(value_text(v) for v in armours.values) + " |",
        "|---" * (len(armours.values) + 1) + "|",
    ]
    for skill, row in zip(skills.values, grid, strict=True):
        lines.append(f"| {skill} | " + " | ".join(f"{p * 100:.1f}%" for p in row) + " |")
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"<!-- knight-ogre table.*?-->\n(.*?)\n<!-- end of table -->", text, re.S)
    assert found is not None
    assert found.group(1) == "\n".join(lines)
    # the sentences under it
    none, leather, chain, brigandine, plate = grid.T
    assert (leather < none).all() and (chain < none).all()
    assert ((brigandine - none > 0.005) & (brigandine - none < 0.031)).all()
    assert abs(plate[0] - none[2]) < 0.015 and abs(plate[1] - none[3]) < 0.015
    assert (plate > 0.5).all()
    even = [int(np.argmax(column > 0.5)) for column in grid.T]  # the first favoured skill
    assert even == [1, 2, 2, 1, 0]


def test_the_docs_figure_is_in_the_repository() -> None:
    assert (DOC.parent / "explorer-knight-ogre.png").stat().st_size > 10_000
    assert "(explorer-knight-ogre.png)" in DOC.read_text(encoding="utf-8")


def test_the_python_example_runs_as_written() -> None:
    """The "From Python" block, run from the repository's root in a fresh interpreter
    (its worker processes need the ``__main__`` guard it shows)."""
    import subprocess
    import sys

    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"## From Python\n\n```python\n(.*?)```", text, re.S)
    assert found is not None
    result = subprocess.run(
        [sys.executable, "-c", found.group(1)],
        cwd=DOC.parent.parent,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 35
    labels, chance = lines[0].rsplit(" ", 1)
    assert labels == "('0', 'none')" and abs(float(chance) - 0.4487) < 1e-4  # the page's 44.9%
    assert (DOC.parent.parent / "knight-ogre" / "report.html").is_file()


def test_the_sweep_file_example_is_a_valid_sweep(tmp_path: Path) -> None:
    found = re.search(r"## The sweep file\n\n```toml\n(.*?)```", DOC.read_text("utf-8"), re.S)
    assert found is not None
    import shutil

    shutil.copytree(EXAMPLES / "mst2", tmp_path / "mst2")  # the sheets it names
    (tmp_path / "sweeps").mkdir()
    path = tmp_path / "sweeps" / "example.toml"
    path.write_text(found.group(1), encoding="utf-8")
    sweep = load_sweep(path)
    outcome = run_sweep(sweep, Cache(tmp_path / "out"), InProcess())
    assert len(outcome.rows) == 16 and outcome.invalid == 0


def test_the_party_and_ogres_table_is_what_the_sweep_gives() -> None:
    """The page's table has the example encounter sweep's grid, and one of its cells
    (two ogres, the knight in no armour: 100,000 fights of the fast engine) worked out again
    gives the page's figure."""
    from affray.explore import cells
    from affray.explore.compute import run_job

    sweep = load_sweep(EXAMPLES / "sweeps" / "party_vs_ogres.toml")
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"<!-- party-ogres table.*?-->\n(.*?)\n<!-- end of table -->", text, re.S)
    assert found is not None
    lines = found.group(1).splitlines()
    ogres, armours = sweep.axes
    assert lines[0] == "| ogres | " + " | ".join(value_text(v) for v in armours.values) + " |"
    table = [line.strip("| ").split(" | ") for line in lines[2:]]
    assert [row[0] for row in table] == [str(v) for v in ogres.values]
    grid = list(cells(sweep))
    cell = grid[2]
    assert cell.labels == ("2", "none") and cell.job is not None
    result = run_job(cell.job)
    assert result.p_first is not None
    assert table[1][1] == f"{result.p_first * 100:.1f}%"
    # the sentences under it: the 50 % line between three and four ogres
    shown = [[float(p.rstrip("%")) for p in row[1:]] for row in table]
    assert all(p > 50 for p in shown[2]) and all(p < 50 for p in shown[3])
    assert 4 < shown[2][1] - shown[2][0] < 6
