"""The answer of the exact chain and its limits: what a fight's exact odds are
(:class:`ExactFightOdds`), what is refused (:class:`ExactLimit`), and the budgets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

MAX_COMBATANTS = 5
"""Combatants still fighting an exact encounter may have (the wounds grid has one axis
each)."""
WORK_BUDGET = 20_000_000_000
"""Steps the sweep may take (:func:`_work`: cells of each family's wounds grid times the
multiply-adds of one block, every state of it). The compiled sweep looks only at the
cells and the groups of states mass reaches, so it goes far faster than its steps say:
some 3*10^9 a second of processor time on a grid the fights fill (2 against 2 with
3d10 hit dice, shuffled: 5.3*10^9 steps, 1.7 s, 0.8 s on two cores), more on a grid
mostly unreached (the same in listed order: 2.6*10^8 steps in 0.07 s). So this keeps
an answer within some 7 s of processor time."""
NUMPY_SLOWER = 30
"""How much slower a step of the numpy sweep (no numba) is than a compiled one."""
FORWARD_BUDGET = 300_000
"""States the turn-by-turn push to the round cap may visit (Python: some 50,000 a
second, so a few seconds)."""
ROUNDS_BUDGET = 2_000_000_000
"""Steps the sweep of round-by-round distributions (the cap matters, compiled) may take
(:func:`_rounds_work`; some 1.8*10^9 a second: four knights, 4*10^7 steps, 25 ms)."""
FORWARD_LAYERS = 30
"""Rounds in which the push is taken to meet each state the sweep reached, to refuse at
once (after the sweep) a push past :data:`FORWARD_BUDGET`."""
CAP_TOLERANCE = 1e-13
"""The weight of fights outlasting the cap below which the sweep's answer stands."""
FLOOR_TOTAL = 1e-14
"""The most probability the compiled sweep lets go unswept. A block whose entering
probability is under this over the number of cells of every grid is dropped, its mass
counted (:attr:`ExactFightOdds.unswept`): so even with every cell dropped the chances
fall short by at most this, under the float sums' own rounding (1e-12), and the bound
on the fights past the cap counts it too. The blocks a fight of four barely reaches
are some 40 % of its grid (2 against 2 with 3d10 hit dice, shuffled: 38 % are under
the floor of 1.8*10^-20, 8*10^-17 of probability in all)."""

_STEP = 1e-20  # the complex step
BOUND_EXPONENTS = (0.8,)
"""The bounds' ``z``: these powers of the largest ``z`` at which the loops converge (one:
of 0.3, 0.5, 0.65, 0.8 and 0.9, 0.8 gave the best bound, or within a factor of three
of it, on every fight measured; where the bound does not hold, the fight is swept
round by round, exactly)."""
Act = tuple[str, int | None]
"""An action of the chain: its kind (attack, shoot, step, flee, noncombat, hold) and
its target's index."""
Eng = frozenset[tuple[int, int, int]]
"""Engagements: ``(i, j, reach)`` with ``i < j`` (indices in listing order)."""
Queue = tuple[int, ...] | frozenset[int]
"""The turns left this round: in order (a tuple) or in an order yet to draw (a set)."""
Shape = tuple[Eng, Queue]
Family = frozenset[int]
Floats = np.ndarray[Any, np.dtype[np.float64]]
Ints = np.ndarray[Any, np.dtype[np.int64]]


@dataclass(frozen=True, slots=True)
class ExactFightOdds:
    """Exact odds of an encounter from where it stands.

    Attributes:
        p_wins: each side's chance to win (every side listed).
        p_draw: no one left fighting, or the round cap reached.
        mean_rounds: the expected round the fight ends in (the cursor's round at the
            end; a draw at the cap counts ``max_rounds``).
        p_standing: each combatant's chance to be fighting at the end.
        method: how the answer came: ``"sweep"`` (the cap weighs under
            :data:`CAP_TOLERANCE`), ``"rounds"`` (round by round to the cap:
            swept as distributions of the rounds begun, or pushed turn by turn), or
            ``"decided"`` (the fight is over already).
        states: states of the chain (an idea of the work done).
        unswept: the probability of the blocks the compiled sweep let go as too
            unlikely to matter (:data:`FLOOR_TOTAL`: at most 1e-14 in all), by which
            the chances here may fall short.
        p_going: the chance the fight is still going at the round cap (a part of
            ``p_draw``): what fights to a cap of N rounds say of round N.
    """

    p_wins: Mapping[str, float]
    p_draw: float
    mean_rounds: float
    p_standing: Mapping[str, float]
    method: str = "sweep"
    states: int = 0
    unswept: float = 0.0
    p_going: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``affray fight --exact`` (docs/encounters.md)."""
        return {
            "method": "exact",
            "sides": {side: {"p_wins": p} for side, p in self.p_wins.items()},
            "p_draw": self.p_draw,
            "mean_rounds": self.mean_rounds,
            "combatants": {cid: {"p_standing": p} for cid, p in self.p_standing.items()},
        }


@dataclass(frozen=True, slots=True)
class ExactLimit:
    """What an exact encounter would take, against the limits.

    Attributes:
        combatants: combatants still fighting.
        families: sets of combatants still fighting the chain goes through.
        states: states within blocks, over every family.
        work: the sweep's steps (see :data:`WORK_BUDGET`).
    """

    combatants: int
    families: int
    states: int
    work: int
