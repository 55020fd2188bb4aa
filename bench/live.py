"""Two promises measured, where the tests only bound them loosely (by the one factor
AFFRAY_TEST_SLOWDOWN that a loaded machine needs):

* a Ctrl-C stops the compiled MST-2 duel kernel within a second;
* a change made by a terminal (`affray table note`, its own process) reaches a live
  stream of a running `affray serve` within a second.

Prints each figure over a few runs (median and worst), measured here and now.
"""

from __future__ import annotations

import json
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.sim.test_mst2_fast import INTERRUPTED  # noqa: E402

AFFRAY = [sys.executable, "-m", "affray"]
RUNS = 5


def ctrl_c_seconds() -> float:
    process = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    assert process.stdout.readline() == "ready\n"
    time.sleep(0.5)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=60)
    assert out == "stopped\n", out
    return time.monotonic() - sent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stream_seconds(folder: Path) -> list[tuple[float, float]]:
    """Seconds from each terminal note's exit (its change committed before) to its
    version on the live stream, and from the terminal's start (its Python starting
    up included)."""
    db = folder / "t.db"
    made = subprocess.run(
        [*AFFRAY, "table", "new", "Live", "--system", "mst2", "--db", str(db), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    token = json.loads(made.stdout)["gm_token"]
    port = free_port()
    server = subprocess.Popen(
        [*AFFRAY, "serve", "--db", str(db), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}/api/tables/live/stream?token={token}"
        for _ in range(100):
            try:
                stream = urllib.request.urlopen(url, timeout=30)
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit("affray serve did not start")
        times = []
        with stream:
            next_version(stream)
            for n in range(RUNS):
                began = time.monotonic()
                subprocess.run(
                    [*AFFRAY, "table", "note", "live", f"note {n}", "--db", str(db)],
                    stdout=subprocess.DEVNULL,
                    check=True,
                )
                done = time.monotonic()
                next_version(stream)
                times.append((time.monotonic() - done, time.monotonic() - began))
        return times
    finally:
        server.terminate()
        server.wait(timeout=30)


def next_version(stream: object) -> int:
    for raw in stream:  # type: ignore[attr-defined]
        line = raw.decode().strip()
        if line.startswith("data: "):
            return int(json.loads(line[6:])["version"])
    raise SystemExit("the stream ended")


def main() -> None:
    stops = [ctrl_c_seconds() for _ in range(RUNS)]
    print(
        f"Ctrl-C of the compiled kernel: median {statistics.median(stops):.2f} s, "
        f"worst {max(stops):.2f} s (promise: within 1 s)"
    )
    with tempfile.TemporaryDirectory() as folder:
        seen = stream_seconds(Path(folder))
    after = [exit for exit, _ in seen]
    whole = [start for _, start in seen]
    print(
        "a terminal's change on a server's live stream, after the terminal exits: median "
        f"{statistics.median(after):.2f} s, worst {max(after):.2f} s (promise: within 1 s); "
        f"from the terminal's start: median {statistics.median(whole):.2f} s"
    )


if __name__ == "__main__":
    main()
