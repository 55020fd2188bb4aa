"""One sheet reference → data (issue 27, item 5): a file, a bestiary name (plural and
case forgiven), ``system:name``; the terminal, the tables and the web read them by
the same rule, each in its own words when there is nothing of that name."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from affray.cli.main import cli
from affray.errors import SheetError, TableError
from affray.sheets import bestiary, load_document, load_sheet
from affray.sheets.combatants import (
    AmbiguousReferenceError,
    UnknownReferenceError,
    load_pair,
    names_a_file,
    resolve_reference,
    served_file,
)
from affray.table import Store, Tables
from affray.web.commands import parse
from affray.web.sheets import Shelf
from tests.helpers import EXAMPLES

OGRE = EXAMPLES / "mst2" / "ogre.toml"


# -- files ---------------------------------------------------------------------------


def test_a_sheet_file_is_read_as_it_is_named() -> None:
    for reference in (str(OGRE), OGRE):
        found = resolve_reference(reference)
        assert found.from_file and found.system is None
        assert found.source == str(OGRE)
        assert dict(found.data) == load_document(OGRE)
        assert found.sheet() == load_sheet(OGRE)


def test_a_file_that_is_there_is_a_file_whatever_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ogre").write_text(OGRE.read_text())
    assert names_a_file("ogre") and not names_a_file("ogre", anywhere=False)
    with pytest.raises(SheetError, match="unknown file type") as refused:
        resolve_reference("ogre", "mst2", strict=True)
    assert not isinstance(refused.value, UnknownReferenceError)
    # the web never looks: there it is the bestiary's ogre
    assert not resolve_reference("ogre", "mst2", strict=True, within=()).from_file


def test_a_missing_file_is_said_so_not_looked_up(tmp_path: Path) -> None:
    missing = tmp_path / "knight.toml"
    with pytest.raises(SheetError, match="no such file") as refused:
        resolve_reference(str(missing), "mst2", strict=True)
    assert not isinstance(refused.value, UnknownReferenceError)
    assert str(missing) in refused.value.message


# -- bestiary names --------------------------------------------------------------------


def test_a_bestiary_name_is_its_systems_creature() -> None:
    found = resolve_reference("ogre")
    assert not found.from_file and found.system == "mst2"
    assert found.source == "bestiary mst2:ogre"
    assert (found.data["system"], found.data["name"]) == ("mst2", "Ogre")
    # at a table the table says the system: the creature is named as given
    assert resolve_reference("ogre", "mst2", strict=True).source == "bestiary ogre"


@pytest.mark.parametrize(
    ("reference", "system", "name"),
    [
        ("Goblins", "mst2", "goblin"),
        ("WOLVES", "mst2", "wolf"),
        ("pikemen", "midian", "pikeman"),
        ("Ogre", "mst2", "ogre"),
    ],
)
def test_plurals_and_case_are_forgiven(reference: str, system: str, name: str) -> None:
    found = resolve_reference(reference, system, strict=True)
    assert found.system == system and found.source == f"bestiary {reference}"
    assert found.data == resolve_reference(name, system).data
    assert load_sheet(reference, system) == load_sheet(f"{system}:{name}")


def test_a_name_in_both_bestiaries_asks_which_unless_a_system_says() -> None:
    with pytest.raises(AmbiguousReferenceError, match="bestiary of mst2 and midian") as asked:
        resolve_reference("guard")
    assert asked.value.hint == "say which: mst2:guard or midian:guard"
    assert resolve_reference("guard", "midian").system == "midian"
    assert resolve_reference("guard", "midian").source == "bestiary midian:guard"
    knight, ogre = load_pair("knight", "ogre")
    assert type(knight) is type(ogre)


def test_an_unknown_name_lists_the_bestiary() -> None:
    with pytest.raises(UnknownReferenceError) as refused:
        resolve_reference("dragon", "mst2")
    assert refused.value.message == 'no sheet file or bestiary creature called "dragon"'
    assert refused.value.hint == "give a .toml/.json sheet file, or a bestiary name: " + (
        ", ".join(bestiary.names("mst2"))
    )


# -- system:name -----------------------------------------------------------------------


def test_system_name_of_the_same_system() -> None:
    for strict in (False, True):
        found = resolve_reference("mst2:knight", "mst2", strict=strict)
        assert found.system == "mst2" and found.source == "bestiary mst2:knight"
        assert found.data == resolve_reference("knight", "mst2").data
    assert resolve_reference("midian:guard").system == "midian"  # says which: not asked


def test_system_name_of_another_system() -> None:
    # the terminal reads it in its own system (load_pair's system is only a default)
    assert resolve_reference("midian:knight", "mst2").system == "midian"
    # a table refuses it, naming both systems
    with pytest.raises(SheetError) as refused:
        resolve_reference("midian:knight", "mst2", strict=True)
    assert not isinstance(refused.value, UnknownReferenceError)
    assert refused.value.message == (
        '"midian:knight" is from the midian bestiary, but an MST-2 sheet is wanted'
    )
    assert "give a mst2 bestiary name (archer, " in (refused.value.hint or "")


def test_an_unknown_system_is_part_of_the_name() -> None:
    with pytest.raises(UnknownReferenceError, match='called "elves:knight"'):
        resolve_reference("elves:knight")
    with pytest.raises(UnknownReferenceError, match='called "elves:knight"'):
        resolve_reference("elves:knight", "mst2", strict=True)
    with pytest.raises(UnknownReferenceError, match='called "nosuch"'):
        resolve_reference("mst2:nosuch")


# -- the web's folders -----------------------------------------------------------------


def test_within_folders_only_their_files_are_read(tmp_path: Path) -> None:
    served = tmp_path / "served"
    served.mkdir()
    (served / "brute.toml").write_text(OGRE.read_text())
    elsewhere = tmp_path / "elsewhere.toml"
    elsewhere.write_text(OGRE.read_text())
    folders = (served.resolve(),)

    found = resolve_reference("brute.toml", "mst2", strict=True, within=folders)
    assert found.from_file and found.source == str((served / "brute.toml").resolve())
    assert served_file(str(served / "brute.toml"), folders) == (served / "brute.toml").resolve()
    for outside in (str(elsewhere), "../elsewhere.toml", "nothing.toml", "a\x00.toml"):
        assert served_file(outside, folders) is None
        with pytest.raises(UnknownReferenceError):
            resolve_reference(outside, "mst2", strict=True, within=folders)
    assert resolve_reference("mst2:ogre", "mst2", strict=True, within=folders).system == "mst2"


# -- the table and the web use it ------------------------------------------------------


@pytest.fixture
def tables(tmp_path: Path) -> Tables:
    return Tables(Store(tmp_path / "t.db"))


def test_a_table_takes_system_name_of_its_own_system(tables: Tables) -> None:
    row = tables.new("Ford", "mst2")
    add = tables.joining(row, "mst2:knight", side="x")
    assert (add.combatant, add.side, add.source) == ("Knight", "x", "bestiary mst2:knight")
    assert add.sheet == tables.joining(row, "knight").sheet
    assert tables.joining(row, "ogre").source == "bestiary ogre"  # as before


def test_a_table_refuses_another_systems_creature(tables: Tables) -> None:
    row = tables.new("Ford", "mst2")
    with pytest.raises(SheetError, match="from the midian bestiary, but an MST-2 sheet"):
        tables.joining(row, "midian:knight")
    with pytest.raises(TableError) as unknown:
        tables.joining(row, "dragon")
    assert unknown.value.message == "no sheet file or mst2 bestiary creature called 'dragon'"


def test_table_add_on_the_terminal(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")

    def run(*args: str) -> tuple[int, str]:
        result = CliRunner().invoke(cli, ["table", *args, "--db", db])
        return result.exit_code, result.output

    assert run("new", "Ford", "--system", "mst2")[0] == 0
    code, said = run("add", "ford", "mst2:knight", "--side", "x")
    assert code == 0, said
    code, said = run("add", "ford", "midian:knight", "--side", "x")
    assert code == 2 and "midian bestiary" in said and "mst2" in said
    assert "Traceback" not in said


def test_the_web_takes_system_name_of_the_tables_system(tables: Tables) -> None:
    row = tables.new("Ford", "mst2")
    shelf = Shelf()
    data, source = shelf.sheet("mst2", "mst2:ogre")
    assert source == "bestiary mst2:ogre" and data["name"] == "Ogre"
    assert shelf.sheet("mst2", "ogre")[1] == "bestiary ogre"
    request = parse(tables, row, {"verb": "add", "sheet": "mst2:ogre", "side": "x"}, shelf)
    assert request.command is not None
    with pytest.raises(SheetError, match="from the midian bestiary, but an MST-2 sheet"):
        parse(tables, row, {"verb": "add", "sheet": "midian:knight"}, shelf)
    with pytest.raises(TableError, match="bestiary creature or served sheet file"):
        parse(tables, row, {"verb": "add", "sheet": str(OGRE)}, shelf)


def test_an_uploaded_encounter_may_name_its_systems_creatures(tables: Tables) -> None:
    row = tables.new("Ford", "mst2")

    def upload(member: str) -> dict[str, object]:
        text = f'system = "mst2"\n[[sides]]\nname = "A"\nmembers = ["{member}"]\n'
        return {"verb": "import", "encounter_text": text}

    request = parse(tables, row, upload("mst2:goblin"), Shelf())
    assert [(c.combatant, c.source) for c in request.commands] == [
        ("Goblin", "bestiary mst2:goblin")
    ]
    assert len(parse(tables, row, upload("2 goblins"), Shelf()).commands) == 2
    with pytest.raises(SheetError, match="from the midian bestiary"):
        parse(tables, row, upload("midian:guard"), Shelf())
    with pytest.raises(TableError, match="bestiary creature or served sheet file"):
        parse(tables, row, upload("/etc/passwd"), Shelf())
