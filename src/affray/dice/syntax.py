"""The syntax tree of a dice expression.

Sums are kept flat (a tuple of signed terms) so that a long chain such as
``d6+d6+...+d6`` is one node, not a deep tree; only parentheses and unary
signs nest, and the parser bounds that nesting.

A dice term with modifiers (``4d6kh3``, ``3d6!``, ``2d6r1``, ``6d10>=8``) is a
:class:`DicePool`: plain dice (:class:`DiceTerm`) and what is done to each die. The
modifiers always act in one order, whatever order they are written in: rerolls
(each roll), explosions (each die), keep or drop (the pool), then counting.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from affray.errors import DiceSyntaxError

Op = Literal["=", "<", "<=", ">", ">="]
SelectKind = Literal["kh", "kl", "dh", "dl"]


@dataclass(frozen=True, slots=True)
class Constant:
    """An integer constant such as ``3``."""

    value: int


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``count`` dice of ``sides`` sides, added together (``3d6``)."""

    count: int
    sides: int


@dataclass(frozen=True, slots=True)
class Compare:
    """A compare point such as ``>=8``: the values it matches. ``>`` and ``<`` are strict
    (as in mathematics and icepool; Roll20's ``>`` means "at least": write ``>=`` here)."""

    op: Op
    value: int

    def matches(self, value: int) -> bool:
        match self.op:
            case "=":
                return value == self.value
            case "<":
                return value < self.value
            case "<=":
                return value <= self.value
            case ">":
                return value > self.value
            case ">=":
                return value >= self.value
        raise AssertionError(self.op)  # pragma: no cover

    @property
    def bounds(self) -> tuple[int | None, int | None]:
        """The matched integers as an inclusive interval (``None``: unbounded)."""
        match self.op:
            case "=":
                return self.value, self.value
            case "<":
                return None, self.value - 1
            case "<=":
                return None, self.value
            case ">":
                return self.value + 1, None
            case ">=":
                return self.value, None
        raise AssertionError(self.op)  # pragma: no cover

    def overlaps(self, other: Compare) -> bool:
        """Whether some integer matches both."""
        (low_a, high_a), (low_b, high_b) = self.bounds, other.bounds
        lows = [low for low in (low_a, low_b) if low is not None]
        highs = [high for high in (high_a, high_b) if high is not None]
        return not lows or not highs or max(lows) <= min(highs)

    def text(self, *, bare_equals: bool = True) -> str:
        """``>=8``; ``=5`` as ``5`` where a bare number means "equal" (``r1``, ``!6``, ``f1``)."""
        return str(self.value) if self.op == "=" and bare_equals else f"{self.op}{self.value}"


@dataclass(frozen=True, slots=True)
class Reroll:
    """``r`` / ``ro``: a roll matching ``when`` is rolled again. ``once`` (``ro``): one
    reroll, whatever it shows; otherwise (``r``) again while it matches, at most
    :data:`~affray.dice.limits.MAX_REROLLS` times (the last reroll then stands)."""

    when: Compare
    once: bool = False


@dataclass(frozen=True, slots=True)
class Explode:
    """``!``: a die whose roll matches ``when`` (its highest face for a bare ``!``) is
    rolled again and the new roll added to it, again while it matches, at most
    :data:`~affray.dice.limits.MAX_EXPLOSIONS` times (the last roll does not explode)."""

    when: Compare


@dataclass(frozen=True, slots=True)
class Select:
    """Keep or drop dice by value: ``kh``/``k`` keep the highest ``count``, ``kl`` the
    lowest; ``dh`` drop the highest ``count``, ``dl`` the lowest."""

    kind: SelectKind
    count: int

    def keeps(self, dice: int) -> tuple[bool, int]:
        """``(highest, kept)``: whether the highest dice are the kept ones, and how many."""
        match self.kind:
            case "kh":
                return True, self.count
            case "kl":
                return False, self.count
            case "dl":
                return True, dice - self.count
            case "dh":
                return False, dice - self.count
        raise AssertionError(self.kind)  # pragma: no cover


@dataclass(frozen=True, slots=True)
class Count:
    """Success counting (``>=8``, ``f1``): each die whose value matches ``success`` counts 1,
    each matching ``failure`` counts -1, the others 0; the term is the sum of the counts."""

    success: Compare
    failure: Compare | None = None

    def score(self, value: int) -> int:
        if self.success.matches(value):
            return 1
        if self.failure is not None and self.failure.matches(value):
            return -1
        return 0


