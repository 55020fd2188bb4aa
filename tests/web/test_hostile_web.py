"""Hostile requests to the web tracker (issue 26): each is refused at the edge with a
clear 4xx and a tip, changes nothing, and leaves every page of the table working.
Servers on 127.0.0.1 and a free port only; every attack bounded in time and count."""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from affray.table import Store, TableRow, Tables
from affray.web import create_app
from affray.web.app import server as tracker_server
from affray.web.limits import Limits
from tests.helpers import EXAMPLES, SLOWDOWN, terminal
from tests.web.conftest import Setup, free_port

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


def test_after_those_refusals_every_page_of_the_table_works(
    client: TestClient, setup: Setup
) -> None:
    for command in UNENCODABLE_COMMANDS:
        raw_command(client, setup, f'{{"expected_version": 2, "command": {command}}}')
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
    with tables.store.transaction() as db:
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
            data={
                "verb": "rename",
                "who": "X\ufffd",
                "name": "Gobbo",
                "expected_version": str(shown["version"]),
            },
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


# -- a server of our own, with small limits ------------------------------------------

SMALL = Limits(
    header_timeout_s=0.5,
    body_timeout_s=1.0,
    max_connections=60,
    max_connections_per_address=20,
    max_streams=6,
    max_streams_per_table=4,
)


@dataclass
class Running:
    url: str
    port: int
    setup: Setup
    app: Any
    said: list[str]


@pytest.fixture
def small(setup: Setup) -> Iterator[Running]:
    """The tracker with :data:`SMALL` limits on 127.0.0.1 and a free port, in a thread;
    what it logs is kept in ``said``; stopped at the end."""
    said: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            said.append(record.getMessage() + ("TRACEBACK" if record.exc_info else ""))

    keep = Keep()
    logging.getLogger("uvicorn.error").addHandler(keep)
    port = free_port()
    app = create_app(setup.db, poll_s=0.05, limits=SMALL)
    running = tracker_server(app, "127.0.0.1", port)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield Running(f"http://127.0.0.1:{port}", port, setup, app, said)
    finally:
        running.should_exit = True
        thread.join(timeout=10)
        logging.getLogger("uvicorn.error").removeHandler(keep)


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))


