"""Physical dice stay physical (issue 41, item 3): every face affray rolls is marked as
its own, in a command's output, its JSON, the journal and the export; a table with
``physical_dice = true`` rolls none at all (the terminal, the API and the pages); a
page's "Roll it" is marked as affray's too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from affray.cli.main import cli
from affray.errors import DieNeededError, TableError
from affray.table import Store, Tables
from affray.table.commands import Act
from affray.web import create_app
from tests.helpers import EXAMPLES


def terminal(db: Path, *args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(cli, [*args, "--db", str(db)], catch_exceptions=False, input=input)


def ford(db: Path, *options: str) -> None:
    terminal(db, "table", "new", "Ford", "--system", "mst2", *options)
    terminal(db, "table", "add", "ford", str(EXAMPLES / "mst2/spearman.toml"), "--side", "levy")
    terminal(db, "table", "add", "ford", str(EXAMPLES / "mst2/sellsword.toml"), "--side", "b")
    terminal(db, "table", "start", "ford")


def test_every_face_affray_rolls_is_marked_as_its_own(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    ford(db)
    # the d20 typed, a hit; the power dice rolled by affray: marked, each with its die
    done = terminal(
        db, "table", "act", "ford", "Spearman", "attack", "--rolls", "18", "--roll-rest", "--json"
    )
    found = json.loads(done.stdout)
    assert [r["die"] for r in found["rolled"][:2]] == [
        "d8 for Spearman's power die 1",
        "d8 for Spearman's power die 2",
    ]
    power = next(e for e in found["events"] if e["event"] == "power_rolled")
    assert [r["face"] for r in found["rolled"][:2]] == [d["face"] for d in power["dice"]]
    terminal(db, "table", "undo", "ford")
    told = terminal(
        db,
        "table",
        "act",
        "ford",
        "Spearman",
        "attack",
        "--rolls",
        "18",
        "--roll-rest",
        "--seed",
        "4",
    )
    assert "affray rolled: " in told.stdout and "(the d8 for Spearman's power die 1)" in told.stdout
    last = json.loads(terminal(db, "table", "log", "ford", "--json").stdout)["changes"][-1]
    assert [r["at"] for r in last["rolled"]][:2] == [1, 2]
    d20 = {
        "face": 18,
        "die": "d20 for Spearman's attack on Sellsword",
        "by": "gm",
        "did": "Spearman attacks Sellsword (spear): d20 18+2=20 vs evasion 11 → hit",
    }
    assert last["faces"][0] == d20
    assert all(f["by"] == "affray" and f["for"] == "gm" for f in last["faces"][1:])
    assert "(affray rolled: " in terminal(db, "table", "log", "ford").stdout
    exported = json.loads(terminal(db, "table", "export", "ford").stdout)
    faces = [c["payload"]["faces"] for c in exported["log"] if c["verb"] == "act"][-1]
    assert faces[0] == d20 and faces[1:] == last["faces"][1:]  # who gave each, exported
    again = terminal(db, "table", "import", "-", "--as", "Ford 2", input=json.dumps(exported))
    assert again.exit_code == 0, again.output
    # all typed (a miss: one die): nothing is marked
    terminal(db, "table", "undo", "ford")
    typed = json.loads(
        terminal(db, "table", "act", "ford", "Spearman", "attack", "--rolls", "2", "--json").stdout
    )
    assert typed["rolled"] == []


def test_a_table_of_physical_dice_rolls_none(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    ford(db, "--option", "physical_dice=true")
    refused = terminal(db, "table", "act", "ford", "Spearman", "attack", "--rolls", "18")
    assert refused.exit_code == 2 and "no face was given" in refused.stderr
    tables = Tables(Store(db))
    row = tables.table("ford")
    with pytest.raises(DieNeededError, match="power die 1"):  # asked for, never rolled
        tables.run(row, Act("Spearman", "attack", "Sellsword"), rolls=[18])
    with pytest.raises(TableError, match="dice are all physical"):
        tables.answer(row, roll_rest=True)
    tables.store.close()
    with TestClient(create_app(db, poll_s=0.05)) as client:
        page = client.get(f"/t/{row.id}?token={row.gm_token}")
        assert 'id="roll-die"' not in page.text and 'id="physical-dice"' in page.text
        rolled = client.post(
            f"/t/{row.id}/do",
            data={"verb": "answer", "roll_die": "8", "expected_version": "3"},
            headers={"Authorization": f"Bearer {row.gm_token}"},
        )
        assert "dice are all physical" in rolled.text


def test_a_pages_roll_it_is_marked_as_affrays(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    ford(db)
    tables = Tables(Store(db))
    row = tables.table("ford")
    with pytest.raises(DieNeededError):  # its d20 waits
        tables.run(row, Act("Spearman", "attack", "Sellsword"), roll_missing=False)
    tables.store.close()
    with TestClient(create_app(db, poll_s=0.05)) as client:
        auth = {"Authorization": f"Bearer {row.gm_token}"}
        client.post(
            f"/t/{row.id}/do",
            data={"verb": "answer", "face": "18", "expected_version": "3"},
            headers=auth,
        )
        client.post(
            f"/t/{row.id}/do",
            data={"verb": "answer", "roll_die": "8", "expected_version": "3"},
            headers=auth,
        )
        client.post(
            f"/t/{row.id}/do",
            data={"verb": "answer", "face": "5", "expected_version": "3"},
            headers=auth,
        )
        client.post(  # and whatever is left (a shock die, if it wounded)
            f"/t/{row.id}/do",
            data={"verb": "answer", "roll_rest": "1", "expected_version": "3"},
            headers=auth,
        )
    last = json.loads(terminal(db, "table", "log", "ford", "--json").stdout)["changes"][-1]
    assert last["verb"] == "act" and last["faces"][0]["face"] == 18
    assert last["faces"][2]["face"] == 5
    marked = [r["at"] for r in last["rolled"]]  # the page's "Roll it", and the rest
    assert marked == [1, *range(3, len(last["faces"]))]
    assert [f["by"] for f in last["faces"][:3]] == ["gm", "affray", "gm"]
    assert {f.get("for") for f in last["faces"] if f["by"] == "affray"} == {"gm"}