@dataclass(frozen=True, slots=True)
class DicePool:
    """Dice with modifiers (``4d6kh3``, ``3d6!``, ``2d6r1``, ``6d10>=8``, ``5d6!kh3>=5``).

    The value of a die is the sum of the rolls that count for it: the first roll (after
    its rerolls) and each explosion's roll (after its own rerolls). Keep and drop choose
    dice by that value; a count scores each kept die by it. The term's total is the sum
    of the kept dice's values, or of their scores when it counts.
    """

    dice: DiceTerm
    reroll: Reroll | None = None
    explode: Explode | None = None
    select: Select | None = None
    count: Count | None = None


@dataclass(frozen=True, slots=True)
class Negate:
    """Unary minus (``-d4``)."""

    operand: Node


@dataclass(frozen=True, slots=True)
class Group:
    """A parenthesised sub-expression; kept so the tree prints back as written."""

    inner: Node


@dataclass(frozen=True, slots=True)
class Sum:
    """``terms[0] ± terms[1] ± ...``: each term with its sign (+1 or -1)."""

    terms: tuple[tuple[int, Node], ...]


Node = Constant | DiceTerm | DicePool | Negate | Group | Sum
Leaf = Constant | DiceTerm | DicePool


def to_text(node: Node) -> str:
    """Render a tree back to canonical notation (``2d6+1``, ``4d6kh3``)."""
    match node:
        case Constant(value):
            return str(value)
        case DiceTerm(count, sides):
            return f"{count}d{sides}"
        case DicePool():
            return _pool_text(node)
        case Negate(operand):
            return f"-{to_text(operand)}"
        case Group(inner):
            return f"({to_text(inner)})"
        case Sum(terms):
            parts: list[str] = []
            for index, (sign, term) in enumerate(terms):
                text = to_text(term)
                if index == 0:
                    parts.append(text if sign > 0 else f"-{text}")
                else:
                    parts.append(("+" if sign > 0 else "-") + text)
            return "".join(parts)
    raise AssertionError(f"unknown node {node!r}")  # pragma: no cover


def _pool_text(pool: DicePool) -> str:
    text = to_text(pool.dice)
    if pool.reroll is not None:
        text += ("ro" if pool.reroll.once else "r") + pool.reroll.when.text()
    if pool.explode is not None:
        when = pool.explode.when
        highest = when == Compare("=", pool.dice.sides)
        # A bare '!' followed by a compare point would read as the explosion's own.
        text += "!" if highest and (pool.count is None or pool.select) else "!" + when.text()
    if pool.select is not None:
        text += f"{pool.select.kind}{pool.select.count}"
    if pool.count is not None:
        text += pool.count.success.text(bare_equals=False)
        if pool.count.failure is not None:
            text += "f" + pool.count.failure.text()
    return text


def signed_leaves(node: Node) -> Iterator[tuple[int, Leaf]]:
    """Constants and dice terms (plain or pools) in reading order, each with its overall sign."""
    stack: list[tuple[int, Node]] = [(1, node)]
    while stack:
        sign, current = stack.pop()
        match current:
            case Constant() | DiceTerm() | DicePool():
                yield sign, current
            case Negate(operand):
                stack.append((-sign, operand))
            case Group(inner):
                stack.append((sign, inner))
            case Sum(terms):
                stack.extend((sign * s, t) for s, t in reversed(terms))


def dice_terms(node: Node) -> list[tuple[int, DiceTerm]]:
    """All dice terms in reading order, each with its overall sign: for callers that
    treat an expression as plain dice added together (a pool of power dice, hit dice).

    Raises:
        DiceSyntaxError: a term keeps or drops, rerolls, explodes or counts dice
            (``4d6kh3``): its total is not the sum of its dice, so it has no place here.
    """
    terms: list[tuple[int, DiceTerm]] = []
    for sign, leaf in signed_leaves(node):
        if isinstance(leaf, DicePool):
            raise plain_dice_only(node, leaf)
        if isinstance(leaf, DiceTerm):
            terms.append((sign, leaf))
    return terms


def plain_dice_only(node: Node, pool: DicePool) -> DiceSyntaxError:
    """The error for a :class:`DicePool` where only plain dice make sense."""
    text, term = to_text(node), to_text(pool)
    what = [
        name
        for name, present in (
            ("rerolls", pool.reroll),
            ("explodes", pool.explode),
            ("keeps or drops dice", pool.select),
            ("counts successes", pool.count),
        )
        if present is not None
    ]
    return DiceSyntaxError(
        f"{term} {' and '.join(what)}: only plain dice (such as 2d6 or 1d6+1d8) can be used here",
        expression=text,
        position=max(0, text.find(term)),
        hint=f"write the dice without modifiers, e.g. {to_text(pool.dice)}",
    )


def constant_total(node: Node) -> int:
    """The sum of the constants in the tree, with their signs."""
    return sum(
        sign * leaf.value for sign, leaf in signed_leaves(node) if isinstance(leaf, Constant)
    )
