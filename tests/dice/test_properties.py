"""Property tests whose strategies mirror the dice grammar."""

from __future__ import annotations

from unittest.mock import patch

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from affray.dice import RandomDice, ScriptedDice, distribution, limits, mean, parse, roll, to_text
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


# -- pools: keep/drop, explosions, rerolls, counts ----------------------------------------

points = st.builds(
    lambda op, value: f"{op}{value}",
    st.sampled_from(["", "=", "<", "<=", ">", ">="]),
    st.integers(min_value=1, max_value=8),
)


@st.composite
def pools(draw: st.DrawFn) -> str:
    """A dice term with modifiers, written in any order; some are invalid on purpose
    (a reroll of every face, a keep of more dice than rolled)."""
    count = draw(st.integers(min_value=1, max_value=4))
    sides = draw(st.sampled_from(["2", "3", "4", "6", "8"]))
    modifiers = draw(
        st.lists(
            st.one_of(
                st.builds(lambda kind, p: kind + p, st.sampled_from(["r", "ro"]), points),
                st.builds(lambda p: "!" + p, st.sampled_from(["", "5", ">4", ">=6", "<2"])),
                st.builds(
                    lambda kind, n: f"{kind}{n}",
                    st.sampled_from(["k", "kh", "kl", "dh", "dl"]),
                    st.sampled_from(["", "1", "2", "3"]),
                ),
                st.builds(
                    lambda op, n, fail: f"{op}{n}{fail}",
                    st.sampled_from([">=", ">", "<", "<=", "="]),
                    st.integers(min_value=1, max_value=12),
                    st.sampled_from(["", "", "f1", "f<2"]),
                ),
            ),
            min_size=1,
            max_size=3,
            unique_by=lambda m: m[0] if m[0] not in "<>=" else "<",
        )
    )
    return f"{count}d{sides}" + "".join(modifiers)


pool_expressions = st.builds(
    lambda pool, rest: pool + rest,
    pools(),
    st.sampled_from(["", "+2", "-1d4", "+(1d6+1)", "-3d2kh1"]),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pool_expressions, st.integers(min_value=0, max_value=2**32))
def test_pools_roll_within_their_exact_distribution(text: str, seed: int) -> None:
    with patch.object(limits, "MAX_EXPLOSIONS", 4), patch.object(limits, "MAX_REROLLS", 4):
        try:
            tree = parse(text)
        except DiceError:
            return  # invalid on purpose: the parser's own error, never another
        assert parse(to_text(tree)) == tree
        dist = distribution(tree)
        assert sum(dist.probabilities().values()) == 1
        assert mean(tree) == dist.mean
        dice = RandomDice(seed)
        for _ in range(5):
            assert roll(tree, dice).total in set(dist.outcomes)


@settings(max_examples=300)
@given(st.text(alphabet="0123456789dD%+-() khlro!f<>=", max_size=30))
def test_any_modifier_text_parses_or_raises_dice_error(text: str) -> None:
    try:
        tree = parse(text)
    except DiceError:
        return
    assert parse(to_text(tree)) == tree
