"""MST-2's fast engines: millions of duels (``duels``, compiled by ``kernel``), whole
fights (``fights``, compiled by ``fights_kernel``), and the scalar duel loop
(``scalar``) they are checked against."""

from affray.rulesystems.mst2.sim.duels import CHUNK, DuelModel, simulate_chunk, simulate_fast
from affray.rulesystems.mst2.sim.scalar import simulate_duels

__all__ = ["CHUNK", "DuelModel", "simulate_chunk", "simulate_duels", "simulate_fast"]
