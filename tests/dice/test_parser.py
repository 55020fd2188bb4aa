"""Dice notation: grammar, canonical text, and the limits against hostile input."""

from __future__ import annotations

import time

import pytest

from affray.dice import Constant, DiceTerm, Group, Negate, Sum, limits, parse, to_text
from affray.errors import DiceLimitError, DiceSyntaxError


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        ("3", Constant(3)),
        ("d6", DiceTerm(1, 6)),
        ("3d6", DiceTerm(3, 6)),
        ("2D10", DiceTerm(2, 10)),
        ("d%", DiceTerm(1, 100)),
        ("2d%", DiceTerm(2, 100)),
        ("d100", DiceTerm(1, 100)),
        ("2d6+1", Sum(((1, DiceTerm(2, 6)), (1, Constant(1))))),
        (" 2d6 - 1 ", Sum(((1, DiceTerm(2, 6)), (-1, Constant(1))))),
        ("-d4", Negate(DiceTerm(1, 4))),
        ("+5", Constant(5)),
        ("(1d4+1)", Group(Sum(((1, DiceTerm(1, 4)), (1, Constant(1)))))),
    ],
)
def test_parses_notation(text: str, tree: object) -> None:
    assert parse(text) == tree


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("2d6+1", "2d6+1"),
        ("d6", "1d6"),
        ("d%", "1d100"),
        ("2d10-(1d4+1)", "2d10-(1d4+1)"),
        ("-3", "-3"),
    ],
)
def test_to_text_is_canonical(text: str, canonical: str) -> None:
    assert to_text(parse(text)) == canonical
    assert parse(to_text(parse(text))) == parse(text)


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("", 0, "empty"),
        ("   ", 0, "empty"),
        ("2d", 2, "number of sides"),
        ("0d6", 0, "count of 0"),
        ("3d6 +", 5, "ends"),
        ("2d6)", 3, "unmatched"),
        ("(2d6", 4, "missing ')'"),
        ("2x6", 1, "unexpected 'x'"),
        ("1.5", 1, "unexpected '.'"),
        ("5²", 1, "unexpected"),
        ("2d6 3", 4, "unexpected '3'"),
    ],
)
def test_syntax_errors_point_at_the_problem(text: str, position: int, words: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert caught.value.position == position
    assert words in caught.value.message


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("d1", "2 to 1000 sides"),
        ("d0", "2 to 1000 sides"),
        ("d1001", "2 to 1000 sides"),
        ("1000000d1000000", "2 to 1000 sides"),
        ("1001d6", "more than 1000 dice"),
        ("600d6+600d6", "more than 1000 dice"),
        ("1000001", "larger than 1000000"),
        ("9" * 900, "larger than 1000000"),
        ("9" * 5000, "5000-digit number"),
        ("(" * 5000 + "1" + ")" * 5000, "5000 parentheses deep"),
        ("(" * 65 + "1" + ")" * 65, "deeper than 64"),
        ("-" * 65 + "1", "deeper than 64"),
        ("d6+" * 400, "limit is 1000 characters"),
    ],
)
def test_limits_reject_hostile_input_fast(text: str, words: str) -> None:
    start = time.perf_counter()
    with pytest.raises(DiceLimitError) as caught:
        parse(text)
    assert words in str(caught.value)
    assert time.perf_counter() - start < 0.5  # generous: these take microseconds


def test_limits_allow_what_they_name() -> None:
    assert parse(f"{limits.MAX_DICE}d{limits.MAX_SIDES}") == DiceTerm(1000, 1000)
    assert parse(str(limits.MAX_NUMBER)) == Constant(1_000_000)
    deep = "(" * limits.MAX_NESTING + "1" + ")" * limits.MAX_NESTING
    assert to_text(parse(deep)) == deep


def test_errors_are_value_errors_with_tips() -> None:
    with pytest.raises(ValueError, match="count of 0") as caught:
        parse("0d6")
    assert "Tip:" in str(caught.value)
    assert "^" in str(caught.value)
