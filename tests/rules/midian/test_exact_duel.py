"""Exact Midian duels (issue 40, the groundwork): the chain sums every die of the duel
the fast duel engine plays. It agrees with the fast engine's millions of duels within
4σ (whole duels to a short cap, and the first round alone); a pair that can never hurt
each other is a draw at the cap exactly; a pair past the state budget is refused at
once, the limit named."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest

from affray.errors import AffrayError
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.exact_duel import exact_midian_duel
from affray.rulesystems.midian.sim.duels import simulate_midian_fast
from affray.sheets.combatants import resolve_reference
from tests.helpers import EXAMPLES
from tests.rules.midian.chain_oracle import two_d20_at_most
from tests.rules.midian.helpers import character, weapon

pytestmark = pytest.mark.slow


def small(retests: bool = False) -> tuple[Character, Character]:
    """Two fighters of few points and small weapons: a chain of thousands of states."""
    a = character(
        "A",
        hit_points=3,
        life_points=2,
        attack_bonus=2,
        armour_class=11,
        weapon=weapon(damage="1d2", skill=1),
        retests=("Lucky",) if retests else (),
    )
    b = character(
        "B", hit_points=4, life_points=2, attack_bonus=1, armour_class=10,
        weapon=weapon(damage="1d3", skill=1),
    )  # fmt: skip
    return a, b


def agree(exact: float, count: int, n: int) -> None:
    sigma = math.sqrt(max(exact * (1 - exact), 1e-9) / n)
    assert abs(count / n - exact) < 4 * sigma, (exact, count / n)


@pytest.mark.parametrize("retests", [False, True], ids=["plain", "retests"])
@pytest.mark.parametrize("cap", [1, 6])
def test_the_chain_agrees_with_the_fast_engine(retests: bool, cap: int) -> None:
    a, b = small(retests)
    exact = exact_midian_duel(a, b, max_rounds=cap)
    assert abs(exact.p_a_wins + exact.p_b_wins + exact.p_draw + exact.unswept - 1) < 1e-12
    n = 2_000_000
    stats, _ = simulate_midian_fast(a, b, n, seed=7 + cap, workers=2, max_rounds=cap)
    agree(exact.p_a_wins, stats.a_wins, n)
    agree(exact.p_b_wins, stats.b_wins, n)
    agree(exact.p_draw, stats.draws, n)
    mean = stats.total_rounds / n
    assert abs(mean - exact.mean_rounds) < 4 * math.sqrt(cap * cap / n) + 1e-9


def test_a_pair_that_can_never_hurt_each_other_is_a_draw_at_the_cap() -> None:
    a = character("A", armour_class=30, weapon=weapon(damage="1d2"), damage_reduction=20)
    b = character("B", armour_class=30, weapon=weapon(damage="1d2"), damage_reduction=20)
    exact = exact_midian_duel(a, b, max_rounds=50)
    assert (exact.p_a_wins, exact.p_b_wins, exact.p_draw) == (0.0, 0.0, 1.0)
    assert exact.mean_rounds == 50.0


def test_a_pair_past_the_budget_is_refused_at_once_with_the_limit_named() -> None:
    guard = resolve_reference(str(EXAMPLES / "midian/guard.toml")).sheet()
    brawler = resolve_reference(str(EXAMPLES / "midian/brawler.toml")).sheet()
    assert isinstance(guard, Character) and isinstance(brawler, Character)
    started = time.perf_counter()
    with pytest.raises(AffrayError, match="more than 300,000 states"):
        exact_midian_duel(guard, brawler, max_states=300_000)
    assert time.perf_counter() - started < 30


def test_two_d20_at_most_counts_the_pairs() -> None:
    assert list(two_d20_at_most(np.array([1, 2, 3, 21, 40, 41]))) == [
        0.0,
        1 / 400,
        3 / 400,
        210 / 400,
        1.0,
        1.0,
    ]
