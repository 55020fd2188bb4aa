"""Monte Carlo: many fights, with statistics that say how sure the estimate is."""

from affray.sim.scalar import simulate_duels
from affray.sim.stats import DuelStats, wilson_interval

__all__ = ["DuelStats", "simulate_duels", "wilson_interval"]
