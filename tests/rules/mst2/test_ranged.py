"""Ranged attacks (section Ranged attacks): the d20's face decides who is at risk."""

from __future__ import annotations

import pytest

from affray.dice import ScriptedDice
from affray.errors import RulesError
from affray.rulesystems.mst2 import Engagement, FighterState, Reach, Target, missile, ranged_attack
from affray.rulesystems.mst2 import events as ev
from tests.helpers import make_fighter

ARCHER = make_fighter("Archer", skill=2, weapon_name="dagger", missile=missile("long bow"))
ORC = Target(make_fighter("Orc", armor_name="leather", hit_dice="1d8"), FighterState())
ALLY = Target(make_fighter("Ally", armor_name="chain mail", hit_dice="1d10"), FighterState())
BRUTE = make_fighter("Brute", weapon_name="club", hit_dice="1d8")


def test_even_face_checks_the_intended_target() -> None:
    dice = ScriptedDice([12, 10, 1, 8])  # 14 > 13; long bow 2d10 vs protection 1 → 1 wound
    result = ranged_attack(ARCHER, FighterState(), ORC, dice, nearby=[ALLY])
    assert result.victim == 0
    assert result.attack is not None
    assert result.attack.hit
    assert result.attack.wounds == 1
    assert [d.sides for d in result.events[1].dice] == [10, 10]  # type: ignore[attr-defined]
    assert dice.remaining == ()


def test_odd_face_draws_the_actual_target_among_those_near() -> None:
    dice = ScriptedDice([11, 2, 3, 3, 9])  # odd; scatter d2 → Ally; 13 > 11 hits; 2d10 [3,3] vs 2
    result = ranged_attack(ARCHER, FighterState(), ORC, dice, nearby=[ALLY])
    assert result.victim == 1
    scattered = result.events[0]
    assert isinstance(scattered, ev.TargetScattered)
    assert scattered.actual == "Ally"
    assert scattered.candidates == ("Orc", "Ally")
    assert scattered.die is not None
    assert scattered.die.sides == 2
    assert result.attack is not None
    assert result.attack.defender == FighterState(2)


def test_odd_face_with_nobody_near_skips_the_scatter() -> None:
    dice = ScriptedDice([13, 10, 1, 8])
    result = ranged_attack(ARCHER, FighterState(), ORC, dice)
    assert result.victim == 0
    assert not any(isinstance(e, ev.TargetScattered) for e in result.events)


def test_odd_face_checks_the_evasion_of_the_one_drawn() -> None:
    dice = ScriptedDice([9, 2])  # 11 vs Ally's evasion 11: a miss
    result = ranged_attack(ARCHER, FighterState(), ORC, dice, nearby=[ALLY])
    assert result.victim == 1
    assert result.attack is not None
    assert not result.attack.hit


def test_engaged_shooter_takes_counters_and_a_hit_prevents_the_shot() -> None:
    dice = ScriptedDice([16, 1, 5])  # brute's club hits: 1 wound (unarmoured); shock 5 > 1
    result = ranged_attack(
        ARCHER, FighterState(), ORC, dice, engaged=[Engagement(BRUTE, FighterState(), Reach.MID)]
    )
    assert result.prevented
    assert result.attack is None
    assert result.victim is None
    assert result.shooter == FighterState(1)
    assert dice.remaining == ()


def test_engaged_shooter_shoots_when_the_counters_miss() -> None:
    dice = ScriptedDice([3, 12, 10, 1, 8])
    result = ranged_attack(
        ARCHER, FighterState(), ORC, dice, engaged=[Engagement(BRUTE, FighterState(), Reach.MID)]
    )
    assert not result.prevented
    assert result.attack is not None
    assert result.attack.hit


def test_a_shooter_needs_a_missile() -> None:
    with pytest.raises(RulesError, match="no missile weapon"):
        ranged_attack(BRUTE, FighterState(), ORC, ScriptedDice([10]))


def test_extra_power_on_missiles_is_an_option() -> None:
    giant = make_fighter("Giant", skill=2, missile=missile("spear"), extra_power=(6,))
    dice = ScriptedDice([12, 6, 6, 8])
    result = ranged_attack(giant, FighterState(), ORC, dice, extra_power=True)
    assert result.attack is not None
    assert result.attack.power_faces == (6, 6)
    dice = ScriptedDice([12, 6, 8])
    result = ranged_attack(giant, FighterState(), ORC, dice)
    assert result.attack is not None
    assert result.attack.power_faces == (6,)
