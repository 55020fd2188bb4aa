"""Under load (loopback only): 16 players with open event streams while the game
master acts and a second writer keeps sending stale versions. Every update reaches
every player; every stale write is a 409; no update is lost."""

from __future__ import annotations

import json
import threading
import time

import httpx2 as httpx
import pytest

from tests.web.conftest import Server

pytestmark = pytest.mark.slow
CLIENTS = 16
CHANGES = 30


def test_sixteen_streams_see_every_change_and_stale_writes_conflict(server: Server) -> None:
    setup = server.setup
    row = setup.ford
    stream = f"{server.url}/api/tables/{row.id}/stream?token={row.player_token}"
    seen: list[list[int]] = [[] for _ in range(CLIENTS)]
    ready = threading.Barrier(CLIENTS + 1)
    final = 2 + CHANGES

    def watch(i: int) -> None:
        with httpx.stream("GET", stream, timeout=30) as response:
            for line in response.iter_lines():
                if line.startswith("data: "):
                    version = json.loads(line[6:])["version"]
                    seen[i].append(version)
                    if len(seen[i]) == 1:
                        ready.wait()
                    if version >= final:
                        return

    watchers = [threading.Thread(target=watch, args=(i,), daemon=True) for i in range(CLIENTS)]
    for thread in watchers:
        thread.start()
    ready.wait(timeout=10)
    url = f"{server.url}/api/tables/{row.id}/commands"
    gm = {"Authorization": f"Bearer {row.gm_token}"}
    stale_codes: list[int] = []
    stop = threading.Event()

    def stale_writer() -> None:
        with httpx.Client(headers=gm, timeout=30) as client:
            while not stop.is_set():
                body = {"expected_version": 1, "command": {"verb": "note", "text": "stale"}}
                stale_codes.append(client.post(url, json=body).status_code)
                time.sleep(0.005)

    stale = threading.Thread(target=stale_writer)
    stale.start()
    with httpx.Client(headers=gm, timeout=30) as client:
        for version in range(2, final):
            body = {"expected_version": version, "command": {"verb": "note", "text": f"{version}"}}
            assert client.post(url, json=body).status_code == 200
    stop.set()
    stale.join()
    for thread in watchers:
        thread.join(timeout=10)
    assert all(versions[-1] == final for versions in seen)
    assert all(versions == sorted(set(versions)) for versions in seen)  # in order, no repeats
    assert stale_codes and set(stale_codes) == {409}
    with httpx.Client(headers=gm) as client:
        shown = client.get(f"{server.url}/api/tables/{row.id}").json()
    assert shown["version"] == final
