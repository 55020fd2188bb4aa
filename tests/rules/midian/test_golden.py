"""Golden tests: the worked examples of the Midian combat chapter."""

from __future__ import annotations

import pytest

from affray.dice import ScriptedDice
from affray.rulesystems.midian.attack import HitRule, armour_class, over_twenty, roll_attack
from affray.rulesystems.midian.checks import (
    SaveType,
    challenge,
    check,
    check_with_retests,
    saving_throw,
)
from affray.rulesystems.midian.damage import damage_modifiers, resist, roll_damage
from affray.rulesystems.midian.hazards import burn, catches_fire, fall
from affray.rulesystems.midian.initiative import action_slots, change_action, order_slots
from affray.rulesystems.midian.injury import Health, end_of_round
from affray.rulesystems.midian.modifiers import Modifier
from affray.rulesystems.midian.situations import cover_penalty, moving_target, range_penalty
from tests.rules.midian.helpers import character, weapon

GUARD = character("Guard", armour_class=12, damage_reduction=4)


def test_lock_pick_natural_19_hits_any_armour_class() -> None:
    """Tim throws a lock pick at -10 and rolls a natural 19: 9 in all, still a critical hit."""
    tim = character("Tim")
    penalties = [Modifier("unskilled", -5), Modifier("thrown", -3), Modifier("pathetic weapon", -2)]
    attack = roll_attack(tim, GUARD, ScriptedDice([19]), modifiers=penalties, target=12)
    assert attack.total == 9
    assert attack.hit and attack.critical and not attack.fumble


def test_high_kick_at_11_misses_armour_class_12() -> None:
    """8 on the die, +2 skill, +1 agility: 11 against armour class 12."""
    tim = character("Tim")
    mods = [Modifier("high kick 2", 2), Modifier("agility", 1)]
    attack = roll_attack(tim, GUARD, ScriptedDice([8]), modifiers=mods, target=12)
    assert (attack.total, attack.hit) == (11, False)


def test_the_21_does_not_get_past_damage_reduction() -> None:
    """An 18 with bonuses makes 21 (not a critical): 2 on the die + 1 strength + 1 over 20
    = 4 points, all stopped by the guard's armour."""
    tim = character(
        "Tim", damage_bonus=1, weapon=weapon(name="High kick", damage="1d4", type="smashing")
    )
    attack = roll_attack(
        tim, GUARD, ScriptedDice([18]), modifiers=[Modifier("bonuses", 3)], target=12
    )
    assert attack.hit and not attack.critical
    assert over_twenty(attack.total) == 1
    mods = damage_modifiers(tim, tim.weapon, over_20=over_twenty(attack.total))
    damage = roll_damage(tim, GUARD, ScriptedDice([2]), critical=False, modifiers=mods)
    assert damage.rolled == 4
    assert damage.final == 0
    assert damage.event.reduction == 4


def test_critical_doubles_after_points_over_20() -> None:
    """+4 to attack and a natural 19: 3 extra points, before the result is doubled."""
    fighter = character("F", weapon=weapon(damage="1d6"))
    attack = roll_attack(
        fighter, GUARD, ScriptedDice([19]), modifiers=[Modifier("bonus", 4)], target=12
    )
    assert over_twenty(attack.total) == 3
    mods = damage_modifiers(fighter, fighter.weapon, over_20=3)
    target = character("T")
    damage = roll_damage(fighter, target, ScriptedDice([5]), critical=True, modifiers=mods)
    assert damage.rolled == 8 and damage.final == 16


@pytest.mark.parametrize(
    ("initiative", "slots"),
    [
        (11, (11, 1)),
        (23, (23, 13, 3)),
        (28, (28, 18, 8)),
        (10, (10,)),
        (8, (8,)),
        (0, (0,)),
        (-3, (-3,)),
    ],
)
def test_initiative_slots(initiative: int, slots: tuple[int, ...]) -> None:
    assert action_slots(initiative) == slots


def test_28_goes_twice_before_anyone_else_and_three_times_before_those_under_8() -> None:
    order = order_slots([("Fast", 28, 10), ("Eleven", 11, 10), ("Seven", 7, 10)])
    assert [s.character for s in order] == ["Fast", "Fast", "Eleven", "Fast", "Seven", "Eleven"]


