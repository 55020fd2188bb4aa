"""Validation messages in the words of the sheet: where (side, member, key, counted
from 1), what (plain words, not pydantic's), the value as the file writes it, and a
tip that fits the problems found."""

from __future__ import annotations

import copy
import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from affray.errors import AffrayError, SheetError
from affray.quoting import as_written, quoted
from affray.sheets import encounter_from_data, load_encounter, load_sheet, sheet_from_data
from tests.helpers import EXAMPLES, run

MST2 = {"system": "mst2", "name": "X", "hit_dice": "1d6"}


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_member_table_with_a_bad_count_is_one_problem_said_in_the_files_words(
    tmp_path: Path,
) -> None:
    path = write(
        tmp_path,
        "fight.toml",
        'system = "mst2"\n[[sides]]\nname = "A"\n[[sides.members]]\ncount = true\nsheet = "x"\n'
        '[[sides]]\nname = "B"\nmembers = ["goblin"]\n',
    )
    result = run("fight", path)
    assert result.exit_code == 2
    assert result.output == (
        f"error: {path}: side 1 (\"A\"), member 1, key 'count': should be a whole number "
        "(got true)\n"
        'Tip: write whole numbers without quotes or a decimal point: 3, not "3" or 3.0; '
        "docs/encounters.md (`affray docs encounters`) lists every key and what it takes\n"
    )


def test_the_problems_of_an_encounter_file_are_listed_by_side_and_member(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "fight.toml",
        'system = "mst2"\nmax_rounds = 0\n'
        '[[sides]]\nname = "Wolves"\nmembers = [1, "goblin", { sheet = "orc", count = 0 }]\n'
        '[[sides]]\nname = "B\\u001b[31m"\nmembers = []\n',
    )
    with pytest.raises(SheetError) as caught:
        load_encounter(path)
    assert caught.value.message == (
        f"{path}: 5 problems:\n"
        "  key 'max_rounds': should be at least 1 (got 0)\n"
        '  side 1 ("Wolves"), member 1: should be a sheet file or a bestiary creature such as '
        '"2 goblins", or a table such as { sheet = "goblin", count = 2 } (got 1)\n'
        "  side 1 (\"Wolves\"), member 3, key 'count': should be at least 1 (got 0)\n"
        "  side 2, key 'name': contains a control character or a line break; names are plain "
        'text (got "B\\u001b[31m")\n'
        "  side 2, key 'members': needs at least 1 entry (got 0)"
    )
    assert caught.value.hint == (
        'a table is { key = value, ... } in TOML, {"key": value, ...} in JSON; '
        "docs/encounters.md lists every key and what it takes"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'system = "mst2"\n[[sides]]\nname = "A"\nmembers = ["goblin"]\n',
            "key 'sides': needs at least 2 entries (got 1)",
        ),
        ('system = "mst2"\nsides = "A"\n', "key 'sides': should be a list (got \"A\")"),
        (
            'system = "mst2"\nsides = ["A", true]\n',
            '2 problems:\n  side 1: should be a table (got "A")\n'
            "  side 2: should be a table (got true)",
        ),
        (
            'system = "mst2"\n[[sides]]\nname = "A"\nmembers = ["goblin"]\nretreat_at = 0\n'
            '[[sides]]\nname = "B"\nmembers = ["orc"]\n',
            "side 1 (\"A\"), key 'retreat_at': should be at least 1 (got 0)",
        ),
        (
            'system = "mst2"\n[[sides]]\nname = "A"\nmembers = ["goblin"]\n'
            '[[sides]]\nname = "B"\nmembers = [{ sheet = "orc", name = "Boss", role = "x" }]\n',
            'side 2 ("B"), member 1, key \'role\': should be "fighter" or "archer" (got "x")',
        ),
        (
            'system = "mst2"\n[[sides]]\nname = "A"\nmembers = ["goblin"]\n'
            '[[sides]]\nname = "B"\nmembers = [{ sheet = "orc", surprised = true }]\n',
            "side 2 (\"B\"), member 1, key 'surprised': is a Midian option, but this is an "
            "MST-2 encounter",
        ),
        (
            'system = "mst2"\n[[sides]]\nname = "A"\nmembers = ["0 goblins"]\n'
            '[[sides]]\nname = "B"\nmembers = ["orc"]\n',
            'side 1 ("A"), member 1: count 0 is not 1 to 200',
        ),
    ],
)
def test_encounter_messages(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, "fight.toml", text)
    with pytest.raises(SheetError) as caught:
        load_encounter(path)
    assert caught.value.message == f"{path}: {message}"


