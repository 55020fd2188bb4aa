"""Exact single-attack odds against brute-force enumeration of every die face,
run through the real rules engine with scripted dice."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from affray.dice import ScriptedDice
from affray.rulesystems.mst2 import Fighter, FighterState, HitDice, attack, circumstance
from affray.rulesystems.mst2.odds import attack_odds, hit_chance, shock_survival, wound_distribution
from tests.helpers import example, make_fighter


def enumerate_attack(
    attacker: Fighter, defender: Fighter, prior: int, power: tuple[int, ...], **kwargs: object
) -> tuple[Fraction, dict[int, Fraction], Fraction]:
    """Every combination of d20, power and hit-dice faces, each resolved by the engine."""
    hit = Fraction(0)
    wounds: Counter[int] = Counter()
    out = Fraction(0)
    hit_dice = defender.hit_dice.pool
    dice_lists = [
        range(1, 21),
        *(range(1, s + 1) for s in power),
        *(range(1, s + 1) for s in hit_dice),
    ]
    weight = Fraction(1, 20)
    for sides in (*power, *hit_dice):
        weight /= sides
    for faces in itertools.product(*dice_lists):
        result = attack(attacker, defender, FighterState(prior), ScriptedDice(faces), **kwargs)  # type: ignore[arg-type]
        hit += weight * result.hit
        wounds[result.wounds] += weight  # type: ignore[assignment]
        out += weight * (not result.defender.fighting)
    return hit, dict(sorted(wounds.items())), out


@pytest.mark.parametrize(
    ("attacker", "defender", "prior"),
    [
        ("sellsword.toml", "spearman.toml", 0),
        ("spearman.toml", "sellsword.toml", 3),
        ("goblin.toml", "ogre.toml", 1),
    ],
)
def test_attack_odds_match_enumeration(attacker: str, defender: str, prior: int) -> None:
    a, d = example(attacker), example(defender)
    hit, wounds, out = enumerate_attack(a, d, prior, a.melee_power)
    odds = attack_odds(a, d, prior)
    assert odds.p_hit == hit
    assert {k: v for k, v in odds.wounds.items() if v} == wounds
    assert odds.p_out == out
    assert sum(odds.wounds.values()) == 1


def test_attack_odds_with_a_circumstance_match_enumeration() -> None:
    a = make_fighter("A", skill=1, weapon_name="dagger")
    d = make_fighter("D", armor_name="chain mail", hit_dice="1d4")
    sneak = circumstance("critical")
    hit, wounds, out = enumerate_attack(a, d, 0, (6, 12), circumstances=[sneak])
    odds = attack_odds(a, d, 0, circumstances=[sneak])
    assert (odds.p_hit, odds.p_out) == (hit, out)
    assert {k: v for k, v in odds.wounds.items() if v} == wounds


def test_hit_chance_is_strictly_greater() -> None:
    assert hit_chance(3, 12) == Fraction(11, 20)  # faces 10..20
    assert hit_chance(0, 20) == 0
    assert hit_chance(0, 0) == 1
    assert hit_chance(10, 5) == 1


def test_wound_distribution_is_poisson_binomial() -> None:
    dist = wound_distribution((6, 6, 6), 2).probabilities()
    p = Fraction(4, 6)
    assert dist == {k: Fraction(c) * p**k * (1 - p) ** (3 - k) for k, c in enumerate((1, 3, 3, 1))}
    assert wound_distribution((6,), 6).probabilities() == {0: 1}
    assert wound_distribution((6,), 0).probabilities() == {1: 1}


def test_shock_survival() -> None:
    assert shock_survival(HitDice((10,)), 2) == Fraction(8, 10)
    assert shock_survival(HitDice((10, 10), 1), 1) == 1
    assert shock_survival(HitDice((6,)), 6) == 0
