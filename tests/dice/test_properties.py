"""Property tests whose strategies mirror the dice grammar."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from affray.dice import ScriptedDice, distribution, mean, parse, roll, to_text
from affray.dice.syntax import dice_terms
from affray.errors import DiceError

numbers = st.integers(min_value=0, max_value=20).map(str)
dice = st.builds(
    lambda count, sides: f"{count}d{sides}",
    st.sampled_from(["", "1", "2", "3"]),
    st.sampled_from(["2", "4", "6", "8", "10", "12", "20", "%"]),
)


def expressions(depth: int = 3) -> st.SearchStrategy[str]:
    atom: st.SearchStrategy[str] = st.one_of(numbers, dice)
    if depth > 0:
        atom = st.one_of(atom, expressions(depth - 1).map(lambda inner: f"({inner})"))
    signed = st.builds(lambda sign, a: sign + a, st.sampled_from(["", "", "-", "+"]), atom)
    return st.builds(
        lambda first, rest: first + "".join(op + term for op, term in rest),
        signed,
        st.lists(st.tuples(st.sampled_from(["+", "-", " + ", " - "]), signed), max_size=3),
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions())
def test_valid_expressions_roll_within_their_exact_support(text: str) -> None:
    tree = parse(text)
    assert parse(to_text(tree)) == tree
    try:
        dist = distribution(tree)
    except DiceError:
        return  # only the exact-work budget may refuse; rolling must still work
    assert sum(dist.probabilities().values()) == 1
    sides = [term.sides for _, term in dice_terms(tree) for _ in range(term.count)]
    low = roll(tree, ScriptedDice([1] * len(sides)))
    high = roll(tree, ScriptedDice(sides))
    assert {low.total, high.total} <= set(dist.outcomes)
    assert dist.minimum <= low.total <= dist.maximum


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions())
def test_the_mean_by_linearity_is_the_exact_distributions_mean(text: str) -> None:
    try:
        exact = distribution(text)
    except DiceError:
        return
    assert mean(text) == exact.mean


def test_the_mean_needs_no_distribution() -> None:
    """998d1000 is past the exact-distribution budget; its mean is still at hand."""
    assert mean("998d1000-(2d6+3)") == 998 * 1001 // 2 - 10


@settings(max_examples=300)
@given(st.text(alphabet="0123456789dD%+-() x.", max_size=40) | st.text(max_size=40))
def test_any_text_parses_or_raises_dice_error(text: str) -> None:
    try:
        tree = parse(text)
    except DiceError:
        return
    assert parse(to_text(tree)) == tree
