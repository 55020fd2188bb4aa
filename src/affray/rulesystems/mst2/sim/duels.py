"""Fast Monte Carlo of MST-2 duels: a compiled kernel, or whole batches in numpy.

Same rules as the scalar engine (``affray.rulesystems.mst2.duels``) and the exact chain
(``affray.rulesystems.mst2.odds.duel``). Only what decides the fight is drawn: each attack's
outcome (a miss, a hit without a wound, or a hit with k wounds) comes from its
exact distribution with one uniform number, and each shock check is one uniform
number against the exact chance of passing at the new wound total. That is the
same distribution as rolling every die, at a fraction of the cost.

Two engines fight the same duels, number for number. The compiled kernel
(:mod:`affray.rulesystems.mst2.sim.kernel`, numba) fights one duel at a time in machine code; the
numpy engine here advances a whole chunk of duels a turn at a time. The kernel
is used when numba is installed and the run is long enough to repay loading it
(:data:`COMPILED_FROM`); the answer is the same either way.

The random numbers come from a counter-based generator, so that the two engines
can draw the same ones: SplitMix64's output function (a 64-bit mixer) applied to a
counter. Duel ``d`` of a chunk starts its counter at ``mix(key + (d + 1) γ)``, and
its ``h``-th attack (A's first is 0, B's first 1, A's second 2, ...) owns the two
64-bit numbers at counter ``+ (2h + 1) γ`` and ``+ (2h + 2) γ``, four 32-bit
halves: the defender's counter-attack (the first number's high half), the
attacker's shock check after it (its low half), the attack (the second number's
high half) and the defender's shock check (its low half), each used only where a
rule calls for it. A 32-bit draw ``x`` stands for the uniform number ``x / 2³²``,
which reaches a probability ``p`` when ``x`` reaches ``ceil(p · 2³²)``, worked out
once per matchup from the exact fractions: each chance is sampled to within
2.4e-10, far below what any run can see.

Reproducibility: the ``n`` duels are cut into fixed chunks of ``CHUNK`` duels,
chunk ``i`` taking its key from ``SeedSequence(seed, spawn_key=(i,))`` (what
``SeedSequence.spawn`` hands out). Results depend on the seed and ``n`` only,
never on the number of worker processes or on the engine; memory is bounded by
the chunk size.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from itertools import accumulate
from typing import Any

import numpy as np

from affray.answers import MAX_ROUNDS
from affray.estimates import Estimate
from affray.rulesystems.mst2.duels import can_ever_wound
from affray.rulesystems.mst2.fighter import Fighter
from affray.rulesystems.mst2.odds.duel import Strike
from affray.rulesystems.mst2.reach import opening_distance
from affray.sim.chunks import run_chunks
from affray.stats import DuelStats

CHUNK = 1 << 17
"""Duels per chunk: the unit of seeding, of work for a worker, and of memory."""

SLICE = 4096
"""Duels per call of the kernel: between calls Python sees a Ctrl-C (inside one it
cannot), and a slice of the longest duels (to the 1000-round cap) takes about 0.1 s."""

COMPILED_FROM = 500_000
"""Runs of at least this many duels use the compiled kernel where numba is installed.
Loading it takes about 0.4 s from numba's cache (a few seconds the first time on a
machine, to compile), which a shorter run would not win back: numpy fights about a
million duels a second."""

Bits = np.ndarray[Any, np.dtype[np.uint64]]

_MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
"""The counter's step: the golden ratio in 64 bits, SplitMix64's gamma."""
_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
_LOW = np.uint64(0xFFFFFFFF)
_BITS = 32


def mix(z: Bits) -> Bits:
    """SplitMix64's output function (Stafford's variant 13), on each element, in
    place (integer arrays wrap around silently, as the generator needs)."""
    shifted = z >> _S30
    z ^= shifted
    z *= _M1
    np.right_shift(z, _S27, out=shifted)
    z ^= shifted
    z *= _M2
    np.right_shift(z, _S31, out=shifted)
    z ^= shifted
    return z


def chunk_key(entropy: int, index: int) -> int:
    """The generator's key for chunk ``index`` of a run seeded with ``entropy``."""
    sequence = np.random.SeedSequence(entropy, spawn_key=(index,))
    return int(sequence.generate_state(1, np.uint64)[0])


