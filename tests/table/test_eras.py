"""Old tables replay as they played: Midian tables logged before issue 25's round 3 of
fidelity (era 2) fold, with today's affray, to the state the affray that logged them
showed; a change logged since (era 3) plays by today's rules.

The logs in ``data/era2.db`` were written by affray at 58385f1 (``data/era2.sh``
writes them again), and ``data/era2.json`` is what its ``table show --json`` said.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from affray.cli.main import cli
from affray.encounter import Encounter
from affray.encounter.cursor import Cursor
from affray.encounter.model import Combatant
from affray.errors import NotModelledError, TableError
from affray.rulesystems.midian.ruleset import MidianRuleset
from affray.rulesystems.midian.sim.duels import simulate_midian_fast, unsupported
from affray.rulesystems.midian.sim.fights import midian_fast_fights
from affray.rulesystems.midian.state import knock_down
from affray.table import Run, Store, Tables
from affray.table.state import ERA, Rules
from tests.sim.midian_sheets import example

DATA = Path(__file__).parent / "data"
SHOWN: dict[str, Any] = json.loads((DATA / "era2.json").read_text())
DIVERGING = {
    "charge": "a knight charges again when its foe falls (no run-up rule then)",
    "docks": "weaponless dockhands strike with the fists' 1d2, parry unhurt",
    "waiter": "the brawler waits and keeps its initiative and both actions",
}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A copy of the old database (today's affray may upgrade what it writes to)."""
    copy = tmp_path / "era2.db"
    shutil.copy(DATA / "era2.db", copy)
    return copy


SINCE = ("allowed", "strip")
"""`table show` keys added after the affray that wrote era2.db (not in its output)."""


def show(db: Path, table: str) -> Any:
    result = CliRunner().invoke(cli, ["table", "show", table, "--json", "--db", str(db)])
    if result.exit_code != 0:
        return result.output
    shown = {k: v for k, v in json.loads(result.output).items() if k not in SINCE}
    for combatant in shown["combatants"]:
        combatant.pop("notes", None)  # each combatant's notes came after it too
        key = combatant.pop("key")  # keys came after them too: made from the log, the same
        assert key.startswith("~") and len(key) == 9, key
    return shown


def eras(tables: Tables, table_id: str) -> list[int]:
    rows = tables.store.db.execute(
        "SELECT payload FROM changes WHERE table_id = ? ORDER BY version", (table_id,)
    ).fetchall()
    return [json.loads(payload).get("era", 1) for (payload,) in rows]


@pytest.mark.parametrize("table", sorted(SHOWN))
def test_an_era_2_table_folds_to_the_state_its_affray_showed(db: Path, table: str) -> None:
    assert set(eras(Tables(Store(db)), Tables(Store(db)).table(table).id)) == {2}
    assert show(db, table) == SHOWN[table]


