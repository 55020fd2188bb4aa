"""Hostile requests to the web tracker (issue 26): each is refused at the edge with a
clear 4xx and a tip, changes nothing, and leaves every page of the table working.
Servers on 127.0.0.1 and a free port only; every attack bounded in time and count."""

from __future__ import annotations

import json
from typing import Any

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from affray.table import Store, Tables
from tests.web.conftest import Setup

LONE = "\\udc00"  # as the raw JSON body spells it: half of a surrogate pair, alone


def gm(setup: Setup) -> dict[str, str]:
    return {"Authorization": f"Bearer {setup.ford.gm_token}"}


def raw_command(client: TestClient, setup: Setup, body: str) -> httpx.Response:
    headers = {**gm(setup), "Content-Type": "application/json"}
    return client.post(f"/api/tables/{setup.ford.id}/commands", content=body, headers=headers)


def routes(setup: Setup) -> list[str]:
    ford, gm_token, player = setup.ford.id, setup.ford.gm_token, setup.ford.player_token
    with Store(setup.db) as store:
        key = store.home_key()
    return [
        f"/api/tables/{ford}?token={gm_token}",
        f"/api/tables/{ford}?token={player}",
        f"/api/tables/{ford}/log?token={gm_token}",
        f"/api/tables/{ford}/log?format=markdown&token={gm_token}",
        f"/api/tables/{ford}/log?format=text&token={gm_token}",
        f"/t/{ford}?token={gm_token}",
        *(f"/t/{ford}/part/{part}?token={gm_token}" for part in ("board", "panel", "log", "odds")),
        f"/p/{ford}?token={player}",
        f"/p/{ford}/board?token={player}",
        f"/p/{ford}/ask?token={player}",
        f"/?key={key}",
        f"/home/list?key={key}",
    ]


def version(client: TestClient, setup: Setup) -> int:
    return int(client.get(f"/api/tables/{setup.ford.id}", headers=gm(setup)).json()["version"])


# -- item 1: text that cannot be encoded --------------------------------------------

UNENCODABLE_COMMANDS = [
    f'{{"verb": "add", "sheet": "ogre", "as": "X{LONE}"}}',
    '{"verb": "add", "sheet": "ogre", "side": "s\\ud800"}',
    f'{{"verb": "add", "sheet_text": "system = \\"mst2\\"\\nname = \\"Y{LONE}\\"\\n"}}',
    f'{{"verb": "note", "text": "rain{LONE}"}}',
    '{"verb": "mark", "who": "Spearman", "text": "wet\\ud800"}',
    f'{{"verb": "rename", "who": "Spearman", "name": "Z{LONE}"}}',
    f'{{"verb": "set", "who": "Spearman", "values": {{"w{LONE}": 1}}}}',
    f'{{"verb": "act", "actor": "Spearman", "action": "attack", "target": "S{LONE}"}}',
    f'{{"verb": "start", "choose": {{"stance": "n{LONE}"}}}}',
    f'{{"verb": "move", "who": "Spearman", "before": "{LONE}"}}',
]


@pytest.mark.parametrize("command", UNENCODABLE_COMMANDS)
def test_text_that_cannot_be_encoded_is_refused_and_nothing_is_written(
    client: TestClient, setup: Setup, command: str
) -> None:
    answer = raw_command(client, setup, f'{{"expected_version": 2, "command": {command}}}')
    assert answer.status_code == 422, answer.text
    refused = answer.json()
    assert "surrogate" in refused["error"] and "nothing was written" in refused["error"]
    assert refused["tip"]
    assert version(client, setup) == 2
    for route in routes(setup):
        assert client.get(route).status_code == 200, route


def test_a_form_in_utf_7_cannot_smuggle_such_text_in(client: TestClient, setup: Setup) -> None:
    boundary = "b0undary"
    headers = {
        **gm(setup),
        "Content-Type": f"multipart/form-data; charset=utf-7; boundary={boundary}",
    }

    def form(**fields: str) -> bytes:
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
            for k, v in fields.items()
        ]
        return ("".join(parts) + f"--{boundary}--\r\n").encode()

    answer = client.post(
        f"/t/{setup.ford.id}/do", content=form(verb="note", text="X+3AA-"), headers=headers
    )
    assert answer.status_code == 422 and "U+DC00" in answer.text and "Tip:" in answer.text
    with Store(setup.db) as store:
        key = store.home_key()
    home = {"Content-Type": headers["Content-Type"], "Authorization": f"Bearer {key}"}
    made = client.post("/home/do", content=form(verb="party-new", name="P+3AA-"), headers=home)
    assert made.status_code == 422 and "U+DC00" in made.text
    assert version(client, setup) == 2