def duel_counters(key: int, size: int) -> Bits:
    """Where each duel of a chunk starts its counter: ``mix(key + (d + 1) γ)``."""
    steps = np.arange(1, size + 1, dtype=np.uint64) * np.uint64(GAMMA)
    steps += np.uint64(key)
    return mix(steps)


def threshold(p: Fraction) -> int:
    """The least 32-bit draw whose uniform number ``draw / 2³²`` reaches ``p``."""
    return math.ceil(p * (1 << _BITS))


@dataclass(frozen=True, slots=True)
class _Strike:
    """One side's attack on the other, ready for sampling.

    ``cut`` holds the thresholds of the cumulative probabilities of the outcomes
    miss, hit with 0 wounds, hit with 1 wound, ... (the last, 1, left out): how
    many a draw reaches is the outcome's index. ``survive[w]`` is the threshold of
    the defender's chance of passing a shock check at ``w`` total wounds: a draw
    that reaches it fails the check (past the table it is 0, which every draw
    reaches).
    """

    cut: Bits
    survive: Bits

    @classmethod
    def of(cls, attacker: Fighter, defender: Fighter) -> _Strike:
        exact = Strike.of(attacker, defender)
        top = max(exact.hit_wounds, default=0)
        outcomes = [exact.p_miss, *(exact.hit_wounds.get(k, Fraction(0)) for k in range(top + 1))]
        cumulative = [threshold(p) for p in accumulate(outcomes)][:-1]
        survive = [threshold(p) for p in exact.survive] + [0]
        return cls(np.array(cumulative, dtype=np.uint64), np.array(survive, dtype=np.uint64))


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


Kernel = Callable[
    [np.uint64, int, int, int, int, int, Bits, Bits, Bits, Bits, int], tuple[int, int, int, int]
]


@cache
def compiled_kernel() -> Kernel | None:
    """The compiled kernel, or None where numba is not installed (or switched off
    with ``NUMBA_DISABLE_JIT``, which would run it as slow Python)."""
    try:
        from affray.rulesystems.mst2.sim import kernel
    except ImportError:
        return None
    if kernel.jit_disabled():
        return None
    return kernel.fight_chunk


def simulate_chunk(
    model: DuelModel, entropy: int, index: int, size: int, *, compiled: bool = False
) -> DuelStats:
    """Fight ``size`` duels with the generator of chunk ``index``, in the compiled
    kernel or with numpy (the same duels either way).

    Raises:
        RuntimeError: ``compiled`` where the kernel is not available (numba not
            installed, or switched off).
    """
    if not model.decided:
        return DuelStats(size, 0, 0, size, 0)
    key = chunk_key(entropy, index)
    if not compiled:
        return _numpy_chunk(model, key, size)
    kernel = _the_kernel()
    total = DuelStats()
    arguments = _kernel_arguments(model)
    for first in range(0, size, SLICE):
        part = min(SLICE, size - first)
        a_wins, b_wins, draws, rounds = kernel(np.uint64(key), first, part, *arguments)
        total = total + DuelStats(part, a_wins, b_wins, draws, rounds)
    return total


def load_kernel(model: DuelModel) -> None:
    """Compile the kernel, or load it from numba's cache (a call on no duels): done
    before a run's pilot is timed and before its worker processes start, which
    inherit it.

    Raises:
        RuntimeError: the kernel is not available (see :func:`simulate_chunk`).
    """
    _the_kernel()(np.uint64(0), 0, 0, *_kernel_arguments(model))


def _the_kernel() -> Kernel:
    kernel = compiled_kernel()
    if kernel is None:
        raise RuntimeError(
            "the compiled MST-2 engine needs numba, which is not installed here "
            "(or NUMBA_DISABLE_JIT is set)"
        )
    return kernel


def _kernel_arguments(model: DuelModel) -> tuple[int, int, int, Bits, Bits, Bits, Bits, int]:
    return (
        model.reach_a,
        model.reach_b,
        model.start,
        model.a_on_b.cut,
        model.a_on_b.survive,
        model.b_on_a.cut,
        model.b_on_a.survive,
        model.max_rounds,
    )


