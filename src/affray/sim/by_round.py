"""Fights counted round by round (``affray fight ENC -n N|--exact --by-round``): for
each round, each side's chance to have won by its end and each combatant's to be
standing after it (ti4calc's "state after N rounds", osrs-dps-calc's time to kill).

Simulated, the fights are the reference engine's (the fast engines count each fight's
end only), in seeded chunks like any other run (the answer depends on the seed and the
number of fights, never on the workers). Exact, round N is the exact odds of the same
fight with its round cap at N (:func:`exact_by_round`): a fight capped at N plays its
first N rounds as the uncapped one does, so who has won by then, and who stands after
round N, are that capped fight's chances to win and to stand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import numpy as np

from affray.dice import RandomDice
from affray.encounter import Answers, Phase
from affray.encounter.cursor import proceed, sides_fighting
from affray.errors import NotModelledError
from affray.estimates import Estimate
from affray.sheets.encounters import tactics_dice
from affray.sim.chunks import run_chunks
from affray.sim.fights import Fighting, Start, set_out
from affray.totals import ExactFights, FightTotals

ROUND_CHUNK = 50
"""Fights a worker plays between two reports (the unit of seeding)."""


def _merged(
    one: Mapping[int, Mapping[str, int]], two: Mapping[int, Mapping[str, int]]
) -> dict[int, dict[str, int]]:
    found: dict[int, dict[str, int]] = {}
    for source in (one, two):
        for key, counts in source.items():
            found[key] = dict(Counter(found.get(key, {})) + Counter(counts))
    return found


@dataclass(frozen=True)
class RoundTotals:
    """Totals of a batch of fights, round by round; batches add up (``+``).

    Attributes:
        n: fights.
        ended: by the round a fight ended in, how many each side won (a draw under
            ``""``).
        during: by round, how many fights still going after it had each combatant
            fighting.
        final: by the round a fight ended in, how many had each combatant fighting at
            the end.
    """

    n: int = 0
    ended: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    during: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    final: Mapping[int, Mapping[str, int]] = field(default_factory=dict)

    def __add__(self, other: RoundTotals) -> RoundTotals:
        return RoundTotals(
            self.n + other.n,
            _merged(self.ended, other.ended),
            _merged(self.during, other.during),
            _merged(self.final, other.final),
        )

    @property
    def last(self) -> int:
        return max([*self.ended, *self.during, 0])

    def totals(self) -> FightTotals:
        """The same fights as whole fights (what ``fight -n`` counts): the wins, the
        draws, the rounds each lasted and who stood at the end."""
        wins: Counter[str] = Counter()
        rounds: Counter[int] = Counter()
        standing: Counter[str] = Counter()
        for r, ended in self.ended.items():
            for side, count in ended.items():
                wins[side] += count
                rounds[r] += count
        for at_end in self.final.values():
            standing.update(at_end)
        draws = wins.pop("", 0)
        total = sum(r * count for r, count in rounds.items())
        return FightTotals(self.n, dict(wins), draws, total, dict(rounds), dict(standing))

    def rows(self, sides: tuple[str, ...], ids: tuple[str, ...]) -> list[dict[str, Any]]:
        """Each round from the first to the last any fight reached: each side's chance
        to have won by its end, the chance of a draw by then (the round cap, or no one
        left), and each combatant's to be standing after it (a fight over by then counts
        as it ended)."""
        n = max(self.n, 1)
        won = dict.fromkeys(sides, 0)
        drawn = 0
        over = dict.fromkeys(ids, 0)
        found = []
        for r in range(1, self.last + 1):
            for side, count in self.ended.get(r, {}).items():
                if side in won:
                    won[side] += count
                elif side == "":
                    drawn += count
            for cid, count in self.final.get(r, {}).items():
                if cid in over:
                    over[cid] += count
            going = self.during.get(r, {})
            found.append(
                {
                    "round": r,
                    "sides": {side: won[side] / n for side in sides},
                    "draw": drawn / n,
                    "standing": {cid: (over[cid] + going.get(cid, 0)) / n for cid in ids},
                }
            )
        return found


def fights_by_round(fighting: Fighting, answers: Answers[Any, Any], n: int) -> RoundTotals:
    """``n`` fights from ``fighting``'s start, each round's end looked at."""
    ruleset = fighting.ruleset
    ended: dict[int, Counter[str]] = {}
    during: dict[int, Counter[str]] = {}
    final: dict[int, Counter[str]] = {}
    for _ in range(n):
        cursor = fighting.cursor
        seen = cursor.round
        while cursor.phase(ruleset) is not Phase.OVER:
            cursor, _ = proceed(cursor, ruleset, answers, name=fighting.name)
            while cursor.round > seen and cursor.phase(ruleset) is not Phase.OVER:
                if seen >= 1:  # round `seen` is over and another has begun
                    encounter = cursor.encounter
                    during.setdefault(seen, Counter()).update(
                        c.id for c in encounter.combatants if ruleset.fighting(encounter, c.id)
                    )
                seen += 1
        encounter = cursor.encounter
        left = sides_fighting(encounter, ruleset)
        winner = left[0] if len(left) == 1 else ""
        end = max(cursor.round, 1)
        ended.setdefault(end, Counter())[winner] += 1
        final.setdefault(end, Counter()).update(
            c.id for c in encounter.combatants if ruleset.fighting(encounter, c.id)
        )
        for r in range(max(seen, 1), end):  # rounds it went through unlooked (none, mostly)
            during.setdefault(r, Counter()).update(
                c.id for c in encounter.combatants if ruleset.fighting(encounter, c.id)
            )
    return RoundTotals(
        n,
        {k: dict(v) for k, v in ended.items()},
        {k: dict(v) for k, v in during.items()},
        {k: dict(v) for k, v in final.items()},
    )


def _chunk(start: Start, entropy: int, index: int, size: int) -> RoundTotals:
    fighting = set_out(start)
    stream = np.random.SeedSequence(entropy, spawn_key=(index,))
    dice = RandomDice(random.Random(int(stream.generate_state(2, dtype=np.uint64)[0])))
    ai = fighting.system.ai(
        fighting.ruleset, fighting.tactics, dice=tactics_dice(entropy * 1_000_003 + index)
    )
    return fights_by_round(fighting, Answers(dice, ai), size)


def simulate_by_round(
    start: Start,
    n: int,
    *,
    seed: int | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    estimate: Callable[[Estimate], None] | None = None,
) -> tuple[RoundTotals, int]:
    """``n`` fights from ``start``, round by round, and the seed that repeats them."""
    return run_chunks(
        partial(_chunk, start),
        n,
        ROUND_CHUNK,
        seed=seed,
        workers=workers,
        progress=progress,
        estimate=estimate,
        zero=RoundTotals(),
    )


GONE = 1e-12
"""Exact rows stop once the chance a fight is still going is under this (the rows after
it are the totals')."""


def exact_by_round(
    fighting: Fighting, *, progress: Callable[[int], None] | None = None
) -> list[dict[str, Any]]:
    """Each round's row (as :meth:`RoundTotals.rows`) of the exact odds of ``fighting``
    from where it stands, to its round cap or until it is all but surely over
    (:data:`GONE`); ``progress`` hears each round done.

    Raises:
        NotModelledError: the system has no exact odds of a whole fight.
        RulesError: past the exact chain's limits (its message names them).
    """
    exact = fighting.system.exact_fights
    if exact is None:
        title = fighting.system.title
        raise NotModelledError(f"exact {title} encounter chain", (f"{title} fights",))
    cursor = fighting.cursor
    cap = cursor.max_rounds
    rows = []
    at_once = fighting.system.exact_fights_by_round
    if at_once is not None:
        capped: Iterable[ExactFights] = at_once(
            fighting.ruleset, cursor, tactics=fighting.tactics, first=fighting.first
        )
    else:
        capped = (
            exact(
                fighting.ruleset,
                replace(cursor, max_rounds=last),
                tactics=fighting.tactics,
                first=fighting.first,
            )
            for last in range(max(cursor.round, 1), cap + 1)
        )
    for last, odds in enumerate(capped, start=max(cursor.round, 1)):
        going = odds.p_going if last < cap else 0.0
        rows.append(
            {
                "round": last,
                "sides": dict(odds.p_wins),
                "draw": max(0.0, odds.p_draw - going),
                "standing": dict(odds.p_standing),
            }
        )
        if progress is not None:
            progress(1)
        if going < GONE:
            break
    return rows
