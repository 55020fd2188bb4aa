"""Exact Midian duels (issue 40): the chain's size and time for every pair of the
Midian examples it plays, measured in one run.

Target: guard against brawler, and every pair of the examples that fits, under 1 s
(floats). Each pair is timed once after a warm-up of the compiled kernel (a small
duel), and printed with its cells (each side's states between rounds, times the
openings), the rounds the chain pushed until under 1e-15 was left, and its ratio to
the target. ``--quick`` times only the chains ``affray duel`` tries within a second
when asked no method (:data:`QUICK_CELLS` cells at most).

    python bench/midian_exact.py [--quick]
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

from affray.errors import AffrayError
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.exact_duel import QUICK_CELLS, chain_cells, exact_midian_duel
from affray.sheets.combatants import resolve_reference

TARGET = 1.0
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "midian"


def sheets() -> dict[str, Character]:
    found = {}
    for path in sorted(EXAMPLES.glob("*.toml")):
        sheet = resolve_reference(str(path)).sheet()
        assert isinstance(sheet, Character)
        found[path.stem] = sheet
    return found


def main() -> None:
    quick = "--quick" in sys.argv
    every = sheets()
    exact_midian_duel(every["dockhand"], every["guard"], max_rounds=1)  # compiled, warm
    print(f"{'pair':<26} {'cells':>9} {'rounds':>6} {'P(A wins)':>10} {'time':>8} {'/target':>8}")
    for a, b in itertools.combinations(sorted(every), 2):
        try:
            cells = chain_cells(every[a], every[b])
        except AffrayError as refused:
            print(f"{a + ' v ' + b:<26} not played: {refused.message}")
            continue
        if quick and cells > QUICK_CELLS:
            continue
        began = time.perf_counter()
        odds = exact_midian_duel(every[a], every[b])
        spent = time.perf_counter() - began
        print(
            f"{a + ' v ' + b:<26} {cells:>9,} {odds.rounds:>6} {odds.p_a_wins:>10.6f} "
            f"{spent:>7.2f}s {spent / TARGET:>7.2f}x",
            flush=True,
        )


if __name__ == "__main__":
    main()
