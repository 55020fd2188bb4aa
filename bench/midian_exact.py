"""Exact Midian duels (issue 40): the chain's size and time for every pair of the
Midian examples it plays, measured in one run.

Target: guard against brawler, and every pair of the examples that fits, under 1 s
(floats). Each pair is timed once after a warm-up of the compiled kernel (a small
duel), and printed with its cells (each side's states between rounds, times the
openings), the cells the duel reaches (each walked once), and its ratio to the target;
then the same duel pushed round by round (what ``--by-round`` asks for), with the
rounds pushed until under 1e-15 was left. ``--quick`` times only the chains ``affray
duel`` tries within a second when asked no method (:data:`QUICK_CELLS` cells at most).

    python bench/midian_exact.py [--quick]
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

from affray.errors import AffrayError
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.exact_duel import QUICK_CELLS, Chain, chain_cells, exact_midian_duel
from affray.rulesystems.midian.sim.duels import MidianDuelModel
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
    print(
        f"{'pair':<26} {'cells':>9} {'reached':>8} {'P(A wins)':>10} {'time':>7} {'/target':>8}"
        f"   {'by round':>8} {'rounds':>6}"
    )
    named = [("guard", "brawler")]  # the issue's own pair, A first
    for a, b in named + list(itertools.combinations(sorted(every), 2)):
        try:
            cells = chain_cells(every[a], every[b])
        except AffrayError as refused:
            print(f"{a + ' v ' + b:<26} not played: {refused.message}")
            continue
        if quick and cells > QUICK_CELLS:
            continue
        began = time.perf_counter()
        chain = Chain(MidianDuelModel.of(every[a], every[b]))
        odds = chain.run()
        spent = time.perf_counter() - began
        began = time.perf_counter()
        pushed = exact_midian_duel(every[a], every[b], by_round=True)
        by_round = time.perf_counter() - began
        assert abs(pushed.p_a_wins - odds.p_a_wins) < 1e-14
        print(
            f"{a + ' v ' + b:<26} {cells:>9,} {chain.walked:>8,} {odds.p_a_wins:>10.6f} "
            f"{spent:>6.2f}s {spent / TARGET:>7.2f}x   {by_round:>7.2f}s {pushed.rounds:>6}",
            flush=True,
        )


if __name__ == "__main__":
    main()
