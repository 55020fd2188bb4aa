"""One attack and the shock check (sections Overview, Armor, Wounds, and the
circumstantial extra power), with scripted dice in the SPEC's order."""

from __future__ import annotations

import pytest

from affray.dice import ScriptedDice
from affray.rulesystems.mst2 import (
    Condition,
    FighterState,
    Grip,
    Lethality,
    attack,
    circumstance,
    suffer_wounds,
)
from affray.rulesystems.mst2 import events as ev
from tests.helpers import example, make_fighter

SELLSWORD = example("sellsword.toml")  # skill 3, sword two-handed 3d6, chain mail, 2d10+1
SPEARMAN = example("spearman.toml")  # leather + shield: evasion 12, protection 2; 1d10


def test_golden_hit_wounds_and_shock() -> None:
    dice = ScriptedDice([14, 5, 2, 6, 3])
    result = attack(SELLSWORD, SPEARMAN, FighterState(), dice)
    assert (result.natural, result.total, result.hit) == (14, 17, True)
    assert result.power_faces == (5, 2, 6)
    assert result.wounds == 2  # 5 and 6 exceed protection 2; the 2 does not
    assert result.shock_total == 3  # 3 > 2 wounds: keeps fighting
    assert result.defender == FighterState(2, Condition.FIGHTING)
    assert dice.remaining == ()
    kinds = [type(e) for e in result.events]
    assert kinds == [ev.AttackRolled, ev.PowerRolled, ev.Wounded, ev.ShockChecked]


def test_total_equal_to_evasion_misses() -> None:
    dice = ScriptedDice([9])  # 9 + 3 = 12, evasion 12: must exceed
    result = attack(SELLSWORD, SPEARMAN, FighterState(), dice)
    assert not result.hit
    assert result.wounds == 0
    assert result.shock_total is None
    assert result.power_faces == ()
    assert dice.remaining == ()


def test_power_die_equal_to_protection_does_not_wound_and_no_shock_check() -> None:
    dice = ScriptedDice([20, 2, 1, 2])
    result = attack(SELLSWORD, SPEARMAN, FighterState(1), dice)
    assert result.hit
    assert result.wounds == 0
    assert result.shock_total is None
    assert result.defender == FighterState(1)
    assert dice.remaining == ()


def test_shock_total_equal_to_wounds_fails() -> None:
    dice = ScriptedDice([14, 6, 6, 6, 3])  # 3 wounds; shock 3 is not > 3
    result = attack(SELLSWORD, SPEARMAN, FighterState(), dice)
    assert result.shock_total == 3
    assert result.defender == FighterState(3, Condition.OUT)


def test_shock_checks_against_the_new_total() -> None:
    dice = ScriptedDice([14, 6, 1, 1, 5])  # 1 new wound on top of 4 → check against 5
    result = attack(SELLSWORD, SPEARMAN, FighterState(4), dice)
    assert result.defender.wounds == 5
    assert result.defender.condition is Condition.OUT
    dice = ScriptedDice([14, 6, 1, 1, 6])
    assert attack(SELLSWORD, SPEARMAN, FighterState(4), dice).defender.fighting


def test_hit_dice_bonus_counts_in_the_shock_check() -> None:
    # Sellsword 2d10+1: faces 1 and 1 → 3 > 2 wounds
    dice = ScriptedDice([15, 8, 8, 1, 1])
    result = attack(SPEARMAN, SELLSWORD, FighterState(), dice)
    assert result.wounds == 2
    assert result.shock_total == 3
    assert result.defender.fighting


def test_extra_power_rolls_after_the_weapon() -> None:
    ogre = example("ogre.toml")  # club 2d8 two-handed + extra 1d6
    dice = ScriptedDice([20, 8, 8, 6, 10, 10])
    result = attack(ogre, SELLSWORD, FighterState(), dice)
    assert [d.sides for d in result.events[1].dice] == [8, 8, 6]  # type: ignore[attr-defined]
    assert result.wounds == 3


def test_only_the_largest_circumstance_adds_power() -> None:
    dice = ScriptedDice([20, 1, 1, 1, 20, 20, 10, 10])
    result = attack(
        SELLSWORD,
        SPEARMAN,
        FighterState(),
        dice,
        circumstances=[circumstance("frenzy"), circumstance("helpless")],
    )
    power = result.events[1]
    assert isinstance(power, ev.PowerRolled)
    assert [d.sides for d in power.dice] == [6, 6, 6, 20, 20]
    assert power.circumstance == "helpless"
    assert result.wounds == 2
    assert dice.remaining == (10,)  # spearman has one hit die


@pytest.mark.parametrize(
    ("lethality", "shock_faces", "condition"),
    [
        (Lethality.HIGH, [1], Condition.DEAD),
        (Lethality.STANDARD, [1], Condition.OUT),
        (Lethality.OPTIONAL, [1, 9], Condition.INCAPACITATED),  # second check 9 > 3 wounds
        (Lethality.OPTIONAL, [1, 2], Condition.DYING),  # 2 fails but exceeds the first, 1
        (Lethality.OPTIONAL, [2, 2], Condition.DEAD),  # fails and does not exceed the first
        (Lethality.OPTIONAL, [2, 1], Condition.DEAD),
    ],
)
def test_lethality_options(
    lethality: Lethality, shock_faces: list[int], condition: Condition
) -> None:
    dice = ScriptedDice([20, 6, 6, 6, *shock_faces])
    result = attack(SELLSWORD, SPEARMAN, FighterState(), dice, lethality=lethality)
    assert result.defender == FighterState(3, condition)
    assert dice.remaining == ()
    checks = [e for e in result.events if isinstance(e, ev.ShockChecked)]
    assert [c.check for c in checks] == ([1, 2] if lethality is Lethality.OPTIONAL else [1])
    assert result.shock_total == shock_faces[0]


def test_wounds_on_a_fallen_fighter_make_no_further_check() -> None:
    dice = ScriptedDice([])
    fallen = FighterState(3, Condition.OUT)
    outcome = suffer_wounds(SPEARMAN, fallen, 2, dice, source="test")
    assert outcome.state == FighterState(5, Condition.OUT)
    assert outcome.shock_total is None


def test_zero_wounds_change_nothing() -> None:
    outcome = suffer_wounds(SPEARMAN, FighterState(1), 0, ScriptedDice([]), source="test")
    assert outcome.state == FighterState(1)
    assert outcome.events == ()


def test_unarmored_target_is_always_wounded_by_a_hit() -> None:
    peasant = make_fighter("Peasant", armor_name="none", hit_dice="1d6")
    knight = make_fighter("Knight", skill=5, weapon_name="sword", grip=Grip.TWO_HANDED)
    dice = ScriptedDice([20, 1, 1, 1, 6])
    result = attack(knight, peasant, FighterState(), dice)
    assert result.wounds == 3


def test_events_serialise_to_plain_data() -> None:
    result = attack(SELLSWORD, SPEARMAN, FighterState(), ScriptedDice([14, 5, 2, 6, 3]))
    first = result.events[0].to_dict()
    assert first["event"] == "attack_rolled"
    assert first["die"] == {"sides": 20, "face": 14, "purpose": "Sellsword's attack on Spearman"}
    shock = result.events[-1].to_dict()
    assert shock["event"] == "shock_checked"
    assert shock["passed"] is True
    assert shock["dice"][0]["face"] == 3
