"""Derived statistics (sections Overview, Armor, Hit dice)."""

from __future__ import annotations

import pytest

from affray.errors import DiceError, RulesError
from affray.rulesystems.mst2 import Grip, HitDice, Reach, missile, parse_pool
from tests.helpers import make_fighter


def test_shield_costs_evasion_and_adds_protection() -> None:
    bare = make_fighter(armor_name="chain mail")
    shielded = make_fighter(armor_name="chain mail", shield=True)
    assert (bare.evasion, bare.protection) == (11, 2)
    assert (shielded.evasion, shielded.protection) == (10, 3)


def test_evasion_bonus_for_nimble_characters() -> None:
    assert make_fighter(armor_name="leather", evasion_bonus=2).evasion == 15


def test_grip_defaults_and_power() -> None:
    sword = make_fighter(weapon_name="sword")
    assert sword.wielded is Grip.ONE_HANDED
    assert sword.weapon_power == (6, 6)
    greatsword = make_fighter(weapon_name="sword", grip=Grip.TWO_HANDED)
    assert greatsword.weapon_power == (6, 6, 6)
    polearm = make_fighter(weapon_name="polearm")
    assert polearm.wielded is Grip.TWO_HANDED
    assert polearm.reach is Reach.FAR


def test_extra_power_rolls_after_weapon_power() -> None:
    ogre = make_fighter(weapon_name="club", extra_power=(6,))
    assert ogre.melee_power == (8, 6)


def test_two_handed_grip_and_shield_is_an_error() -> None:
    with pytest.raises(RulesError, match="shield needs a free hand"):
        make_fighter(weapon_name="sword", grip=Grip.TWO_HANDED, shield=True)
    with pytest.raises(RulesError, match="shield needs a free hand"):
        make_fighter(weapon_name="quarterstaff", shield=True)


def test_grip_the_weapon_does_not_allow() -> None:
    with pytest.raises(RulesError, match="cannot be wielded two-handed"):
        make_fighter(weapon_name="dagger", grip=Grip.TWO_HANDED)


def test_negative_skill_is_an_error() -> None:
    with pytest.raises(RulesError, match="skill"):
        make_fighter(skill=-1)


def test_hit_dice_parse() -> None:
    assert HitDice.parse("2d10+1") == HitDice((10, 10), 1)
    assert HitDice.parse("1d8+1d6") == HitDice((8, 6), 0)
    assert HitDice.parse("3d10-1").text == "3d10-1"
    with pytest.raises(RulesError):
        HitDice.parse("5")
    with pytest.raises(RulesError):
        HitDice.parse("1d6-1d4")
    with pytest.raises(DiceError):
        HitDice.parse("2d")


def test_power_pools_are_dice_only() -> None:
    assert parse_pool("2d8") == (8, 8)
    assert parse_pool("1d6+1d8") == (6, 8)
    for bad in ("2d6+1", "3", "2d6-1d4"):
        with pytest.raises(RulesError, match="dice only"):
            parse_pool(bad)


def test_describe_mentions_every_statistic() -> None:
    archer = make_fighter(
        "Archer",
        skill=2,
        weapon_name="dagger",
        armor_name="leather",
        hit_dice="2d8",
        missile=missile("long bow"),
    )
    assert archer.describe() == (
        "Archer: skill +2, dagger one-handed 1d6 (close reach), arrow (long bow) 2d10, "
        "leather (evasion 13, protection 1), hit dice 2d8"
    )
