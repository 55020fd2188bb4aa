"""Bestiary names in every command that takes a sheet (issue 28, item 4): `duel ogre
goblin`, `mst2 odds ogre knight`, `midian attack guard brawler`; a name in both
systems' bestiaries takes the other sheet's system, or asks which."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from affray.cli.main import cli
from affray.errors import SheetError
from affray.sheets import load_sheet
from affray.sheets.combatants import load_pair
from tests.helpers import EXAMPLES


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_a_duel_of_bestiary_names_is_the_duel_of_their_sheets() -> None:
    code, named = run("duel", "knight", "ogre", "--json")
    assert code == 0, named
    code, files = run(
        "duel",
        str(EXAMPLES / "mst2" / "knight.json"),
        str(EXAMPLES / "mst2" / "ogre.toml"),
        "--json",
    )
    assert code == 0
    assert 0 < json.loads(named)["p_a_wins"] < 1
    assert set(json.loads(named)) == set(json.loads(files))


def test_system_commands_take_bestiary_names() -> None:
    assert run("mst2", "odds", "ogre", "knight")[0] == 0
    assert run("midian", "attack", "guard", "brawler", "--seed", "1")[0] == 0
    assert run("duel", "goblin", "wolf", "-n", "2000", "--seed", "1")[0] == 0


def test_a_name_of_both_systems_takes_the_other_sheets_system() -> None:
    knight, ogre = load_pair("knight", "ogre")  # ogre is only MST-2's: the knight too
    assert type(knight) is type(ogre)
    guard, brawler = load_pair("guard", "brawler")  # brawler is only Midian's
    assert type(guard) is type(brawler) and type(guard) is not type(knight)
    assert type(load_sheet("mst2:guard")) is type(knight)
    with pytest.raises(SheetError, match="bestiary of mst2 and midian") as asked:
        load_sheet("guard")
    assert "mst2:guard or midian:guard" in (asked.value.hint or "")


def test_an_unknown_name_lists_the_bestiary() -> None:
    code, said = run("duel", "nosuch", "ogre")
    assert code == 2 and "no sheet file or bestiary creature" in said
    assert "ogre" in said and "Traceback" not in said
    code, said = run("duel", "examples/mst2/nope.toml", "ogre")
    assert code == 2 and "no such file" in said
