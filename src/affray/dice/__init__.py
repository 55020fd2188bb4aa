"""Dice notation: text → syntax tree → a roll (through a Dice source) or an exact distribution."""

from affray.dice.distribution import Distribution, distribution, mean
from affray.dice.parser import parse
from affray.dice.roll import RollResult, roll
from affray.dice.source import Dice, DieRoll, RandomDice, ScriptedDice, TypedDice, parse_faces
from affray.dice.syntax import Constant, DiceTerm, Group, Negate, Node, Sum, to_text

__all__ = [
    "Constant",
    "Dice",
    "DiceTerm",
    "DieRoll",
    "Distribution",
    "Group",
    "Negate",
    "Node",
    "RandomDice",
    "RollResult",
    "ScriptedDice",
    "Sum",
    "TypedDice",
    "distribution",
    "mean",
    "parse",
    "parse_faces",
    "roll",
    "to_text",
]
