"""How long a run of simulated duels or fights will take, said before it starts.

A type alone, below :mod:`affray.answers` (whose :class:`~affray.answers.RunSpec`
hears one) and :mod:`affray.sim` (whose runs time a pilot and make one,
:func:`affray.sim.chunks.pilot`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Estimate:
    """How long a run will take, measured on a pilot (a few duels fought alone, timed,
    before the run starts) and scaled to the run and the workers sharing it."""

    seconds: float
    duels: int
    workers: int
