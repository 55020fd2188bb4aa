"""The web tracker while the fight's odds are being worked out: 16 clients with open
event streams, the game master acting through the JSON API and asking for the odds
after each action (as the page does), and a reader GETting the table all along.
Prints the p50, p95 and longest time of the reader's GETs (target: p95 under 50 ms).
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx2 as httpx
from tracker_load import percentile, serving

CLIENTS = 16
ACTIONS = 40


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "load.db"
        row, running = serving(db, "midian", ("brawler.toml", "guard.toml"), 8)
        base = f"{running.url}/api/tables/{row.id}"
        odds = f"{running.url}/t/{row.id}/part/odds"
        auth = {"Authorization": f"Bearer {row.gm_token}"}

        def watch() -> None:
            with httpx.stream("GET", f"{base}/stream?token={row.player_token}", timeout=120) as r:
                for _ in r.iter_lines():
                    if running.should_exit:
                        return

        for _ in range(CLIENTS):
            threading.Thread(target=watch, daemon=True).start()
        reads: list[float] = []
        done = threading.Event()

        def read() -> None:
            with httpx.Client(headers=auth) as client:
                while not done.is_set():
                    start = time.perf_counter()
                    client.get(base).raise_for_status()
                    reads.append(time.perf_counter() - start)
                    time.sleep(0.01)

        reader = threading.Thread(target=read, daemon=True)
        with httpx.Client(headers=auth, timeout=60) as client:
            client.post(
                f"{base}/commands", json={"expected_version": 8, "command": {"verb": "start"}}
            ).raise_for_status()
            reader.start()
            for n in range(ACTIONS):
                shown = client.get(base).json()
                client.get(odds)  # the page asks for the odds after every change
                time.sleep(0.3)
                if shown["phase"] == "over":
                    command: dict[str, object] = {"verb": "undo", "steps": 3}
                else:
                    command = {"verb": "next", "seed": n} if n % 3 else {"verb": "next"}
                response = client.post(
                    f"{base}/commands",
                    json={"expected_version": shown["version"], "command": command},
                )
                assert response.status_code in (200, 422), response.text
        done.set()
        reader.join()
        running.should_exit = True
        print(
            f"{CLIENTS} streams, {len(reads)} GETs while the odds of {ACTIONS} changes were "
            f"worked out: p50 {percentile(reads, 50):.1f} ms, p95 {percentile(reads, 95):.1f} "
            f"ms, max {max(reads) * 1000:.0f} ms (target: p95 under 50 ms)"
        )
        sys.stdout.flush()


if __name__ == "__main__":
    main()
