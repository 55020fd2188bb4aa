"""Sweeps on Dask: a local cluster, and a scheduler and workers started as separate
processes on 127.0.0.1 (the standard ``dask scheduler`` / ``dask worker``
commands), give results.csv byte for byte as this process does."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.explore.conftest import WriteSweep
from tests.helpers import run, run_json

pytestmark = pytest.mark.slow

SWEEP = """
a = "guard.toml"
b = "brawler.toml"
n = 4000
seed = 2
[[axes]]
side = "a"
key = "attack_bonus"
values = [0, 2, 4]
[[axes]]
side = "b"
key = "armour_class"
values = [8, 12, 16, -1]
"""


def dask_command() -> list[str]:
    """The ``dask`` console script of this environment."""
    script = Path(sys.executable).parent / "dask"
    if script.exists():
        return [str(script)]
    found = shutil.which("dask")
    assert found is not None, "dask[distributed] is a dependency of affray"
    return [found]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def scheduler(tmp_path: Path) -> Iterator[str]:
    """A Dask scheduler and one worker process of two single-threaded workers, on
    loopback; both stopped after the test."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    logs = (tmp_path / "scheduler.log").open("w"), (tmp_path / "worker.log").open("w")
    processes = [
        subprocess.Popen(
            [
                *dask_command(),
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--dashboard-address",  # its web server, dashboard or not: a free port
                "127.0.0.1:0",
                "--no-show",
            ],
            stdout=logs[0],
            stderr=subprocess.STDOUT,
        )
    ]
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.1)
        processes.append(
            subprocess.Popen(
                [
                    *dask_command(),
                    "worker",
                    address,
                    "--nworkers",
                    "2",
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                    "--host",
                    "127.0.0.1",
                ],
                stdout=logs[1],
                stderr=subprocess.STDOUT,
            )
        )
        yield address
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in reversed(processes):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        for log in logs:
            log.close()


def test_local_cluster_and_a_running_scheduler_give_the_same_results(
    write_sweep: WriteSweep, tmp_path: Path, scheduler: str
) -> None:
    sweep = write_sweep(SWEEP)
    here = run_json("explore", str(sweep), "--out", str(tmp_path / "here"), "--workers", "1")
    local = run_json(
        "explore",
        str(sweep),
        "--out",
        str(tmp_path / "local"),
        "--dask",
        "local",
        "--workers",
        "2",
    )
    remote = run_json("explore", str(sweep), "--out", str(tmp_path / "remote"), "--dask", scheduler)
    for data in (here, local, remote):
        assert (data["cells"], data["computed"], data["invalid"]) == (12, 9, 3)
    expected = (tmp_path / "here" / "results.csv").read_bytes()
    assert expected.count(b"\n") == 13
    assert (tmp_path / "local" / "results.csv").read_bytes() == expected
    assert (tmp_path / "remote" / "results.csv").read_bytes() == expected


def test_a_bad_address_and_a_silent_one_are_said_plainly(
    write_sweep: WriteSweep, tmp_path: Path
) -> None:
    sweep = write_sweep(SWEEP)
    bad = run("explore", str(sweep), "--out", str(tmp_path / "o"), "--dask", "my-laptop")
    assert bad.exit_code == 2
    assert "'my-laptop' is not a Dask scheduler address" in bad.stderr
    assert "--dask tcp://HOST:PORT" in bad.stderr
    silent = f"tcp://127.0.0.1:{free_port()}"
    started = time.monotonic()
    nobody = run("explore", str(sweep), "--out", str(tmp_path / "o"), "--dask", silent)
    assert nobody.exit_code == 2
    assert f"no Dask scheduler answers at {silent}" in nobody.stderr
    assert "Tip: start one with: dask scheduler" in nobody.stderr
    assert time.monotonic() - started < 30
    both = run("explore", str(sweep), "--dask", silent, "--workers", "2")
    assert both.exit_code == 2 and "a running scheduler has its own" in both.stderr


def test_something_else_at_the_address_is_said_plainly_in_time(
    write_sweep: WriteSweep, tmp_path: Path
) -> None:
    """A web server where the scheduler should be: Dask's handshake alone would wait
    on it for ever."""
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        address = f"tcp://127.0.0.1:{server.server_address[1]}"
        started = time.monotonic()
        result = run(
            "explore", str(write_sweep(SWEEP)), "--out", str(tmp_path / "o"), "--dask", address
        )
        assert time.monotonic() - started < 30
    finally:
        server.shutdown()
        server.server_close()
    assert result.exit_code == 2
    assert f"no Dask scheduler answers at {address}" in result.stderr


def test_ctrl_c_stops_a_local_cluster_at_once(write_sweep: WriteSweep, tmp_path: Path) -> None:
    """Issue 26, item 14: Ctrl-C of `explore --dask local` while its workers are at
    long cells ends within a second or so (it took 1.4 to 4 s, waiting for the cells),
    with no traceback and no worker left behind."""
    import os
    import signal

    from tests.cli.test_cli import children_of, ctrl_c_as_at_a_terminal, gone
    from tests.helpers import SCRIPT

    sweep = write_sweep(SWEEP.replace("n = 4000", "n = 50000000"))
    process = subprocess.Popen(
        [*SCRIPT, "explore", str(sweep), "--dask", "local", "--workers", "2",
         "--out", str(tmp_path / "out")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_as_at_a_terminal,
        env={**os.environ, "AFFRAY_ESTIMATE_SECONDS": "0"},
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while len(children_of(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(4)  # the workers are at their cells
        workers = children_of(process.pid)
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130 and "Traceback" not in err
    assert took < 3  # loose for a busy machine: measured 0.2 s
    assert workers and gone(workers, within=5)


def test_a_day_on_dask_is_the_day_here(scheduler: str) -> None:
    """``affray day --dask``: the days' chunks on a local cluster and on a running
    scheduler give the answer this machine's processes give for the seed."""
    road = str(Path(__file__).resolve().parents[2] / "examples" / "days" / "road.toml")
    here = run_json("day", road, "-n", "3000", "--seed", "8", "--workers", "1")
    local = run_json("day", road, "-n", "3000", "--seed", "8", "--dask", "local", "--workers", "2")
    remote = run_json("day", road, "-n", "3000", "--seed", "8", "--dask", scheduler)
    assert here["n"] == 3000 and here["engine"] == "fast MST-2 group engine"
    assert local == here
    assert remote == here