def answer_of(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes (at most 5 s)."""
    got = b""
    with contextlib.suppress(OSError):
        while chunk := sock.recv(65536):
            got += chunk
    return got


def gm_get(running: Running) -> tuple[int, float]:
    started = time.monotonic()
    row = running.setup.ford
    answer = httpx.get(
        f"{running.url}/api/tables/{row.id}", headers={"Authorization": f"Bearer {row.gm_token}"}
    )
    return answer.status_code, time.monotonic() - started


# -- item 5: idle and slow connections ------------------------------------------------


def test_idle_sockets_are_closed_and_cannot_keep_the_game_master_out(
    small: Running, capfd: pytest.CaptureFixture[str]
) -> None:
    idle = [connect(small.port) for _ in range(3 * SMALL.max_connections_per_address)]
    others = [connect(small.port, f"127.0.0.{n}") for n in range(2, 5) for _ in range(30)]
    try:
        time.sleep(0.2)
        held = [s for s in idle + others if s.fileno() >= 0]
        # the game master gets in at once: an idle socket makes room
        status, took = gm_get(small)
        assert status == 200 and took < 2.0 * SLOWDOWN
        # the header timeout: every idle socket is answered 408 or 503, and closed
        answers = [answer_of(s) for s in held]
        assert all(a.startswith((b"HTTP/1.1 408", b"HTTP/1.1 503")) for a in answers)
        assert sum(a.startswith(b"HTTP/1.1 408") for a in answers) <= SMALL.max_connections
    finally:
        for sock in idle + others:
            sock.close()
    status, _ = gm_get(small)
    assert status == 200
    # one line per kind of refusal, no tracebacks
    assert len(small.said) <= 4 and not any("TRACEBACK" in line for line in small.said)
    assert "Traceback" not in capfd.readouterr().err


def test_a_slow_header_is_cut_off(small: Running) -> None:
    sock = connect(small.port)
    started = time.monotonic()
    with contextlib.suppress(OSError):
        sock.sendall(b"GET /api/tables/ford HTTP/1.1\r\nHost: x\r\n")
        while time.monotonic() - started < 5:
            sock.sendall(b"X-Slow: 1\r\n")
            time.sleep(0.1)
    got = answer_of(sock)
    sock.close()
    assert got.startswith(b"HTTP/1.1 408") and b"within 0.5 s" in got
    assert time.monotonic() - started < 3 * SLOWDOWN
    # a second request on a kept-alive connection is held to the same time
    sock = connect(small.port)
    row = small.setup.ford
    sock.sendall(f"GET /api/tables/ford?token={row.gm_token} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    first = sock.recv(65536)
    assert first.startswith(b"HTTP/1.1 200")
    sock.sendall(b"GET /api/tables/ford HTTP/1.1\r\n")
    assert b"HTTP/1.1 408" in answer_of(sock)
    sock.close()


def test_a_slow_body_is_cut_off(small: Running) -> None:
    sock = connect(small.port)
    row = small.setup.ford
    sock.sendall(
        f"POST /api/tables/ford/commands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
        f"{row.gm_token}\r\nContent-Type: application/json\r\n"
        "Content-Length: 1000\r\n\r\n{".encode()
    )
    got = answer_of(sock)
    sock.close()
    assert got.startswith(b"HTTP/1.1 408") and b"took over 1 s" in got


# -- item 9: bodies too large -------------------------------------------------------


def test_a_body_over_the_limit_is_refused_before_it_is_read(small: Running) -> None:
    row = small.setup.ford
    for path in ("/api/tables/ford/commands", "/t/ford/do", "/home/do"):
        sock = connect(small.port)
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {row.gm_token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: 200000000\r\n\r\n".encode()
        )
        got = answer_of(sock)
        sock.close()
        assert got.startswith(b"HTTP/1.1 413"), got[:200]
        assert b"at most 1,048,576 bytes" in got


def test_a_chunked_body_is_cut_off_at_the_limit(small: Running) -> None:
    row = small.setup.ford
    sock = connect(small.port)
    sock.sendall(
        f"POST /api/tables/ford/commands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
        f"{row.gm_token}\r\nContent-Type: application/json\r\n"
        f"Transfer-Encoding: chunked\r\n\r\n".encode()
    )
    chunk = b"[" * 65536
    sent = 0
    with contextlib.suppress(OSError):  # the server stops reading, and closes
        while sent < 8 * SMALL.max_body_bytes:
            sock.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            sent += len(chunk)
    got = answer_of(sock)
    sock.close()
    assert got.startswith(b"HTTP/1.1 413"), got[:200]
    body = json.loads(got.split(b"\r\n\r\n", 1)[1])
    assert "at most 1,048,576 bytes" in body["error"] and body["tip"]
    assert sent < 8 * SMALL.max_body_bytes  # it stopped reading, long before the end
    assert gm_get(small)[0] == 200


# -- item 16: streams -----------------------------------------------------------------


def test_streams_are_capped_per_table_and_per_server(small: Running) -> None:
    setup = small.setup

    def stream(row: TableRow) -> Any:
        url = f"{small.url}/api/tables/{row.id}/stream?token={row.player_token}"
        return httpx.stream("GET", url, timeout=10)

    with contextlib.ExitStack() as stack:
        for _ in range(SMALL.max_streams_per_table):
            assert stack.enter_context(stream(setup.ford)).status_code == 200
        refused = stack.enter_context(stream(setup.ford))
        assert refused.status_code == 503 and refused.headers["retry-after"]
        refused.read()
        assert "this table has 4 live streams open" in refused.json()["error"]
        for _ in range(SMALL.max_streams - SMALL.max_streams_per_table):
            assert stack.enter_context(stream(setup.inn)).status_code == 200
        full = stack.enter_context(stream(setup.inn))
        assert full.status_code == 503
        full.read()
        assert "the tracker has 6 live streams open" in full.json()["error"]
        # writes are not held up by the streams
        url = f"{small.url}/api/tables/{setup.ford.id}/commands"
        started = time.monotonic()
        written = httpx.post(
            url,
            json={"expected_version": 2, "command": {"verb": "note", "text": "x"}},
            headers={"Authorization": f"Bearer {setup.ford.gm_token}"},
        )
        assert written.status_code == 200 and time.monotonic() - started < 2 * SLOWDOWN
    # the streams are closed: there is room again
    deadline = time.monotonic() + 5
    while small.app.state.tracker.streams.total and time.monotonic() < deadline:
        time.sleep(0.05)
    with stream(setup.ford) as again:
        assert again.status_code == 200


# -- item 15: what the web reads of the server, and what it says of tables ------------

SECRET = 'system = "mst2"\nname = "Secret"\nskill = "hunter2"\nweapon = "sword"\n'


def add_sheet(client: TestClient, setup: Setup, sheet: str) -> httpx.Response:
    return client.post(
        f"/api/tables/{setup.ford.id}/commands",
        json={"expected_version": 2, "command": {"verb": "add", "sheet": sheet}},
        headers=gm(setup),
    )


def test_the_web_reads_no_file_but_the_bestiary_by_default(
    client: TestClient, setup: Setup, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.toml"
    secret.write_text(SECRET)
    answers = [
        add_sheet(client, setup, sheet)
        for sheet in (
            str(secret),
            str(tmp_path / "missing.toml"),
            str(EXAMPLES / "mst2" / "knight.json"),
            str(tmp_path),
            "/etc/passwd",
        )
    ]
    assert all(a.status_code == 422 for a in answers)
    assert all("hunter2" not in a.text for a in answers)
    said = [(a.json()["error"].split(" called ")[0], a.json()["tip"]) for a in answers]
    assert len(set(said)) == 1  # the same words for a file that is there and one that is not
    assert "serve --sheets" in said[0][1] and "goblin" in said[0][1]
    assert add_sheet(client, setup, "goblin").status_code == 200


def test_an_uploaded_encounter_cannot_name_a_file_on_the_server(
    client: TestClient, setup: Setup, tmp_path: Path
) -> None:
    secret = tmp_path / "secret"
    secret.write_text(SECRET)
    for member in (str(secret), "/etc/passwd", str(tmp_path / "nothing")):
        text = f'system = "mst2"\n[[sides]]\nname = "A"\nmembers = ["{member}"]\n'
        answer = client.post(
            f"/api/tables/{setup.ford.id}/commands",
            json={"expected_version": 2, "command": {"verb": "import", "encounter_text": text}},
            headers=gm(setup),
        )
        assert answer.status_code == 422 and "hunter2" not in answer.text
        assert "bestiary creature or served sheet file" in answer.json()["error"]
    assert version(client, setup) == 2


def test_a_party_takes_no_file_from_the_home_page(
    client: TestClient, setup: Setup, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.toml"
    secret.write_text(SECRET)
    with Store(setup.db) as store:
        auth = {"Authorization": f"Bearer {store.home_key()}"}
    client.post(
        "/home/do", data={"verb": "party-new", "name": "Co", "system": "mst2"}, headers=auth
    )
    for sheet in (str(secret), str(EXAMPLES / "mst2" / "knight.json")):
        answer = client.post(
            "/home/do", data={"verb": "party-add", "party": "co", "sheet": sheet}, headers=auth
        )
        assert "served sheet file" in answer.text and "hunter2" not in answer.text
    added = client.post(
        "/home/do", data={"verb": "party-add", "party": "co", "sheet": "goblin"}, headers=auth
    )
    assert "Goblin" in added.text


def test_sheets_come_from_the_folders_serve_names(setup: Setup, tmp_path: Path) -> None:
    shelf = tmp_path / "sheets"
    (shelf / "more").mkdir(parents=True)
    (shelf / "more" / "knight.json").write_text((EXAMPLES / "mst2" / "knight.json").read_text())
    (tmp_path / "secret.toml").write_text(SECRET)
    (shelf / "link.toml").symlink_to(tmp_path / "secret.toml")
    with TestClient(create_app(setup.db, poll_s=0.05, sheets=[shelf])) as client:
        added = add_sheet(client, setup, "more/knight.json")
        assert added.status_code == 200, added.text
        shown = client.get(f"/api/tables/{setup.ford.id}", headers=gm(setup)).json()
        assert shown["combatants"][-1]["source"] == str(shelf / "more" / "knight.json")
        for outside in ("../secret.toml", str(tmp_path / "secret.toml"), "link.toml"):
            refused = add_sheet(client, setup, outside)
            assert refused.status_code == 422 and "hunter2" not in refused.text
            assert str(shelf) in refused.json()["tip"]
        page = client.get(f"/t/{setup.ford.id}", headers=gm(setup)).text
        assert "more/knight.json" in page  # the page offers the folder's sheets


def test_serve_sheets_takes_folders_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from affray.web import app as web_app
    from tests.helpers import run

    served: list[Any] = []
    monkeypatch.setattr(web_app, "serve_forever", lambda app, host, port: served.append(app))
    db = str(tmp_path / "t.db")
    result = run("serve", "--db", db, "--sheets", str(EXAMPLES / "mst2"))
    assert result.exit_code == 0, result.output
    assert f"sheet files from {EXAMPLES / 'mst2'}" in result.output
    assert served[0].state.tracker.shelf.folders == (EXAMPLES / "mst2",)
    missing = run("serve", "--db", db, "--sheets", str(tmp_path / "nowhere"))
    assert missing.exit_code == 2 and "does not exist" in missing.output


def test_a_wrong_token_says_the_same_of_a_table_that_is_there_and_one_that_is_not(
    client: TestClient, setup: Setup
) -> None:
    real = setup.ford.gm_token
    one_off = real[:-1] + ("y" if real.endswith("x") else "x")  # never the real token
    for token in ("nonsense", one_off):
        there = client.get(f"/api/tables/{setup.ford.id}?token={token}")
        gone = client.get(f"/api/tables/nowhere?token={token}")
        assert there.status_code == gone.status_code == 401
        assert there.json() == gone.json()
        assert (
            client.get(f"/t/nowhere?token={token}").text
            == client.get(f"/t/{setup.ford.id}?token={token}").text
        )


# -- item 16: the page's add, import and note forms check the version ----------------


def test_the_pages_writes_name_the_version_and_a_stale_one_changes_nothing(
    client: TestClient, setup: Setup
) -> None:
    do = f"/t/{setup.ford.id}/do"
    encounter = 'system = "mst2"\n[[sides]]\nname = "W"\nmembers = ["wolf"]\n'
    writes: list[tuple[dict[str, str], dict[str, Any]]] = [
        ({"verb": "add", "sheet": "goblin"}, {}),
        ({"verb": "import"}, {"encounter_file": ("w.toml", encounter.encode())}),
        ({"verb": "note", "text": "rain"}, {}),
    ]
    for fields, files in writes:
        missing = client.post(do, data=fields, files=files or None, headers=gm(setup))
        assert missing.status_code == 422 and "expected_version" in missing.text
        stale = client.post(
            do, data={**fields, "expected_version": "1"}, files=files or None, headers=gm(setup)
        )
        assert stale.status_code == 200 and "The table changed (now version 2)" in stale.text
    assert version(client, setup) == 2
    for fields, files in writes:
        now = str(version(client, setup))
        done = client.post(
            do, data={**fields, "expected_version": now}, files=files or None, headers=gm(setup)
        )
        assert done.status_code == 200 and version(client, setup) > int(now)


@pytest.mark.slow
def test_the_add_form_sends_the_version_the_board_shows(setup: Setup, small: Running) -> None:
    import shutil

    from playwright.sync_api import expect, sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    row = setup.ford
    sent: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        page.on(
            "request",
            lambda request: sent.append(request.post_data or "") if "/do" in request.url else None,
        )
        page.goto(f"{small.url}/t/{row.id}?token={row.gm_token}")
        expect(page.locator("#panel .panel")).to_be_visible()
        page.select_option("#add-sheet", "goblin")
        page.click("#add-button")
        expect(page.locator('#board .status[data-version="3"]')).to_have_count(1)
        # a terminal writes; the board shows it; the next add is against that version
        terminal(setup.db, "table", "add", row.id, "wolf", "--side", "wild")
        expect(page.locator('#board .status[data-version="4"]')).to_have_count(1)
        page.fill("#note-text", "the bridge is slippery")
        page.click("#note-button")
        expect(page.locator('#board .status[data-version="5"]')).to_have_count(1)
        browser.close()
    assert 'name="expected_version"\r\n\r\n2\r\n' in sent[0]  # multipart: the add form
    assert "expected_version=4" in sent[1]


def test_a_database_locked_by_another_affray_stalls_nothing(
    client: TestClient, setup: Setup
) -> None:
    """Issue 26, item 4 (the server's half): while another process holds the write
    lock, reads answer at once and a write gives up within a few seconds with a 503
    (nothing written), instead of holding the tracker for 30 s."""
    import sqlite3
    import time

    headers = {"Authorization": f"Bearer {setup.ford.gm_token}"}
    ford = f"/api/tables/{setup.ford.id}"
    version = client.get(ford, headers=headers).json()["version"]
    other = sqlite3.connect(setup.db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        began = time.monotonic()
        assert client.get(ford, headers=headers).status_code == 200
        assert time.monotonic() - began < 1.0 * SLOWDOWN
        began = time.monotonic()
        body = {"expected_version": version, "command": {"verb": "note", "text": "hello"}}
        refused = client.post(f"{ford}/commands", json=body, headers=headers)
        assert refused.status_code == 503 and "is busy" in refused.json()["error"]
        assert refused.headers["retry-after"] == "2"
        assert time.monotonic() - began < 5.0 * SLOWDOWN
    finally:
        other.rollback()
        other.close()
    assert client.get(ford, headers=headers).json()["version"] == version  # nothing written
    body = {"expected_version": version, "command": {"verb": "note", "text": "hello"}}
    assert client.post(f"{ford}/commands", json=body, headers=headers).status_code == 200


@pytest.mark.parametrize(
    ("path", "form"),
    [
        ("/t/{table}/do", {"verb": "set", "who": "Spearman", "pairs": "wounds=" + "[" * 100_000}),
        ("/home/do?key={key}", {"verb": "new", "name": "X", "system": "mst2",
                                "options": "order=" + "[" * 100_000}),
    ],
)  # fmt: skip
def test_a_form_value_nested_past_reading_is_a_plain_refusal(
    client: TestClient, setup: Setup, path: str, form: dict[str, str]
) -> None:
    """Hostile round 4, item 5: a board's Set field, and the home form's options, of
    100,000 brackets were a 500 with a RecursionError; they are refused in words (by
    their length, since round 5: no value that long is read at all)."""
    with Store(setup.db) as store:
        key = store.home_key()
    form = {**form, "expected_version": "2"}
    answer = client.post(
        path.format(table=setup.ford.id, key=key),
        data=form,
        headers={"Authorization": f"Bearer {setup.ford.gm_token}"},
    )
    assert answer.status_code == 200, answer.text[:300]
    assert "100,000 characters long" in answer.text and "Traceback" not in answer.text


@pytest.mark.parametrize(
    ("path", "status"), [("/api/tables/ford/commands", 401), ("/nowhere", 404)]
)
def test_tokenless_bodies_that_never_come_cannot_lock_the_game_master_out(
    small: Running, path: str, status: int
) -> None:
    """Hostile round 4, item 1: connections from several addresses each send a
    command's headers with ``Content-Length: 100000`` and a 1-byte body, and read their
    401: each is answered and closed at once (the body it promised is never waited
    for), so the game master's request from another address is served."""
    headers = (
        f"POST {path} HTTP/1.1\r\nHost: x\r\n"
        "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
    ).encode()
    held = []
    for n in range(3 * SMALL.max_connections_per_address):
        sock = connect(small.port, f"127.0.0.{2 + n % 3}")
        sock.sendall(headers)
        held.append(sock)
    answers = []
    for sock in held:  # each reads its answer, and keeps its socket open
        sock.settimeout(5)
        answers.append(sock.recv(12))
    assert all(a.startswith(f"HTTP/1.1 {status}".encode()) for a in answers), set(answers)
    started = time.monotonic()
    shown = httpx.get(
        f"{small.url}/api/tables/{small.setup.ford.id}",
        headers={"Authorization": f"Bearer {small.setup.ford.gm_token}"},
        timeout=10,
    )
    assert shown.status_code == 200
    assert time.monotonic() - started < 1.0 * SLOWDOWN
    for sock in held:
        sock.close()
