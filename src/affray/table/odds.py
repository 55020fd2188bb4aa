"""Quick odds of a tracked fight from where it stands: the rest of the fight played
many times over by the combatants' tactics with random dice (what the web tracker
shows before each action, in every system)."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from affray.dice import RandomDice
from affray.encounter import Answers
from affray.encounter.cursor import Phase, proceed, sides_fighting
from affray.sheets.encounters import tactics_dice
from affray.table.state import Rules, TableState


@dataclass(frozen=True, slots=True)
class FightOdds:
    """How often each side won in ``n`` simulated ends of the fight."""

    n: int
    wins: Mapping[str, float]
    draw: float
    mean_rounds: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "wins": dict(self.wins),
            "draw": self.draw,
            "mean_rounds": self.mean_rounds,
        }


def simulate(
    rules: Rules,
    state: TableState,
    *,
    n: int = 200,
    seed: int = 0,
    max_rounds: int = 50,
    budget_s: float = 1.0,
    stop: Callable[[], bool] | None = None,
) -> FightOdds | None:
    """The fight played to its end ``n`` times from ``state`` (fewer if ``budget_s``
    runs out first; at least one); a draw after ``max_rounds`` more rounds (or at the
    table's round cap). None before the fight starts or after it ends, or when ``stop``
    (asked every few fights) says the answer is no longer wanted."""
    if state.phase(rules) in (Phase.SETUP, Phase.OVER):
        return None
    winners: Counter[str | None] = Counter()
    rounds = 0
    start = time.perf_counter()
    played = 0
    for i in range(n):
        rng = random.Random(f"{seed} {i}")
        answers = Answers(RandomDice(rng), rules.ai(state, tactics_dice(rng.getrandbits(32))))
        cap = min(rules.max_rounds, state.round + max_rounds)
        current = replace(state.cursor, max_rounds=max(cap, state.round))
        while current.phase(rules.ruleset) is not Phase.OVER:
            current, _ = proceed(current, rules.ruleset, answers)
        left = sides_fighting(current.encounter, rules.ruleset)
        winners[left[0] if len(left) == 1 else None] += 1
        rounds += current.round - state.round
        played += 1
        if time.perf_counter() - start > budget_s:
            break
        if stop is not None and played % 8 == 0 and stop():
            return None
    sides = state.encounter.sides
    return FightOdds(
        played,
        {side: winners[side] / played for side in sides},
        winners[None] / played,
        rounds / played,
    )
