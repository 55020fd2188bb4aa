"""Dice notation: text → syntax tree → a roll (through a Dice source) or an exact distribution."""

from affray.dice.distribution import Distribution, distribution, mean
from affray.dice.parser import parse
from affray.dice.roll import RolledDie, RollResult, roll
from affray.dice.source import (
    Dice,
    DieRoll,
    Purpose,
    RandomDice,
    ScriptedDice,
    TypedDice,
    parse_faces,
)
from affray.dice.syntax import (
    Compare,
    Constant,
    Count,
    DicePool,
    DiceTerm,
    Explode,
    Group,
    Negate,
    Node,
    Reroll,
    Select,
    Sum,
    to_text,
)

__all__ = [
    "Compare",
    "Constant",
    "Count",
    "Dice",
    "DicePool",
    "DiceTerm",
    "DieRoll",
    "Distribution",
    "Explode",
    "Group",
    "Negate",
    "Node",
    "Purpose",
    "RandomDice",
    "Reroll",
    "RollResult",
    "RolledDie",
    "ScriptedDice",
    "Select",
    "Sum",
    "TypedDice",
    "distribution",
    "mean",
    "parse",
    "parse_faces",
    "roll",
    "to_text",
]
