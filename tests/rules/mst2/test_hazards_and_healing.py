"""Other damage (falling, poison, fire) and healing by days of rest."""

from __future__ import annotations

import pytest

from affray.dice import ScriptedDice
from affray.errors import RulesError
from affray.rulesystems.mst2 import (
    Condition,
    FighterState,
    Setting,
    burn,
    fall,
    poison,
    rest_one_day,
)
from affray.rulesystems.mst2 import events as ev
from tests.helpers import make_fighter

KNIGHT = make_fighter("Knight", armor_name="plate mail", hit_dice="2d10+1")


@pytest.mark.parametrize(("feet", "wounds"), [(0, 0), (9, 0), (10, 1), (35, 3), (100, 10)])
def test_falling_wounds_one_per_ten_feet_through_armour(feet: int, wounds: int) -> None:
    dice = ScriptedDice([10, 10] if wounds else [])
    result = fall(KNIGHT, FighterState(), feet, dice)
    assert result.wounds == wounds
    assert result.state.wounds == wounds
    assert dice.remaining == ()
    assert result.shock_total == (21 if wounds else None)


def test_falling_far_can_knock_a_fighter_out() -> None:
    result = fall(KNIGHT, FighterState(), 60, ScriptedDice([2, 3]))
    assert result.state == FighterState(6, Condition.OUT)
    assert result.shock_total == 6


def test_negative_height_is_an_error() -> None:
    with pytest.raises(RulesError):
        fall(KNIGHT, FighterState(), -10, ScriptedDice([]))


@pytest.mark.parametrize(("toxicity", "wounds"), [(1, 1), ("moderate", 2), ("severe", 3), (3, 3)])
def test_poison_wounds_directly(toxicity: int | str, wounds: int) -> None:
    result = poison(KNIGHT, FighterState(), toxicity, ScriptedDice([10, 10]))
    assert result.wounds == wounds


@pytest.mark.parametrize("toxicity", [0, 4, "deadly"])
def test_poison_toxicity_is_one_to_three(toxicity: int | str) -> None:
    with pytest.raises(RulesError, match="toxicity"):
        poison(KNIGHT, FighterState(), toxicity, ScriptedDice([]))


def test_burning_rolls_a_d12_against_protection() -> None:
    result = burn(KNIGHT, FighterState(), ScriptedDice([4]))
    assert result.wounds == 0
    assert result.shock_total is None
    result = burn(KNIGHT, FighterState(), ScriptedDice([5, 1, 1]), on_fire=True)
    assert result.wounds == 1
    assert result.state == FighterState(1)
    struck = result.events[0]
    assert isinstance(struck, ev.HazardStruck)
    assert struck.hazard == "on fire"


def test_fire_that_ignores_armour() -> None:
    result = burn(KNIGHT, FighterState(), ScriptedDice([1, 5, 5]), armor_mitigates=False)
    assert result.wounds == 1


def test_low_fantasy_heals_one_wound_when_the_roll_is_less_than_the_wounds() -> None:
    hurt = FighterState(8)
    healed = rest_one_day(KNIGHT, hurt, Setting.LOW_FANTASY, ScriptedDice([3, 3]))  # 7 < 8
    assert healed.state == FighterState(7)
    unhealed = rest_one_day(KNIGHT, hurt, Setting.LOW_FANTASY, ScriptedDice([3, 4]))  # 8 = 8
    assert unhealed.state == FighterState(8)
    assert unhealed.event is not None
    assert unhealed.event.healed == 0


def test_high_fantasy_heals_the_hit_dice_total() -> None:
    result = rest_one_day(KNIGHT, FighterState(12), Setting.HIGH_FANTASY, ScriptedDice([3, 4]))
    assert result.state == FighterState(4)  # 3 + 4 + 1 = 8 healed
    result = rest_one_day(KNIGHT, FighterState(5), Setting.HIGH_FANTASY, ScriptedDice([9, 9]))
    assert result.state == FighterState(0)


def test_no_healing_roll_for_the_unhurt_or_the_dead() -> None:
    dice = ScriptedDice([])
    assert rest_one_day(KNIGHT, FighterState(), Setting.HIGH_FANTASY, dice).event is None
    dead = FighterState(9, Condition.DEAD)
    assert rest_one_day(KNIGHT, dead, Setting.HIGH_FANTASY, dice).state == dead


def test_a_day_of_rest_brings_one_who_was_out_back_on_their_feet() -> None:
    """Issue 36, item 8 (docs/rules/mst2.md, Healing): after `party rest`, members who
    were "out" stayed out at the next table. Out (a failed shock check) and fled end
    with a day's rest, healed or not; incapacitated and dying are the story's call."""
    out = FighterState(8, Condition.OUT)
    healed = rest_one_day(KNIGHT, out, Setting.LOW_FANTASY, ScriptedDice([3, 3]))  # 7 < 8
    assert healed.state == FighterState(7, Condition.FIGHTING)
    assert healed.back == ev.BackOnFeet("Knight", "out")
    unhealed = rest_one_day(KNIGHT, out, Setting.LOW_FANTASY, ScriptedDice([3, 4]))  # 8 = 8
    assert unhealed.state == FighterState(8, Condition.FIGHTING)
    fled = rest_one_day(
        KNIGHT, FighterState(0, Condition.FLED), Setting.LOW_FANTASY, ScriptedDice([])
    )
    assert fled.state == FighterState(0, Condition.FIGHTING) and fled.event is None
    for stays in (Condition.INCAPACITATED, Condition.DYING):
        kept = rest_one_day(
            KNIGHT, FighterState(9, stays), Setting.HIGH_FANTASY, ScriptedDice([1, 1])
        )
        assert kept.state.condition is stays and kept.back is None


def test_a_day_of_rest_says_the_rule_it_heals_by() -> None:
    """Low fantasy as written heals one wound only when the hit dice roll less than the
    wounds: each day's line says which way the roll fell, and the command says the rule
    once (issue 56: "heals 0" seven times with no reason)."""
    from tests.helpers import EXAMPLES, run

    knight = str(EXAMPLES / "mst2" / "knight.json")
    light = run("mst2", "heal", knight, "--wounds", "6", "--rolls", "3,10,2", "--setting", "low")
    assert "3d10+1 [3,10,2]=16 ≥ 6 wounds → heals 0, 6 wounds left" in light.stdout
    assert "only when the hit-dice roll is less than the wounds" in light.stdout
    heavy = run("mst2", "heal", knight, "--wounds", "18", "--rolls", "3,10,2")
    assert "=16 < 18 wounds → heals 1, 17 wounds left" in heavy.stdout
    high = run("mst2", "heal", knight, "--wounds", "18", "--rolls", "3,10,2", "--setting", "high")
    assert "=16 → heals 16, 2 wounds left" in high.stdout and "as written" not in high.stdout
