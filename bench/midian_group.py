"""The fast Midian group engine against the reference engine, measured in one run.

Target (issue 22): at least 30x the reference engine's fights a second on
examples/encounters/city_watch.toml. Measured here, on one core (one worker), for
every Midian example encounter the fast engine plays: both engines' fights a second
of CPU time (steadier than the wall clock on a busy machine; the fast engine after a
warm-up, so that compiling or loading the kernel is not counted) and their ratio.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from group_engines import rate

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "encounters"
ENCOUNTERS = ("city_watch", "charge", "roadside_ambush")
TARGETS = {"city_watch": 30.0}
REFERENCE_S = 4.0
"""About how long the reference engine plays each encounter (its rate's sample)."""
FAST_N = 200_000


@dataclass(frozen=True, slots=True)
class GroupFigures:
    """Fights a second of CPU time of both engines on one encounter."""

    encounter: str
    reference: float
    fast: float

    @property
    def ratio(self) -> float:
        return self.fast / self.reference


def measure(say: Callable[[str], None] = print) -> list[GroupFigures]:
    """Measure and print every figure, in this one run."""
    say("== Midian encounters, fast group engine vs reference engine, one worker")
    say(f"  {'encounter':<16} {'reference/s':>12} {'fast/s':>12} {'ratio':>8}")
    found = []
    for name in ENCOUNTERS:
        path = EXAMPLES / f"{name}.toml"
        probe = rate(path, "reference", 30)
        reference = rate(path, "reference", max(100, int(probe * REFERENCE_S)))
        fast = rate(path, "fast", FAST_N)
        figures = GroupFigures(name, reference, fast)
        target = TARGETS.get(name)
        mark = ""
        if target is not None:
            mark = f"  (target >= {target:.0f}x: " + (
                "met)" if figures.ratio >= target else "NOT MET)"
            )
        say(f"  {name:<16} {reference:>12,.0f} {fast:>12,.0f} {figures.ratio:>7,.0f}x{mark}")
        found.append(figures)
    return found


def main() -> None:
    measure()


if __name__ == "__main__":
    main()
