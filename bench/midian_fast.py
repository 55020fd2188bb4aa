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
import subprocess
import sys
import time
from pathlib import Path

from affray.registry import system
from affray.sheets import load_sheet
from affray.sim import simulate_reference
from affray.sim.midian_fast import simulate_midian_fast

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "midian"
A, B = EXAMPLES / "guard.toml", EXAMPLES / "brawler.toml"

MEMORY = """
import json, resource, sys, tracemalloc
from affray.sheets import load_sheet
from affray.sim.midian_fast import simulate_midian_fast
a, b = load_sheet(sys.argv[1]), load_sheet(sys.argv[2])
tracemalloc.start()
stats, _ = simulate_midian_fast(a, b, int(sys.argv[3]), seed=1, workers=1)
traced = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
print(json.dumps({"n": stats.n, "traced": traced,
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
"""


def rate_fast(n: int) -> float:
    a, b = load_sheet(A), load_sheet(B)
    simulate_midian_fast(a, b, 10_000, seed=2, workers=1)  # warm up
    start = time.perf_counter()
    simulate_midian_fast(a, b, n, seed=1, workers=1)
    return n / (time.perf_counter() - start)


def rate_reference(n: int) -> float:
    a, b = load_sheet(A), load_sheet(B)
    ruleset = system("midian").duel_ruleset()
    simulate_reference(a, b, ruleset, 50, seed=2)  # warm up
    start = time.perf_counter()
    simulate_reference(a, b, ruleset, n, seed=1, workers=1)
    return n / (time.perf_counter() - start)


def memory(n: int) -> dict[str, int]:
    """Peak memory of a fresh process simulating ``n`` duels on one core."""
    out = subprocess.run(
        [sys.executable, "-c", MEMORY, str(A), str(B), str(n)],
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, int] = json.loads(out.stdout)
    return found


def main() -> None:
    print("Midian duels, guard vs brawler, one core")
    fast = rate_fast(1_000_000)
    reference = rate_reference(2_000)
    print(f"  fast engine:      {fast:>12,.0f} duels/s  (10^6 duels; target >= 100,000)")
    print(f"  reference engine: {reference:>12,.0f} duels/s  (2,000 duels)")
    print(f"  ratio:            {fast / reference:>12,.0f}x  (target >= 300x)")
    for n in (10**6, 10**7):
        peak = memory(n)
        print(
            f"  n = {n:>10,}: traced peak {peak['traced'] / 2**20:6.1f} MiB, "
            f"process peak RSS {peak['rss'] / 2**20:6.1f} MiB"
        )


if __name__ == "__main__":
    main()
