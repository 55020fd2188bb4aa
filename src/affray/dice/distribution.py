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
from math import comb, gcd

from affray.dice import limits
from affray.dice.parser import parse
from affray.dice.syntax import (
    Constant,
    DicePool,
    DiceTerm,
    Group,
    Negate,
    Node,
    Sum,
    signed_leaves,
    to_text,
)
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
    averages ``(s + 1) / 2``): no distribution is built for plain dice, so any plain
    expression the parser accepts answers at once. A term that rerolls, explodes or
    counts needs one die's distribution; one that keeps or drops dice needs its own
    distribution (both within :data:`~affray.dice.limits.MAX_EXACT_WORK`).

    Raises:
        DiceError: the expression is invalid, or a pool is too large to compute exactly.
    """
    tree = parse(expression) if isinstance(expression, str) else expression
    total = Fraction(0)
    budget = _Budget(limits.MAX_EXACT_WORK)
    for sign, leaf in signed_leaves(tree):
        match leaf:
            case Constant(value):
                total += sign * value
            case DiceTerm(count, sides):
                total += sign * Fraction(count * (sides + 1), 2)
            case DicePool():
                total += sign * _pool_mean(leaf, budget)
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
        case DicePool():
            try:
                return _pool(node, budget)
            except DiceLimitError:
                raise DiceLimitError(
                    f"{to_text(node)} is too large to compute its exact distribution",
                    hint=f"exact odds take at most about {limits.MAX_EXACT_WORK:,} "
                    f"outcome-steps, and explosions go {limits.MAX_EXPLOSIONS} deep: use "
                    "fewer or smaller dice (roll it instead)",
                ) from None
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
                    steps = len(result) * len(part)
                    if _has_pool(node):  # weights past machine size (plain sums as before)
                        steps *= _pair_cost(_bits(result), _bits(part))
                    budget.spend(steps)
                    result = result + part
            assert result is not None
            return result
    raise AssertionError(f"unknown node {node!r}")  # pragma: no cover


# -- dice pools: rerolls, explosions, keep/drop, counts ------------------------------
#
# Rerolls and explosions make weights far larger than machine words (a d6 exploding 20
# times deep weighs its outcomes over 6**21), so the pools' steps are charged by the size
# of the numbers multiplied too (_pair_cost), and charged before the work where it can
# be foreseen, so that a pool too large is refused at once.


def _has_pool(node: Node) -> bool:
    return any(isinstance(leaf, DicePool) for _, leaf in signed_leaves(node))


def _bits(dist: Distribution) -> int:
    return max(weight for _, weight in dist.pairs).bit_length()


def _pair_cost(a_bits: int, b_bits: int) -> int:
    """Budget steps for one multiply-and-add of weights of these sizes: 1 for machine-size
    weights, about one more per 32 products of 64-bit words (timed: 3 us for 1000-bit
    weights against 0.5 us for small ones)."""
    return 1 + (a_bits // 64 + 1) * (b_bits // 64 + 1) // 32


def _roll_weights(pool: DicePool, budget: _Budget) -> dict[int, int]:
    """One roll of a pool's die after its rerolls: face → weight (all over one total).

    ``r`` with at most R rerolls: rolls 0..R, roll k reached with chance (m/s)^k (m of
    the s faces reroll); a roll stands when it does not match or k = R. Over s^(R+1)
    a face that stands weighs sum_k m^k s^(R-k), a rerolled face m^R. ``ro`` is R = 1.
    """
    sides = pool.dice.sides
    budget.spend(sides)
    if pool.reroll is None:
        return dict.fromkeys(range(1, sides + 1), 1)
    when = pool.reroll.when
    rerolls = 1 if pool.reroll.once else limits.MAX_REROLLS
    matched = sum(when.matches(face) for face in range(1, sides + 1))
    stands = sum(matched**k * sides ** (rerolls - k) for k in range(rerolls + 1))
    return {
        face: matched**rerolls if when.matches(face) else stands for face in range(1, sides + 1)
    }


def _die(pool: DicePool, budget: _Budget) -> Distribution:
    """The value of one die: its roll plus, while a roll explodes, the next roll, at most
    :data:`~affray.dice.limits.MAX_EXPLOSIONS` times (built from the deepest roll up)."""
    rolls = _roll_weights(pool, budget)
    if pool.explode is None:
        return Distribution.from_weights(rolls)
    when = pool.explode.when
    exploding = [(face, weight) for face, weight in rolls.items() if when.matches(face)]
    standing = [(face, weight) for face, weight in rolls.items() if not when.matches(face)]
    scale = sum(rolls.values())
    sides, bits = pool.dice.sides, scale.bit_length()
    budget.spend(
        sum(
            len(rolls) + len(exploding) * depth * sides * _pair_cost(depth * bits, bits)
            for depth in range(1, limits.MAX_EXPLOSIONS + 1)
        )
    )
    value, total = dict(rolls), scale  # the deepest roll: it does not explode
    for _ in range(limits.MAX_EXPLOSIONS):
        deeper: dict[int, int] = {face: weight * total for face, weight in standing}
        for face, weight in exploding:
            for rest, rest_weight in value.items():
                deeper[face + rest] = deeper.get(face + rest, 0) + weight * rest_weight
        common = reduce(gcd, deeper.values())
        value, total = {v: w // common for v, w in deeper.items()}, total * scale // common
    return Distribution.from_weights(value)


def _pool(pool: DicePool, budget: _Budget) -> Distribution:
    """The total of a pool: its dice's values (or scores, when it counts), summed over
    the kept dice."""
    die = _die(pool, budget)
    count = pool.dice.count
    score = pool.count.score if pool.count is not None else None
    if pool.select is not None:
        highest, kept = pool.select.keeps(count)
        return _keep(die, count, kept, highest=highest, score=score, budget=budget)
    each = die if score is None else die.map(score)
    if len(each) == 1:
        return Distribution.constant(count * each.minimum)
    if len(each) == 2:
        return _binomial(each, count, budget)
    span, bits = each.maximum - each.minimum, _bits(each)
    budget.spend(
        sum(
            (dice * span + 1) * len(each) * _pair_cost(dice * bits, bits)
            for dice in range(1, count)
        )
    )
    result = each
    for _ in range(count - 1):
        result = result + each
    return result


def _binomial(each: Distribution, count: int, budget: _Budget) -> Distribution:
    """``count`` dice with two outcomes each (a success or not): a binomial, directly."""
    (low, low_weight), (high, high_weight) = each.pairs
    budget.spend(count * _pair_cost(count * _bits(each), count * _bits(each)))
    highs = list(accumulate([1] + [high_weight] * count, lambda a, b: a * b))
    lows = list(accumulate([1] + [low_weight] * count, lambda a, b: a * b))
    return Distribution.from_weights(
        (j * high + (count - j) * low, comb(count, j) * highs[j] * lows[count - j])
        for j in range(count + 1)
    )


def _keep(
    die: Distribution,
    count: int,
    kept: int,
    *,
    highest: bool,
    score: Callable[[int], int] | None,
    budget: _Budget,
) -> Distribution:
    """The sum over the ``kept`` highest (or lowest) of ``count`` dice like ``die`` of
    their values, or of ``score`` of them (icepool's approach; brute force checks it in
    tests/dice/test_notation.py).

    The faces are taken from the first kept (highest, or lowest) on; a state is how
    many dice show the faces taken so far and the sum kept among them. Once ``kept``
    dice are placed the sum is settled, and the other dice may show any face not yet
    taken: the state closes at once with a binomial tail,
    sum_{j >= kept - placed} C(m, j) w^j R^(m-j) = (w + R)^m - (the terms below),
    for m = count - placed dice left, w this face's weight, R the untaken faces'.
    """
    faces = sorted(die.pairs, reverse=highest)
    budget.spend(_keep_steps(faces, count, kept, score))
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    settled: dict[int, int] = {}
    untaken = die.total
    for value, weight in faces:
        untaken -= weight
        points = value if score is None else score(value)
        powers = list(accumulate([1] + [weight] * kept, lambda a, b: a * b))
        low = count - kept + 1  # the fewest dice left while the state is open
        rest = list(accumulate([untaken**low] + [untaken] * (kept - 1), lambda a, b: a * b))
        both = list(
            accumulate(
                [(weight + untaken) ** low] + [weight + untaken] * (kept - 1), lambda a, b: a * b
            )
        )
        tails = []
        for placed in range(kept):
            left = count - placed
            below = sum(
                comb(left, j) * powers[j] * rest[left - j - low] for j in range(kept - placed)
            )
            tails.append(both[left - low] - below)
        following: dict[tuple[int, int], int] = {}
        for (placed, subtotal), ways in states.items():
            left = count - placed
            for j in range(kept - placed):
                key = (placed + j, subtotal + points * j)
                following[key] = following.get(key, 0) + ways * comb(left, j) * powers[j]
            done = subtotal + points * (kept - placed)
            settled[done] = settled.get(done, 0) + ways * tails[placed]
        states = following
    return Distribution.from_weights(settled)


def _keep_steps(
    faces: list[tuple[int, int]], count: int, kept: int, score: Callable[[int], int] | None
) -> int:
    """An upper bound of :func:`_keep`'s steps, known before it starts: at face i the
    states with c dice placed hold sums spanning at most c times the spread of the
    first i faces' points, and each moves on in at most kept - c + 1 ways."""
    total = sum(weight for _, weight in faces)
    cost = _pair_cost(count * total.bit_length(), total.bit_length())
    last_low = last_high = None
    steps = 0
    for value, _ in faces:
        points = value if score is None else score(value)
        last_low = points if last_low is None else min(last_low, points)
        last_high = points if last_high is None else max(last_high, points)
        spread = last_high - last_low
        # sum over c < kept of (spread * c + 1) * (kept + 1 - c), in closed form
        t1, t2 = kept * (kept - 1) // 2, (kept - 1) * kept * (2 * kept - 1) // 6
        transitions = spread * (kept + 1) * t1 - spread * t2 + (kept + 1) * kept - t1
        steps += (kept * kept + transitions + count.bit_length()) * cost
    return steps


def _pool_mean(pool: DicePool, budget: _Budget) -> Fraction:
    """A pool's mean: ``count`` times one die's (scored) mean, unless it keeps or drops."""
    if pool.select is not None:
        return _pool(pool, budget).mean
    die = _die(pool, budget)
    each = die if pool.count is None else die.map(pool.count.score)
    return pool.dice.count * each.mean
