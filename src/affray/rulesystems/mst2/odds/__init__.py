"""MST-2's exact odds: one attack, a duel as a Markov chain, grids, whole fights."""

from affray.rulesystems.mst2.odds.attack import (
    AttackOdds,
    attack_odds,
    attack_power,
    hit_chance,
    hit_dice_distribution,
    shock_survival,
    shock_table,
    wound_distribution,
)
from affray.rulesystems.mst2.odds.duel import (
    DuelFractions,
    duel_odds,
    rounds_distribution,
)
from affray.rulesystems.mst2.odds.grid import (
    MEASURES,
    Cell,
    Grid,
    grid_csv,
    grid_markdown,
    grid_rows,
    grid_table,
    odds_grid,
)

__all__ = [
    "MEASURES",
    "AttackOdds",
    "Cell",
    "DuelFractions",
    "Grid",
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
    "rounds_distribution",
    "shock_survival",
    "shock_table",
    "wound_distribution",
]