@pytest.mark.parametrize(
    ("changes", "message", "hint"),
    [
        (
            {"skill": True},
            "key 'skill': should be a whole number (got true)",
            'write whole numbers without quotes or a decimal point: 3, not "3" or 3.0',
        ),
        (
            {"skill": {"a": 1, "b": [1, None], "c": "x", "d": 4}},
            'key \'skill\': should be a whole number (got {"a": 1, "b": [1, null], "c": "x", …})',
            None,
        ),
        ({"skill": 101}, "key 'skill': should be at most 100 (got 101)", None),
        ({"evasion_bonus": -21}, "key 'evasion_bonus': should be at least -20 (got -21)", None),
        (
            {"shield": None},
            "key 'shield': should be true or false (got null)",
            "write true or false, without quotes",
        ),
        ({"name": 7}, "key 'name': should be text in quotes (got 7)", "put text in double quotes"),
        ({"name": "  "}, "key 'name': is blank; give a name (got \"  \")", None),
        ({"name": "x" * 81}, "key 'name': should be at most 80 characters long (got 81)", None),
        ({"hit_dice": ""}, "key 'hit_dice': should not be empty", None),
        (
            {"grip": "both"},
            'key \'grip\': should be "one-handed" or "two-handed" (got "both")',
            None,
        ),
        (
            {"weapon": 3},
            "key 'weapon': should be a catalog weapon name or an inline table (got 3)",
            "a table is { key = value, ... } in TOML",
        ),
        (
            {"weapon": {"name": "G", "reach": "mid", "power": "1d6", "hands": 3}},
            "key 'weapon.hands': should be 1 or 2 (got 3)",
            None,
        ),
        (
            {"missile": {"name": "J", "power": 8}},
            "key 'missile.power': should be text in quotes (got 8)",
            None,
        ),
        (
            {"colour": "red"},
            "key 'colour': unknown key; allowed keys are: system, name, skill, weapon, grip, "
            "armor, shield, evasion_bonus, hit_dice, role, species, tenacity, hit_dice_bonus, "
            "extra_power, missile",
            "check the key's spelling",
        ),
        ({"armor": "kevlar"}, "key 'armor': unknown armor \"kevlar\"", None),
        ({"system": True}, "key 'system': unknown system true", None),
    ],
)
def test_mst2_sheet_messages(changes: dict[str, Any], message: str, hint: str | None) -> None:
    with pytest.raises(SheetError) as caught:
        sheet_from_data({**MST2, **changes})
    assert caught.value.message == message
    if hint is not None:
        assert caught.value.hint is not None and caught.value.hint.startswith(hint)


def test_midian_sheet_problems_are_listed_with_a_tip_for_their_kinds(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "m.toml",
        'system = "midian"\nname = "G"\nhit_points = 1\nlife_points = 0\n'
        "attributes = { strength = 1, agility = 1, wits = 1, willpower = 1, stamina = 0 }\n"
        'retests = ["Luck", 2]\nresistances = { fire = "a" }\nexperience = "new"\n'
        'weapon = { name = "x", damage = "1d6", type = "hacking", hands = 3, reach = 1 }\n',
    )
    with pytest.raises(SheetError) as caught:
        load_sheet(path)
    assert caught.value.message == (
        f"{path}: 7 problems:\n"
        "  key 'attributes.stamina': should be at least 1 (got 0)\n"
        "  key 'resistances.fire': should be a whole number (got \"a\")\n"
        "  key 'life_points': should be at least 1 (got 0)\n"
        "  key 'weapon.hands': should be 1 or 2 (got 3)\n"
        '  key \'weapon.reach\': should be "close", "mid" or "far" (got 1)\n'
        '  key \'experience\': should be "never seen", "observed" or "veteran" (got "new")\n'
        "  key 'retests', entry 2: should be text in quotes (got 2)"
    )
    assert caught.value.hint == (
        'write whole numbers without quotes or a decimal point: 3, not "3" or 3.0; '
        'put text in double quotes: "Guard"; docs/sheets.md lists every key and what it takes'
    )


def test_a_long_list_of_problems_is_cut_short() -> None:
    data = {**MST2, **{f"key{i}": i for i in range(20)}}
    with pytest.raises(SheetError) as caught:
        sheet_from_data(data)
    lines = caught.value.message.splitlines()
    assert lines[0] == "20 problems:" and lines[-1] == "  … and 8 more" and len(lines) == 14


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (True, "true"),
        (None, "null"),
        ("x", '"x"'),
        ("a\nb\x1b[0m\u2028", '"a\\nb\\u001b[0m\\u2028"'),
        ("y" * 50, '"' + "y" * 39 + '…"'),
        ([1, 2, 3, 4], "[1, 2, 3, …]"),
        ({"count": True, "sheet": "x"}, '{"count": true, "sheet": "x"}'),
        ({"a": {"b": {"c": 1}}}, '{"a": {"b": {…}}}'),
        (2.5, "2.5"),
        (float("inf"), "inf"),
        (10**100, "a number 101 digits long"),
    ],
)
def test_values_are_shown_as_a_file_writes_them(value: object, shown: str) -> None:
    assert as_written(value) == shown


