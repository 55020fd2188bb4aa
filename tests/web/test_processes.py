"""One database, many processes: a real `affray serve` and real `affray table …`
processes on one file, as a game master uses them at an evening.

* The server's descriptors never hold a deleted WAL after a terminal reads (the
  split that lost acknowledged changes).
* Mixed writers (the JSON API and the terminal), with kill -9 of the server and of
  terminal writers at random moments: every acknowledged change is there afterwards,
  versions are never given twice, and `PRAGMA integrity_check` is ok.
* A page open in Chromium shows a terminal's change within a second.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import SLOWDOWN
from tests.web.conftest import Setup, free_port, make_tables

AFFRAY = [sys.executable, "-m", "affray"]
LIVE_MS = 1000 * SLOWDOWN
"""A page shows another process's change within a second (bench/live.py measures it)."""


@dataclass
class Served:
    """A real `affray serve` process on a database."""

    db: Path
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def serve(db: Path, port: int, log: Path | None = None) -> Served:
    """``affray serve`` on ``db`` (what it says on stderr into ``log``, if given)."""
    said = log.open("w") if log is not None else subprocess.DEVNULL
    process = subprocess.Popen(
        [*AFFRAY, "serve", "--db", str(db), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=said,
        start_new_session=True,
    )
    if log is not None:
        said.close()  # type: ignore[union-attr]
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/nowhere", timeout=2)
        except urllib.error.HTTPError as error:
            error.close()
            break  # it answers
        except OSError:
            assert process.poll() is None, "affray serve exited"
            assert time.monotonic() < deadline, "affray serve did not start"
            time.sleep(0.1)
    return Served(db, port, process)


def stop(served: Served, sig: int = signal.SIGTERM) -> None:
    if served.process.poll() is None:
        os.killpg(served.process.pid, sig)
    served.process.wait(timeout=30)


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    return make_tables(tmp_path / "tables.db")


@pytest.fixture
def served(setup: Setup) -> Iterator[Served]:
    running = serve(setup.db, free_port())
    yield running
    stop(running)


def get_table(served: Served, token: str, table: str) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{served.url}/api/tables/{table}", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        found: dict[str, Any] = json.loads(answer.read())
        return found


def post_note(served: Served, token: str, table: str, text: str) -> int | None:
    """A note through the API at the version just read (read again after a 409: the
    terminal wrote meanwhile): its version if acknowledged (200), else None."""
    for _ in range(5):
        try:
            version = get_table(served, token, table)["version"]
            body = json.dumps(
                {"expected_version": version, "command": {"verb": "note", "text": text}}
            ).encode()
            request = urllib.request.Request(
                f"{served.url}/api/tables/{table}/commands",
                data=body,
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
                method="POST",
            )
            with urllib.request.urlopen(request, timeout=30) as answer:
                return int(json.loads(answer.read())["version"])
        except urllib.error.HTTPError as error:
            error.close()
            if error.code != 409:
                return None
        except (OSError, ValueError):  # the server was killed: not acknowledged
            return None
    return None


def terminal(db: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*AFFRAY, *args, "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def deleted_files(pid: int) -> list[str]:
    """The files the process holds open that are gone from their folder."""
    found = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.endswith(" (deleted)"):
            found.append(target)
    return found


def notes_of(db: Path, table: str) -> list[str]:
    done = terminal(db, "table", "show", table, "--json")
    assert done.returncode == 0, done.stderr
    notes: list[str] = json.loads(done.stdout)["notes"]
    return notes


def sound(db: Path) -> None:
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        dupes = raw.execute(
            "SELECT table_id, version, count(*) FROM changes GROUP BY table_id, version "
            "HAVING count(*) > 1"
        ).fetchall()
        assert dupes == []
    raw.close()


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="needs /proc (Linux)")
def test_a_terminal_beside_the_server_never_splits_the_database(served: Served) -> None:
    setup = Setup(served.db, *_rows(served.db))
    for verb in (
        ("table", "show", "ford"),
        ("table", "list"),
        ("table", "log", "ford"),
        ("table", "note", "ford", "from the terminal"),
        ("party", "list"),
    ):
        done = terminal(served.db, *verb)
        assert done.returncode == 0, done.stderr
        assert deleted_files(served.process.pid) == [], verb
    # the server sees the terminal's change, and the terminal the server's
    assert post_note(served, setup.ford.gm_token, "ford", "from the server") is not None
    assert notes_of(served.db, "ford") == ["from the terminal", "from the server"]
    shown = get_table(served, setup.ford.gm_token, "ford")
    assert shown["notes"] == ["from the terminal", "from the server"]
    # a stale version from the server is a 409, never an overwrite
    stale = json.dumps(
        {"expected_version": 3, "command": {"verb": "note", "text": "stale"}}
    ).encode()
    request = urllib.request.Request(
        f"{served.url}/api/tables/ford/commands",
        data=stale,
        headers={"Authorization": f"Bearer {setup.ford.gm_token}"},
        method="POST",
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    refused.value.close()
    assert refused.value.code == 409
    sound(served.db)


def _rows(db: Path) -> tuple[Any, Any]:
    from affray.table import Store

    with Store(db, readonly=True) as store:
        return store.table("ford"), store.table("inn-brawl")


@pytest.mark.slow
def test_mixed_writers_and_kill_9_lose_no_acknowledged_change(setup: Setup) -> None:
    """Eight lives of the server, each ended by kill -9 at a random moment while API
    notes, terminal notes and terminal reads go on; some terminal writers killed -9
    too. Every acknowledged note is in the log afterwards."""
    rng = random.Random(34)
    acknowledged: list[str] = []
    db = setup.db
    for life in range(8):
        served = serve(db, free_port())
        try:
            writers: list[tuple[str, subprocess.Popen[str]]] = []
            for n in range(6):
                text = f"api {life}.{n}"
                if post_note(served, setup.ford.gm_token, "ford", text) is not None:
                    acknowledged.append(text)
                text = f"cli {life}.{n}"
                writer = subprocess.Popen(
                    [*AFFRAY, "table", "note", "ford", text, "--db", str(db)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    text=True,
                )
                writers.append((text, writer))
                if rng.random() < 0.3:
                    time.sleep(rng.uniform(0.0, 0.3))
                    writer.kill()  # kill -9 of a terminal writer, perhaps mid-write
                if rng.random() < 0.5:
                    assert terminal(db, "table", "show", "ford").returncode == 0
                    assert deleted_files(served.process.pid) == []
            time.sleep(rng.uniform(0.0, 0.5))
        finally:
            stop(served, signal.SIGKILL)
        for text, writer in writers:
            if writer.wait(timeout=60) == 0:
                acknowledged.append(text)
    kept = notes_of(db, "ford")
    assert set(acknowledged) <= set(kept)
    assert len(kept) == len(set(kept))
    sound(db)


@pytest.mark.slow
def test_a_page_shows_a_terminal_change_within_a_second(served: Served) -> None:
    from playwright.sync_api import expect, sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    ford, _ = _rows(served.db)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(f"{served.url}/t/ford?token={ford.gm_token}")
            player = browser.new_page(viewport={"width": 390, "height": 844})
            player.goto(f"{served.url}/p/ford?token={ford.player_token}")
            for n, wounds in enumerate((2, 4, 1), start=1):
                done = terminal(served.db, "table", "set", "ford", "Spearman", f"wounds={wounds}")
                assert done.returncode == 0, done.stderr
                version = 2 + n
                expect(page.locator(f'#panel .panel[data-version="{version}"]')).to_have_count(
                    1, timeout=LIVE_MS
                )
                expect(page.locator('tr[data-id="Spearman"] [data-key="wounds"]')).to_have_text(
                    str(wounds), timeout=LIVE_MS
                )
                expect(player.locator(f'#board .status[data-version="{version}"]')).to_have_count(
                    1, timeout=LIVE_MS
                )
        finally:
            browser.close()


def test_a_read_never_waits_for_another_process_write_lock(served: Served) -> None:
    """Another process holds the write lock: the server's write waits for it (then a
    503), and meanwhile its reads answer at once, before the write gives up."""
    import threading

    ford, _ = _rows(served.db)
    holder = sqlite3.connect(served.db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    finished: list[str] = []
    written: list[int | None] = []

    def write() -> None:
        written.append(post_note(served, ford.gm_token, "ford", "waits"))
        finished.append("write")

    writer = threading.Thread(target=write)
    try:
        writer.start()
        time.sleep(0.3)  # the write is waiting for the lock now
        for _ in range(3):
            assert get_table(served, ford.gm_token, "ford")["version"] == 2
            assert get_table(served, ford.player_token, "ford")["version"] == 2
        finished.append("reads")
        writer.join(timeout=60)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert finished == ["reads", "write"]
    assert written == [None]  # a 503: nothing written while the lock was held
    assert post_note(served, ford.gm_token, "ford", "after") == 3


def test_ctrl_c_stops_a_server_whose_write_waits_for_another_lock(setup: Setup) -> None:
    """Hostile round 4, item 8: Ctrl-C of `affray serve` while one of its writes waited
    for another process's lock took over two seconds. The write gives up at once (a
    503), and the server stops quietly, with no traceback."""
    import threading

    log = setup.db.with_name("serve.log")
    running = serve(setup.db, free_port(), log)
    ford, _ = _rows(setup.db)
    holder = sqlite3.connect(setup.db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    written: list[str] = []

    def write() -> None:
        body = json.dumps({"expected_version": 2, "command": {"verb": "note", "text": "late"}})
        request = urllib.request.Request(
            f"{running.url}/api/tables/ford/commands",
            data=body.encode(),
            headers={"Authorization": f"Bearer {ford.gm_token}"},
            method="POST",
        )
        try:
            urllib.request.urlopen(request, timeout=30).close()
            written.append("written")
        except urllib.error.HTTPError as error:
            written.append(error.read().decode())
            error.close()
        except OSError as error:
            written.append(f"gone: {error}")

    try:
        writer = threading.Thread(target=write)
        writer.start()
        time.sleep(0.5)  # the write waits for the lock now
        sent = time.monotonic()
        os.killpg(running.process.pid, signal.SIGINT)
        running.process.wait(timeout=30)
        took = time.monotonic() - sent
        writer.join(timeout=30)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert took < 1.5 * SLOWDOWN, took
    said = log.read_text()
    assert "Traceback" not in said and "Exception" not in said, said
    (answer,) = written  # given up because the server stops, not after waiting its time
    assert "this affray is stopping" in answer, answer
    assert notes_of(setup.db, "ford") == []


def test_ctrl_c_stops_a_server_in_the_middle_of_an_upload(setup: Setup) -> None:
    """Hostile round 4, item 8: Ctrl-C of `affray serve` while a client was half way
    through sending an import took over two seconds and printed "Exception in ASGI
    application … CancelledError". The server stops within its grace, quietly, and the
    half-sent import changes nothing."""
    import socket

    log = setup.db.with_name("serve.log")
    running = serve(setup.db, free_port(), log)
    ford, _ = _rows(setup.db)
    before = notes_of(setup.db, "ford")
    command = {"verb": "note", "text": "x" * 200_000}
    body = json.dumps({"expected_version": 2, "command": command}).encode()
    with socket.create_connection(("127.0.0.1", running.port), timeout=30) as upload:
        upload.sendall(
            b"POST /api/tables/ford/commands HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + f"Authorization: Bearer {ford.gm_token}\r\n".encode()
            + b"Content-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body[:50_000]
        )
        time.sleep(0.5)  # the server reads the body, which is a quarter here
        sent = time.monotonic()
        os.killpg(running.process.pid, signal.SIGINT)
        running.process.wait(timeout=30)
        took = time.monotonic() - sent
    assert took < 1.5 * SLOWDOWN, took
    said = log.read_text()
    assert "Traceback" not in said and "Exception" not in said, said
    assert "CancelledError" not in said, said
    assert notes_of(setup.db, "ford") == before
    sound(setup.db)
