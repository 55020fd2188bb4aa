"""The scalar Monte Carlo: one duel at a time through the readable rules engine.

It is the scalar loop the fast simulator is checked against (not the reference
engine, which plays duels through the encounter engine), not the fast path.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from affray.answers import MAX_ROUNDS
from affray.dice import RandomDice
from affray.rulesystems.mst2.duels import duel
from affray.rulesystems.mst2.fighter import Fighter
from affray.stats import DuelStats, tally


def simulate_duels(
    a: Fighter,
    b: Fighter,
    n: int,
    *,
    seed: int | None = None,
    max_rounds: int = MAX_ROUNDS,
    progress: Callable[[int], None] | None = None,
    report_every: int = 1000,
) -> DuelStats:
    """Fight ``n`` duels with dice from one seeded generator and count the results.

    Args:
        progress: called with the number of duels finished since the last call.
    """
    dice = RandomDice(random.Random(seed))

    def fight() -> tuple[str | None, int]:
        result = duel(a, b, dice, max_rounds=max_rounds)
        return result.winner, result.rounds

    return tally(fight, n, progress=progress, report_every=report_every)
