"""Exact odds: probabilities computed, not sampled."""

from affray.odds.mst2 import (
    AttackOdds,
    attack_odds,
    attack_power,
    hit_chance,
    hit_dice_distribution,
    shock_survival,
    wound_distribution,
)

__all__ = [
    "AttackOdds",
    "attack_odds",
    "attack_power",
    "hit_chance",
    "hit_dice_distribution",
    "shock_survival",
    "wound_distribution",
]
