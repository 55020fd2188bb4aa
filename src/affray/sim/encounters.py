"""Monte Carlo of whole encounters through the encounter engine: the reference.

A duel is an encounter of two sides of one combatant each, fought with the rule
system's default tactics, run to its end again and again with one seeded
generator per chunk. It serves every registered system: the yardstick fast
engines are checked against, and the only engine of systems without one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from affray import registry
from affray.answers import MAX_ROUNDS
from affray.dice import RandomDice
from affray.encounter import (
    Answers,
    Combatant,
    Encounter,
    Ruleset,
    SheetT,
    StateT,
    told_apart,
)
from affray.encounter.engine import run_encounter
from affray.estimates import Estimate
from affray.sheets.encounters import tactics_dice
from affray.sim.chunks import run_chunks
from affray.stats import DuelStats, tally


def duel_encounter(
    a: SheetT, b: SheetT, ruleset: Ruleset[SheetT, StateT]
) -> Encounter[SheetT, StateT]:
    """A one-on-one encounter; each side is named after its fighter (``X (A)`` and
    ``X (B)`` when both have the same name)."""
    first, second = told_apart(a, b)
    combatants = (
        Combatant(first.name, first.name, first),
        Combatant(second.name, second.name, second),
    )
    return Encounter(combatants, {c.id: ruleset.initial_state(c.sheet) for c in combatants})


ENCOUNTER_CHUNK = 500
"""Duels per chunk: the unit of seeding and of work for a worker process."""


def _chunk(
    a: Any, b: Any, ruleset: Any, max_rounds: int, entropy: int, index: int, size: int
) -> DuelStats:
    """``size`` duels with chunk ``index``'s own generator (seeded from the run's entropy)."""
    encounter = duel_encounter(a, b, ruleset)
    stream = np.random.SeedSequence(entropy, spawn_key=(index,))
    dice = RandomDice(random.Random(int(stream.generate_state(2, dtype=np.uint64)[0])))
    chooser = registry.system_of(a).ai(ruleset, {}, dice=tactics_dice(entropy * 1_000_003 + index))
    answers = Answers(dice, chooser)

    sides = {encounter.combatants[0].side: "a", encounter.combatants[1].side: "b"}

    def fight() -> tuple[str | None, int]:
        result = run_encounter(encounter, ruleset, answers, max_rounds=max_rounds)
        return sides.get(result.winner or ""), result.rounds

    return tally(fight, size, report_every=size + 1)


def simulate_encounter_duels(
    a: SheetT,
    b: SheetT,
    ruleset: Ruleset[SheetT, StateT],
    n: int,
    *,
    seed: int | None = None,
    max_rounds: int = MAX_ROUNDS,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> DuelStats:
    """Fight ``n`` duels in the encounter engine and count who wins (see
    :func:`simulate_reference`, which also gives the seed used)."""
    stats, _ = simulate_reference(
        a, b, ruleset, n, seed=seed, max_rounds=max_rounds, workers=workers, progress=progress
    )
    return stats


def simulate_reference(
    a: SheetT,
    b: SheetT,
    ruleset: Ruleset[SheetT, StateT],
    n: int,
    *,
    seed: int | None = None,
    max_rounds: int = MAX_ROUNDS,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    estimate: Callable[[Estimate], None] | None = None,
) -> tuple[DuelStats, int]:
    """Fight ``n`` duels in the encounter engine and count who wins (``progress``
    hears of each chunk done; ``estimate`` of the run's time, before it starts).

    Like the fast simulator, the run is cut into chunks seeded by
    ``SeedSequence(seed, spawn_key=(i,))``, so a seed gives the same result for any
    number of ``workers``.

    Returns:
        The totals, and the seed used (``seed``, or a fresh one when it is None) so
        that any run can be repeated.
    """
    job = partial(_chunk, a, b, ruleset, max_rounds)
    return run_chunks(
        job, n, ENCOUNTER_CHUNK, seed=seed, workers=workers, progress=progress, estimate=estimate
    )
