"""What a newcomer trips on, said plainly (issue 56, "Messages"): the wrong kind of
file is named as such, a sheet of the other system points to that system's commands,
a seed says what a seed is, steps typed after the table point to --steps, a topic
spelled otherwise is suggested, a missing database folder is an error, the tactics the
help lists are those taken, and a missing .toml whose .json exists says so. Each is
exit 2 with no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import EXAMPLES, run

KNIGHT = str(EXAMPLES / "mst2" / "knight.json")
FORD = str(EXAMPLES / "encounters" / "ford.toml")
GUARD = str(EXAMPLES / "midian" / "guard.toml")
BRAWLER = str(EXAMPLES / "midian" / "brawler.toml")


@pytest.mark.parametrize(
    ("args", "said", "tip"),
    [
        (("fight", KNIGHT), "this is a character sheet, not an encounter file", "affray duel"),
        (("duel", FORD, "ogre"), "this is an encounter file, not a character sheet", "fight"),
        (("explore", KNIGHT), "this is a character sheet, not an exploration", "explorer.md"),
        (("day", FORD), "this is an encounter file, not a day of fights", "design.md"),
        (("mst2", "attack", GUARD, BRAWLER), "is a Midian sheet, not an MST-2 one", "midian"),
        (("duel", "mst2:knight", "ogre", "--seed", "abc"), "a seed is a whole number", ""),
        (
            ("duel", str(EXAMPLES / "mst2" / "knight.toml"), "ogre"),
            "no such file",
            "there is knight.json beside it",
        ),
    ],
)
def test_each_mistake_is_said_plainly(args: tuple[str, ...], said: str, tip: str) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert said in result.stderr and tip in result.stderr
    assert "Traceback" not in result.output + result.stderr


def test_the_table_verbs_say_how(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    assert run("table", "new", "Ford", "--system", "midian", "--db", db).exit_code == 0
    undo = run("table", "undo", "ford", "50", "--db", db)
    assert undo.exit_code == 2 and "affray table undo ford --steps 50" in undo.stderr
    missing = run("table", "list", "--db", str(tmp_path / "nope" / "t.db"))
    assert missing.exit_code == 2 and "its folder" in missing.stderr
    assert "does not exist" in missing.stderr
    empty = run("table", "list", "--db", str(tmp_path / "other.db"))  # a folder that is there
    assert empty.exit_code == 0 and "No tables" in empty.stdout
    strongest = run("table", "add", "ford", GUARD, "--tactics", "strongest", "--db", db)
    assert strongest.exit_code == 2 and "'focus'" in strongest.stderr
    focus = run("table", "add", "ford", GUARD, "--tactics", "focus", "--db", db)
    assert focus.exit_code == 0, focus.output
    assert "strongest" not in run("table", "add", "--help").stdout
    run("table", "add", "ford", BRAWLER, "--side", "rowdies", "--db", db)
    run("table", "start", "ford", "--seed", "1", "--db", db)
    shown = run("table", "show", "ford", "--json", "--db", db).stdout
    actor = "Brawler" if '"turn": "Brawler"' in shown else "Guard"
    defense = run("table", "act", "ford", actor, "hold", "--choose", "defense=parry", "--db", db)
    assert defense.exit_code == 2 and "did you mean 'defence'?" in defense.stderr
