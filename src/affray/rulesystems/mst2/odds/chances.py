"""Duel odds in floats, fast, with the round cap honoured.

The same absorbing Markov chain as :mod:`affray.rulesystems.mst2.odds.duel` (blocks of wound pairs
swept in order of total wounds, each block's loops solved once), in floating
point: a 3d10 fighter's duel takes a few milliseconds instead of the tens the
exact fractions need. Like the simulators, a duel still going after ``max_rounds``
rounds is a draw. The sweep ignores rounds, so it is used when a bound shows the
duels that last that long weigh less than :data:`NEGLIGIBLE`; otherwise the duel is
pushed forward round by round to the cap
(:func:`~affray.rulesystems.mst2.odds.duel.rounds_distribution`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from affray.answers import MAX_ROUNDS
from affray.errors import AffrayError
from affray.rulesystems.mst2.duels import can_ever_wound
from affray.rulesystems.mst2.fighter import Fighter
from affray.rulesystems.mst2.odds.duel import (
    _Chain,
    _most,
    _steps,
    check_exact_budget,
    rounds_distribution,
)

if TYPE_CHECKING:
    import numpy as np

NEGLIGIBLE = 1e-13
"""The weight of duels outlasting the cap below which the uncapped sweep is used."""
ROUNDING = 1e-12
"""A draw chance below this, left over from ``1 - p(A wins) - p(B wins)``, is the
rounding of the float sums (about 1e-16 a term), and is reported as 0."""
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
    if _outlasting(chain, max_rounds) > NEGLIGIBLE:
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


def _outlasting(chain: _Chain, rounds: int) -> float:
    """A bound on P(the duel lasts more than ``rounds`` rounds); 1 when there is none
    (a loop with no wound in it).

    Each round, from any state, some wound lands with probability at least ``q``,
    so the number N of attacks that wound in ``rounds`` rounds is at least
    Binomial(rounds, q) (stochastically). Each of them is followed by a shock check
    of its victim at a wound total at least one above the last one, passed with a
    chance s(w) that falls as w grows: after ``m`` such attacks, ``i`` of them on A,
    both fighters are still standing with a chance at most S_A(i) S_B(m - i), where
    S(i) = s(1) s(2) ... s(i). With T(m) the largest of these over i (T falls as m
    grows), the bound is E[T(N)] <= sum over m of P(Binomial(rounds, q) = m) T(m).
    """
    import numpy as np

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
    if q <= 0.0:
        return 1.0
    standing = _standing(chain.strike["b"].survive), _standing(chain.strike["a"].survive)
    both = np.full(standing[0].size + standing[1].size - 1, -np.inf)  # log T(m)
    for i, log_a in enumerate(standing[0]):
        window = both[i : i + standing[1].size]
        np.maximum(window, log_a + standing[1], out=window)
    top = min(rounds, both.size - 1)
    if q >= 1.0:
        return math.exp(both[rounds]) if rounds < both.size else 0.0
    log_q, log_not = math.log(q), math.log1p(-q)
    log_binomial = np.array(
        [
            math.lgamma(rounds + 1)
            - math.lgamma(m + 1)
            - math.lgamma(rounds - m + 1)
            + m * log_q
            + (rounds - m) * log_not
            for m in range(top + 1)
        ]
    )
    return min(1.0, float(np.exp(log_binomial + both[: top + 1]).sum()))


def _standing(survive: list[Fraction]) -> np.ndarray[Any, np.dtype[np.float64]]:
    """log S(i) = log(s(1) s(2) ... s(i)) for i = 0, 1, ...: the most a fighter keeps
    standing through i shock checks, ``survive[w]`` being the chance of passing one
    at w wounds (-inf once a check cannot be passed)."""
    import numpy as np

    chances = np.array([float(p) for p in survive[1:]])
    logs = np.log(chances, out=np.full(chances.size, -np.inf), where=chances > 0)
    return np.concatenate([[0.0], np.cumsum(logs)])


def _capped(a: Fighter, b: Fighter, max_rounds: int) -> DuelChances:
    """The duel pushed round by round to the cap: the draw is the mass the chain
    itself still holds at the cap (summed, not ``1 - p_a - p_b``: a real 4.6e-13 is
    told from rounding), and the wins share the rest."""
    rounds = rounds_distribution(a, b, max_rounds=max_rounds, tolerance=NEGLIGIBLE / 10)
    p_a = math.fsum(rounds.a_wins.values())
    p_b = math.fsum(rounds.b_wins.values())
    ended = rounds.ended()
    if rounds.rounds < max_rounds:  # all but over before the cap: what is left is rounding
        p_a, p_b, still = chances(p_a, p_b)
    else:
        still = min(max(rounds.unfinished, 0.0), 1.0)
        total = p_a + p_b
        if total > 0.0:
            p_a, p_b = p_a * (1.0 - still) / total, p_b * (1.0 - still) / total
    mean = sum(r * p for r, p in ended.items()) + max_rounds * still
    return DuelChances(p_a, p_b, still, mean, {"a": {}, "b": {}}, capped=True)


def chances(p_a: float, p_b: float) -> tuple[float, float, float]:
    """``(p_a, p_b, p_draw)`` from two chances summed in floats: each at least 0, and
    the three adding up to 1 (never above it). The sums of many float terms may end a
    little above an exact 1 (1.0000000000000002 for a certain win), or below 0 by as
    little; those are the rounding, not chances. A draw chance under
    :data:`ROUNDING` is that rounding too, and is 0."""
    p_a, p_b = max(p_a, 0.0), max(p_b, 0.0)
    total = p_a + p_b
    if total > 1.0:
        p_a, p_b = p_a / total, p_b / total
        if p_a + p_b > 1.0:  # the division's own rounding
            p_b = 1.0 - p_a
    draw = 1.0 - p_a - p_b
    if draw < ROUNDING:
        draw = 0.0
    return p_a, p_b, draw


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
    summed = float(wins_a.sum()) + float(wins_b.sum())
    p_a, p_b, draw = chances(float(wins_a.sum()), float(wins_b.sum()))
    scale = min(1.0, 1.0 / summed) if summed > 0 else 1.0  # as the chances were scaled
    winner_wounds = {
        "a": {w: min(1.0, float(p) * scale) for w, p in enumerate(wins_a) if p > 0},
        "b": {w: min(1.0, float(p) * scale) for w, p in enumerate(wins_b) if p > 0},
    }
    return DuelChances(p_a, p_b, draw, rounds + looping * max_rounds, winner_wounds)
