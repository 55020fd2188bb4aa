"""Sheets: the SPEC's keys, TOML and JSON, and errors that name file, key and fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from affray.errors import SheetError
from affray.rulesystems.mst2 import Fighter, Grip, HitDice, Reach
from affray.sheets import MAX_FILE_BYTES, load_sheet, parse_document, sheet_from_data
from tests.helpers import EXAMPLES

BASE = {"system": "mst2", "name": "X", "hit_dice": "1d6"}


def test_every_example_loads() -> None:
    paths = sorted((EXAMPLES / "mst2").iterdir())
    assert len(paths) >= 5
    for path in paths:
        assert isinstance(load_sheet(path), Fighter)


def test_spec_sheet_example(tmp_path: Path) -> None:
    path = tmp_path / "sellsword.toml"
    path.write_text(
        """
system = "mst2"
name = "Sellsword"
skill = 3
weapon = { name = "Greatsword", reach = "mid", power = "3d6", hands = 2 }
armor = "chain mail"
shield = false
evasion_bonus = 0
hit_dice = "2d10+1"
extra_power = "1d6"
missile = "long bow"
"""
    )
    fighter = load_sheet(path)
    assert fighter.weapon.name == "Greatsword" and fighter.wielded is Grip.TWO_HANDED
    assert fighter.melee_power == (6, 6, 6, 6)
    assert fighter.hit_dice == HitDice((10, 10), 1)
    assert fighter.missile is not None and fighter.missile.power == (10, 10)


def test_json_sheets_use_the_same_keys(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps({**BASE, "weapon": "Battle Axe", "grip": "two-handed"}))
    assert load_sheet(path).weapon_power == (8, 8)


def test_hit_dice_from_role_and_tenacity() -> None:
    data = {
        "system": "mst2",
        "name": "V",
        "role": "Fighter",
        "tenacity": "veteran",
        "hit_dice_bonus": 1,
    }
    assert sheet_from_data(data).hit_dice == HitDice((10, 10), 1)
    species = {"system": "mst2", "name": "O", "species": "ogre"}
    assert sheet_from_data(species).hit_dice == HitDice((12,))


def test_defaults() -> None:
    fighter = sheet_from_data(BASE)
    assert (fighter.skill, fighter.weapon.name, fighter.armor.name, fighter.shield) == (
        0,
        "Unarmed",
        "None",
        False,
    )


def test_versatile_inline_weapon() -> None:
    weapon = {"name": "Bastard sword", "reach": "mid", "power": "2d6", "two_handed_power": "2d8"}
    one = sheet_from_data({**BASE, "weapon": weapon})
    two = sheet_from_data({**BASE, "weapon": weapon, "grip": "two-handed"})
    assert (one.weapon_power, two.weapon_power, one.reach) == ((6, 6), (8, 8), Reach.MID)


@pytest.mark.parametrize(
    ("changes", "key", "words"),
    [
        ({"skill": -1}, "skill", "should be at least 0 (got -1)"),
        ({"skill": "3"}, "skill", 'should be a whole number (got "3")'),
        ({"skill": 2.5}, "skill", "should be a whole number (got 2.5)"),
        ({"shield": "yes"}, "shield", 'should be true or false (got "yes")'),
        ({"weapon": "laser"}, "weapon", 'unknown weapon "laser"'),
        ({"weapon": 5}, "weapon", "catalog weapon name or an inline table"),
        (
            {"weapon": {"name": "G", "reach": "near", "power": "3d6"}},
            "weapon.reach",
            '"close", "mid" or "far" (got "near")',
        ),
        ({"weapon": {"name": "G", "reach": "mid", "power": "3d6+2"}}, "weapon.power", "dice only"),
        (
            {"weapon": {"name": "G", "reach": "mid", "power": "3d6", "edge": 1}},
            "weapon.edge",
            "unknown key",
        ),
        ({"weapon": {"name": "G", "reach": "mid"}}, "weapon.power", "is required"),
        ({"weapon": "spear", "grip": "two-handed"}, "grip", "cannot be wielded two-handed"),
        ({"weapon": "sword", "grip": "two-handed", "shield": True}, "shield", "no hand free"),
        ({"weapon": "polearm", "shield": True}, "shield", "needs both hands"),
        ({"grip": "three-handed"}, "grip", '"one-handed" or "two-handed"'),
        ({"armor": "kevlar"}, "armor", "unknown armor"),
        ({"colour": "red"}, "colour", "allowed keys are: system, name"),
        ({"role": "fighter"}, "hit_dice", "either hit_dice or role"),
        ({"hit_dice": "2d6+"}, "hit_dice", "expression ends"),
        ({"hit_dice": "7"}, "hit_dice", "one or more dice"),
        ({"extra_power": "1d6+1"}, "extra_power", "dice only"),
        ({"missile": "rock"}, "missile", "unknown missile"),
        ({"missile": {"name": "Javelin"}}, "missile.power", "is required"),
        ({"name": ""}, "name", "should not be empty"),
        ({"system": "dnd"}, "system", "unknown system"),
    ],
)
def test_errors_name_the_key_and_the_problem(
    changes: dict[str, object], key: str, words: str
) -> None:
    with pytest.raises(SheetError) as caught:
        sheet_from_data({**BASE, **changes}, "bad.toml")
    assert caught.value.key == key
    assert caught.value.path == "bad.toml"
    assert words in str(caught.value)
    assert str(caught.value).startswith(f"bad.toml: key '{key}'")


def test_missing_hit_dice_and_name() -> None:
    with pytest.raises(SheetError, match="hit dice are missing"):
        sheet_from_data({"system": "mst2", "name": "X"})
    with pytest.raises(SheetError, match="key 'name': is required"):
        sheet_from_data({"system": "mst2", "hit_dice": "1d6"})


def test_several_problems_are_reported_together() -> None:
    with pytest.raises(SheetError) as caught:
        sheet_from_data({**BASE, "skill": -2, "shield": 1}, "two.toml")
    assert "2 problems" in str(caught.value)
    assert "key 'skill'" in str(caught.value) and "key 'shield'" in str(caught.value)


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("a.toml", 'system = "mst2"\nname = ', "not valid TOML"),
        ("a.json", '{"system": ', "not valid JSON"),
        ("a.json", "[1, 2]", "holds a list, not a table"),
        ("a.json", "null", "holds null, not a table"),
        ("a.json", '{"system": "mst2", "name": "A", "name": "B"}', '"name" appears twice'),
        ("a.toml", "a = " + "[" * 100 + "]" * 100, "nested more than"),
        ("a.json", "[" * 100_000, "nested more than"),
        ("a.yaml", "system: mst2", "unknown file type"),
    ],
)
def test_unreadable_files(tmp_path: Path, name: str, content: str, words: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(SheetError, match=words) as caught:
        load_sheet(path)
    assert str(path) in str(caught.value)


def test_size_cap_and_encoding(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (MAX_FILE_BYTES + 10))
    with pytest.raises(SheetError, match="limit is"):
        load_sheet(big)
    latin = tmp_path / "latin.toml"
    latin.write_bytes('name = "Jos\xe9"'.encode("latin-1"))
    with pytest.raises(SheetError, match="not UTF-8"):
        load_sheet(latin)
    with pytest.raises(SheetError, match="no such file"):
        load_sheet(tmp_path / "missing.toml")
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    with pytest.raises(SheetError, match="not a file"):
        load_sheet(folder)


def test_parse_document_rejects_unknown_kinds() -> None:
    with pytest.raises(SheetError, match="unknown document kind"):
        parse_document("", "yaml")


@pytest.mark.parametrize(
    ("name", "content"),
    [
        (
            "huge.json",
            '{"system": "mst2", "name": "X", "hit_dice": "1d6", "skill": ' + "9" * 5000 + "}",
        ),
        (
            "huge.toml",
            'system = "mst2"\nname = "X"\nhit_dice = "1d6"\nskill = ' + "9" * 5000 + "\n",
        ),
    ],
)
def test_enormous_numbers_are_a_clear_error(tmp_path: Path, name: str, content: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(SheetError) as caught:
        load_sheet(path)
    line = 1 if name.endswith(".json") else 4
    assert caught.value.message == f"{path}: line {line}: a number 5,000 digits long is too large"
    assert "4300" not in str(caught.value) and "small whole numbers" in str(caught.value)


def test_a_long_number_that_python_reads_is_shown_by_its_length() -> None:
    with pytest.raises(SheetError) as caught:
        sheet_from_data({**BASE, "skill": 10**4000})
    assert (
        caught.value.message
        == "key 'skill': should be at most 100 (got a number 4,001 digits long)"
    )


def test_a_byte_order_mark_is_harmless(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({**BASE, "skill": 2}).encode())
    assert load_sheet(path).skill == 2


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("\u001b[31mRed", "control character"),
        ("Evil\nKnight attacks", "line break"),
        ("   ", "is blank"),
    ],
)
def test_names_are_plain_text(name: str, words: str) -> None:
    with pytest.raises(SheetError) as caught:
        sheet_from_data({**BASE, "name": name}, "named.toml")
    assert caught.value.key == "name" and words in str(caught.value)
    assert "\x1b" not in caught.value.message.replace("\\x1b", "")  # shown escaped, not raw


def test_a_name_keeps_its_words_and_drops_stray_spaces() -> None:
    assert sheet_from_data({**BASE, "name": "  Sir   Bors "}, "named.toml").name == "Sir Bors"
