"""Start-up cost of the CLI: `affray --help` against a bare interpreter, in one run.

Target (SPEC): `affray --help` under 0.3 s. Prints medians of several runs and
the ratio to `python -c pass` so that a noisy machine shows in both.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

RUNS = 15
AFFRAY = Path(sys.executable).with_name("affray")


def median_seconds(command: list[str]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


@dataclass(frozen=True, slots=True)
class StartupFigures:
    """Median seconds of a bare interpreter, of ``affray --help`` and of an odds command."""

    bare: float
    help: float
    attack: float


def measure(say: Callable[[str], None] = print) -> StartupFigures:
    """Time the commands and print a line for each, in this one run."""
    say("== CLI start-up, median of 15 runs")
    bare = median_seconds([sys.executable, "-c", "pass"])
    help_ = median_seconds([str(AFFRAY), "--help"])
    attack = median_seconds(
        [str(AFFRAY), "mst2", "odds", "examples/mst2/ogre.toml", "examples/mst2/knight.json"]
    )
    say(f"  python -c pass           {bare * 1000:7.1f} ms")
    ratio = help_ / bare
    say(f"  affray --help            {help_ * 1000:7.1f} ms  ({ratio:.1f}x bare; target < 300 ms)")
    say(f"  affray mst2 odds (ogre)  {attack * 1000:7.1f} ms  ({attack / bare:.1f}x bare)")
    return StartupFigures(bare, help_, attack)


def main() -> None:
    measure()


if __name__ == "__main__":
    main()
