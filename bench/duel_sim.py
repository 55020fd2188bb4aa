"""Fast MST-2 duel simulation against the scalar engine, measured in one run.

Targets (SPEC): the fast simulator at least 60x the scalar engine on the same
duels (aim 150x); 10^6 duels well under 10 s on one core; memory bounded by
chunking (10^8 duels need no more than 10^6). Pass --huge to also run 10^8.
"""

from __future__ import annotations

import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

from affray.sheets import load_sheet
from affray.sim import simulate_duels, simulate_fast

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "mst2"
MATCHUPS = [("sellsword.toml", "spearman.toml"), ("knight.json", "ogre.toml")]


def rate_scalar(a: object, b: object, n: int) -> float:
    start = time.perf_counter()
    simulate_duels(a, b, n, seed=1)  # type: ignore[arg-type]
    return n / (time.perf_counter() - start)


def rate_lean(a: object, b: object, n: int) -> float:
    """A lean pure-Python loop over the same sampled model as the fast engine (no events):
    the yardstick the issue quotes (40-60 thousand duels a second)."""
    import bisect
    import random

    from affray.sim.fast import DuelModel

    model = DuelModel.of(a, b)  # type: ignore[arg-type]
    rng = random.Random(1)
    reach = (model.reach_a, model.reach_b)
    cuts = (list(model.a_on_b.cut), list(model.b_on_a.cut))
    survive = (list(model.b_on_a.survive), list(model.a_on_b.survive))  # survival of a, of b
    start = time.perf_counter()
    for _ in range(n):
        wounds = [0, 0]
        distance = model.start
        ended = False
        for _round in range(model.max_rounds):
            for side in (0, 1):
                other = 1 - side
                if distance != reach[side]:
                    counter = bisect.bisect_right(cuts[other], rng.random())
                    if counter >= 1:
                        if counter > 1:
                            wounds[side] += counter - 1
                            table = survive[side]
                            if rng.random() >= table[min(wounds[side], len(table) - 1)]:
                                ended = True
                                break
                        continue
                    distance = reach[side]
                hit = bisect.bisect_right(cuts[side], rng.random())
                if hit > 1:
                    wounds[other] += hit - 1
                    table = survive[other]
                    if rng.random() >= table[min(wounds[other], len(table) - 1)]:
                        ended = True
                        break
            if ended:
                break
    return n / (time.perf_counter() - start)


def rate_fast(a: object, b: object, n: int, workers: int = 1) -> tuple[float, float]:
    tracemalloc.start()
    start = time.perf_counter()
    simulate_fast(a, b, n, seed=1, workers=workers)  # type: ignore[arg-type]
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return n / elapsed, peak / 2**20


RSS_PROBE = """
import resource, sys
from affray.sheets import load_sheet
from affray.sim import simulate_fast
a, b = load_sheet(sys.argv[1]), load_sheet(sys.argv[2])
simulate_fast(a, b, int(sys.argv[3]), seed=1, workers=int(sys.argv[4]))
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(max(own, kids) / 1024)
"""


def peak_rss(first: Path, second: Path, n: int, workers: int = 1) -> float:
    """Peak resident memory (MiB) of a fresh process (or its largest worker) running n duels."""
    out = subprocess.run(
        [sys.executable, "-c", RSS_PROBE, str(first), str(second), str(n), str(workers)],
        check=True,
        capture_output=True,
        text=True,
    )
    return float(out.stdout.strip())


def main() -> None:
    huge = "--huge" in sys.argv
    for first, second in MATCHUPS:
        a, b = load_sheet(EXAMPLES / first), load_sheet(EXAMPLES / second)
        print(f"== {a.name} vs {b.name}")
        scalar = rate_scalar(a, b, 20_000)
        fast, peak6 = rate_fast(a, b, 1_000_000)
        print(f"scalar engine       {scalar:12,.0f} duels/s")
        print(f"fast engine         {fast:12,.0f} duels/s   10^6 duels in {1e6 / fast:.2f} s")
        print(f"ratio fast/scalar   {fast / scalar:12.0f}x  (target >= 60x, aim 150x)")
        lean = rate_lean(a, b, 100_000)
        print(
            f"lean Python loop    {lean:12,.0f} duels/s   (fast is {fast / lean:.0f}x a lean loop)"
        )
        _, peak7 = rate_fast(a, b, 10_000_000)
        print(f"traced numpy peak   10^6: {peak6:.1f} MiB   10^7: {peak7:.1f} MiB")
        rss6 = peak_rss(EXAMPLES / first, EXAMPLES / second, 1_000_000)
        rss7 = peak_rss(EXAMPLES / first, EXAMPLES / second, 10_000_000)
        print(f"peak RSS (process)  10^6: {rss6:.0f} MiB   10^7: {rss7:.0f} MiB")
        if huge:
            rate, _ = rate_fast(a, b, 100_000_000, workers=2)
            rss8 = peak_rss(EXAMPLES / first, EXAMPLES / second, 100_000_000, workers=2)
            print(
                f"10^8 on 2 workers   {rate:12,.0f} duels/s   peak RSS of a process {rss8:.0f} MiB"
            )


if __name__ == "__main__":
    main()
