"""Encounter sweeps: ``encounter = "file.toml"`` and axes over a side's member. Each
cell is what ``simulate_fights`` says for the same encounter written as a file, with
the cell's seed; every mistake is said plainly."""

from __future__ import annotations

import csv
import json
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

from affray.errors import SheetError
from affray.explore import Cache, EncounterSweep, InProcess, cells, load_sweep, run_sweep
from affray.explore.compute import Result
from affray.explore.heatmap import chances
from affray.sheets import bestiary
from affray.sim.fights import FightOdds, encounter_file, simulate_fights
from tests.explore.conftest import WriteSweep
from tests.helpers import run, run_json

ENCOUNTER = """
name = "Knight against goblins"
system = "mst2"

[[sides]]
name = "Knight"
members = ["knight.json"]

[[sides]]
name = "Goblins"
tactics = "focus"
members = ["2 goblins"]
"""

COUNT = """
encounter = "encounter.toml"
n = 300
seed = 5
[[axes]]
side = "Goblins"
key = "count"
range = [1, 4]
"""


@pytest.fixture
def folder(write_sweep: WriteSweep, tmp_path: Path) -> Path:
    """tmp_path with the example sheets and the knight-against-goblins encounter."""
    write_sweep("", "unused.toml")
    (tmp_path / "encounter.toml").write_text(ENCOUNTER, encoding="utf-8")
    return tmp_path


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as file:
        return list(csv.DictReader(file))


def fights_of(folder: Path, name: str, data: dict[str, Any], n: int, seed: int) -> FightOdds:
    """``simulate_fights`` on ``data`` written as an encounter file in ``folder`` (under
    a new name each time: a process keeps the fights it set out for a path)."""
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return simulate_fights(encounter_file(path), n, seed=seed)


def encounter_data(goblins: str, knight: str = "knight.json") -> dict[str, Any]:
    data = tomllib.loads(ENCOUNTER)
    data["sides"][0]["members"] = [knight]
    data["sides"][1]["members"] = [goblins]
    return data


def assert_same(row: dict[str, str], odds: FightOdds) -> None:
    """A row of results.csv says what the fights said, to the last digit."""
    assert float(row["p_wins:Knight"]) == odds.p_wins("Knight")
    assert float(row["p_wins:Goblins"]) == odds.p_wins("Goblins")
    assert float(row["p_draw"]) == odds.p_draw
    assert float(row["mean_rounds"]) == odds.totals.mean_rounds
    assert (float(row["ci95_low"]), float(row["ci95_high"])) == odds.ci95("Knight")
    assert (row["method"], int(row["n"])) == ("monte-carlo", odds.n)