def test_quoted_text_never_carries_a_control_code() -> None:
    assert quoted("\x1b[31mred\x7f\x9b") == '"\\u001b[31mred\\u007f\\u009b"'


# --- no message, for any bad value in any example file, talks Python ------------------

PYTHON_TALK = re.compile(
    r"NoneType|MemberTable|SideTable|EncounterFile|WeaponTable|MissileTable|Midian\w*Table"
    r"|Mst2Sheet|MidianSheet|MidianAttributes|\bTrue\b|\bFalse\b|\bNone\b|after validation"
    r"|Input should|valid integer|valid string|Value error|dictionary|instance of|\{'|\['"
    r"|\.\d+\.|\.str\b|'table'|\bint\b|\bstr\b|\bbool\b"
)
BAD_VALUES: list[object] = [
    True,
    False,
    None,
    "x",
    "",
    3,
    -5,
    2.5,
    [],
    [1, True],
    {},
    {"a": None},
    10**6,
    10**40,
    "\x1b[31m",
    float("inf"),
]


def mutations(data: Any, depth: int = 0) -> Iterator[Any]:
    """``data`` with one value (at any depth) replaced by each bad value."""
    if isinstance(data, dict):
        for key, value in data.items():
            for bad in BAD_VALUES:
                yield {**data, key: bad}
            for changed in mutations(value, depth + 1):
                yield {**data, key: changed}
    elif isinstance(data, list):
        for index, value in enumerate(data[:2]):
            for bad in BAD_VALUES[:8]:
                yield [*data[:index], bad, *data[index + 1 :]]
            for changed in mutations(value, depth + 1):
                yield [*data[:index], changed, *data[index + 1 :]]


def example_files() -> list[Path]:
    return sorted(p for p in EXAMPLES.rglob("*") if p.suffix in (".toml", ".json"))


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.name)
def test_no_message_about_any_bad_value_talks_python(path: Path) -> None:
    text = path.read_text()
    data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    said: list[str] = []
    for changed in mutations(data):
        try:
            if "sides" in data:
                encounter_from_data(copy.deepcopy(changed), path.name, base=path.parent)
            else:
                sheet_from_data(changed, path.name)
        except AffrayError as error:
            said.append(str(error).replace(path.name, "FILE"))
    assert len(said) > 50
    for message in said:
        assert not PYTHON_TALK.search(message), message
        assert "\x1b" not in message


def test_a_file_of_wrong_types_says_so_through_the_console_script(tmp_path: Path) -> None:
    bad = {**MST2, "skill": True, "shield": None, "weapon": {"name": 1}, "missile": [1]}
    path = write(tmp_path, "bad.json", json.dumps(bad))
    result = run("duel", path, path)
    assert result.exit_code == 2
    assert not PYTHON_TALK.search(result.output.replace(path, "FILE")), result.output
    assert result.output.splitlines()[-1].startswith("Tip: ")


def test_every_problem_of_a_sheet_at_once_with_what_was_meant() -> None:
    """Issue 41, item 4: a weapon, an armour and a role misspelt were three runs; now
    one, each with the name it was close to. A key misspelt says which it meant."""
    with pytest.raises(SheetError) as caught:
        sheet_from_data(
            {"system": "mst2", "name": "X", "weapon": "swrod", "armor": "lether", "role": "fightr"},
            "bad.toml",
        )
    message = caught.value.message
    assert message.startswith("bad.toml: 3 problems:")
    assert 'key \'weapon\': unknown weapon "swrod" (did you mean "sword"?)' in message
    assert 'key \'armor\': unknown armor "lether" (did you mean "leather"?)' in message
    assert 'key \'role\': unknown role or species "fightr" (did you mean "fighter"?)' in message
    with pytest.raises(SheetError) as keys:
        sheet_from_data({**MST2, "skil": 3, "armour": "none"}, "bad.toml")
    assert "key 'skil': unknown key (did you mean \"skill\"?)" in keys.value.message
    assert "key 'armour': unknown key (did you mean \"armor\"?)" in keys.value.message
    with pytest.raises(SheetError) as far:  # nothing close: no guess
        sheet_from_data({**MST2, "weapon": "trebuchet"}, "bad.toml")
    assert "did you mean" not in far.value.message
