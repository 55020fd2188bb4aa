"""Who gave each face: every face a change logs says it was typed on the game master's
side, typed on a player's link, or rolled by affray (and at whose asking), through
every door (SPEC part 5, "Who rolled each face"; issues 49 and 50)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from affray.errors import InputNeededError
from affray.table import Store, Tables
from affray.table.commands import Act, Allow, Start, inputs_from_data
from affray.table.given import AFFRAY, GM, PLAYER, Given, faces_from_data
from affray.table.journal import entries
from affray.table.submission import Author, Submission, submit

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "mst2"


def knights_turn(db: Path) -> tuple[Tables, Any]:
    """A Knight (a player's) and a Goblin, the Knight's turn, players choosing."""
    tables = Tables(Store(db))
    row = tables.new("Yard", "mst2")
    for sheet, side, player in (("knight.json", "heroes", True), ("goblin.toml", "foes", False)):
        tables.run(row, tables.joining(row, str(EXAMPLES / sheet), side=side, player=player))
    tables.run(row, Allow({"players_choose": True}))
    tables.run(row, Start(), seed=1)
    if tables.fold(row).state.current != "Knight":
        tables.run(row, Act("Goblin", "hold"))
    return tables, row


def last_faces(tables: Tables, row: Any) -> list[dict[str, Any]]:
    item = entries(tables.store.changes(row.id), tables.fold(row))[-1]
    faces: list[dict[str, Any]] = item["faces"]
    return faces


KNIGHT = Author(PLAYER, "Knight")


def test_a_phones_faces_are_the_players_and_the_game_masters_answer_is_theirs(
    tmp_path: Path,
) -> None:
    tables, row = knights_turn(tmp_path / "t.db")
    # the Knight's d20 and power dice typed on the phone; the Goblin's shock die waits
    with pytest.raises(InputNeededError, match="Goblin's shock"):
        submit(
            tables, row, Submission("act", Act("Knight", "attack"), rolls=(20, 6, 6), author=KNIGHT)
        )
    submit(tables, row, Submission("answer", rolls=(1,)))  # the game master types it
    faces = last_faces(tables, row)
    assert [(f["face"], f["by"]) for f in faces] == [
        (20, PLAYER),
        (6, PLAYER),
        (6, PLAYER),
        (1, GM),
    ]
    assert all("for" not in f for f in faces)
    assert faces[0]["die"].startswith("d20 for Knight's attack")
    assert faces[3]["die"].startswith("d") and "Goblin's shock" in faces[3]["die"]


def test_a_roll_it_is_affrays_at_the_askers_word(tmp_path: Path) -> None:
    tables, row = knights_turn(tmp_path / "t.db")
    with pytest.raises(InputNeededError, match="Goblin's shock"):
        submit(
            tables, row, Submission("act", Act("Knight", "attack"), rolls=(20, 6, 6), author=KNIGHT)
        )
    # the game master's page: "Roll it" for the Goblin's die
    submit(tables, row, Submission("answer", rolls=(2,), rolled_one=True))
    faces = last_faces(tables, row)
    assert [f["by"] for f in faces] == [PLAYER, PLAYER, PLAYER, AFFRAY]
    assert faces[3]["for"] == GM


def test_a_players_roll_for_me_is_affrays_for_the_player(tmp_path: Path) -> None:
    tables, row = knights_turn(tmp_path / "t.db")
    # the phone sends no face: the Knight's d20 waits on it
    with pytest.raises(InputNeededError):
        submit(tables, row, Submission("act", Act("Knight", "attack"), author=KNIGHT))
    waiting = tables.waiting(row)
    assert waiting is not None and waiting["who"] == "Knight"
    with pytest.raises(InputNeededError):  # a miss would end it; a 20 hits: more dice
        submit(
            tables,
            row,
            Submission("answer", rolls=(20,), rolled_one=True, author=KNIGHT),
        )
    submit(tables, row, Submission("answer", rolls=(6, 6, 1), roll_rest=True))
    faces = last_faces(tables, row)
    assert (faces[0]["by"], faces[0]["for"]) == (AFFRAY, PLAYER)
    assert [f["by"] for f in faces[1:4]] == [GM, GM, GM]


def test_a_command_with_no_faces_is_affrays_for_whoever_asked(tmp_path: Path) -> None:
    tables, row = knights_turn(tmp_path / "t.db")
    done = submit(tables, row, Submission("act", Act("Knight", "attack", "Goblin"), seed=3))
    assert done.faces and all(f["by"] == AFFRAY and f["for"] == GM for f in done.faces)
    assert done.rolled == done.faces
    assert last_faces(tables, row) == list(done.faces)


def test_a_log_older_than_the_marks_reads_as_it_said() -> None:
    """Faces as plain numbers, with the places affray said it rolled: those are
    affray's (for the game master), the rest the game master's."""
    faces, given = faces_from_data([15, 3, 4], [[1, "d6 for Guard's damage"]])
    assert faces == (15, 3, 4)
    assert given == (Given(GM), Given(AFFRAY, GM, "d6 for Guard's damage"), Given(GM))
    inputs = inputs_from_data({"faces": [15, 3], "answers": [], "era": 3, "rolled": [[1, "d6"]]})
    assert inputs.rolled == ((1, "d6"),)
    logged = [
        {"face": 15, "die": "d20", "by": "player"},
        {"face": 2, "by": "affray", "for": "player"},
    ]
    assert faces_from_data(logged) == ((15, 2), (Given(PLAYER, None, "d20"), Given(AFFRAY, PLAYER)))


def test_an_old_tables_faces_show_who_gave_them(tmp_path: Path) -> None:
    """A log written before the marks (faces as numbers): the journal marks them."""
    tables, row = knights_turn(tmp_path / "t.db")
    submit(
        tables,
        row,
        Submission("act", Act("Knight", "attack", "Goblin"), rolls=(20,), seed=3, roll_rest=True),
    )
    version = tables.fold(row).version
    tables.store.close()
    db = sqlite3.connect(tmp_path / "t.db")
    (raw,) = db.execute(
        "SELECT payload FROM changes WHERE table_id = ? AND version = ?", (row.id, version)
    ).fetchone()
    payload = json.loads(raw)
    numbers = [f["face"] for f in payload["faces"]]
    payload["faces"] = numbers
    payload["rolled"] = [[at, "d8"] for at in range(1, len(numbers))]
    db.execute(
        "UPDATE changes SET payload = ? WHERE table_id = ? AND version = ?",
        (json.dumps(payload), row.id, version),
    )
    db.execute("DELETE FROM checkpoints")
    db.commit()
    db.close()
    again = Tables(Store(tmp_path / "t.db"))
    faces = last_faces(again, again.table(row.id))
    assert [f["face"] for f in faces] == numbers
    assert faces[0]["by"] == GM and all(f["by"] == AFFRAY for f in faces[1:])
    again.store.close()