def test_a_count_axis_is_the_fights_of_each_count_with_the_cells_seed(folder: Path) -> None:
    sweep = folder / "sweep.toml"
    sweep.write_text(COUNT, encoding="utf-8")
    out = folder / "out"
    result = run("explore", str(sweep), "--out", str(out), "--workers", "2")
    assert result.exit_code == 0, result.output
    assert "Chance Knight wins" in result.stdout
    rows = read_rows(out / "results.csv")
    assert [row["Goblins[1].count"] for row in rows] == ["1", "2", "3", "4"]
    won = []
    for count, row in enumerate(rows, 1):
        odds = fights_of(
            folder, f"c{count}.json", encounter_data(f"{count} goblins"), 300, int(row["seed"])
        )
        assert_same(row, odds)
        assert (
            odds.totals.wins.get("Knight", 0)
            + odds.totals.wins.get("Goblins", 0)
            + odds.totals.draws
            == 300
        )
        won.append(odds.p_wins("Knight"))
    assert won[0] > won[-1]  # four goblins are worse for the knight than one
    assert len({row["seed"] for row in rows}) == 4  # each cell its own seed
    png = (out / "heatmap.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 5_000
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "the first side of the encounter file" in page
    assert "Knight&#39;s chance of winning" in page or "Knight's chance of winning" in page
    assert "<th>Goblins wins</th>" in page
    # run again: every cell is kept, none worked out again
    again = run_json("explore", str(sweep), "--out", str(out), "--workers", "1")
    assert (again["computed"], again["cached"]) == (0, 4)
    assert read_rows(out / "results.csv") == rows


def test_a_sheet_key_axis_sets_that_members_sheet(folder: Path) -> None:
    text = """
    encounter = "encounter.toml"
    n = 250
    [[axes]]
    side = "Knight"
    key = "skill"
    values = [0, 5]
    [[axes]]
    side = "Goblins"
    member = 1
    key = "armor"
    values = ["none", "tin"]
    """
    sweep = folder / "sweep.toml"
    sweep.write_text(text, encoding="utf-8")
    out = folder / "out"
    result = run("explore", str(sweep), "--out", str(out), "--workers", "1")
    assert result.exit_code == 0, result.output
    rows = read_rows(out / "results.csv")
    assert [(r["Knight[1].skill"], r["Goblins[1].armor"]) for r in rows] == [
        ("0", "none"),
        ("0", "tin"),
        ("5", "none"),
        ("5", "tin"),
    ]
    for row in rows[1::2]:  # an unknown armour: the cell has the validator's message
        assert row["p_wins:Knight"] == "" and row["n"] == ""
        assert row["error"].startswith(
            'encounter.toml: side 2 ("Goblins"), member 1: "goblins with armor = tin": '
            "key 'armor': unknown armor \"tin\" (tip: armor is one of: none,"
        ), row["error"]
    assert '2 cells with no odds: encounter.toml: side 2 ("Goblins")' in result.stderr
    knight = json.loads((folder / "knight.json").read_text())
    goblin = tomllib.loads(bestiary.text("mst2", "goblin") or "")
    goblin["armor"] = "none"
    (folder / "bare_goblin.json").write_text(json.dumps(goblin))
    for row in rows[0::2]:
        skill = knight["skill"] = int(row["Knight[1].skill"])
        (folder / f"knight_{skill}.json").write_text(json.dumps(knight))
        data = encounter_data("2 bare_goblin.json", f"knight_{skill}.json")
        odds = fights_of(folder, f"cell_{skill}.json", data, 250, int(row["seed"]))
        assert_same(row, odds)
    assert float(rows[2]["p_wins:Knight"]) > float(rows[0]["p_wins:Knight"])  # skill 5 > 0


def test_the_columns_are_one_per_side_in_the_files_order(
    folder: Path, write_sweep: WriteSweep
) -> None:
    three = ENCOUNTER + '\n[[sides]]\nname = "Wolves"\nmembers = ["wolf"]\n'
    (folder / "three.toml").write_text(three, encoding="utf-8")
    path = write_sweep(COUNT.replace("encounter.toml", "three.toml").replace("[1, 4]", "[1, 2]"))
    sweep = load_sweep(path)
    assert isinstance(sweep, EncounterSweep)
    assert sweep.sides == ("Knight", "Goblins", "Wolves")
    outcome = run_sweep(sweep, Cache(folder / "out"), InProcess())
    from affray.explore.rows import csv_text

    lines = csv_text(sweep, outcome.rows).splitlines()
    assert lines[0] == (
        "Goblins[1].count,p_wins:Knight,p_wins:Goblins,p_wins:Wolves,p_draw,mean_rounds,"
        "method,n,ci95_low,ci95_high,seed,engine,note,error"
    )
    for _, result in outcome.rows:
        assert result is not None and result.p_wins is not None and result.p_draw is not None
        assert sum(result.p_wins) + result.p_draw == pytest.approx(1.0)
        assert result.p_first == result.p_wins[0]
    grid = chances(sweep, outcome.rows)  # the heatmap's: the first side's chance
    assert list(grid) == [
        result.p_wins[0] for _, result in outcome.rows if result and result.p_wins
    ]


def test_seeds_and_keys_follow_what_is_fought_not_what_files_are_called(
    folder: Path, tmp_path: Path
) -> None:
    sweep = folder / "sweep.toml"
    sweep.write_text(COUNT, encoding="utf-8")
    before = [(c.job.key, c.job.seed) for c in cells(load_sweep(sweep)) if c.job]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(folder / "knight.json", elsewhere / "sir.json")
    moved = ENCOUNTER.replace('"knight.json"', '"elsewhere/sir.json"')
    (folder / "encounter.toml").write_text(moved, encoding="utf-8")
    assert [(c.job.key, c.job.seed) for c in cells(load_sweep(sweep)) if c.job] == before
    knight = json.loads((elsewhere / "sir.json").read_text())
    knight["skill"] = 1
    (elsewhere / "sir.json").write_text(json.dumps(knight))
    after = [(c.job.key, c.job.seed) for c in cells(load_sweep(sweep)) if c.job]
    assert not set(after) & set(before)  # another knight: no cell is reused
    sweep.write_text(COUNT.replace("n = 300", "n = 301"), encoding="utf-8")
    longer = [(c.job.key, c.job.seed) for c in cells(load_sweep(sweep)) if c.job]
    assert [s for _, s in longer] == [s for _, s in after]  # n changes the key, not the seed
    assert not {k for k, _ in longer} & {k for k, _ in after}


def test_a_cells_result_goes_through_the_cache_whole(folder: Path) -> None:
    sweep = folder / "sweep.toml"
    sweep.write_text(COUNT.replace("[1, 4]", "[2, 2]").replace("n = 300", "n = 40"))
    loaded = load_sweep(sweep)
    out = folder / "out"
    first = run_sweep(loaded, Cache(out), InProcess()).rows[0][1]
    kept = Cache(out)
    (key,) = kept.results
    assert kept[key] == first
    with pytest.raises(ValueError, match="a duel's and an encounter's odds"):
        Result.from_json({**first.to_json(), "p_a_wins": 0.5, "p_wins": [0.5, 0.5]})  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="do not add up"):
        Result.from_json({**first.to_json(), "p_wins": [0.9, 0.9]})  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (('side = "Goblins"', 'side = "Gobbos"'), 'the encounter has no side called "Gobbos"'),
        (('side = "Goblins"', 'side = "Goblins"\nmember = 2'), "key 'member': side \"Goblins\""),
        (('key = "count"', 'key = "skil"'), 'Goblin\'s sheet has no key "skil"'),
        (("range = [1, 4]", "values = [0]"), "no value of this axis makes a valid encounter"),
        (("range = [1, 4]", "values = [0, 300]"), "no value of this axis makes a valid encounter"),
        (("n = 300", 'n = 300\nmethod = "exact"'), "key 'method': an encounter sweep has no exact"),
        (("n = 300", 'n = 300\nengine = "fast"'), "unknown key"),
        (("n = 300", 'n = 300\na = "knight.json"'), "key 'a': a sweep names either an encounter"),
        (('"encounter.toml"', '"nowhere.toml"'), "key 'encounter': "),
        (('"encounter.toml"', '"knight.json"'), "key 'encounter': "),
        (
            ("range = [1, 4]", "range = [1, 4]\n" + COUNT.split("\n", 4)[-1]),
            "two axes set the same key",
        ),
        (('side = "Goblins"', "side = 3"), "axis 1"),
    ],
)
def test_mistakes_in_an_encounter_sweep_are_said_plainly(
    folder: Path, change: tuple[str, str], said: str
) -> None:
    path = folder / "sweep.toml"
    path.write_text(COUNT.replace(*change, 1), encoding="utf-8")
    result = run("explore", str(path), "--out", str(folder / "out"))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    message = result.stderr
    assert message.startswith(f"error: {path}"), message
    assert "Tip: " in message
    assert said in message
    with pytest.raises(SheetError):
        load_sweep(path)


def test_a_member_past_the_list_says_which_there_are(folder: Path) -> None:
    path = folder / "sweep.toml"
    path.write_text(COUNT.replace('side = "Goblins"', 'side = "Goblins"\nmember = 2'))
    with pytest.raises(SheetError) as raised:
        load_sweep(path)
    assert raised.value.message.endswith(
        "axis 1 (Goblins[2].count), key 'member': side \"Goblins\" lists one member, so it "
        "has no member 2"
    )
    assert raised.value.hint is not None and "1 (Goblin)" in raised.value.hint
