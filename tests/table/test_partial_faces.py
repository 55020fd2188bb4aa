"""Typed dice at the table (SPEC part 5): a command that brings some faces but not
every die it needs is not applied; it waits as the pending question naming the next
die (the terminal: exit 2 with that die; the API: 422 with ``needs``), unless
``--roll-rest`` / ``"roll_rest": true`` asks affray to roll the rest. A command that
brings no faces rolls its dice as before."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from affray.table import Store, Tables
from affray.web.app import create_app
from tests.helpers import EXAMPLES, run, terminal


def ford(db: Path) -> None:
    terminal(db, "table", "new", "Ford", "--system", "mst2")
    terminal(db, "table", "add", "ford", str(EXAMPLES / "mst2/spearman.toml"), "--side", "levy")
    terminal(db, "table", "add", "ford", str(EXAMPLES / "mst2/sellsword.toml"), "--side", "b")
    terminal(db, "table", "start", "ford")


def test_some_faces_wait_for_the_next_die_at_the_terminal(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    ford(db)
    waits = run("table", "act", "ford", "Spearman", "attack", "--rolls", "18", "--db", str(db))
    assert waits.exit_code == 2
    assert "the next die is a d8 for Spearman's power die 1" in waits.output
    assert "--roll-rest" in waits.output
    shown = terminal(db, "table", "show", "ford")
    assert shown["version"] == 3  # nothing applied; what waits is shown, as the API's GET
    assert shown["pending"]["rolls"] == [18] and "power die 1" in str(shown["pending"]["needs"])
    # what the face so far did is known: its event holds no die still to come
    hit = "Spearman attacks Sellsword (spear): d20 18+2=20 vs evasion 11 → hit"
    assert shown["pending"]["faces"] == [
        {"face": 18, "die": "d20 for Spearman's attack on Sellsword", "by": "gm", "did": hit}
    ]
    told = run("table", "show", "ford", "--db", str(db)).output
    assert "waiting: “Spearman: attack” waits for a d8 (Spearman's power die 1)" in told
    tables = Tables(Store(db))
    pending = tables.waiting(tables.table("ford"))
    assert pending is not None and pending["rolls"] == [18]
    assert pending["needs"]["die"]["purpose"] == "Spearman's power die 1"
    tables.store.close()
    done = terminal(
        db, "table", "act", "ford", "Spearman", "attack", "--rolls", "18", "--roll-rest"
    )
    assert done["version"] == 4
    assert done["faces"][0] == {
        "face": 18,
        "die": "d20 for Spearman's attack on Sellsword",
        "by": "gm",
        "did": hit,
    }
    # each of affray's: what it did, the power dice's wounds and the shock dice's check
    did = [f["did"].split(" ")[0] for f in done["faces"][1:]]
    assert did == ["power", "power", "shock", "shock"], done["faces"]
    assert done["rolled"] == done["faces"][1:] and all(f["for"] == "gm" for f in done["rolled"])
    # no faces at all: every die rolled, as before
    terminal(db, "table", "undo", "ford")
    rolled = terminal(db, "table", "act", "ford", "Spearman", "attack", "--seed", "2")
    assert rolled["faces"] and rolled["rolled"] == rolled["faces"]


def test_some_faces_are_a_422_naming_the_next_die_from_the_api(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    ford(db)
    tables = Tables(Store(db))
    row = tables.table("ford")
    tables.store.close()
    attack = {"verb": "act", "actor": "Spearman", "action": "attack", "target": "Sellsword"}
    with TestClient(create_app(db, poll_s=0.05)) as client:
        auth = {"Authorization": f"Bearer {row.gm_token}"}
        url = f"/api/tables/{row.id}/commands"
        waits = client.post(
            url, json={"expected_version": 3, "command": {**attack, "rolls": [18]}}, headers=auth
        )
        assert waits.status_code == 422
        body = waits.json()
        assert body["needs"]["die"]["purpose"] == "Spearman's power die 1" and body["rolls"] == [18]
        shown = client.get(f"/api/tables/{row.id}", headers=auth).json()
        assert shown["version"] == 3 and shown["pending"]["rolls"] == [18]
        done = client.post(
            url,
            json={"expected_version": 3, "command": {**attack, "rolls": [18], "roll_rest": True}},
            headers=auth,
        )
        assert done.status_code == 200, done.text
        assert client.get(f"/api/tables/{row.id}", headers=auth).json()["version"] == 4
