"""affray: rules, exact odds and simulation for MST-2 and Midian tabletop combat.

The public face: import from ``affray`` (or ``affray.rules.mst2`` for every
MST-2 rule). MST-2: Melee Fighting © 2021 Eiríkr Åsheim, CC BY 4.0.
"""

from affray.dice import (
    Dice,
    DieRoll,
    Distribution,
    RandomDice,
    RollResult,
    ScriptedDice,
    distribution,
    parse,
    roll,
)
from affray.errors import (
    AffrayError,
    DiceError,
    DiceLimitError,
    DiceSyntaxError,
    RulesError,
    ScriptedDiceError,
    SheetError,
)
from affray.events import Event

__all__ = [
    "AffrayError",
    "Dice",
    "DiceError",
    "DiceLimitError",
    "DiceSyntaxError",
    "DieRoll",
    "Distribution",
    "Event",
    "RandomDice",
    "RollResult",
    "RulesError",
    "ScriptedDice",
    "ScriptedDiceError",
    "SheetError",
    "distribution",
    "parse",
    "roll",
]
