"""Exact distributions, checked against brute-force enumeration of every face."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from affray.dice import Distribution, distribution, parse
from affray.dice.syntax import constant_total, dice_terms
from affray.errors import DiceLimitError


def brute_force(text: str) -> dict[int, Fraction]:
    tree = parse(text)
    dice = [(sign, term.sides) for sign, term in dice_terms(tree) for _ in range(term.count)]
    base = constant_total(tree)
    counts: Counter[int] = Counter()
    for faces in itertools.product(*(range(1, sides + 1) for _, sides in dice)):
        counts[base + sum(sign * face for (sign, _), face in zip(dice, faces, strict=True))] += 1
    total = sum(counts.values())
    return {outcome: Fraction(n, total) for outcome, n in sorted(counts.items())}


@pytest.mark.parametrize(
    "text",
    ["d6", "2d6", "3d6+2", "d4-d4", "2d10-(1d4+1)", "-(d6+d8)", "d20+5", "4d4-2", "7", "d2+d3+d5"],
)
def test_matches_enumeration(text: str) -> None:
    assert distribution(text).probabilities() == brute_force(text)


def test_two_d6_worked_values() -> None:
    dist = distribution("2d6")
    assert dist.probability(7) == Fraction(1, 6)
    assert dist.probability(2) == Fraction(1, 36)
    assert dist.probability(13) == 0
    assert dist.mean == 7
    assert (dist.minimum, dist.maximum) == (2, 12)
    assert dist.p_greater(10) == Fraction(3, 36)
    assert dist.p_at_most(3) == Fraction(3, 36)


def test_probabilities_sum_to_one_for_large_pools() -> None:
    dist = distribution("100d100")
    assert sum(dist.probabilities().values()) == 1
    assert dist.mean == Fraction(5050)


def test_algebra() -> None:
    d6 = Distribution.die(6)
    assert (d6 + 2).probabilities() == distribution("d6+2").probabilities()
    assert (-d6).probabilities() == distribution("-d6").probabilities()
    assert (d6 - d6).mean == 0
    assert d6.map(lambda face: face % 2).probabilities() == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert Distribution.dice(3, 6) == distribution("3d6")


def test_from_weights_and_probabilities() -> None:
    assert Distribution.from_weights({1: 2, 2: 2, 3: 0}).pairs == ((1, 1), (2, 1))
    half = Fraction(1, 2)
    assert Distribution.from_probabilities({0: half, 1: half}).probability(1) == half
    with pytest.raises(ValueError, match="sum to 1"):
        Distribution.from_probabilities({0: half})
    with pytest.raises(ValueError, match="negative"):
        Distribution.from_weights({0: -1})
    with pytest.raises(ValueError, match="at least one"):
        Distribution.from_weights({})


def test_exact_work_budget_refuses_huge_expressions() -> None:
    with pytest.raises(DiceLimitError, match="too large"):
        distribution("1000d1000")
    with pytest.raises(DiceLimitError, match="too large"):
        distribution("20d1000+20d1000")
