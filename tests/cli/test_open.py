"""`serve --open` and `explore --open` (issue 28, item 3) open their page in the
browser: the one $BROWSER names, here a script that writes down what it was given."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path

from tests.helpers import EXAMPLES, SCRIPT


def _browser(tmp_path: Path) -> tuple[dict[str, str], Path]:
    seen = tmp_path / "opened.txt"
    script = tmp_path / "browser"
    script.write_text(f'#!/bin/sh\necho "$1" >> {seen}\n')
    script.chmod(0o755)
    return {**os.environ, "BROWSER": str(script)}, seen


def test_explore_open_opens_the_report(tmp_path: Path) -> None:
    env, seen = _browser(tmp_path)
    out = tmp_path / "out"
    sweep = str(EXAMPLES / "sweeps" / "knight_vs_ogre.toml")
    ran = subprocess.run(
        [*SCRIPT, "explore", sweep, "--out", str(out), "--workers", "1", "--open"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ran.returncode == 0, ran.stderr
    for _ in range(50):  # the browser runs on its own
        if seen.exists():
            break
        time.sleep(0.1)
    assert seen.read_text().strip() == (out / "report.html").resolve().as_uri()


def test_serve_open_opens_the_home_page_once_it_is_up(tmp_path: Path) -> None:
    env, seen = _browser(tmp_path)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = str(tmp_path / "t.db")
    with subprocess.Popen(
        [*SCRIPT, "serve", "--db", db, "--port", str(port), "--open"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as server:
        try:
            for _ in range(200):
                if seen.exists() and seen.read_text().strip():
                    break
                time.sleep(0.1)
            opened = seen.read_text().strip()
        finally:
            server.terminate()
            server.wait(timeout=20)
    assert opened.startswith(f"http://127.0.0.1:{port}/?key=")
