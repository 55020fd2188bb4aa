"""The JSON API of SPEC.md, "The web tracker": every verb, and 401/403/404/409/422."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx2 as httpx
from starlette.testclient import TestClient

from tests.helpers import SLOWDOWN, terminal
from tests.web.conftest import Server, Setup

HIRED_HAND = 'system = "mst2"\nname = "Hired hand"\nskill = 1\nweapon = "club"\nrole = "fighter"\n'


def gm(setup: Setup) -> dict[str, str]:
    return {"Authorization": f"Bearer {setup.ford.gm_token}"}


def command(client: TestClient, setup: Setup, expected: int, **fields: Any) -> httpx.Response:
    return client.post(
        f"/api/tables/{setup.ford.id}/commands",
        json={"expected_version": expected, "command": fields},
        headers=gm(setup),
    )


def test_show_is_the_json_of_table_show(client: TestClient, setup: Setup) -> None:
    shown = client.get(f"/api/tables/{setup.ford.id}", headers=gm(setup)).json()
    assert set(shown) >= {"table", "system", "round", "turn", "version", "combatants"}
    assert (shown["table"], shown["system"], shown["version"]) == ("ford", "mst2", 2)
    assert [c["id"] for c in shown["combatants"]] == ["Spearman", "Sellsword"]
    assert shown["combatants"][0]["state"] == {"wounds": 0}
    by_player = client.get(f"/api/tables/ford?token={setup.ford.player_token}").json()
    # the spearman is a player's character: his side in full; the sellsword a word
    spearman, sellsword = by_player["combatants"]
    assert spearman["state"] == {"wounds": 0} and spearman["friend"]
    assert sellsword["state"] == {"health": "unhurt"} and not sellsword["friend"]
    assert all(c["source"] == "" for c in by_player["combatants"])
    assert by_player["notes"] == [] and by_player["pending"] is None


def test_tokens(client: TestClient, setup: Setup) -> None:
    ford = f"/api/tables/{setup.ford.id}"
    body = {"expected_version": 2, "command": {"verb": "note", "text": "hello"}}
    assert client.get(ford).status_code == 401
    assert client.get(ford, headers={"Authorization": "Bearer nonsense"}).status_code == 401
    # another table's token: as if the table were not there (no token tells which are)
    assert client.get(f"{ford}?token={setup.inn.gm_token}").status_code == 404
    nowhere = client.get(f"/api/tables/nowhere?token={setup.inn.gm_token}")
    assert nowhere.status_code == 404
    there = client.get(f"{ford}?token={setup.inn.gm_token}").text
    assert there == nowhere.text.replace("nowhere", setup.ford.id)
    player = {"Authorization": f"Bearer {setup.ford.player_token}"}
    assert client.post(f"{ford}/commands", json=body, headers=player).status_code == 403
    other = {"Authorization": f"Bearer {setup.inn.gm_token}"}
    assert client.post(f"{ford}/commands", json=body, headers=other).status_code == 404
    assert client.post(f"{ford}/commands", json=body).status_code == 401
    assert client.get("/api/tables/nowhere", headers=gm(setup)).status_code == 404
    assert client.get(f"/t/{setup.ford.id}?token={setup.ford.player_token}").status_code == 403
    assert client.get(f"/p/{setup.ford.id}?token={setup.ford.player_token}").status_code == 200
    # nothing was written
    assert client.get(ford, headers=gm(setup)).json()["version"] == 2


def test_every_verb(client: TestClient, setup: Setup) -> None:
    started = command(client, setup, 2, verb="start")
    assert started.status_code == 200
    assert (started.json()["version"], started.json()["turn"]) == (3, "Spearman")
    acted = command(
        client,
        setup,
        3,
        verb="act",
        actor="Spearman",
        action="attack",
        target="Sellsword",
        rolls=[5],
        roll_missing=False,
    )
    assert acted.status_code == 200, acted.text
    assert acted.json()["lines"][-1].endswith("→ miss")
    assert command(client, setup, 4, verb="next").json()["phase"] == "round over"
    assert command(client, setup, 5, verb="mark", who="Sellsword", text="wet").status_code == 200
    assert command(client, setup, 6, verb="unmark", who="Sellsword", text="wet").status_code == 200
    assert command(client, setup, 7, verb="note", text="rain").status_code == 200
    added = command(client, setup, 8, verb="add", sheet="goblin", side="levy", **{"as": "Snik"})
    assert added.status_code == 200 and added.json()["version"] == 9
    uploaded = command(
        client,
        setup,
        9,
        verb="add",
        side="blades",
        sheet_text=HIRED_HAND,
    )
    assert uploaded.status_code == 200, uploaded.text
    undone = command(client, setup, 10, verb="undo", steps=3)
    assert undone.json()["moved"][0]["what"].startswith("add Hired hand")
    redone = command(client, setup, 11, verb="redo", steps=2)
    assert redone.json()["version"] == 12
    shown = client.get(f"/api/tables/{setup.ford.id}", headers=gm(setup)).json()
    assert [c["id"] for c in shown["combatants"]] == ["Spearman", "Sellsword", "Snik"]
    log = client.get(f"/api/tables/{setup.ford.id}/log?format=markdown", headers=gm(setup))
    assert log.text.startswith("## Ford") and "rain" in log.text


def test_conflicts_and_refusals_change_nothing(client: TestClient, setup: Setup) -> None:
    stale = command(client, setup, 1, verb="start")
    assert stale.status_code == 409
    assert stale.json()["version"] == 2
    assert (
        command(client, setup, 2, verb="act", actor="Spearman", action="attack").status_code == 422
    )
    command(client, setup, 2, verb="start")
    refused = command(client, setup, 3, verb="act", actor="Sellsword", action="attack")
    assert refused.status_code == 422
    assert "Spearman's turn" in refused.json()["error"]
    needs = command(
        client,
        setup,
        3,
        verb="act",
        actor="Spearman",
        action="attack",
        roll_missing=False,
        choose_missing=False,
    )
    assert needs.status_code == 422  # no circumstance question at a table (its default)
    asked = needs.json()["needs"]
    pending = client.get(f"/api/tables/{setup.ford.id}", headers=gm(setup)).json()["pending"]
    assert asked.pop("question") == pending["needs"]["question"] == pending["question"]
    assert asked == {
        "die": {
            "sides": 20,
            "purpose": "Spearman's attack on Sellsword",
            "given": 0,
            "about": "Sellsword",  # whom it names besides its roller
            "template": "Spearman's attack on {about}",
        }
    }
    for bad in (
        {"verb": "fly"},
        {"verb": "act", "actor": 3},
        {"verb": "act", "actor": "Spearman", "action": "attack", "rolls": [0]},
        {"verb": "act", "actor": "Spearman", "action": "attack", "choose": {"mood": "x"}},
        {"verb": "undo", "steps": 0},
        {"verb": "add", "sheet": "dragon"},
    ):
        response = command(client, setup, 3, **bad)
        assert response.status_code == 422, (bad, response.text)
        assert response.json()["error"]
    url = f"/api/tables/{setup.ford.id}/commands"
    assert client.post(url, content=b"{", headers=gm(setup)).status_code == 422
    assert (
        client.post(url, json={"command": {"verb": "next"}}, headers=gm(setup)).status_code == 422
    )
    assert client.get(f"/api/tables/{setup.ford.id}", headers=gm(setup)).json()["version"] == 3


def test_stale_writers_never_lose_an_update(client: TestClient, setup: Setup) -> None:
    """Eight writers with the same version: one wins, seven get 409."""
    codes: list[int] = []

    def write(i: int) -> None:
        codes.append(command(client, setup, 2, verb="note", text=f"w{i}").status_code)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == [200] + [409] * 7


def test_pages_escape_sheet_text(client: TestClient, setup: Setup) -> None:
    evil = "<script>alert(1)</script>"
    response = command(
        client,
        setup,
        2,
        verb="add",
        sheet_text='system = "mst2"\nname = "Bob"\nskill = 1\nweapon = "club"\nrole = "fighter"\n',
        side=evil,
    )
    assert response.status_code == 200, response.text
    page = client.get(f"/t/{setup.ford.id}?token={setup.ford.gm_token}")
    assert evil not in page.text and "&lt;script&gt;" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    player = client.get(f"/p/{setup.ford.id}?token={setup.ford.player_token}").text
    assert setup.ford.gm_token not in player
    assert evil not in player


def test_the_player_view_shows_enemies_health_as_a_word(client: TestClient, setup: Setup) -> None:
    command(client, setup, 2, verb="start")
    command(
        client,
        setup,
        3,
        verb="act",
        actor="Spearman",
        action="attack",
        target="Sellsword",
        rolls=[19, 8, 8, 1],
        roll_missing=False,
        choose={"circumstance": "none"},
    )
    board = client.get(f"/p/{setup.ford.id}/board?token={setup.ford.player_token}").text
    sellsword = board[board.index('data-id="Sellsword"') :].split("</tr>")[0]
    spearman = board[board.index('data-id="Spearman"') :].split("</tr>")[0]
    assert '<span class="health">' in sellsword and "wounds" not in sellsword
    assert "wounds 0" in spearman  # a friend: in full


def test_the_stream_sends_each_change(server: Server) -> None:
    setup = server.setup
    url = f"{server.url}/api/tables/{setup.ford.id}/stream?token={setup.ford.player_token}"
    seen: list[int] = []
    with httpx.stream("GET", url, timeout=10) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        lines = response.iter_lines()
        for line in lines:
            if line.startswith("data: "):
                seen.append(json.loads(line[6:])["version"])
                break
        terminal(setup.db, "table", "add", setup.ford.id, "goblin", "--side", "levy")
        started = time.monotonic()  # the terminal's change is committed
        for line in lines:
            if line.startswith("data: "):
                seen.append(json.loads(line[6:])["version"])
                break
        assert time.monotonic() - started < 1.0 * SLOWDOWN
    assert seen == [2, 3]


def test_import_an_uploaded_encounter(client: TestClient, setup: Setup) -> None:
    text = """system = "mst2"
[[sides]]
name = "Bandits"
tactics = "focus"
members = ["2 bandits"]
[[sides]]
name = "Wolves"
members = [{ sheet = "wolf", count = 1, name = "Grey" }]
"""
    imported = command(client, setup, 2, verb="import", encounter_text=text)
    assert imported.status_code == 200, imported.text
    assert imported.json()["version"] == 5
    shown = client.get(f"/api/tables/{setup.ford.id}", headers=gm(setup)).json()
    assert [c["id"] for c in shown["combatants"]][2:] == ["Bandit 1", "Bandit 2", "Grey"]
    files = text + '[[sides]]\nname = "C"\nmembers = ["knight.json"]\n'
    assert command(client, setup, 2, verb="import", encounter_text=text).status_code == 409
    refused = command(client, setup, 5, verb="import", encounter_text=files)
    assert refused.status_code == 422 and "cannot reach" in refused.json()["error"]
