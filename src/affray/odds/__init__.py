"""Exact odds: probabilities computed, not sampled."""

from affray.odds.duel import DuelOdds, RoundsDistribution, duel_odds, rounds_distribution
from affray.odds.format import percent
from affray.odds.mst2 import (
    AttackOdds,
    attack_odds,
    attack_power,
    hit_chance,
    hit_dice_distribution,
    shock_survival,
    shock_table,
    wound_distribution,
)

__all__ = [
    "AttackOdds",
    "DuelOdds",
    "RoundsDistribution",
    "attack_odds",
    "attack_power",
    "duel_odds",
    "hit_chance",
    "hit_dice_distribution",
    "percent",
    "rounds_distribution",
    "shock_survival",
    "shock_table",
    "wound_distribution",
]
