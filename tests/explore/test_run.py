"""Running sweeps: each cell is what ``affray duel`` says for its sheets, whatever
works it out (this process, a pool, Dask), and an interrupted sweep resumes."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import time
from dataclasses import replace
from pathlib import Path

import pytest

from affray.explore import (
    Cache,
    InProcess,
    Outcome,
    Pool,
    Result,
    cells,
    load_sweep,
    run_sweep,
)
from affray.explore.cache import CACHE_NAME
from tests.explore.conftest import WriteSweep
from tests.helpers import SCRIPT, ctrl_c_as_at_a_terminal, run, run_json

MST2 = """
a = "sellsword.toml"
b = "ogre.toml"
[[axes]]
side = "a"
key = "skill"
values = [0, 3]
[[axes]]
side = "b"
key = "armor"
values = ["none", "plate mail", "tin foil"]
"""

MIDIAN = """
a = "guard.toml"
b = "brawler.toml"
n = 3000
seed = 11
[[axes]]
side = "a"
key = "attack_bonus"
values = [0, 3]
[[axes]]
side = "b"
key = "armour_class"
values = [8, 14]
"""


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def explore(sweep: Path, out: Path, *more: str) -> dict[str, object]:
    return run_json("explore", str(sweep), "--out", str(out), *more)


def test_each_exact_cell_is_what_affray_duel_says(write_sweep: WriteSweep, tmp_path: Path) -> None:
    sweep = write_sweep(MST2)
    data = explore(sweep, tmp_path / "out", "--workers", "1")
    assert data["cells"] == 6 and data["invalid"] == 2 and data["computed"] == 4
    rows = read_rows(tmp_path / "out" / "results.csv")
    assert [(r["a.skill"], r["b.armor"]) for r in rows] == [
        ("0", "none"),
        ("0", "plate mail"),
        ("0", "tin foil"),
        ("3", "none"),
        ("3", "plate mail"),
        ("3", "tin foil"),
    ]
    for cell, row in zip(cells(load_sweep(sweep)), rows, strict=True):
        if cell.job is None:
            assert row["p_a_wins"] == "" and row["error"].startswith("b (Ogre): key 'armor'")
            assert "tin foil" in row["error"]
            continue
        a, b = tmp_path / f"a{cell.index}.json", tmp_path / f"b{cell.index}.json"
        a.write_text(json.dumps(cell.job.a))
        b.write_text(json.dumps(cell.job.b))
        duel = run_json("duel", str(a), str(b), "--exact")
        assert row["method"] == "exact" and row["n"] == ""
        for key in ("p_a_wins", "p_b_wins", "p_draw", "mean_rounds"):
            assert float(row[key]) == duel[key], key


def test_each_simulated_cell_is_affray_duel_with_its_seed(
    write_sweep: WriteSweep, tmp_path: Path
) -> None:
    sweep = write_sweep(MIDIAN)
    explore(sweep, tmp_path / "out", "--workers", "1")
    rows = read_rows(tmp_path / "out" / "results.csv")
    assert len(rows) == 4
    for cell, row in zip(cells(load_sweep(sweep)), rows, strict=True):
        assert cell.job is not None
        a, b = tmp_path / f"a{cell.index}.json", tmp_path / f"b{cell.index}.json"
        a.write_text(json.dumps(cell.job.a))
        b.write_text(json.dumps(cell.job.b))
        duel = run_json("duel", str(a), str(b), "-n", row["n"], "--seed", row["seed"])
        assert row["method"] == "monte-carlo" and row["n"] == "3000"
        assert float(row["p_a_wins"]) == duel["p_a_wins"]
        assert [float(row["ci95_low"]), float(row["ci95_high"])] == duel["ci95_a_wins"]
        assert float(row["mean_rounds"]) == duel["mean_rounds"]
        assert row["engine"] == duel["engine"] == "fast"


def test_the_same_results_in_this_process_and_on_a_pool(write_sweep: WriteSweep) -> None:
    sweep = load_sweep(write_sweep(MIDIAN))
    here = run_sweep(sweep, Cache(sweep.path.parent / "here"), InProcess())
    pool = Pool(2)
    try:
        there = run_sweep(sweep, Cache(sweep.path.parent / "pool"), pool)
    finally:
        pool.close()
    assert without_times(here) == without_times(there)
    assert len({r.seed for r in without_times(here) if r}) == 4


def without_times(outcome: Outcome) -> list[Result | None]:
    """The results, but for how long each took."""
    return [replace(r, seconds=0.0) if r else None for _, r in outcome.rows]


def test_a_resumed_sweep_works_out_only_the_missing_cells(
    write_sweep: WriteSweep, tmp_path: Path
) -> None:
    sweep = write_sweep(MIDIAN)
    out = tmp_path / "out"
    first = explore(sweep, out, "--workers", "1")
    assert (first["computed"], first["cached"]) == (4, 0)
    whole = (out / "results.csv").read_bytes()
    cache = out / CACHE_NAME
    lines = cache.read_text().splitlines(keepends=True)
    assert len(lines) == 4
    # keep two cells, and half a line as a crash would leave it
    cache.write_text(lines[0] + lines[2] + lines[3][: len(lines[3]) // 2])
    again = explore(sweep, out, "--workers", "1")
    assert (again["computed"], again["cached"]) == (2, 2)
    assert (out / "results.csv").read_bytes() == whole
    third = explore(sweep, out, "--workers", "1")
    assert (third["computed"], third["cached"]) == (0, 4)
    assert (out / "results.csv").read_bytes() == whole
    # an edited sweep reuses the cells still the same
    edited = write_sweep(MIDIAN.replace("values = [8, 14]", "values = [8, 14, 18]"))
    grown = explore(edited, out, "--workers", "1")
    assert (grown["computed"], grown["cached"]) == (2, 4)
    fresh = explore(edited, out, "--workers", "1", "--fresh")
    assert (fresh["computed"], fresh["cached"]) == (6, 0)


@pytest.mark.slow
def test_ctrl_c_keeps_the_cells_done_and_the_next_run_goes_on(
    write_sweep: WriteSweep, tmp_path: Path
) -> None:
    """A real interrupt of the console script, mid-sweep, at a terminal's Ctrl-C."""
    sweep = write_sweep(MIDIAN.replace("n = 3000", "n = 60000").replace("[0, 3]", "[0, 1, 2, 3]"))
    out = tmp_path / "out"
    process = subprocess.Popen(
        [*SCRIPT, "explore", str(sweep), "--out", str(out), "--workers", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_as_at_a_terminal,
        env={**os.environ, "AFFRAY_ESTIMATE_SECONDS": "0"},  # announce it, however short
    )
    cache = out / CACHE_NAME
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (
        not cache.exists() or len(cache.read_text().splitlines()) < 2
    ):
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    kept = len(cache.read_text().splitlines())
    assert 2 <= kept < 8
    assert err.splitlines()[-1] == (
        f"interrupted: {kept} cells are kept in {cache}; run the same command again to go on"
    )
    assert err.splitlines()[0].startswith("about ")  # said before the first cell was done
    assert "Traceback" not in err
    assert not (out / "results.csv").exists()
    resumed = explore(sweep, out, "--workers", "1")
    assert (resumed["computed"], resumed["cached"]) == (8 - kept, kept)


def test_a_refused_exact_cell_is_simulated_with_a_note(
    write_sweep: WriteSweep, tmp_path: Path
) -> None:
    """Exact odds past their budget (two fighters who can hardly hurt each other, whose
    duels may reach the round cap): the cell is simulated instead, and says so."""
    text = """
    a = "sellsword.toml"
    b = "sellsword.toml"
    n = 200
    [[axes]]
    side = "both"
    key = "hit_dice"
    values = ["2d10", "20d10+100"]
    """
    sweep = write_sweep(text)
    explore(sweep, tmp_path / "out", "--workers", "1")
    easy, hard = read_rows(tmp_path / "out" / "results.csv")
    assert easy["method"] == "exact" and easy["note"] == ""
    assert hard["method"] == "monte-carlo" and hard["n"] == "200"
    assert hard["note"].startswith("exact odds refused (") and "simulated instead" in hard["note"]


@pytest.mark.slow
def test_a_midian_sweep_works_out_exact_odds(write_sweep: WriteSweep, tmp_path: Path) -> None:
    """Issue 40, item 4: ``method = "exact"`` on Midian sheets, each cell the exact
    chain of ``affray duel --exact``; a cell past the chain's budget (a dockhand of
    2,000 hit points: 10^8 states) is simulated instead, and says so."""
    text = """
    a = "dockhand.toml"
    b = "guard.toml"
    method = "exact"
    n = 300
    [[axes]]
    side = "a"
    key = "hit_points"
    values = [5, 20, 2000]
    """
    sweep = write_sweep(text)
    explore(sweep, tmp_path / "out", "--workers", "1")
    rows = read_rows(tmp_path / "out" / "results.csv")
    for cell, row in zip(list(cells(load_sweep(sweep)))[:2], rows[:2], strict=True):
        assert cell.job is not None
        a, b = tmp_path / f"a{cell.index}.json", tmp_path / f"b{cell.index}.json"
        a.write_text(json.dumps(cell.job.a))
        b.write_text(json.dumps(cell.job.b))
        duel = run_json("duel", str(a), str(b), "--exact")
        assert row["method"] == "exact" and row["n"] == "" and row["note"] == ""
        for key in ("p_a_wins", "p_b_wins", "p_draw", "mean_rounds"):
            assert float(row[key]) == duel[key], key
    assert float(rows[0]["p_a_wins"]) < float(rows[1]["p_a_wins"])  # more points, more wins
    huge = rows[2]
    assert huge["method"] == "monte-carlo" and huge["n"] == "300"
    assert "states, more than 16,000,000" in huge["note"]


def test_the_json_summary_and_the_text_one(
    write_sweep: WriteSweep, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sweep = write_sweep(MST2)
    out = tmp_path / "out"
    data = explore(sweep, out, "--workers", "1")
    assert {"cells", "out", "seconds"} <= data.keys()
    assert data["out"] == str(out)
    assert data["files"] == [
        str(out / name) for name in ("results.csv", "heatmap.png", "report.html")
    ]
    result = run("explore", str(sweep), "--out", str(out))
    assert result.exit_code == 0
    assert "6 cells (exact odds)" in result.stdout and "6 kept from before" not in result.stdout
    assert "4 kept from before, 2 with an invalid sheet" in result.stdout
    assert "Chance Sellsword wins" in result.stdout and "plate mail" in result.stdout
    monkeypatch.chdir(tmp_path)
    default = run("explore", str(sweep))
    assert default.exit_code == 0
    assert (tmp_path / "sweep-results" / "results.csv").is_file()


class Recording(InProcess):
    """This process, pretending to share the work among ``workers``, keeping each batch."""

    def __init__(self, workers: int) -> None:
        super().__init__()
        self.workers = workers
        self.batches: list[list[str]] = []

    def run(self, make):  # type: ignore[no-untyped-def]
        for batch, results in super().run(make):
            self.batches.append([job.key for job in batch])
            yield batch, results


def test_batches_cover_every_cell_once_and_share_the_end(write_sweep: WriteSweep) -> None:
    text = MST2.replace('"tin foil"]', '"leather", "chain mail", "brigandine"]').replace(
        "values = [0, 3]", "range = [0, 19]"
    )
    sweep = load_sweep(write_sweep(text))
    backend = Recording(workers=2)
    outcome = run_sweep(sweep, Cache(sweep.path.parent / "out"), backend)
    keys = [cell.job.key for cell in cells(sweep) if cell.job]
    assert len(keys) == 100 and outcome.computed == 100
    sent = [key for batch in backend.batches for key in batch]
    assert [keys[0], *sent] == keys  # the first cell alone, timed; then the rest in order
    sizes = [len(batch) for batch in backend.batches]
    # exact cells take milliseconds: batches of many, but never more than a quarter of
    # what is left, so both workers have work to the end
    assert sizes[0] > 1
    left = 99
    for size in sizes:
        assert size <= max(1, -(-left // 4))
        left -= size
    assert sizes[-1] == 1


SURE = """
a = "knight.json"
b = "ogre.toml"
[[axes]]
side = "a"
key = "skill"
values = [0, 1]
[[axes]]
side = "a"
key = "armor"
values = ["leather", "none"]
[[axes]]
side = "b"
key = "evasion_bonus"
values = [6, 7]
"""


def test_every_chance_is_at_most_one_and_a_resume_appends_nothing(
    write_sweep: WriteSweep, tmp_path: Path
) -> None:
    """Issue 26, item 10: cells whose float sums came above 1 were refused by the cache
    and worked out, and appended, again on every resume."""
    sweep = write_sweep(SURE)
    out = tmp_path / "out"
    assert explore(sweep, out, "--workers", "1")["computed"] == 8
    for row in read_rows(out / "results.csv"):
        chances = [float(row[key]) for key in ("p_a_wins", "p_b_wins", "p_draw")]
        assert all(0.0 <= p <= 1.0 for p in chances), row
    cache = out / CACHE_NAME
    kept = cache.read_bytes()
    assert len(kept.splitlines()) == 8
    again = explore(sweep, out, "--workers", "1")
    assert (again["computed"], again["cached"]) == (0, 8)
    assert cache.read_bytes() == kept


def test_a_cache_with_lines_it_cannot_use_is_written_afresh(
    write_sweep: WriteSweep, tmp_path: Path
) -> None:
    sweep = write_sweep(MST2)
    out = tmp_path / "out"
    explore(sweep, out, "--workers", "1")
    cache = out / CACHE_NAME
    lines = cache.read_text().splitlines(keepends=True)
    assert len(lines) == 4
    refused = json.loads(lines[0])
    refused["result"]["p_a_wins"] = 1.0000000000000002  # as an older affray wrote it
    cache.write_text(json.dumps(refused) + "\n" + lines[1] + lines[1] + "".join(lines[2:]))
    again = explore(sweep, out, "--workers", "1")
    assert (again["computed"], again["cached"]) == (1, 3)
    rewritten = cache.read_text().splitlines()
    keys = [json.loads(line)["key"] for line in rewritten]
    assert len(rewritten) == 4 and len(set(keys)) == 4
    assert not list(out.glob("*.part"))
    third = explore(sweep, out, "--workers", "1")
    assert (third["computed"], third["cached"]) == (0, 4)
    assert cache.read_text().splitlines() == rewritten


def test_the_cache_never_appends_a_cell_it_has(tmp_path: Path) -> None:
    kept = Cache(tmp_path)
    result = Result(0.25, 0.75, 0.0, 3.0, "exact")
    kept.add([("k", result)])
    kept.add([("k", result), ("k", result)])
    assert len((tmp_path / CACHE_NAME).read_text().splitlines()) == 1