@pytest.mark.parametrize("table", sorted(DIVERGING))
def test_without_the_era_the_new_rules_break_the_old_log(
    db: Path, table: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The gate is what keeps them: played by round 3's rules, each log's recorded dice
    and answers no longer fit (or its state changes)."""
    monkeypatch.setattr(MidianRuleset, "at_era", lambda self, era: self)
    shown = show(db, table)
    assert shown != SHOWN[table], DIVERGING[table]
    if isinstance(shown, str):
        assert "written by another version of the rules" in shown


def test_era_2_changes_then_era_3_changes_fold_each_by_its_own_rules(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A half-fought old table goes on with today's rules: the new changes are of era 3,
    and a replay from the start (old changes by the old rules, new ones by the new)
    equals the state played live."""
    tables = Tables(Store(db))
    row = tables.table("half-charge")
    assert show(db, "half-charge") == SHOWN["half-charge"]
    tables.run(row, Run(to_end=True), seed=3)
    live = tables.fold(row).state
    assert eras(tables, row.id) == [2] * SHOWN["half-charge"]["version"] + [ERA]
    replayed = Tables(Store(db)).fold(row)
    assert replayed.state == live
    assert [a.inputs.era for a in replayed.done][-2:] == [2, ERA]
    # the old changes need the old rules: by round 3's, the replay fails
    monkeypatch.setattr(MidianRuleset, "at_era", lambda self, era: self)
    with pytest.raises(TableError, match="another version of the rules"):
        Tables(Store(db)).fold(row)


def test_the_rules_of_an_era_are_made_once_and_mst2_has_one_set() -> None:
    midian = Rules.of("midian", {"distance": 40})
    older = midian.at(2)
    assert older is midian.at(2)  # once per era: a fold asks at every change
    assert midian.at(ERA) is midian
    assert isinstance(older.ruleset, MidianRuleset) and older.ruleset.options.fidelity == 2
    assert isinstance(midian.ruleset, MidianRuleset) and midian.ruleset.options.fidelity == 4
    assert older.ruleset.options == replace(midian.ruleset.options, fidelity=2)
    assert midian.at(1).ruleset.options == older.ruleset.options
    third = midian.at(3).ruleset  # round 3's rules for a change logged in era 3
    assert isinstance(third, MidianRuleset) and third.options.fidelity == 3
    mst2 = Rules.of("mst2", {})
    assert mst2.at(2) is mst2


def _pair(**states: Any) -> Encounter[Any, Any]:
    ruleset = MidianRuleset()
    guard, brawler = example("guard"), example("brawler")
    encounter = Encounter(
        (Combatant("Guard", "A", guard), Combatant("Brawler", "A", brawler)),
        {"Guard": ruleset.initial_state(guard), "Brawler": ruleset.initial_state(brawler)},
    )
    for cid, state in states.items():
        encounter = encounter.with_state(cid, state(encounter.states[cid]))
    return encounter


def test_before_round_3_only_serious_wounds_could_be_bound() -> None:
    encounter = _pair(Brawler=lambda s: replace(s, health=replace(s.health, life_points=-2)))
    new = {a.label for a in MidianRuleset().actions(encounter, "Guard")}
    old = {a.label for a in MidianRuleset().at_era(2).actions(encounter, "Guard")}
    assert new - old == {"tend Brawler"}


def test_before_round_3_a_fall_lasted_two_round_ends_and_the_weapon_stayed_set() -> None:
    encounter = _pair(Guard=lambda s: replace(s, set_against_charge=True))  # no turn to come
    new = knock_down(encounter, "Guard").states["Guard"]
    old = knock_down(encounter, "Guard", fidelity=2).states["Guard"]
    assert (new.down_rounds, new.set_against_charge) == (3, False)
    assert (old.down_rounds, old.set_against_charge) == (2, True)


def test_the_fast_engines_refuse_the_old_rules() -> None:
    guard, brawler = example("guard"), example("brawler")
    assert unsupported(guard, brawler) == ()
    assert unsupported(guard, brawler, fidelity=2) == ("the rules before round 3 of fidelity",)
    with pytest.raises(NotModelledError):
        simulate_midian_fast(guard, brawler, 10, seed=1, fidelity=2)
    ruleset = MidianRuleset().at_era(2)
    encounter = Encounter(
        (Combatant("Guard", "A", guard), Combatant("Brawler", "B", brawler)),
        {"Guard": ruleset.initial_state(guard), "Brawler": ruleset.initial_state(brawler)},
    )
    with pytest.raises(NotModelledError, match="the rules before round 3 of fidelity"):
        midian_fast_fights(ruleset, Cursor(encounter), {}, None)
    midian_fast_fights(MidianRuleset(), Cursor(encounter), {}, None)  # today's it plays


def test_a_change_played_now_is_of_the_era_of_now() -> None:
    from affray.table.commands import Inputs
    from affray.table.state import ERA

    assert Inputs().era == ERA == 4
