"""The web tracker under load, on loopback: 16 clients with open event streams while
the game master acts (attacks, passes, new rounds) through the JSON API. Prints the
p50/p95 time per action (request to answer) and per update (request to each
client's event), and checks that no update is lost.
"""

from __future__ import annotations

import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx

from affray.table import Store, TableRow, Tables
from affray.web import create_app
from affray.web.app import server

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CLIENTS = 16
ACTIONS = 200


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] * 1000


def serving(db: Path, system: str, sheets: tuple[str, str], count: int) -> tuple[TableRow, Any]:
    """A table of ``count`` combatants of ``system`` (the two sheets in turn, on two
    sides) in ``db``, and the tracker serving it on loopback (started)."""
    tables = Tables(Store(db))
    row = tables.new("Load", system)
    for i in range(count):
        sheet = EXAMPLES / system / sheets[i % 2]
        tables.run(row, tables.joining(row, str(sheet), side="AB"[i % 2]))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    running = server(create_app(db, poll_s=0.2), "127.0.0.1", port)
    running.url = f"http://127.0.0.1:{port}"
    threading.Thread(target=running.run, daemon=True).start()
    while not running.started:
        time.sleep(0.01)
    return row, running


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "load.db"
        row, running = serving(db, "mst2", ("ogre.toml", "knight.json"), 10)
        port = running.url.rsplit(":", 1)[1]
        base = f"http://127.0.0.1:{port}/api/tables/{row.id}"
        arrivals: list[dict[int, float]] = [{} for _ in range(CLIENTS)]
        ready = threading.Barrier(CLIENTS + 1)

        def watch(i: int) -> None:
            with httpx.stream("GET", f"{base}/stream?token={row.player_token}", timeout=60) as r:
                for line in r.iter_lines():
                    if line.startswith("data: "):
                        arrivals[i][json.loads(line[6:])["version"]] = time.perf_counter()
                        if len(arrivals[i]) == 1:
                            ready.wait()
                        if running.should_exit:
                            return

        for i in range(CLIENTS):
            threading.Thread(target=watch, args=(i,), daemon=True).start()
        ready.wait(timeout=30)
        sent: dict[int, float] = {}
        action_s: list[float] = []
        with httpx.Client(headers={"Authorization": f"Bearer {row.gm_token}"}) as client:
            shown = client.get(base).json()
            version = shown["version"]
            for n in range(ACTIONS):
                if shown["phase"] == "setup":
                    command: dict[str, object] = {"verb": "start"}
                elif shown["phase"] == "turn":
                    foes = [c["id"] for c in shown["combatants"] if c["condition"] == "fighting"]
                    target = next(f for f in foes if f != shown["turn"])
                    command = {
                        "verb": "act",
                        "actor": shown["turn"],
                        "action": "attack",
                        "target": target,
                        "seed": n,
                    }
                elif shown["phase"] == "over":
                    command = {"verb": "undo", "steps": 5}
                else:
                    command = {"verb": "next", "seed": n}
                start = time.perf_counter()
                response = client.post(
                    f"{base}/commands", json={"expected_version": version, "command": command}
                )
                action_s.append(time.perf_counter() - start)
                if response.status_code == 422:  # an illegal target, say: pass instead
                    response = client.post(
                        f"{base}/commands",
                        json={"expected_version": version, "command": {"verb": "next"}},
                    )
                assert response.status_code == 200, response.text
                version = response.json()["version"]
                sent[version] = start
                shown = client.get(base).json()
        deadline = time.perf_counter() + 5
        while time.perf_counter() < deadline and not all(version in a for a in arrivals):
            time.sleep(0.05)
        running.should_exit = True
        update_s = [a[v] - t for a in arrivals for v, t in sent.items() if v in a]
        lost = [i for i, a in enumerate(arrivals) if version not in a]
        print(
            f"{CLIENTS} streams, {len(action_s)} actions: per action p50 "
            f"{percentile(action_s, 50):.1f} ms, p95 {percentile(action_s, 95):.1f} ms; "
            f"per update p50 {percentile(update_s, 50):.1f} ms, "
            f"p95 {percentile(update_s, 95):.1f} ms; clients missing the last version: "
            f"{len(lost)}"
        )
        sys.stdout.flush()


if __name__ == "__main__":
    main()
