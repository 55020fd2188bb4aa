"""Fast Midian duel simulation against the reference engine, measured in one run.

Targets (SPEC): at least 100,000 duels a second on one core for the example pair
(guard vs brawler), at least 300x the reference engine (every duel through the
encounter engine), memory flat in n. Each figure is measured here, on one core:
the two engines' duels a second and their ratio, then the peak memory of a whole
process simulating 10^6 and 10^7 duels (tracemalloc's peak of Python and numpy
allocations, and the process's peak resident set).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import peak

from affray.registry import system
from affray.rulesystems.midian.sim.duels import simulate_midian_fast
from affray.sheets import load_sheet
from affray.sim import simulate_reference

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "midian"
A, B = EXAMPLES / "guard.toml", EXAMPLES / "brawler.toml"

MEMORY = """
import json, resource, sys, tracemalloc
from affray.sheets import load_sheet
from affray.rulesystems.midian.sim.duels import simulate_midian_fast
a, b = load_sheet(sys.argv[1]), load_sheet(sys.argv[2])
tracemalloc.start()
stats, _ = simulate_midian_fast(a, b, int(sys.argv[3]), seed=1, workers=1)
traced = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
print(json.dumps({"n": stats.n, "traced": traced,
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
"""


def rate_fast(n: int) -> tuple[float, float]:
    """Duels a second, of wall-clock time and of CPU time (the second is steadier on a
    busy machine)."""
    a, b = load_sheet(A), load_sheet(B)
    simulate_midian_fast(a, b, 10_000, seed=2, workers=1)  # warm up
    wall, cpu = time.perf_counter(), time.process_time()
    simulate_midian_fast(a, b, n, seed=1, workers=1)
    return n / (time.perf_counter() - wall), n / (time.process_time() - cpu)


def rate_reference(n: int) -> tuple[float, float]:
    a, b = load_sheet(A), load_sheet(B)
    ruleset = system("midian").duel_ruleset()
    simulate_reference(a, b, ruleset, 50, seed=2)  # warm up
    wall, cpu = time.perf_counter(), time.process_time()
    simulate_reference(a, b, ruleset, n, seed=1, workers=1)
    return n / (time.perf_counter() - wall), n / (time.process_time() - cpu)


def memory(n: int) -> dict[str, int]:
    """Peak memory of a fresh process simulating ``n`` duels on one core (started
    through :mod:`peak`, so that this process's own size does not count)."""
    found: dict[str, int] = json.loads(
        peak.measure([sys.executable, "-c", MEMORY, str(A), str(B), str(n)]).stdout
    )
    return found


@dataclass(frozen=True, slots=True)
class MidianFigures:
    """Duels a second (wall clock and CPU) of both engines, and peak memory by n."""

    fast: float
    fast_cpu: float
    reference: float
    reference_cpu: float
    memory: dict[int, dict[str, int]]


def measure(say: Callable[[str], None] = print) -> MidianFigures:
    """Measure and print every figure, in this one run."""
    say("== Midian duels, guard vs brawler, one core")
    fast, fast_cpu = rate_fast(1_000_000)
    reference, reference_cpu = rate_reference(2_000)
    say("                    duels/s (wall)  duels/s (CPU)")
    say(f"  fast engine:      {fast:>14,.0f} {fast_cpu:>14,.0f}  (10^6; target >= 100,000)")
    say(f"  reference engine: {reference:>14,.0f} {reference_cpu:>14,.0f}  (2,000 duels)")
    ratio, ratio_cpu = fast / reference, fast_cpu / reference_cpu
    say(f"  ratio:            {ratio:>13,.0f}x {ratio_cpu:>13,.0f}x  (target >= 300x)")
    peaks = {}
    for n in (10**6, 10**7):
        peak = peaks[n] = memory(n)
        say(
            f"  n = {n:>10,}: traced peak {peak['traced'] / 2**20:6.1f} MiB, "
            f"process peak RSS {peak['rss'] / 2**20:6.1f} MiB"
        )
    return MidianFigures(fast, fast_cpu, reference, reference_cpu, peaks)


def main() -> None:
    measure()


if __name__ == "__main__":
    main()
