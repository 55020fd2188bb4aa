"""Hostile round 5, item 2 (issue 51): a number thousands of digits long, NaN or an
infinity, or a key given twice, in any KEY=VALUE field of the pages, the API and the
terminal, is refused in words (a 200 with the panel's words on a page, a 422 from the
API, exit 2 at the terminal): never a 500, never "a bug in affray". Against a real
``affray serve`` (the server fixture: uvicorn on 127.0.0.1)."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from affray.table import Store
from tests.helpers import run
from tests.web.conftest import Server

HUGE = "9" * 5000


def posted(server: Server, path: str, form: dict[str, str], token: str) -> tuple[int, str]:
    request = urllib.request.Request(
        server.url + path,
        data=urllib.parse.urlencode(form).encode(),
        headers={"Authorization": f"Bearer {token}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def api(server: Server, command: dict[str, object], token: str) -> tuple[int, str]:
    table = server.setup.ford.id
    with urllib.request.urlopen(f"{server.url}/api/tables/{table}?token={token}") as got:
        version = json.load(got)["version"]
    body = json.dumps({"expected_version": version, "command": command}).encode()
    request = urllib.request.Request(
        f"{server.url}/api/tables/{table}/commands",
        data=body,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (HUGE, "5,000 characters long"),
        ("nan", "is not a number the table can use"),
        ("inf", "is not a number the table can use"),
        ("-inf", "is not a number the table can use"),
        ("99999999999", "is not a number the table can use"),
    ],
)
def test_every_page_field_refuses_it_in_words(server: Server, value: str, said: str) -> None:
    row = server.setup.ford
    with Store(server.setup.db) as store:
        key = store.home_key()
    fields = [
        (f"/t/{row.id}/do", {"verb": "set", "who": "Spearman", "pairs": f"wounds={value}"}),
        (f"/t/{row.id}/do", {"verb": "set", "who": "Spearman", "adds": f"wounds={value}"}),
        (
            f"/t/{row.id}/do",
            {"verb": "hazard", "who": "Spearman", "kind": "fall", "hazard_values": f"feet={value}"},
        ),
        (
            f"/home/do?key={key}",
            {"verb": "new", "name": "X", "system": "mst2", "options": f"max_rounds={value}"},
        ),
    ]
    for path, form in fields:
        code, text = posted(server, path, {**form, "expected_version": "2"}, row.gm_token)
        assert code == 200, (path, form["verb"], text[:300])
        assert said in text and "Traceback" not in text, (path, text[:300])


def test_a_key_twice_is_refused_not_last_wins(server: Server) -> None:
    row = server.setup.ford
    code, text = posted(
        server,
        f"/t/{row.id}/do",
        {"verb": "hazard", "who": "Spearman", "kind": "fall", "hazard_values": "feet=30 feet=40",
         "expected_version": "2"},
        row.gm_token,
    )  # fmt: skip
    assert code == 200 and "&#34;feet&#34; is given twice" in text, text[:300]


def test_the_api_refuses_it_in_words(server: Server) -> None:
    gm = server.setup.ford.gm_token
    for command in (
        {"verb": "set", "who": "Spearman", "pairs": f"wounds={HUGE}"},
        {"verb": "hazard", "who": "Spearman", "kind": "fall", "hazard_values": f"feet={HUGE}"},
        {"verb": "set", "who": "Spearman", "pairs": "wounds=nan"},
    ):
        code, text = api(server, command, gm)
        assert code == 422, (command["verb"], code, text[:300])
        assert json.loads(text)["error"], text[:300]
    command = '{"verb": "set", "who": "Spearman", "values": {"wounds": ' + HUGE + "}}"
    raw = '{"expected_version": 2, "command": ' + command + "}"
    request = urllib.request.Request(
        f"{server.url}/api/tables/{server.setup.ford.id}/commands",
        data=raw.encode(),
        headers={"Authorization": f"Bearer {gm}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            code = answer.status
    except urllib.error.HTTPError as refused:
        code = refused.code
    assert code in (400, 422), code


@pytest.mark.parametrize(
    "args",
    [
        ("table", "new", "X", "--system", "mst2", "--option", f"max_rounds={HUGE}"),
        ("table", "set", "ford", "Spearman", f"wounds={HUGE}"),
        ("table", "set", "ford", "Spearman", "wounds=nan"),
        ("table", "hazard", "ford", "Spearman", "fall", f"feet={HUGE}"),
        ("table", "hazard", "ford", "Spearman", "fall", "feet=30", "feet=40"),
        ("table", "allow", "ford", f"players_choose={HUGE}"),
    ],
)
def test_the_terminal_refuses_it_with_exit_2(tmp_path: Path, args: tuple[str, ...]) -> None:
    from tests.web.conftest import make_tables

    setup = make_tables(tmp_path / "t.db")
    result = run(*args, "--db", str(setup.db))
    assert result.exit_code == 2, result.output[:300]
    assert "bug in affray" not in result.output and "Traceback" not in result.output
    assert len(result.stderr) < 1000  # the value is never echoed whole
