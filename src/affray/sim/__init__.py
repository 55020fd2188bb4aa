"""Monte Carlo: many fights, with statistics that say how sure the estimate is.

``simulate_duels`` is the scalar reference (one duel at a time through the rules
engine); ``simulate_fast`` is the batch simulator for millions of duels.
"""

from affray.sim.chunks import Estimate, estimate_run
from affray.sim.encounters import duel_encounter, simulate_encounter_duels, simulate_reference
from affray.sim.fast import CHUNK, DuelModel, simulate_chunk, simulate_fast
from affray.sim.scalar import simulate_duels
from affray.sim.stats import DuelStats, wilson_interval

__all__ = [
    "CHUNK",
    "DuelModel",
    "DuelStats",
    "Estimate",
    "duel_encounter",
    "estimate_run",
    "simulate_chunk",
    "simulate_duels",
    "simulate_encounter_duels",
    "simulate_fast",
    "simulate_reference",
    "wilson_interval",
]
