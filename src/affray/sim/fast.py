"""Fast Monte Carlo of MST-2 duels: whole batches of duels advanced together with numpy.

Same rules as the scalar engine (``affray.rules.mst2.duel``) and the exact chain
(``affray.odds.duel``). Only what decides the fight is drawn: each attack's
outcome (a miss, a hit without a wound, or a hit with k wounds) comes from its
exact distribution with one uniform number, and each shock check is one uniform
number against the exact chance of passing at the new wound total. That is the
same distribution as rolling every die, at a fraction of the cost.

Reproducibility: the ``n`` duels are cut into fixed chunks of ``CHUNK`` duels,
chunk ``i`` drawing from ``SeedSequence(seed, spawn_key=(i,))`` (what
``SeedSequence.spawn`` hands out). Results depend on the seed and ``n`` only,
never on the number of worker processes; memory is bounded by the chunk size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from affray.odds.duel import Strike
from affray.rules.mst2.duel import MAX_ROUNDS, can_ever_wound
from affray.rules.mst2.fighter import Fighter
from affray.rules.mst2.reach import opening_distance
from affray.sim.chunks import Estimate, run_chunks
from affray.sim.stats import DuelStats

CHUNK = 1 << 17
"""Duels per chunk: the unit of seeding, of work for a worker, and of memory."""


@dataclass(frozen=True, slots=True)
class _Strike:
    """One side's attack on the other, ready for sampling.

    ``cut`` holds the cumulative probabilities of the outcomes miss, hit with 0
    wounds, hit with 1 wound, ... (the last, 1, left out): ``searchsorted`` of a
    uniform number gives the outcome's index. ``survive[w]`` is the defender's
    chance of passing a shock check at ``w`` total wounds (0 past the table).
    """

    cut: np.ndarray[Any, np.dtype[np.float64]]
    survive: np.ndarray[Any, np.dtype[np.float64]]

    @classmethod
    def of(cls, attacker: Fighter, defender: Fighter) -> _Strike:
        exact = Strike.of(attacker, defender)
        top = max(exact.hit_wounds, default=0)
        outcomes = [exact.p_miss, *(exact.hit_wounds.get(k, 0) for k in range(top + 1))]
        cumulative = np.cumsum([float(p) for p in outcomes])
        survive = [float(p) for p in exact.survive]
        return cls(cumulative[:-1].copy(), np.array([*survive, 0.0]))


@dataclass(frozen=True, slots=True)
class DuelModel:
    """Everything the batch simulator needs about a matchup (picklable for workers)."""

    reach_a: int
    reach_b: int
    start: int
    a_on_b: _Strike
    b_on_a: _Strike
    decided: bool
    max_rounds: int = MAX_ROUNDS

    @classmethod
    def of(cls, a: Fighter, b: Fighter, max_rounds: int = MAX_ROUNDS) -> DuelModel:
        return cls(
            int(a.reach),
            int(b.reach),
            int(opening_distance(a, b)),
            _Strike.of(a, b),
            _Strike.of(b, a),
            can_ever_wound(a, b) or can_ever_wound(b, a),
            max_rounds,
        )


def simulate_chunk(model: DuelModel, entropy: int, index: int, size: int) -> DuelStats:
    """Fight ``size`` duels with the generator of chunk ``index``."""
    if not model.decided:
        return DuelStats(size, 0, 0, size, 0)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy, spawn_key=(index,))))
    wounds = np.zeros((2, size), dtype=np.int32)  # row 0: A's wounds, row 1: B's
    distance = np.full(size, model.start, dtype=np.int8)
    a_wins = b_wins = rounds_total = 0
    reach = (model.reach_a, model.reach_b)
    strike = (model.a_on_b, model.b_on_a)
    for round_number in range(1, model.max_rounds + 1):
        for side in (0, 1):
            winners, losers = _half_turn(rng, wounds, distance, side, reach, strike)
            ended = winners | losers
            if not ended.any():
                continue
            side_won = int(np.count_nonzero(winners))
            other_won = int(np.count_nonzero(losers))
            if side == 0:
                a_wins, b_wins = a_wins + side_won, b_wins + other_won
            else:
                a_wins, b_wins = a_wins + other_won, b_wins + side_won
            rounds_total += round_number * (side_won + other_won)
            keep = ~ended
            wounds = wounds[:, keep]
            distance = distance[keep]
        if distance.size == 0:
            return DuelStats(size, a_wins, b_wins, 0, rounds_total)
    left = int(distance.size)
    return DuelStats(size, a_wins, b_wins, left, rounds_total + left * model.max_rounds)


def _sample(
    cut: np.ndarray[Any, np.dtype[np.float64]], uniforms: np.ndarray[Any, np.dtype[np.float64]]
) -> np.ndarray[Any, np.dtype[np.int16]]:
    """Outcome indices: how many cut points each uniform number reaches (a handful of
    vectorised comparisons beat a binary search on such short tables)."""
    outcome = np.zeros(uniforms.size, dtype=np.int16)
    for point in cut:
        outcome += uniforms >= point
    return outcome


def _half_turn(
    rng: np.random.Generator,
    wounds: np.ndarray[Any, np.dtype[np.int32]],
    distance: np.ndarray[Any, np.dtype[np.int8]],
    side: int,
    reach: tuple[int, int],
    strike: tuple[_Strike, _Strike],
) -> tuple[np.ndarray[Any, np.dtype[np.bool_]], np.ndarray[Any, np.dtype[np.bool_]]]:
    """One attack by ``side`` in every live duel, in place. Returns (the attacker
    won, the attacker lost) masks. Random numbers are drawn only where a rule needs
    them: counter-attacks where the reach differs, shock checks where wounds landed."""
    other = 1 - side
    size = distance.size
    goes = np.ones(size, dtype=bool)
    attacker_out = np.zeros(size, dtype=bool)
    countered = np.flatnonzero(distance != reach[side])
    if countered.size:
        counter = _sample(strike[other].cut, rng.random(countered.size))
        hit = counter >= 1
        goes[countered[hit]] = False  # a counter that hits prevents the attack
        distance[countered[~hit]] = reach[side]  # otherwise the attacker moves to its reach
        landed = counter > 1
        hurt = countered[landed]
        if hurt.size:
            wounds[side, hurt] += counter[landed] - 1
            table = strike[other].survive
            check = table[np.minimum(wounds[side, hurt], table.size - 1)]
            attacker_out[hurt] = rng.random(hurt.size) >= check
    outcome = _sample(strike[side].cut, rng.random(size))
    defender_out = np.zeros(size, dtype=bool)
    hurt = np.flatnonzero(goes & (outcome > 1))
    if hurt.size:
        wounds[other, hurt] += outcome[hurt] - 1
        table = strike[side].survive
        check = table[np.minimum(wounds[other, hurt], table.size - 1)]
        defender_out[hurt] = rng.random(hurt.size) >= check
    return defender_out, attacker_out


def simulate_fast(
    a: Fighter,
    b: Fighter,
    n: int,
    *,
    seed: int | None = None,
    workers: int = 1,
    max_rounds: int = MAX_ROUNDS,
    progress: Callable[[int], None] | None = None,
    estimate: Callable[[Estimate], None] | None = None,
) -> tuple[DuelStats, int]:
    """Simulate ``n`` duels in chunks, on ``workers`` processes (``progress`` hears of
    each chunk done; ``estimate`` of the run's time, before it starts: ``run_chunks``).

    Returns:
        The totals, and the entropy used (the seed, or a fresh one when ``seed``
        is None) so that any run can be repeated.
    """
    model = DuelModel.of(a, b, max_rounds)
    job = partial(simulate_chunk, model)
    return run_chunks(
        job, n, CHUNK, seed=seed, workers=workers, progress=progress, estimate=estimate
    )
