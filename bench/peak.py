"""Wall time and peak memory of a command, measured from a small process of its own.

A process's peak resident set (``ru_maxrss``) starts from what its parent held
when it forked: Linux carries the high-water mark across fork and exec. A command
started straight from a bench that has loaded numpy and numba would look as big as
the bench. So the benches start it through this helper, a bare interpreter, which
runs the command and reports its time and the peak resident set of its largest
process (workers included, which it waits for).

Run alone: ``python bench/peak.py COMMAND [ARG ...]`` prints the figures as JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Peak:
    """What a command took: seconds of wall-clock time, its peak resident set in
    MiB, and what it printed."""

    seconds: float
    rss_mib: float
    stdout: str


def measure(command: list[str], env: dict[str, str] | None = None) -> Peak:
    """Run ``command`` through this helper (see the module's docstring).

    Raises:
        RuntimeError: the command failed; the message is what it printed on stderr.
    """
    out = subprocess.run(
        [sys.executable, __file__, *command],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    found = json.loads(out.stdout)
    if found["returncode"] != 0:
        raise RuntimeError(found["stderr"])
    return Peak(found["seconds"], found["rss"] / 1024, found["stdout"])


def main() -> None:
    with tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=err)
        assert process.stdout is not None
        out = process.stdout.read()
        # wait4 reports the child's peak and that of the workers it waited for
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        process.stdout.close()
        err.seek(0)
        print(
            json.dumps(
                {
                    "seconds": seconds,
                    "rss": usage.ru_maxrss,
                    "returncode": process.returncode,
                    "stdout": out.decode(),
                    "stderr": err.read().decode(),
                }
            )
        )


if __name__ == "__main__":
    main()
