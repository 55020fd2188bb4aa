"""Exact MST-2 duel odds: time per duel for ordinary fighters (hit dice up to 3d10).

Target (SPEC): under 50 ms each. Prints the median of several runs per matchup
and the ratio to the target, measured in one run.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from affray.odds import duel_odds
from affray.rules.mst2 import Fighter, Grip, HitDice, armor, weapon
from affray.sheets import load_sheet

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "mst2"
TARGET_MS = 50.0


def fighter(name: str, skill: int, arms: str, gear: str, hit_dice: str, **kw: object) -> Fighter:
    return Fighter(name, skill, weapon(arms), armor(gear), HitDice.parse(hit_dice), **kw)  # type: ignore[arg-type]


def matchups() -> list[tuple[str, Fighter, Fighter]]:
    ex = {p.stem: load_sheet(p) for p in EXAMPLES.iterdir()}
    return [
        ("sellsword vs spearman (examples)", ex["sellsword"], ex["spearman"]),
        ("knight vs ogre (examples)", ex["knight"], ex["ogre"]),
        (
            "3d10 vs 3d10, 2h sword vs polearm",
            fighter("A", 3, "sword", "chain mail", "3d10", grip=Grip.TWO_HANDED),
            fighter("B", 4, "polearm", "brigandine", "3d10"),
        ),
        (
            "3d10+2 vs 3d10+2, 2h sword vs polearm",
            fighter("A", 3, "sword", "chain mail", "3d10+2", grip=Grip.TWO_HANDED),
            fighter("B", 4, "polearm", "brigandine", "3d10+2"),
        ),
        (
            "3d10 vs 3d10, dagger+shield vs spear",
            fighter("A", 5, "dagger", "plate mail", "3d10", shield=True),
            fighter("B", 2, "spear", "leather", "3d10"),
        ),
    ]


def main() -> None:
    worst = 0.0
    for label, a, b in matchups():
        times = []
        for _ in range(7):
            start = time.perf_counter()
            duel_odds(a, b)
            times.append(time.perf_counter() - start)
        ms = statistics.median(times) * 1000
        worst = max(worst, ms)
        print(f"{label:42s} {ms:7.1f} ms  ({ms / TARGET_MS:.2f} of the 50 ms target)")
    print(f"{'worst':42s} {worst:7.1f} ms")


if __name__ == "__main__":
    main()
