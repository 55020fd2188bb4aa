"""Comparing two expressions (SPEC part 5): ``affray odds A B --json`` gives the exact
chances that A's total is above B's, equal, below — against a brute force over every
face of every die; and a success count no face can reach is refused with the total's
form in the tip."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import run, run_json


def totals(count: int, sides: int, bonus: int) -> dict[int, Fraction]:
    """Every total of ``count``d``sides``+``bonus``, by brute force over the faces."""
    found: dict[int, Fraction] = {}
    share = Fraction(1, sides**count)
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        total = sum(faces) + bonus
        found[total] = found.get(total, Fraction(0)) + share
    return found


def written(count: int, sides: int, bonus: int) -> str:
    return f"{count}d{sides}" + (f"+{bonus}" if bonus > 0 else f"{bonus}" if bonus else "")


terms = st.tuples(st.integers(1, 3), st.sampled_from((2, 4, 6, 8, 10, 12)), st.integers(-3, 3))


@settings(max_examples=30, deadline=None)
@given(a=terms, b=terms)
def test_versus_is_the_brute_force_chance_of_higher_tie_lower(
    a: tuple[int, int, int], b: tuple[int, int, int]
) -> None:
    data = run_json("odds", written(*a), written(*b))
    ta, tb = totals(*a), totals(*b)
    higher = sum((p * q for x, p in ta.items() for y, q in tb.items() if x > y), Fraction(0))
    tie = sum((p * q for x, p in ta.items() for y, q in tb.items() if x == y), Fraction(0))
    versus = data["versus"]
    assert isinstance(versus, dict)
    assert versus["a_higher"] == pytest.approx(float(higher), abs=1e-15)
    assert versus["tie"] == pytest.approx(float(tie), abs=1e-15)
    assert versus["b_higher"] == pytest.approx(float(1 - higher - tie), abs=1e-15)


def test_versus_in_words() -> None:
    said = run("odds", "2d6", "1d12").stdout
    assert "2d6 against 1d12: 2d6 higher 50.0%, tie 8.3%, 1d12 higher 41.7%" in said
    assert "versus" not in run_json("odds", "2d6", "1d12", "1d20")  # two expressions only


@pytest.mark.parametrize("verb", ["odds", "roll"])
@pytest.mark.parametrize(("text", "total"), [("3d6>10", "(3d6)>10"), ("2d4>=5", "(2d4)>=5")])
def test_a_count_no_face_can_reach_is_refused_naming_the_total(
    verb: str, text: str, total: str
) -> None:
    refused = run(verb, text)
    assert refused.exit_code == 2
    assert "no d" in refused.output and f"bracket the dice: {total}" in refused.output


def test_a_count_that_a_face_or_an_explosion_reaches_is_a_count() -> None:
    assert run_json("odds", "6d10>=8")["distribution"]["6"] == pytest.approx(0.3**6)
    assert run("odds", "3d6!>10").exit_code == 0  # an exploding d6 goes past 10
    assert run_json("odds", "(3d6)>10")["p"] == 0.5
