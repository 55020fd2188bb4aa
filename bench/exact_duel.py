"""Exact MST-2 duel odds: time per duel for ordinary fighters (hit dice up to 3d10).

Targets: the float sweep (what `affray duel` and `affray.duel` use, the 1000-round
cap honoured) under 10 ms each (issue 15); the exact fractions (`--rational`) under
50 ms (SPEC). Prints the median of several runs per matchup and the ratios to the
targets, measured in one run.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from affray.rulesystems.mst2 import Fighter, Grip, HitDice, armor, weapon
from affray.rulesystems.mst2.odds import duel_odds
from affray.rulesystems.mst2.odds.chances import duel_chances
from affray.sheets import load_sheet

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "mst2"
TARGET_MS = 50.0
FLOAT_TARGET_MS = 10.0


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


@dataclass(frozen=True, slots=True)
class ExactFigures:
    """Median milliseconds per matchup: ``(label, floats, fractions)``."""

    rows: tuple[tuple[str, float, float], ...]

    @property
    def worst_floats(self) -> float:
        return max(floats for _, floats, _ in self.rows)

    @property
    def worst_fractions(self) -> float:
        return max(fractions for _, _, fractions in self.rows)


def measure(say: Callable[[str], None] = print) -> ExactFigures:
    """Time every matchup and print a line for each, in this one run."""
    say("== Exact MST-2 duel odds, median of 7 runs")
    rows = []
    for label, a, b in matchups():
        floats = _median_ms(partial(duel_chances, a, b))
        exact = _median_ms(partial(duel_odds, a, b))
        rows.append((label, floats, exact))
        say(
            f"  {label:40s} floats {floats:6.1f} ms ({floats / FLOAT_TARGET_MS:.2f} of 10 ms), "
            f"fractions {exact:6.1f} ms ({exact / TARGET_MS:.2f} of 50 ms)"
        )
    figures = ExactFigures(tuple(rows))
    say(f"  {'worst (floats)':40s} {figures.worst_floats:6.1f} ms")
    return figures


def main() -> None:
    measure()


def _median_ms(work: Callable[[], object]) -> float:
    times = []
    for _ in range(7):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


if __name__ == "__main__":
    main()
