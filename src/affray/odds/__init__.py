"""Exact odds: probabilities computed, not sampled."""

from affray.odds.duel import DuelOdds, RoundsDistribution, duel_odds, rounds_distribution
from affray.odds.format import percent
from affray.odds.grid import (
    MEASURES,
    Cell,
    Grid,
    grid_csv,
    grid_markdown,
    grid_rows,
    grid_table,
    odds_grid,
)
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
    "MEASURES",
    "AttackOdds",
    "Cell",
    "DuelOdds",
    "Grid",
    "RoundsDistribution",
    "attack_odds",
    "attack_power",
    "duel_odds",
    "grid_csv",
    "grid_markdown",
    "grid_rows",
    "grid_table",
    "hit_chance",
    "hit_dice_distribution",
    "odds_grid",
    "percent",
    "rounds_distribution",
    "shock_survival",
    "shock_table",
    "wound_distribution",
]
