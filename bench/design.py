"""The rules asked backwards (issue 39): time to answer, measured in one run.

Targets: `solve` on an MST-2 duel (the knight against the ogre, skill 0 to 10) under
1 s exact; `sensitivity` of two MST-2 sheets (every key) under 2 s exact; `day` of
three example encounters at 10,000 days under 30 s on this machine's cores. Each is
timed in this process after a warm-up (imports, caches), best of three (the day once:
10,000 days on the fast engine; on the reference engine 1,000 days scaled to
10,000), and printed with its ratio to the target.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from affray.design.duels import Settings, pair
from affray.design.frontier import frontier
from affray.design.sensitivity import sensitivity
from affray.design.solve import solve_duel

TARGETS = {"solve": 1.0, "sensitivity": 2.0, "day": 30.0}
DAYS = Path(__file__).resolve().parent.parent / "examples" / "days"


def best_of(work: Callable[[], object], runs: int = 3) -> float:
    work()  # warm up
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return min(times)


def main() -> None:
    knight, ogre = pair("mst2:knight", "ogre")
    exact = Settings("exact")
    rows = [
        (
            "solve knight vs ogre, a.skill 0-10",
            "solve",
            best_of(lambda: solve_duel(knight, ogre, "a.skill", 0.5, "a", exact, span=(0, 10))),
        ),
        (
            "sensitivity knight vs ogre (every key)",
            "sensitivity",
            best_of(lambda: sensitivity(knight, ogre, exact)),
        ),
    ]
    orc = pair("mst2:knight", "orc")[1]
    rows.append(
        (
            "frontier knight's weapon vs ogre, orc",
            "",
            best_of(lambda: frontier(knight, "weapon", [ogre, orc], exact), runs=1),
        )
    )
    from affray.design.day import load_day, simulate_days

    road = load_day(DAYS / "road.toml")
    workers = os.cpu_count() or 1
    simulate_days(road, 2_000, seed=1, workers=workers)  # warm up the workers (machine code)
    began = time.perf_counter()
    simulate_days(road, 10_000, seed=2, workers=workers)
    rows.append(
        (
            f"day of 3 fights, 10,000 days ({workers} workers)",
            "day",
            time.perf_counter() - began,
        )
    )
    simulate_days(road, 40, seed=1, workers=workers, engine="reference")
    began = time.perf_counter()
    simulate_days(road, 1_000, seed=2, workers=workers, engine="reference")
    rows.append(
        (
            "  the same on the reference engine (1,000 x 10)",
            "",
            (time.perf_counter() - began) * 10,
        )
    )
    print("The rules asked backwards (exact, this process; the day simulated)")
    for label, target_key, seconds in rows:
        target = TARGETS.get(target_key)
        mark = ""
        if target is not None:
            ratio = seconds / target
            mark = f"  {ratio:.2f} x target {target:.0f} s ({'met' if ratio <= 1 else 'NOT MET'})"
        print(f"{label:<42} {seconds:7.3f} s{mark}")


if __name__ == "__main__":
    main()