def _taint(setup: Setup) -> None:
    """A table holding unencodable text, as an older affray wrote it: a combatant's
    name and side, a condition and a note, each spelled with a lone surrogate half
    (``QQ`` here), written to the log's rows directly."""
    from affray.table import Mark, Note

    tables = Tables(Store(setup.db))
    ford = setup.ford
    tables.run(ford, tables.joining(ford, "goblin", side="QQside", name="XQQ"))
    tables.run(ford, Mark("XQQ", "wetQQ", None, None, 1, True))
    tables.run(ford, Note("rainQQ"))
    db = tables.store.db
    with db:
        for version_, payload in db.execute(
            "SELECT version, payload FROM changes WHERE table_id = ?", (ford.id,)
        ).fetchall():
            tainted = json.loads(payload.replace("QQ", "\\udc00"))
            db.execute(
                "UPDATE changes SET payload = ? WHERE table_id = ? AND version = ?",
                (json.dumps(tainted), ford.id, version_),
            )
    tables.store.close()


def test_a_table_already_holding_such_text_still_shows_everywhere(setup: Setup) -> None:
    _taint(setup)
    from affray.web import create_app

    with TestClient(create_app(setup.db, poll_s=0.05)) as client:
        for route in routes(setup):
            answer = client.get(route)
            assert answer.status_code == 200, route
            shows_names = route.startswith(("/api/", f"/t/{setup.ford.id}?")) or "board" in route
            assert "\ufffd" in answer.text or not shows_names, route
        shown = client.get(f"/api/tables/{setup.ford.id}", headers=gm(setup)).json()
        assert "X\ufffd" in [c["id"] for c in shown["combatants"]]
        # the page sends the name back as it showed it: the game master can rename it
        renamed = client.post(
            f"/t/{setup.ford.id}/do",
            data={"verb": "rename", "who": "X\ufffd", "name": "Gobbo"},
            headers=gm(setup),
        )
        assert renamed.status_code == 200 and "Gobbo" in renamed.text
        shown = client.get(f"/api/tables/{setup.ford.id}", headers=gm(setup)).json()
        assert "Gobbo" in [c["id"] for c in shown["combatants"]]


# -- item 8: bodies and fields that used to be 500s ---------------------------------


@pytest.mark.parametrize(
    "body",
    [
        '{"expected_version": 2, "command": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"expected_version": 2, "command": {"verb": "note", "text": '
        + "[" * 50
        + '"x"'
        + "]" * 50
        + "}}",
        '{"expected_version": 2, "command": {"verb": "undo", "steps": "²"}}',
        '{"expected_version": 2, "command": {"verb": "undo", "steps": "٣"}}',
        '{"expected_version": 2, "command": {"verb": "undo", "steps": ' + "9" * 5000 + "}}",
        '{"expected_version": 2, "command": {"verb": "undo", "steps": "' + "9" * 5000 + '"}}',
        '{"expected_version": 2, "command": {"verb": "run", "turns": "²"}}',
        '{"expected_version": 2, "command": {"verb": "mark", "who": "Spearman", "text": "x", '
        '"turns": "' + "9" * 5000 + '"}}',
        '{"expected_version": ' + "9" * 5000 + ', "command": {"verb": "note", "text": "x"}}',
    ],
)
def test_hostile_json_bodies_are_clear_422s(client: TestClient, setup: Setup, body: str) -> None:
    answer = raw_command(client, setup, body)
    assert answer.status_code == 422, answer.text[:300]
    refused = answer.json()
    assert refused["error"] and refused["tip"]
    assert len(answer.text) < 1000  # a 5,000-digit number is not echoed back whole
    assert version(client, setup) == 2


@pytest.mark.parametrize(
    "fields",
    [
        {"verb": "next", "expected_version": "²"},
        {"verb": "next", "roll_die": "²"},
        {"verb": "undo", "steps": "²"},
        {"verb": "undo", "steps": "9" * 5000},
        {"verb": "run", "turns": "²"},
        {"verb": "next", "roll_die": "9" * 5000},
        {"verb": "next", "expected_version": "9" * 5000},
    ],
)
def test_hostile_form_fields_are_clear_422s(
    client: TestClient, setup: Setup, fields: dict[str, Any]
) -> None:
    answer = client.post(f"/t/{setup.ford.id}/do", data=fields, headers=gm(setup))
    assert answer.status_code == 422, answer.text[:300]
    assert "whole number" in answer.text and "Tip:" in answer.text and len(answer.text) < 400
    player = {"Authorization": f"Bearer {setup.ford.player_token}"}
    assert client.post(f"/p/{setup.ford.id}/answer", data=fields, headers=player).status_code in (
        403,
        422,
    )
    assert version(client, setup) == 2


def test_a_party_rest_of_superscript_days_is_a_clear_422(client: TestClient, setup: Setup) -> None:
    with Store(setup.db) as store:
        key = store.home_key()
    auth = {"Authorization": f"Bearer {key}"}
    answer = client.post("/home/do", data={"verb": "party-rest", "days": "²"}, headers=auth)
    assert answer.status_code == 422 and "days" in answer.text