def test_ties_go_to_the_higher_wits() -> None:
    """Tanya and the guards both got 2: her higher Wits acts first."""
    order = order_slots([("Guard", 2, 9), ("Tanya", 2, 13)])
    assert [s.character for s in order] == ["Tanya", "Guard"]


def test_changing_an_action_at_12_loses_the_second_attack() -> None:
    assert change_action(12) == 8
    assert action_slots(change_action(12)) == (8,)


def test_tim_gets_two_actions_at_12() -> None:
    """9 on the d10 plus 3 for being wicked quick."""
    assert action_slots(9 + 3) == (12, 2)


@pytest.mark.parametrize(
    ("damage", "percent", "left"),
    [
        (8, 10, 7),
        (20, 10, 18),
        (10, 30, 7),
        (1, 1, 0),
        (7, 100, 0),
        (9, 150, 0),
        (5, 20, 4),
        (4, 25, 3),
        (2, 50, 1),
        (4, 75, 1),
        (10, 90, 1),
        (3, 0, 3),
    ],
)
def test_resistance_rounds_the_removed_part_up(damage: int, percent: int, left: int) -> None:
    """The Dwarf's 10% smashing resistance: 8 → 7, 20 → 18; 30% stabbing: 10 → 7; even 1%
    stops the first point; 100% or more is immunity; the text's table rows."""
    assert resist(damage, percent)[0] == left


def test_resistances_of_one_type_stack() -> None:
    """A Dwarf (10% smashing) in armour with 20% smashing has 30%."""
    dwarf = character("Dwarf", resistances={"smashing": 30})
    club = character("Orc", weapon=weapon(name="Club", damage="1d10", type="smashing"))
    damage = roll_damage(club, dwarf, ScriptedDice([10]), critical=False, modifiers=())
    assert damage.final == 7
    assert damage.event.resisted == (("smashing", 30, 3),)


def test_resistance_comes_before_damage_reduction() -> None:
    armoured = character("A", resistances={"hacking": 20}, damage_reduction=3)
    axe = character("B", weapon=weapon(damage="1d10"))
    damage = roll_damage(axe, armoured, ScriptedDice([10]), critical=False, modifiers=())
    assert damage.final == 10 - 2 - 3


def test_throwing_spike_at_34_feet() -> None:
    """Range increment 10 ft; 34 ft passes 10, 20 and 30: -6."""
    assert range_penalty(34, 10).value == -6
    assert range_penalty(10, 10).value == 0
    assert range_penalty(11, 10).value == -2
    assert range_penalty(50, 10).value == -8


def test_maximum_range() -> None:
    from affray.errors import RulesError

    with pytest.raises(RulesError, match="out of range"):
        range_penalty(51, 10, "hurled")
    assert range_penalty(100, 10, "device").value == -18
    with pytest.raises(RulesError, match="out of range"):
        range_penalty(101, 10, "device")


def test_arrow_loop_cover() -> None:
    """Three-quarters cover: 75%, -15 to attack; 90% at most."""
    assert cover_penalty(75).value == -15
    assert cover_penalty(90).value == -18
    assert cover_penalty(40).value == -8


def test_the_elf_is_twice_as_hard_to_hit_running() -> None:
    """Speed 10 moving: -2; an Elf at speed 20: -4."""
    assert moving_target(10).value == -2
    assert moving_target(20).value == -4


def test_contest_of_strength_tanya_shoves_past() -> None:
    """Tanya rolls 7 under her Strength; the guard rolls 25, over his: he loses."""
    tanya = character("Tanya", attributes={"strength": 11})
    guard = character("Guard", attributes={"strength": 14})
    result, (a, b) = challenge(tanya, "strength", guard, "strength", ScriptedDice([3, 4, 12, 13]))
    assert (a.total, a.success, b.total, b.success) == (7, True, 25, False)
    assert result.winner == "Tanya"


def test_challenge_tie_or_both_failing_is_undetermined() -> None:
    a, b = character("A"), character("B")
    tie, _ = challenge(a, "strength", b, "strength", ScriptedDice([4, 4, 5, 3]))
    assert tie.winner is None
    both, _ = challenge(a, "strength", b, "strength", ScriptedDice([20, 20, 19, 19]))
    assert both.winner is None
    higher, _ = challenge(a, "strength", b, "strength", ScriptedDice([6, 5, 4, 4]))
    assert higher.winner == "A"


