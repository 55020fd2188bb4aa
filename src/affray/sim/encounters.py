"""Monte Carlo of whole encounters through the scalar encounter engine.

Used for duels of rule systems without a fast simulator (Midian): a duel is an
encounter of two sides of one combatant each, run to its end again and again
with one seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from affray.dice import RandomDice
from affray.encounter.engine import run_encounter
from affray.encounter.model import Combatant, Encounter, Tactics
from affray.encounter.ruleset import Ruleset
from affray.sim.stats import DuelStats, tally


def duel_encounter(a: Any, b: Any, ruleset: Ruleset) -> Encounter:
    """A one-on-one encounter: side "a" against side "b", default tactics."""
    ids = (a.name, b.name) if a.name != b.name else (f"{a.name} (A)", f"{b.name} (B)")
    combatants = (
        Combatant(ids[0], "a", replace(a, name=ids[0]), Tactics()),
        Combatant(ids[1], "b", replace(b, name=ids[1]), Tactics()),
    )
    return Encounter(combatants, {c.id: ruleset.initial_state(c.sheet) for c in combatants})


def simulate_encounter_duels(
    a: Any,
    b: Any,
    ruleset: Ruleset,
    n: int,
    *,
    seed: int | None = None,
    max_rounds: int = 1000,
    progress: Callable[[int], None] | None = None,
    report_every: int = 200,
) -> DuelStats:
    """Fight ``n`` duels in the encounter engine and count who wins."""
    encounter = duel_encounter(a, b, ruleset)
    dice = RandomDice(random.Random(seed))

    def fight() -> tuple[str | None, int]:
        result = run_encounter(encounter, ruleset, dice, max_rounds=max_rounds)
        dice.log.clear()
        return result.winner, result.rounds

    return tally(fight, n, progress=progress, report_every=report_every)
