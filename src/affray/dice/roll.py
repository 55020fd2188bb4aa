"""Rolling a dice expression with a :class:`~affray.dice.source.Dice` source.

Dice are rolled in reading order, term by term. In a pool (``4d6kh3``, ``3d6!``,
``2d6r1``) each die is settled before the next is rolled: its roll, that roll's
rerolls, then each explosion's roll with its own rerolls. Keep/drop and counting
look at the settled dice; they roll nothing. The exact distribution
(:func:`~affray.dice.distribution.distribution`) stops rerolls and explosions at the
same limits, so the two agree.
"""

from __future__ import annotations

from dataclasses import dataclass

from affray.dice import limits
from affray.dice.parser import parse
from affray.dice.source import Dice, DieRoll
from affray.dice.syntax import Constant, DicePool, DiceTerm, Node, signed_leaves, to_text


@dataclass(frozen=True, slots=True)
class RolledDie:
    """One die of a term as the notation counts it.

    Attributes:
        sides: the die's size.
        term: the canonical text of its term (``4d6kh3``).
        sign: +1, or -1 for a term taken away.
        rolls: every roll of this die in order, rerolled ones included.
        counted: for each roll, whether it counts (``False``: rerolled away).
        kept: whether keep/drop kept the die (always, without keep/drop).
        score: +1 a success, -1 a failure, 0 neither; ``None`` when the term does not
            count, or the die is dropped.
    """

    sides: int
    term: str
    sign: int
    rolls: tuple[DieRoll, ...]
    counted: tuple[bool, ...]
    kept: bool = True
    score: int | None = None

    @property
    def faces(self) -> tuple[int, ...]:
        """The faces that count: the first roll, then each explosion (after rerolls)."""
        return tuple(r.face for r, counts in zip(self.rolls, self.counted, strict=True) if counts)

    @property
    def rerolled(self) -> tuple[int, ...]:
        """The faces rerolled away, in order."""
        return tuple(
            r.face for r, counts in zip(self.rolls, self.counted, strict=True) if not counts
        )

    @property
    def value(self) -> int:
        """The die's value: its faces that count, added."""
        return sum(self.faces)

    @property
    def explosions(self) -> int:
        return len(self.faces) - 1


@dataclass(frozen=True, slots=True)
class RollResult:
    """The outcome of rolling an expression: its total and every die rolled.

    Attributes:
        rolls: every roll in the order rolled (rerolls and explosions included): the
            faces to type in again to repeat the roll with a scripted source.
        dice: each die as the notation counts it (kept, dropped, exploded, rerolled).
    """

    expression: str
    total: int
    rolls: tuple[DieRoll, ...]
    dice: tuple[RolledDie, ...] = ()

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
    roller = _Roller(dice, purpose)
    total = 0
    for sign, leaf in signed_leaves(tree):
        match leaf:
            case Constant(value):
                total += sign * value
            case DiceTerm():
                total += sign * roller.plain(leaf, sign)
            case DicePool():
                total += sign * roller.pool(leaf, sign)
    text = expression.strip() if isinstance(expression, str) else to_text(tree)
    return RollResult(text, total, tuple(roller.rolls), tuple(roller.dice))


class _Roller:
    """Rolls the terms of one expression, numbering every roll (``roll d6 #3``)."""

    def __init__(self, dice: Dice, purpose: str) -> None:
        self.source = dice
        self.purpose = purpose
        self.rolls: list[DieRoll] = []
        self.dice: list[RolledDie] = []

    def one(self, sides: int, why: str = "") -> DieRoll:
        die = self.source.roll(sides, f"{self.purpose} d{sides} #{len(self.rolls) + 1}{why}")
        self.rolls.append(die)
        return die

    def plain(self, term: DiceTerm, sign: int) -> int:
        text = to_text(term)
        total = 0
        for _ in range(term.count):
            die = self.one(term.sides)
            self.dice.append(RolledDie(term.sides, text, sign, (die,), (True,)))
            total += die.face
        return total

    def pool(self, pool: DicePool, sign: int) -> int:
        sides, text = pool.dice.sides, to_text(pool)
        settled: list[RolledDie] = []
        for _ in range(pool.dice.count):
            rolls: list[DieRoll] = []
            counted: list[bool] = []
            self.settle(pool, rolls, counted, "")
            while (
                pool.explode is not None
                and pool.explode.when.matches(rolls[-1].face)
                and sum(counted) <= limits.MAX_EXPLOSIONS
            ):
                self.settle(pool, rolls, counted, " (explosion)")
            settled.append(RolledDie(sides, text, sign, tuple(rolls), tuple(counted)))
        kept = [True] * len(settled)
        if pool.select is not None:
            kind, number = pool.select.kind, pool.select.count
            # Of equal dice the one rolled first ranks higher, so 4d6kh3 and 4d6dl1
            # drop the same die.
            highest = sorted(range(len(settled)), key=lambda i: (-settled[i].value, i))
            order = highest if kind in ("kh", "dh") else highest[::-1]
            for i in order[number:] if kind.startswith("k") else order[:number]:
                kept[i] = False
        total = 0
        for die, keeps in zip(settled, kept, strict=True):
            score = pool.count.score(die.value) if pool.count is not None and keeps else None
            self.dice.append(RolledDie(die.sides, text, sign, die.rolls, die.counted, keeps, score))
            if keeps:
                total += die.value if score is None else score
        return total

    def settle(self, pool: DicePool, rolls: list[DieRoll], counted: list[bool], why: str) -> None:
        """One roll of a pool's die and its rerolls; the last one counts."""
        die = self.one(pool.dice.sides, why)
        rolls.append(die)
        counted.append(True)
        if pool.reroll is None:
            return
        limit = 1 if pool.reroll.once else limits.MAX_REROLLS
        for _ in range(limit):
            if not pool.reroll.when.matches(rolls[-1].face):
                return
            counted[-1] = False
            rolls.append(self.one(pool.dice.sides, " (reroll)"))
            counted.append(True)
