"""Monte Carlo: many fights, with statistics that say how sure the estimate is.

``simulate_reference`` plays duels one by one through the encounter engine (any
system); each system's fast engines are in its package (``affray.rulesystems.<name>.sim``).
"""

from affray.estimates import Estimate
from affray.sim.chunks import estimate_run
from affray.sim.encounters import duel_encounter, simulate_encounter_duels, simulate_reference
from affray.stats import DuelStats, wilson_interval

__all__ = [
    "DuelStats",
    "Estimate",
    "duel_encounter",
    "estimate_run",
    "simulate_encounter_duels",
    "simulate_reference",
    "wilson_interval",
]
