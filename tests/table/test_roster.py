"""The roster rules of a table (issue 27, item 5): the sheet a joining combatant
reads, the name it gets, its id, and what a duplicate is called; one rule each, and
``Tables`` keeps to them."""

from __future__ import annotations

from pathlib import Path

import pytest

from affray.errors import RulesError, SheetError, TableError
from affray.sheets import load_document
from affray.sheets.encounters import RosterEntry
from affray.table import Store, Tables, roster
from affray.table.commands import Add
from tests.helpers import EXAMPLES

OGRE = EXAMPLES / "mst2" / "ogre.toml"


def ogre() -> tuple[dict[str, object], str]:
    return load_document(OGRE), str(OGRE)


# -- the sheet -------------------------------------------------------------------------


def test_the_sheet_of_a_reference_in_a_tables_words() -> None:
    assert roster.sheet("mst2", str(OGRE)).source == str(OGRE)
    assert roster.sheet("mst2", "ogres").source == "bestiary ogres"
    assert roster.sheet("mst2", "mst2:ogre").source == "bestiary mst2:ogre"
    with pytest.raises(TableError) as refused:
        roster.sheet("midian", "ogre")
    assert refused.value.message == "no sheet file or midian bestiary creature called 'ogre'"
    assert (refused.value.hint or "").startswith("give a .toml/.json sheet, or one of: archer")
    with pytest.raises(SheetError, match="is from the mst2 bestiary, but a Midian sheet"):
        roster.sheet("midian", "mst2:ogre")


# -- the name, the id, a duplicate -----------------------------------------------------


def test_a_name_asked_for_is_plain_text() -> None:
    assert roster.given_name(None) is None
    assert roster.given_name("  Big   Ogre ") == "Big Ogre"
    with pytest.raises(TableError, match="--as: the name is blank"):
        roster.given_name("   ")
    with pytest.raises(TableError, match="--as: the name contains a control character"):
        roster.given_name("Og\x1bre")


def test_the_name_is_the_one_asked_for_else_the_sheets() -> None:
    data, source = ogre()
    assert roster.name_of("Grug", data, source) == "Grug"
    assert roster.name_of(None, data, source) == "Ogre"
    # the sheet is read only when its name is wanted
    assert roster.name_of("Grug", {"system": "nonsense"}, "x") == "Grug"
    with pytest.raises(SheetError, match="unknown system"):
        roster.name_of(None, {"system": "nonsense"}, "x")


def test_a_duplicate_alone_is_numbered_from_two() -> None:
    assert roster.numbered("Ogre", []) == "Ogre"
    assert roster.numbered("Ogre", ["Knight"]) == "Ogre"
    assert roster.numbered("Ogre", ["ogre"]) == "Ogre 2"
    assert roster.numbered("Ogre", ["Ogre", "OGRE 2", "Ogre 4"]) == "Ogre 3"


def test_the_id_is_the_name_numbered_unless_it_was_asked_for() -> None:
    assert roster.newcomer_id("Ogre", False, ["Ogre"]) == "Ogre 2"
    assert roster.newcomer_id("Ogre", True, ["Ogre"]) == "Ogre"  # the rules refuse it


def test_a_group_is_numbered_as_a_fight_numbers_it() -> None:
    assert roster.group_ids(["Goblin", "Goblin", "Ogre"], []) == ["Goblin 1", "Goblin 2", "Ogre"]
    assert roster.group_ids(["Goblin", "Goblin"], ["GOBLIN 1"]) == ["Goblin 1'", "Goblin 2"]
    assert roster.group_ids(["Ogre"], ["ogre"]) == ["Ogre'"]


def test_a_newcomer() -> None:
    data, source = ogre()
    newcomer = roster.Newcomer.of(data, source)
    assert (newcomer.name, newcomer.asked) == ("Ogre", False)
    assert newcomer.add(["Ogre"]) == Add("Ogre 2", "Ogre 2", source, data)
    named = roster.Newcomer.of(data, source, " Grug ")
    assert named.add(["Grug"], side="hill", tactics="weakest", player=True) == Add(
        "Grug", "hill", source, data, "weakest", True
    )
    # a bad sheet is said before a bad name
    with pytest.raises(SheetError, match="unknown system"):
        roster.Newcomer.of({"system": "nonsense"}, "x", "\x1b")


def test_an_encounters_members(tmp_path: Path) -> None:
    entries = [
        RosterEntry("Hill", "goblins", 2, None, "nearest", {"role": "archer", "zzz": 1}),
        RosterEntry("Hill", "ogre.toml", 1, "Grug", "focus", {}),
    ]
    (tmp_path / "ogre.toml").write_text(OGRE.read_text())
    adds = roster.members(entries, "mst2", "here", tmp_path, ["Goblin 1"], {"role"})
    assert [(a.combatant, a.side, a.source, a.tactics) for a in adds] == [
        ("Goblin 1'", "Hill", "bestiary goblins", "nearest"),
        ("Goblin 2", "Hill", "bestiary goblins", "nearest"),
        ("Grug", "Hill", str(tmp_path / "ogre.toml"), "focus"),
    ]
    assert adds[0].tactics_keys == {"role": "archer"} and adds[2].tactics_keys == {}
    with pytest.raises(SheetError, match="is a sheet file, which an uploaded encounter"):
        roster.members(entries, "mst2", "uploaded", None, [], {"role"})


# -- Tables keeps to them --------------------------------------------------------------


@pytest.fixture
def tables(tmp_path: Path) -> Tables:
    return Tables(Store(tmp_path / "t.db"))


def test_tables_joining_numbers_a_sheets_name_and_keeps_one_asked_for(tables: Tables) -> None:
    row = tables.new("Ford", "mst2")
    first = tables.joining(row, "ogre")
    assert (first.combatant, first.side, first.source) == ("Ogre", "Ogre", "bestiary ogre")
    tables.run(row, first)
    assert tables.joining(row, str(OGRE), side="hill").combatant == "Ogre 2"
    tables.run(row, tables.joining(row, "ogre"))
    assert tables.joining(row, "OGRE").combatant == "Ogre 3"
    asked = tables.joining(row, "ogre", name="Ogre")
    assert asked.combatant == "Ogre"
    with pytest.raises(RulesError, match="already a combatant called 'Ogre'"):
        tables.run(row, asked)
    with pytest.raises(TableError, match="--as: the name is blank"):
        tables.joining(row, "ogre", name=" ")


def test_tables_importing_uses_the_group_rule(tables: Tables) -> None:
    row = tables.new("Ford", "mst2")
    tables.run(row, tables.joining(row, "goblin", name="Goblin 1"))
    data = {
        "system": "mst2",
        "sides": [{"name": "Hill", "members": ["2 goblins", "mst2:ogre"]}],
    }
    importing = tables.importing(row, data, "upload", None)
    assert [(c.combatant, c.source) for c in importing.commands] == [
        ("Goblin 1'", "bestiary goblins"),
        ("Goblin 2", "bestiary goblins"),
        ("Ogre", "bestiary mst2:ogre"),
    ]
    with pytest.raises(SheetError, match="is a midian encounter, but this table plays mst2"):
        tables.importing(row, {**data, "system": "midian"}, "upload", None)
