"""Duel odds in floats, fast, with the round cap honoured.

The same absorbing Markov chain as :mod:`affray.odds.duel` (blocks of wound pairs
swept in order of total wounds, each block's loops solved once), in floating
point: a 3d10 fighter's duel takes a few milliseconds instead of the tens the
exact fractions need. Like the simulators, a duel still going after ``max_rounds``
rounds is a draw. The sweep ignores rounds, so it is used when a bound shows the
duels that last that long weigh less than :data:`NEGLIGIBLE`; otherwise the duel is
pushed forward round by round to the cap (:func:`~affray.odds.duel.rounds_distribution`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from affray.errors import AffrayError
from affray.odds.duel import _Chain, _most, _steps, check_exact_budget, rounds_distribution
from affray.rules.mst2.duel import MAX_ROUNDS, can_ever_wound
from affray.rules.mst2.fighter import Fighter

NEGLIGIBLE = 1e-13
"""The weight of duels outlasting the cap below which the uncapped sweep is used."""
CAPPED_BUDGET = 15_000_000
"""Wound pairs times rounds a duel pushed round by round to the cap may take (a few
seconds at most); past it, simulate."""


@dataclass(frozen=True, slots=True)
class DuelChances:
    """A duel's odds in floats (A attacks first).

    Attributes:
        p_a_wins, p_b_wins, p_draw: they sum to 1 (a draw: no one can win, or the
            round cap).
        mean_rounds: expected rounds begun, duels that reach the cap counted at it.
        winner_wounds: ``{"a": {wounds: p}, "b": {...}}``, each unconditional (before
            the cap; empty when the cap decided it).
        capped: whether the cap changed the answer (then it came round by round).
    """

    p_a_wins: float
    p_b_wins: float
    p_draw: float
    mean_rounds: float
    winner_wounds: dict[str, dict[int, float]]
    capped: bool = False


def duel_chances(a: Fighter, b: Fighter, *, max_rounds: int = MAX_ROUNDS) -> DuelChances:
    """The odds of a duel of ``a`` (attacking first) and ``b``, in floats.

    Raises:
        AffrayError: the duel is over the exact budget (simulate it instead).
    """
    if not (can_ever_wound(a, b) or can_ever_wound(b, a)):
        return DuelChances(0.0, 0.0, 1.0, 0.0, {"a": {}, "b": {}})
    check_exact_budget(a, b)
    chain = _Chain(a, b)
    if _outlasting(chain, _most(a) + _most(b) + 2, max_rounds) > NEGLIGIBLE:
        work = (_most(a) + 1) * (_most(b) + 1) * max_rounds
        if work > CAPPED_BUDGET:
            raise AffrayError(
                f"these two may fight past the {max_rounds}-round cap, and exact odds "
                f"round by round would take {work:,} steps, over the limit of "
                f"{CAPPED_BUDGET:,} (hit dice {a.hit_dice.text} and {b.hit_dice.text})",
                hint="simulate it instead: affray duel A B -n 100000",
            )
        return _capped(a, b, max_rounds)
    return _sweep(chain, max_rounds)


def _outlasting(chain: _Chain, wounds: int, rounds: int) -> float:
    """A bound on P(the duel lasts more than ``rounds`` rounds). Each round, from any
    state, some wound lands with probability at least ``q``, and ``wounds`` of them
    end any duel; so the bound is P(Binomial(rounds, q) < wounds). 1 when no such
    ``q`` exists (a loop with no wound in it)."""
    event = {s: float(sum(e.p for e in chain.events[s])) for s in chain.shapes}
    q = min(
        (
            event[s] + sum(float(p) * event[t] for t, p in chain.inside[s].items())
            for s in chain.escaping
        ),
        default=0.0,
    )
    if chain.to_trap and any(p for p in chain.to_trap.values()):
        return 1.0
    if q <= 0.0 or rounds < wounds:
        return 1.0
    if q >= 1.0:
        return 0.0
    log_q, log_not = math.log(q), math.log1p(-q)
    terms = [
        math.lgamma(rounds + 1)
        - math.lgamma(k + 1)
        - math.lgamma(rounds - k + 1)
        + k * log_q
        + (rounds - k) * log_not
        for k in range(wounds)
    ]
    top = max(terms)
    return math.exp(top) * sum(math.exp(t - top) for t in terms)


def _capped(a: Fighter, b: Fighter, max_rounds: int) -> DuelChances:
    rounds = rounds_distribution(a, b, max_rounds=max_rounds, tolerance=NEGLIGIBLE / 10)
    p_a = sum(rounds.a_wins.values())
    p_b = sum(rounds.b_wins.values())
    ended = rounds.ended()
    still = max(0.0, 1.0 - p_a - p_b)
    mean = sum(r * p for r, p in ended.items()) + max_rounds * still
    return DuelChances(p_a, p_b, still, mean, {"a": {}, "b": {}}, capped=True)


def _sweep(chain: _Chain, max_rounds: int) -> DuelChances:
    """Push the mass through the blocks one anti-diagonal (total wounds) at a time:
    the blocks on one have no flow between them (every event adds a wound), so each
    is a handful of numpy operations over all its blocks and all the events at once."""
    import numpy as np

    steps = _steps(chain)
    shapes = chain.shapes
    where = {shape: i for i, shape in enumerate(shapes)}
    # survival of the victim at each wound total: A is hit by B, B by A
    keep_a = np.array([float(p) for p in chain.strike["b"].survive] + [0.0])
    keep_b = np.array([float(p) for p in chain.strike["a"].survive] + [0.0])
    size_a, size_b = len(keep_a) - 1, len(keep_b) - 1
    rows = [
        (where[entry], victim == "a", k, where[after], float(flow))
        for entry, merged in steps.items()
        for (attacker, victim, k, after), flow in merged.items()
    ]
    entry_of = np.array([r[0] for r in rows], dtype=np.int64)
    on_a = np.array([r[1] for r in rows], dtype=bool)
    hurt = np.array([r[2] for r in rows], dtype=np.int64)
    after = np.array([r[3] for r in rows], dtype=np.int64)
    flow = np.array([r[4] for r in rows])
    rounds_at = np.array(
        [
            float(sum(v for t, v in chain.visits[s].items() if t[1] == "a")) if s in steps else 0.0
            for s in shapes
        ]
    )
    loops_at = np.array(
        [
            float(sum(v * chain.to_trap[t] for t, v in chain.visits[s].items()))
            if s in steps
            else 1.0
            for s in shapes
        ]
    )
    width = len(shapes)
    mass = np.zeros(size_a * size_b * width)  # [wa, wb, shape], flat
    mass[where[chain.start]] = 1.0
    wins = np.zeros(size_a + size_b + 2)  # A's wins by A's wounds, then B's by B's
    per_entry = np.stack([rounds_at, loops_at], axis=1)  # (shapes, 2)
    totals = np.zeros(2)  # rounds, looping
    hits_a = np.where(on_a, hurt, 0)  # wounds each event adds to A, to B
    hits_b = np.where(on_a, 0, hurt)
    lanes = np.arange(width)
    for depth in range(size_a + size_b - 1):
        wa = np.arange(max(0, depth - size_b + 1), min(depth, size_a - 1) + 1)
        wb = depth - wa
        here = mass[((wa * size_b + wb) * width)[:, None] + lanes]  # (cells, shapes)
        totals += here.sum(axis=0) @ per_entry
        moved = here[:, entry_of] * flow  # (cells, events)
        target_a = wa[:, None] + hits_a
        target_b = wb[:, None] + hits_b
        survive = np.where(
            on_a, keep_a[np.minimum(target_a, size_a)], keep_b[np.minimum(target_b, size_b)]
        )
        stays = moved * survive
        inside = (target_a < size_a) & (target_b < size_b)
        index = np.where(inside, target_a * size_b + target_b, 0) * width + after
        mass += np.bincount(index.ravel(), weights=(stays * inside).ravel(), minlength=mass.size)
        held = np.where(on_a, size_a + 1 + wb[:, None], wa[:, None])  # the winner's wounds
        wins += np.bincount(held.ravel(), weights=(moved - stays).ravel(), minlength=wins.size)
    rounds, looping = float(totals[0]), float(totals[1])
    wins_a, wins_b = wins[:size_a], wins[size_a + 1 : size_a + 1 + size_b]
    p_a, p_b = float(wins_a.sum()), float(wins_b.sum())
    winner_wounds = {
        "a": {w: float(p) for w, p in enumerate(wins_a) if p},
        "b": {w: float(p) for w, p in enumerate(wins_b) if p},
    }
    return DuelChances(
        p_a, p_b, max(0.0, 1.0 - p_a - p_b), rounds + looping * max_rounds, winner_wounds
    )
