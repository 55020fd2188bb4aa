"""Property tests over the rules' invariants (Hypothesis)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from affray.dice import RandomDice
from affray.odds import attack_odds, duel_odds
from affray.rules.midian.damage import resist
from affray.rules.mst2 import ARMORS, WEAPONS, Fighter, FighterState, Grip, HitDice, attack, duel

hit_dice = st.builds(
    HitDice,
    st.lists(st.sampled_from([4, 6, 8, 10, 12]), min_size=1, max_size=3).map(tuple),
    st.integers(0, 2),
)


@st.composite
def fighters(draw: st.DrawFn) -> Fighter:
    weapon = draw(st.sampled_from(list(WEAPONS.values())))
    grip = draw(st.sampled_from(weapon.grips))
    shield = grip is Grip.ONE_HANDED and draw(st.booleans())
    return Fighter(
        name=draw(st.sampled_from(["A", "B"])),
        skill=draw(st.integers(0, 8)),
        weapon=weapon,
        armor=draw(st.sampled_from(list(ARMORS.values()))),
        hit_dice=draw(hit_dice),
        grip=grip,
        shield=shield,
        evasion_bonus=draw(st.integers(0, 3)),
        extra_power=draw(st.sampled_from([(), (6,)])),
    )


@settings(max_examples=60, deadline=None)
@given(fighters(), fighters(), st.integers(0, 6))
def test_attack_odds_are_a_distribution(a: Fighter, d: Fighter, prior: int) -> None:
    odds = attack_odds(a, d, prior)
    assert sum(odds.wounds.values()) == 1
    assert all(p >= 0 for p in odds.wounds.values())
    assert 0 <= odds.p_out <= odds.p_wound <= odds.p_hit <= 1
    assert max(odds.wounds) <= len(a.melee_power)


@settings(max_examples=25, deadline=None)
@given(fighters(), fighters())
def test_duel_odds_sum_to_one(a: Fighter, b: Fighter) -> None:
    odds = duel_odds(a, b)
    assert odds.p_a_wins + odds.p_b_wins + odds.p_draw == 1
    assert min(odds.p_a_wins, odds.p_b_wins, odds.p_draw) >= 0
    assert sum(odds.winner_wounds["a"].values(), Fraction(0)) == odds.p_a_wins


@settings(max_examples=60, deadline=None)
@given(fighters(), fighters(), st.integers(0, 2**32))
def test_wounds_never_decrease_and_the_fallen_stay_down(a: Fighter, b: Fighter, seed: int) -> None:
    dice = RandomDice(seed)
    state = FighterState()
    for _ in range(30):
        result = attack(a, b, state, dice)
        assert result.defender.wounds >= state.wounds
        assert result.defender.wounds - state.wounds == result.wounds
        if not state.fighting:
            assert not result.defender.fighting
        state = result.defender
    outcome = duel(a, b, RandomDice(seed), max_rounds=50)
    assert outcome.winner in ("a", "b", None)
    assert outcome.rounds <= 50


@given(st.integers(0, 500), st.integers(0, 150), st.integers(0, 150))
def test_resistance_is_monotone_and_never_negative(amount: int, low: int, extra: int) -> None:
    left, removed = resist(amount, low)
    assert left + removed == amount and 0 <= left <= amount
    more, _ = resist(amount, low + extra)
    assert more <= left
    if low >= 100:
        assert left == 0
    if low > 0 and amount > 0:
        assert removed >= 1