def _numpy_chunk(model: DuelModel, key: int, size: int) -> DuelStats:
    counters = duel_counters(key, size)
    wounds = np.zeros((2, size), dtype=np.int32)  # row 0: A's wounds, row 1: B's
    distance = np.full(size, model.start, dtype=np.int8)
    a_wins = b_wins = rounds_total = 0
    reach = (model.reach_a, model.reach_b)
    strike = (model.a_on_b, model.b_on_a)
    attacks = 0
    for round_number in range(1, model.max_rounds + 1):
        for side in (0, 1):
            winners, losers = _half_turn(counters, attacks, wounds, distance, side, reach, strike)
            attacks += 1
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
            counters = counters[keep]
        if distance.size == 0:
            return DuelStats(size, a_wins, b_wins, 0, rounds_total)
    left = int(distance.size)
    return DuelStats(size, a_wins, b_wins, left, rounds_total + left * model.max_rounds)


def _draw(counters: Bits, attack: int, at: np.ndarray[Any, np.dtype[np.intp]], slot: int) -> Bits:
    """The 32-bit draw in ``slot`` (1 to 4: the high then the low half of the first
    number, then of the second) of the duels' ``attack``-th attack, for the duels
    ``at``."""
    number = (slot + 1) // 2
    drawn = mix(counters[at] + np.uint64((2 * attack + number) * GAMMA & _MASK))
    if slot % 2:
        drawn >>= _S32
    else:
        drawn &= _LOW
    return drawn


def _sample(cut: Bits, draws: Bits) -> np.ndarray[Any, np.dtype[np.int16]]:
    """Outcome indices: how many cut points each draw reaches (a handful of
    vectorised comparisons beat a binary search on such short tables)."""
    outcome = np.zeros(draws.size, dtype=np.int16)
    for point in cut:
        outcome += draws >= point
    return outcome


def _half_turn(
    counters: Bits,
    attack: int,
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
        counter = _sample(strike[other].cut, _draw(counters, attack, countered, 1))
        hit = counter >= 1
        goes[countered[hit]] = False  # a counter that hits prevents the attack
        distance[countered[~hit]] = reach[side]  # otherwise the attacker moves to its reach
        landed = counter > 1
        hurt = countered[landed]
        if hurt.size:
            wounds[side, hurt] += counter[landed] - 1
            table = strike[other].survive
            check = table[np.minimum(wounds[side, hurt], table.size - 1)]
            attacker_out[hurt] = _draw(counters, attack, hurt, 2) >= check
    going = np.flatnonzero(goes)
    outcome = _sample(strike[side].cut, _draw(counters, attack, going, 3))
    defender_out = np.zeros(size, dtype=bool)
    landed = outcome > 1
    hurt = going[landed]
    if hurt.size:
        wounds[other, hurt] += outcome[landed] - 1
        table = strike[side].survive
        check = table[np.minimum(wounds[other, hurt], table.size - 1)]
        defender_out[hurt] = _draw(counters, attack, hurt, 4) >= check
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
    compiled: bool | None = None,
) -> tuple[DuelStats, int]:
    """Simulate ``n`` duels in chunks, on ``workers`` processes (``progress`` hears of
    each chunk done; ``estimate`` of the run's time, before it starts: ``run_chunks``).

    Args:
        compiled: the compiled kernel (True) or numpy (False); by default the kernel
            for runs of :data:`COMPILED_FROM` duels or more, where numba is installed.
            The totals are the same either way.

    Returns:
        The totals, and the entropy used (the seed, or a fresh one when ``seed``
        is None) so that any run can be repeated.
    """
    model = DuelModel.of(a, b, max_rounds)
    if compiled is None:
        compiled = n >= COMPILED_FROM and compiled_kernel() is not None
    if compiled and model.decided:
        load_kernel(model)
    job = partial(simulate_chunk, model, compiled=compiled)
    return run_chunks(
        job, n, CHUNK, seed=seed, workers=workers, progress=progress, estimate=estimate
    )
