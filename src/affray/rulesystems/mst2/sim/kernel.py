"""The fast MST-2 engine compiled: one duel at a time in machine code (numba).

It fights the same duels as the numpy engine of :mod:`affray.rulesystems.mst2.sim.duels`, number for
number: the same sampled model (one uniform number per attack outcome, one per
shock check) and the same counter-based generator, each number taken from the
same slot of the same duel (the module docstring of :mod:`affray.rulesystems.mst2.sim.duels` says
how). A call fights a slice of a chunk and allocates nothing.

Importing this module imports numba (about 0.2 s more than numpy alone);
:mod:`affray.rulesystems.mst2.sim.duels` does so only for runs long enough to gain from it.
``cache=True`` keeps the machine code in ``__pycache__`` beside this file (or in
numba's cache in the user's home where that is read-only), so compiling (about 2 s)
is paid once per machine and per change of this file; numba checks the file's
time stamp, so everything the kernel calls lives here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
import numpy as np

Table = np.ndarray[Any, np.dtype[np.uint64]]

GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
_LOW = np.uint64(0xFFFFFFFF)
_TWO = np.uint64(2)


def jit_disabled() -> bool:
    """Whether numba is switched off (``NUMBA_DISABLE_JIT``): the kernel would then
    run as plain Python, far slower than numpy."""
    return bool(getattr(numba.config, "DISABLE_JIT", False))


def _mix(z: np.uint64) -> np.uint64:
    """SplitMix64's output function (Stafford's variant 13)."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


def _outcome(cut: Table, draw: np.uint64) -> int:
    """How many cut points ``draw`` reaches: the index of the attack's outcome (0 a
    miss, 1 a hit without a wound, k + 1 a hit with k wounds). Every point is
    compared, with no early exit: a branch on a random number is mispredicted half
    the time, and costs more than the comparisons it saves."""
    k = 0
    for i in range(cut.size):
        k += draw >= cut[i]
    return k


def _half_turn(
    counter: np.uint64,
    mine: int,
    theirs: int,
    distance: int,
    reach: int,
    cut: Table,
    survive: Table,
    other_cut: Table,
    other_survive: Table,
) -> tuple[int, int, int, int]:
    """One attack in one duel: the defender's counter-attack first where the reach
    differs from the distance (a hit prevents the attack), then the attack, each
    followed by a shock check where it wounded.

    ``counter`` is the generator's counter before this attack's two numbers: the
    counter-attack takes the first one's high half, the attacker's shock check its
    low half, the attack and the defender's shock check the second one's halves.
    Both are worked out whether or not a rule needs them, and each result kept only
    where one does: the numbers depend on no earlier outcome, so the processor
    computes them side by side, and selecting results instead of branching on
    random numbers (mispredicted half the time) keeps it busy.

    Returns:
        The attacker's and the defender's wounds, the distance, and the end: 0 the
        duel goes on, 1 the defender is out, 2 the attacker is (taken out by the
        counter-attack).
    """
    first = mix(counter + GAMMA)
    second = mix(counter + GAMMA * _TWO)
    countered = distance != reach
    counter_hit = outcome(other_cut, first >> _S32) * countered
    hurt = max(counter_hit - 1, 0)
    mine += hurt
    fell = (hurt > 0) & ((first & _LOW) >= other_survive[min(mine, other_survive.size - 1)])
    goes = counter_hit == 0  # a counter-attack that hits prevents the attack
    distance = reach if goes else distance
    hit = outcome(cut, second >> _S32) * goes
    wounds = max(hit - 1, 0)
    theirs += wounds
    felled = (wounds > 0) & ((second & _LOW) >= survive[min(theirs, survive.size - 1)])
    end = 1 if felled else (2 if fell else 0)
    return mine, theirs, distance, end


def _fight_chunk(
    key: np.uint64,
    first: int,
    size: int,
    reach_a: int,
    reach_b: int,
    start: int,
    cut_a: Table,
    survive_b: Table,
    cut_b: Table,
    survive_a: Table,
    max_rounds: int,
) -> tuple[int, int, int, int]:
    """Fight duels ``first`` to ``first + size - 1`` of the chunk whose key is ``key``
    (slices of a chunk add up to the whole).

    ``cut_a`` samples A's attack on B and ``survive_b`` holds B's shock-check
    thresholds by wound total; ``cut_b`` and ``survive_a`` the other way.

    Returns:
        A's wins, B's wins, draws and the rounds begun, added over the chunk.
    """
    a_wins = b_wins = draws = rounds_total = 0
    step = GAMMA * _TWO
    for duel in range(first, first + size):
        counter = mix(key + np.uint64(duel + 1) * GAMMA)
        wounds_a = wounds_b = 0
        distance = start
        round_number = 0
        while round_number < max_rounds:
            round_number += 1
            wounds_a, wounds_b, distance, end = half_turn(
                counter, wounds_a, wounds_b, distance, reach_a, cut_a, survive_b, cut_b, survive_a
            )
            counter += step
            if end:
                a_wins += end == 1
                b_wins += end == 2
                break
            wounds_b, wounds_a, distance, end = half_turn(
                counter, wounds_b, wounds_a, distance, reach_b, cut_b, survive_a, cut_a, survive_b
            )
            counter += step
            if end:
                b_wins += end == 1
                a_wins += end == 2
                break
        else:
            draws += 1
        rounds_total += round_number
    return a_wins, b_wins, draws, rounds_total


mix: Callable[[np.uint64], np.uint64] = numba.njit(inline="always")(_mix)
outcome: Callable[[Table, np.uint64], int] = numba.njit(inline="always")(_outcome)
half_turn: Callable[
    [np.uint64, int, int, int, int, Table, Table, Table, Table], tuple[int, int, int, int]
] = numba.njit(inline="always")(_half_turn)
fight_chunk: Callable[
    [np.uint64, int, int, int, int, int, Table, Table, Table, Table, int],
    tuple[int, int, int, int],
] = numba.njit(cache=True, nogil=True)(_fight_chunk)
"""Fight a chunk of duels (the arguments of :func:`_fight_chunk`), compiled."""
