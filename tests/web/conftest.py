"""A table database with two tables, the web app over it, and a real server."""

from __future__ import annotations

import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Page
from starlette.testclient import TestClient

from affray.table import Store, TableRow, Tables
from affray.web import create_app
from affray.web.app import server as tracker_server
from tests.helpers import EXAMPLES


@dataclass
class Setup:
    db: Path
    ford: TableRow
    inn: TableRow


def make_tables(db: Path) -> Setup:
    tables = Tables(Store(db))
    ford = tables.new("Ford", "mst2")
    for sheet, side, player in (
        ("mst2/spearman.toml", "levy", True),
        ("mst2/sellsword.toml", "blades", False),
    ):
        tables.run(ford, tables.joining(ford, str(EXAMPLES / sheet), side=side, player=player))
    inn = tables.new("Inn brawl", "midian")
    for sheet, side in (("midian/guard.toml", "watch"), ("midian/brawler.toml", "rowdies")):
        tables.run(inn, tables.joining(inn, str(EXAMPLES / sheet), side=side))
    tables.store.close()
    return Setup(db, ford, inn)


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    return make_tables(tmp_path / "tables.db")


@pytest.fixture
def client(setup: Setup) -> Iterator[TestClient]:
    with TestClient(create_app(setup.db, poll_s=0.05)) as test_client:
        yield test_client


@dataclass
class Server:
    url: str
    setup: Setup


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def server(setup: Setup) -> Iterator[Server]:
    """The tracker on 127.0.0.1 and a free port, in a thread; stopped at the end."""
    port = free_port()
    running = tracker_server(create_app(setup.db, poll_s=0.05), "127.0.0.1", port)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120  # a guard against a hang, not a measure of speed
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield Server(f"http://127.0.0.1:{port}", setup)
    running.should_exit = True
    thread.join(timeout=10)


SHOTS = Path(os.environ.get("AFFRAY_SCREENSHOTS") or tempfile.mkdtemp(prefix="affray-shots-"))
"""Where the pages' screenshots go: AFFRAY_SCREENSHOTS, or a folder of the run's own."""


def shots(page: Page, name: str) -> None:
    """The page at both sizes people use (a laptop's 1280×800, a phone's 390×844), each
    a whole-page screenshot ``NAME-WIDTH.png`` in :data:`SHOTS`, looked at when the
    tests change; the page is left at the size it had."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    if size is not None:
        page.set_viewport_size(size)
