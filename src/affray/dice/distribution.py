"""Exact probability distributions over integers.

Outcomes carry integer weights; a probability is ``Fraction(weight, total)``.
Keeping integer weights (rather than Fractions) makes convolution cheap, and the
result is exact. Floats appear only where a caller asks for them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
from itertools import accumulate
from math import gcd

from affray.dice import limits
from affray.dice.parser import parse
from affray.dice.syntax import Constant, DiceTerm, Group, Negate, Node, Sum, signed_leaves
from affray.errors import DiceLimitError


@dataclass(frozen=True, slots=True)
class Distribution:
    """A finite distribution over integers with exact probabilities.

    Use the constructors (:meth:`constant`, :meth:`die`, :meth:`from_weights`)
    rather than building the tuple by hand.

    Attributes:
        pairs: ``(outcome, weight)`` sorted by outcome, weights positive and
            without a common factor.
    """

    pairs: tuple[tuple[int, int], ...]

    # -- constructors ------------------------------------------------------------

    @classmethod
    def from_weights(cls, weights: Mapping[int, int] | Iterable[tuple[int, int]]) -> Distribution:
        """A distribution from non-negative integer weights (zeros dropped)."""
        items = weights.items() if isinstance(weights, Mapping) else weights
        merged: dict[int, int] = {}
        for outcome, weight in items:
            if weight < 0:
                raise ValueError(f"negative weight {weight} for outcome {outcome}")
            if weight:
                merged[outcome] = merged.get(outcome, 0) + weight
        if not merged:
            raise ValueError("a distribution needs at least one outcome of positive weight")
        common = reduce(gcd, merged.values())
        return cls(tuple(sorted((o, w // common) for o, w in merged.items())))

    @classmethod
    def from_probabilities(cls, probabilities: Mapping[int, Fraction]) -> Distribution:
        """A distribution from exact probabilities (which must sum to 1)."""
        if sum(probabilities.values(), Fraction(0)) != 1:
            raise ValueError("probabilities must sum to 1")
        denominator = reduce(
            lambda a, b: a * b // gcd(a, b), (p.denominator for p in probabilities.values()), 1
        )
        return cls.from_weights({o: int(p * denominator) for o, p in probabilities.items()})

    @classmethod
    def constant(cls, value: int) -> Distribution:
        """Certainly ``value``."""
        return cls(((value, 1),))

    @classmethod
    def die(cls, sides: int) -> Distribution:
        """One fair die showing 1..``sides``."""
        if sides < 1:
            raise ValueError(f"a die needs at least one side, got {sides}")
        return cls(tuple((face, 1) for face in range(1, sides + 1)))

    @classmethod
    def dice(cls, count: int, sides: int) -> Distribution:
        """The sum of ``count`` fair dice of ``sides`` sides (sliding-window convolution)."""
        if count < 1:
            raise ValueError(f"need at least one die, got {count}")
        weights = [1] * sides  # index i ↔ outcome count + i after each step
        for _ in range(count - 1):
            prefix = [0, *accumulate(weights)]
            size = len(weights) + sides - 1
            weights = [
                prefix[min(i + 1, len(weights))] - prefix[max(0, i - sides + 1)]
                for i in range(size)
            ]
        return cls.from_weights((count + i, w) for i, w in enumerate(weights))

    # -- queries ---------------------------------------------------------------

    @property
    def total(self) -> int:
        """Sum of the weights (the common denominator)."""
        return sum(weight for _, weight in self.pairs)

    @property
    def outcomes(self) -> tuple[int, ...]:
        return tuple(outcome for outcome, _ in self.pairs)

    def probability(self, outcome: int) -> Fraction:
        """P(X = outcome)."""
        for value, weight in self.pairs:
            if value == outcome:
                return Fraction(weight, self.total)
        return Fraction(0)

    def probabilities(self) -> dict[int, Fraction]:
        """Every outcome with its exact probability, in increasing order."""
        total = self.total
        return {outcome: Fraction(weight, total) for outcome, weight in self.pairs}

    def p_where(self, predicate: Callable[[int], bool]) -> Fraction:
        """P(predicate(X))."""
        return Fraction(sum(w for o, w in self.pairs if predicate(o)), self.total)

    def p_greater(self, threshold: int) -> Fraction:
        """P(X > threshold)."""
        return self.p_where(lambda outcome: outcome > threshold)

    def p_at_most(self, threshold: int) -> Fraction:
        """P(X <= threshold)."""
        return self.p_where(lambda outcome: outcome <= threshold)

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(o * w for o, w in self.pairs), self.total)

    @property
    def minimum(self) -> int:
        return self.pairs[0][0]

    @property
    def maximum(self) -> int:
        return self.pairs[-1][0]

    def __iter__(self) -> Iterator[tuple[int, Fraction]]:
        return iter(self.probabilities().items())

    def __len__(self) -> int:
        return len(self.pairs)

    # -- algebra -----------------------------------------------------------------

    def map(self, function: Callable[[int], int]) -> Distribution:
        """The distribution of ``function(X)``."""
        return Distribution.from_weights((function(o), w) for o, w in self.pairs)

    def __neg__(self) -> Distribution:
        return Distribution(tuple((-o, w) for o, w in reversed(self.pairs)))

    def __add__(self, other: Distribution | int) -> Distribution:
        if isinstance(other, int):
            return Distribution(tuple((o + other, w) for o, w in self.pairs))
        weights: dict[int, int] = {}
        for a, wa in self.pairs:
            for b, wb in other.pairs:
                weights[a + b] = weights.get(a + b, 0) + wa * wb
        return Distribution.from_weights(weights)

    def __sub__(self, other: Distribution | int) -> Distribution:
        return self + (-other)

    __radd__ = __add__


def mean(expression: str | Node) -> Fraction:
    """The exact mean of an expression's total, by linearity (a die of ``s`` sides
    averages ``(s + 1) / 2``): no distribution is built, so any expression the
    parser accepts answers at once."""
    tree = parse(expression) if isinstance(expression, str) else expression
    total = Fraction(0)
    for sign, leaf in signed_leaves(tree):
        if isinstance(leaf, Constant):
            total += sign * leaf.value
        else:
            total += sign * Fraction(leaf.count * (leaf.sides + 1), 2)
    return total


def distribution(expression: str | Node) -> Distribution:
    """The exact distribution of a dice expression's total.

    Raises:
        DiceError: the expression is invalid, or too large to compute exactly
            within :data:`~affray.dice.limits.MAX_EXACT_WORK` steps.
    """
    tree = parse(expression) if isinstance(expression, str) else expression
    budget = _Budget(limits.MAX_EXACT_WORK)
    return _exact(tree, budget)


class _Budget:
    def __init__(self, steps: int) -> None:
        self.left = steps

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise DiceLimitError(
                "expression is too large to compute its exact distribution",
                hint="use fewer or smaller dice for exact odds (roll it instead), "
                f"e.g. at most about {limits.MAX_EXACT_WORK:,} outcome-steps",
            )


def _exact(node: Node, budget: _Budget) -> Distribution:
    match node:
        case Constant(value):
            return Distribution.constant(value)
        case DiceTerm(count, sides):
            # Sliding window: step k touches k*(sides-1)+sides weights.
            budget.spend(count * (count * (sides - 1) + 1))
            return Distribution.dice(count, sides)
        case Negate(operand):
            return -_exact(operand, budget)
        case Group(inner):
            return _exact(inner, budget)
        case Sum(terms):
            result: Distribution | None = None
            for sign, term in terms:
                part = _exact(term, budget)
                part = part if sign > 0 else -part
                if result is None:
                    result = part
                else:
                    budget.spend(len(result) * len(part))
                    result = result + part
            assert result is not None
            return result
    raise AssertionError(f"unknown node {node!r}")  # pragma: no cover
