"""Rolling a dice expression with a :class:`~affray.dice.source.Dice` source."""

from __future__ import annotations

from dataclasses import dataclass

from affray.dice.parser import parse
from affray.dice.source import Dice, DieRoll
from affray.dice.syntax import Node, constant_total, dice_terms, to_text


@dataclass(frozen=True, slots=True)
class RollResult:
    """The outcome of rolling an expression: its total and every die rolled."""

    expression: str
    total: int
    rolls: tuple[DieRoll, ...]

    @property
    def faces(self) -> tuple[int, ...]:
        """The faces shown, in the order rolled."""
        return tuple(roll.face for roll in self.rolls)


def roll(expression: str | Node, dice: Dice, purpose: str = "roll") -> RollResult:
    """Roll ``expression``, dice in reading order, each labelled with ``purpose``.

    Raises:
        DiceError: the expression is invalid, or a scripted source cannot supply a face.
    """
    tree = parse(expression) if isinstance(expression, str) else expression
    rolls: list[DieRoll] = []
    total = constant_total(tree)
    for sign, term in dice_terms(tree):
        for _ in range(term.count):
            die = dice.roll(term.sides, f"{purpose} d{term.sides} #{len(rolls) + 1}")
            rolls.append(die)
            total += sign * die.face
    text = expression.strip() if isinstance(expression, str) else to_text(tree)
    return RollResult(text, total, tuple(rolls))