def test_tiger_tiger_in_the_burning_grove() -> None:
    """Round 1: 3d6 = 8, saves at 8: 4 damage; his clothes must save at 8. Round 2 (still
    in the blaze): 3d6 = 11, save at the cumulative 19 fails: 11 more. 15 in all."""
    shaman = character("Tiger-Tiger")
    first = burn(shaman, ScriptedDice([2, 3, 3, 8]))
    assert (first.rolled, first.save.target, first.save.success, first.taken) == (8, 8, True, 4)  # type: ignore[union-attr]
    clothes = catches_fire(shaman, first.rolled, ScriptedDice([5]))
    assert not clothes.success  # engulfed
    second = burn(shaman, ScriptedDice([4, 4, 3, 10]), earlier=first.rolled, continuous=True)
    assert (second.rolled, second.save.target, second.save.success, second.taken) == (
        11,
        19,
        False,
        11,
    )  # type: ignore[union-attr]
    assert first.taken + second.taken == 15


def test_thirty_foot_fall_saves_at_15_for_half() -> None:
    climber = character("Climber")
    result = fall(climber, 30, ScriptedDice([6, 5, 7, 15]))
    assert result.rolled == 18
    assert result.save is not None and result.save.target == 15 and result.save.success
    assert result.taken == 9
    missed = fall(climber, 30, ScriptedDice([6, 5, 7, 14]))
    assert missed.taken == 18


def test_two_round_coma_bleed() -> None:
    """-1 life points at the end of round 1: one more wound (-2); round 2 ends at -4, then -8."""
    victim = character("Victim", system_shock=100, life_points=10)
    health = Health(0, -1, 10, conscious=False)
    totals = []
    for _ in range(3):
        health, events = end_of_round(victim, health, ScriptedDice([1]))  # system shock passes
        totals.append(health.life_points)
        assert [e.kind for e in events] == ["bled", "system_shock_rolled"]
    assert totals == [-2, -4, -8]


def test_retests_last_roll_stands_and_each_source_once() -> None:
    """Inner-strength then Divine Blessing; the final roll counts."""
    hero = character("Hero", attributes={"willpower": 10})
    outcome = check_with_retests(
        hero,
        "willpower",
        ScriptedDice([10, 10, 12, 12, 5, 4]),
        retests=["inner strength", "divine blessing"],
    )
    assert outcome.final.total == 9 and outcome.success
    assert [e.kind for e in outcome.events] == [
        "check_rolled",
        "retest_used",
        "check_rolled",
        "retest_used",
        "check_rolled",
    ]


def test_ability_check_modifiers_apply_to_the_attribute() -> None:
    """Heightened smell: check as if Awareness were three higher."""
    scout = character("Scout", attributes={"awareness": 10})
    result = check(
        scout, "awareness", ScriptedDice([7, 6]), modifiers=[Modifier("heightened smell", 3)]
    )
    assert result.effective == 13 and result.success
    at_limit = check(scout, "awareness", ScriptedDice([5, 5]), strict=True)
    assert at_limit.success is False  # 10 is not under 10, though it is at 10
    assert check(scout, "awareness", ScriptedDice([5, 5])).success is True


@pytest.mark.parametrize(
    ("face", "bonus", "target", "success"),
    [
        (1, 30, 5, False),
        (2, 30, 5, False),
        (19, -30, 30, True),
        (20, -30, 30, True),
        (10, 5, 15, True),
        (10, 4, 15, False),
    ],
)
def test_saving_throws(face: int, bonus: int, target: int, success: bool) -> None:
    result = saving_throw(
        character(),
        SaveType.POISON,
        target,
        ScriptedDice([face]),
        modifiers=[Modifier("bonus", bonus)],
    )
    assert result.success is success


def test_armour_class_rules() -> None:
    bare = character("Bare", armour_class=5)
    assert armour_class(bare) == 5
    assert armour_class(bare, ranged=True) == 8
    knight = character("Knight", armour_class=15, natural_armour_class=5)
    assert armour_class(knight, touch=True) == 5
    assert armour_class(knight, total_defence=True) == 17
    roll = roll_attack(bare, knight, ScriptedDice([10]), modifiers=[Modifier("b", 5)], target=15)
    assert roll.hit
    roll = roll_attack(
        bare,
        knight,
        ScriptedDice([10]),
        modifiers=[Modifier("b", 5)],
        target=15,
        rule=HitRule.EXCEED,
    )
    assert not roll.hit
