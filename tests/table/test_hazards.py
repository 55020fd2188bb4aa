"""Hazards at the table (issue 41, item 7): the game master brings a fall or fire on a
combatant, its dice the table's (typed in, or rolled and marked), with its serious
wounds and checks; a fire burns at the end of every round until it is put out; undo
takes a hazard back; a kind or a value a system does not take is a clear error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from affray.cli.main import cli
from affray.dice import ScriptedDice
from affray.rulesystems.midian import hazards
from affray.rulesystems.midian.character import Character
from affray.sheets.combatants import resolve_reference
from affray.table import Store, Tables
from affray.table.commands import Hazard
from tests.helpers import EXAMPLES


def at(db: Path, *args: str, code: int = 0) -> Any:
    result = CliRunner().invoke(cli, [*args, "--db", str(db), "--json"])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return json.loads(result.stdout) if code == 0 else result


def midian_table(db: Path) -> None:
    at(db, "table", "new", "Docks", "--system", "midian")
    at(db, "table", "add", "docks", str(EXAMPLES / "midian/guard.toml"), "--side", "watch")
    at(db, "table", "add", "docks", "brawler", "--side", "dockers")


def state(db: Path, who: str) -> dict[str, Any]:
    shown = at(db, "table", "show", "docks")
    found: dict[str, Any] = next(c for c in shown["combatants"] if c["id"] == who)["state"]
    return found


def test_a_fall_onto_rocks_takes_its_damage_with_its_serious_wounds(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    midian_table(db)
    before = state(db, "Guard")
    # 30 ft onto rocks: 3d10 [9, 8, 7] = 24; the crushing save d20 [2] fails (15 needed);
    # the Willpower check 2d20 [7, 1] at the guard's Willpower 11 passes
    done = at(
        db, "table", "hazard", "docks", "Guard", "fall", "feet=30", "surface=rocks",
        "--rolls", "9,8,7,2,7,1",
    )  # fmt: skip
    lines = "\n".join(done["lines"])
    assert "Guard suffers a fall (30 ft onto rocks" in lines and "24 taken" in lines
    after = state(db, "Guard")
    lost = before["hit_points"] + before["life_points"] - after["hit_points"] - after["life_points"]
    assert lost == 24 and after["serious_wounds"] == 2  # one per full 10 points
    at(db, "table", "undo", "docks")
    assert state(db, "Guard") == before


def test_a_saved_fall_is_halved(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    midian_table(db)
    before = state(db, "Guard")
    # 20 ft onto hard ground: 2d8 [5, 4] = 9; the save d20 [19] holds: 4 taken
    at(db, "table", "hazard", "docks", "Guard", "fall", "feet=20", "--rolls", "5,4,19")
    assert before["hit_points"] - state(db, "Guard")["hit_points"] == 4


def test_a_fire_burns_once_a_round_until_put_out(tmp_path: Path) -> None:
    """Set alight in round 1, it burns then (the hazard's own round), not again at
    that round's end; then at the end of every round until it is put out. It shows in
    the conditions, and a new fire starts its contact afresh."""
    db = tmp_path / "t.db"
    midian_table(db)
    at(db, "table", "start", "docks", "--rolls", "5,5")
    first = state(db, "Brawler")["hit_points"]
    # set alight: 3d6 [1, 1, 1] = 3, the save [15] at 3 halves it: 1
    at(db, "table", "hazard", "docks", "Brawler", "fire", "burning=true", "--rolls", "1,1,1,15")
    assert state(db, "Brawler")["hit_points"] == first - 1
    shown = at(db, "table", "show", "docks")
    brawler = next(c for c in shown["combatants"] if c["id"] == "Brawler")
    assert brawler["effects"] == ["on fire"]
    burns: list[str] = []
    for _ in range(8):  # to the end of round 2, whatever the tactics do
        played = at(db, "table", "run", "docks", "--turns", "1", "--seed", "2")
        burns += [line for line in played["lines"] if "Brawler suffers fire (on fire" in line]
        if at(db, "table", "show", "docks")["round"] >= 3:
            break
    assert len(burns) == 1  # the end of round 2 only
    at(db, "table", "hazard", "docks", "Brawler", "put-out")
    again = at(db, "table", "run", "docks", "--turns", "4", "--seed", "3")
    assert not any("suffers fire" in line for line in again["lines"])
    refused = at(db, "table", "hazard", "docks", "Brawler", "put-out", code=2)
    assert "Brawler is not on fire" in refused.stderr


def test_a_hazards_save_takes_the_rounds_shock_and_a_new_blaze_starts_afresh(
    tmp_path: Path,
) -> None:
    db = tmp_path / "t.db"
    midian_table(db)
    at(db, "table", "set", "docks", "Guard", "shock=18")
    # a round of fire: 3d6 [2, 2, 2] = 6; the save d20 [10] - 18 shock = -8: fails
    done = at(db, "table", "hazard", "docks", "Guard", "fire", "--rolls", "2,2,2,10")
    assert "-18 shock and fatigue = -8 vs 6 → failed" in "\n".join(done["lines"])
    at(db, "table", "set", "docks", "Guard", "shock=0")
    at(db, "table", "hazard", "docks", "Guard", "fire", "--rolls", "6,6,6,20")
    # a blaze now: its contact's damage so far is its own (3), not the last fire's 18
    blaze = at(db, "table", "hazard", "docks", "Guard", "fire", "blaze=true", "--rolls", "1,1,1,10")
    assert " vs 3 → " in "\n".join(blaze["lines"]), blaze["lines"]
    log = json.dumps(at(db, "table", "log", "docks"))
    assert "hazard fire on Guard blaze=true" in log  # as one types it back


def test_what_lasts_shows_and_set_clears_it(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    midian_table(db)
    at(db, "table", "set", "docks", "Guard", "winded=2", "off_balance=true", "dying_in=3")
    at(db, "table", "hazard", "docks", "Guard", "fire", "burning=true", "--rolls", "1,1,1,20")
    shown = at(db, "table", "show", "docks")
    guard = next(c for c in shown["combatants"] if c["id"] == "Guard")
    assert guard["effects"] == [
        "on fire",
        "winded (2 rounds)",
        "off balance (hit in the ear)",
        "dies in 3 rounds (throat wound)",
    ]
    at(db, "table", "set", "docks", "Guard", "winded=0", "off_balance=false", "dying_in=0",
       "on_fire=false")  # fmt: skip
    cleared = at(db, "table", "show", "docks")
    assert "effects" not in next(c for c in cleared["combatants"] if c["id"] == "Guard")


def test_a_hazard_a_system_does_not_know_is_refused_clearly(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    midian_table(db)
    for args, said in (
        (("flood",), "no hazard called 'flood'"),
        (("fall",), "feet"),
        (("fall", "feet=30", "surface=lava"), "surface"),
        (("fire", "hot=true"), "hot"),
    ):
        refused = at(db, "table", "hazard", "docks", "Guard", *args, code=2)
        assert said in refused.stderr, refused.stderr
    listed = at(db, "table", "hazards", "docks")
    assert [h["kind"] for h in listed["hazards"]] == ["fall", "fire", "put-out"]
    assert at(db, "table", "show", "docks")["version"] == 2  # the two adds: nothing more


def test_mst2_hazards_wound_directly_and_check_shock(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    at(db, "table", "new", "Ford", "--system", "mst2")
    at(db, "table", "add", "ford", str(EXAMPLES / "mst2/sellsword.toml"), "--side", "guards")
    at(db, "table", "add", "ford", "bandit", "--side", "bandits")
    # 25 ft: 2 wounds, ignoring armour; the shock check rolls the sellsword's hit dice
    done = at(db, "table", "hazard", "ford", "Sellsword", "fall", "feet=25", "--rolls", "10,10")
    shown = at(db, "table", "show", "ford")
    assert shown["combatants"][0]["state"]["wounds"] == 2
    assert any("falling" in line for line in done["lines"]), done["lines"]
    poisoned = at(db, "table", "hazard", "ford", "Bandit", "poison", "toxicity=severe")
    assert poisoned["rolled"], poisoned  # the shock check's dice, rolled by affray and marked


@settings(max_examples=25, deadline=None)
@given(
    fall=st.lists(st.integers(1, 10), min_size=3, max_size=3),
    save=st.integers(1, 20),
    surface=st.sampled_from(["hard", "rocks"]),
)
def test_a_fall_with_typed_faces_is_the_rules_librarys_fall(
    tmp_path_factory: pytest.TempPathFactory, fall: list[int], save: int, surface: str
) -> None:
    """A fall typed at the table takes what the rules library's ``fall`` gives for the
    same faces (30 ft: 3 fall dice, then the crushing save); the checks after it (a
    serious wound's) are the table's to roll, and roll on."""
    db = tmp_path_factory.mktemp("fall") / "t.db"
    midian_table(db)
    guard = resolve_reference(str(EXAMPLES / "midian/guard.toml")).sheet()
    assert isinstance(guard, Character)
    sides = {"hard": 6, "rocks": 10}[surface]
    faces = [min(face, sides) for face in fall] + [save]
    expected = hazards.fall(guard, 30, ScriptedDice(faces), surface=surface)
    before = state(db, "Guard")
    tables = Tables(Store(db))
    row = tables.table("docks")
    values = {"feet": 30, "surface": surface}
    tables.run(row, Hazard("Guard", "fall", values), rolls=faces, seed=1)
    tables.store.close()
    after = state(db, "Guard")
    lost = before["hit_points"] + before["life_points"] - after["hit_points"] - after["life_points"]
    assert lost == min(expected.taken, before["hit_points"] + before["life_points"])
