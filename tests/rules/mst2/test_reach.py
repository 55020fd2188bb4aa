"""Reach and counter-attacks, disengaging and fleeing, non-combat actions
(sections Reach and counter-attacks, Disengaging and retreating, Other actions in melee)."""

from __future__ import annotations

from affray.dice import ScriptedDice
from affray.rulesystems.mst2 import (
    Condition,
    Engagement,
    FighterState,
    Reach,
    flee,
    melee_attack,
    non_combat_action,
    opening_distance,
)
from affray.rulesystems.mst2 import events as ev
from tests.helpers import make_fighter

# Dagger: close reach, 1d6. Spear: far reach, 2d8. Both unarmoured (evasion 15).
KNIFER = make_fighter("Knifer", skill=0, weapon_name="dagger", hit_dice="1d6")
SPEARMAN = make_fighter("Spearman", skill=0, weapon_name="spear", hit_dice="1d6")
SWORDSMAN = make_fighter("Swordsman", skill=0, weapon_name="sword", hit_dice="1d6")


def test_fight_opens_at_the_longer_reach() -> None:
    assert opening_distance(KNIFER, SPEARMAN) is Reach.FAR
    assert opening_distance(KNIFER, SWORDSMAN) is Reach.MID


def test_equal_reach_means_no_counter_attack() -> None:
    dice = ScriptedDice([16, 3, 4, 6])  # hit (16 > 15), 2d6 vs protection 0: 2 wounds; shock 6
    result = melee_attack(SWORDSMAN, FighterState(), SWORDSMAN, FighterState(), Reach.MID, dice)
    assert result.counter is None
    assert not result.prevented
    assert result.defender == FighterState(2)
    assert dice.remaining == ()
    assert result.distance is Reach.MID


def test_closing_in_counter_hit_prevents_the_attack_even_without_damage() -> None:
    # Spearman counters: d20 16 hits; 2d8 [1,1] against protection 0 → 2 wounds; shock 6 > 2.
    dice = ScriptedDice([16, 1, 1, 6])
    result = melee_attack(KNIFER, FighterState(), SPEARMAN, FighterState(), Reach.FAR, dice)
    assert result.prevented
    assert result.attack is None
    assert result.attacker == FighterState(2)  # the counter's wounds and shock apply
    assert result.distance is Reach.FAR
    assert isinstance(result.events[0], ev.CounterAttackGranted)
    assert result.events[0].reason == "closing in"
    assert isinstance(result.events[-1], ev.AttackPrevented)
    assert dice.remaining == ()


def test_counter_that_hits_without_wounding_still_prevents() -> None:
    armored = make_fighter("Armored", weapon_name="dagger", armor_name="plate mail", hit_dice="1d6")
    dice = ScriptedDice([20, 4, 4])  # 20 > 7 hits; 4 is not > 4: no wound
    result = melee_attack(armored, FighterState(), SPEARMAN, FighterState(), Reach.FAR, dice)
    assert result.prevented
    assert result.attacker == FighterState(0)
    assert result.counter is not None
    assert result.counter.hit
    assert result.counter.wounds == 0


def test_closing_in_after_a_missed_counter_moves_the_distance_and_attacks() -> None:
    dice = ScriptedDice([5, 16, 4, 6])  # counter misses; dagger hits, 1 wound, shock 6
    result = melee_attack(KNIFER, FighterState(), SPEARMAN, FighterState(), Reach.FAR, dice)
    assert not result.prevented
    assert result.distance is Reach.CLOSE
    assert result.defender == FighterState(1)
    moved = [e for e in result.events if isinstance(e, ev.DistanceChanged)]
    assert moved == [ev.DistanceChanged("Knifer", "Spearman", "far", "close", "closed in")]


def test_longer_reach_at_a_closed_distance_must_disengage() -> None:
    dice = ScriptedDice([5, 16, 1, 1, 6])  # dagger counter misses; spear hits 2 wounds
    result = melee_attack(SPEARMAN, FighterState(), KNIFER, FighterState(), Reach.CLOSE, dice)
    assert result.events[0] == ev.CounterAttackGranted("Knifer", "Spearman", "disengaging")
    assert result.distance is Reach.FAR
    assert not result.prevented
    assert result.defender == FighterState(2)


def test_counter_attack_can_take_the_attacker_out() -> None:
    dice = ScriptedDice([16, 8, 8, 1])  # 2 wounds, shock 1 ≤ 2
    result = melee_attack(KNIFER, FighterState(), SPEARMAN, FighterState(), Reach.FAR, dice)
    assert result.prevented
    assert result.attacker == FighterState(2, Condition.OUT)


def test_fallen_defender_gives_no_counter() -> None:
    dice = ScriptedDice([16, 3])
    result = melee_attack(
        KNIFER, FighterState(), SPEARMAN, FighterState(1, Condition.OUT), Reach.FAR, dice
    )
    assert result.counter is None
    assert result.distance is Reach.CLOSE
    assert result.defender == FighterState(2, Condition.OUT)


def test_fleeing_takes_a_counter_attack_and_escapes_if_still_standing() -> None:
    dice = ScriptedDice([16, 1, 1, 6])  # spear hits: 2 wounds, shock 6 > 2
    result = flee(KNIFER, FighterState(), [Engagement(SPEARMAN, FighterState(), Reach.FAR)], dice)
    assert result.performed
    assert result.state == FighterState(2, Condition.FLED)
    assert isinstance(result.events[-1], ev.Fled)


def test_fleeing_fails_if_the_counter_takes_the_fighter_out() -> None:
    dice = ScriptedDice([16, 1, 1, 2])
    result = flee(KNIFER, FighterState(), [Engagement(SPEARMAN, FighterState(), Reach.FAR)], dice)
    assert not result.performed
    assert result.state.condition is Condition.OUT


def test_no_counter_from_a_foe_out_of_reach() -> None:
    dice = ScriptedDice([])
    result = flee(SPEARMAN, FighterState(), [Engagement(KNIFER, FighterState(), Reach.FAR)], dice)
    assert result.performed
    assert result.events[0] == ev.OutOfReach("Knifer", "Spearman", "far")


def test_every_engaged_foe_in_reach_counters_in_order() -> None:
    foes = [
        Engagement(SWORDSMAN, FighterState(), Reach.MID),
        Engagement(SPEARMAN, FighterState(), Reach.MID),
        Engagement(KNIFER, FighterState(), Reach.MID),  # dagger cannot reach mid
    ]
    dice = ScriptedDice([2, 3])  # both counters miss
    result = flee(SWORDSMAN, FighterState(), foes, dice)
    granted = [e.by for e in result.events if isinstance(e, ev.CounterAttackGranted)]
    assert granted == ["Swordsman", "Spearman"]
    assert result.performed


def test_non_combat_action_is_not_stopped_by_a_hit_by_default() -> None:
    foes = [Engagement(SWORDSMAN, FighterState(), Reach.MID)]
    result = non_combat_action(
        SWORDSMAN, FighterState(), "drinks a potion", foes, ScriptedDice([16, 1, 1, 6])
    )
    assert result.performed
    assert result.state == FighterState(2)
    assert result.events[-1] == ev.ActionTaken("Swordsman", "drinks a potion", True)


def test_non_combat_action_stopped_by_a_hit_when_the_option_says_so() -> None:
    foes = [Engagement(SWORDSMAN, FighterState(), Reach.MID)]
    result = non_combat_action(
        SWORDSMAN,
        FighterState(),
        "casts a spell",
        foes,
        ScriptedDice([16, 1, 1, 6]),
        counter_prevents=True,
    )
    assert not result.performed
    assert result.events[-1] == ev.ActionTaken("Swordsman", "casts a spell", False)


def test_non_combat_action_while_not_engaged_is_safe() -> None:
    result = non_combat_action(SWORDSMAN, FighterState(), "reads a scroll", [], ScriptedDice([]))
    assert result.performed
    assert result.events == (ev.ActionTaken("Swordsman", "reads a scroll", True),)


def test_a_prevented_attack_says_why() -> None:
    """Issue 56: the demo said "Sellsword's attack is prevented" four rounds running with
    no reason: the line names the counter-attack and the rule."""
    from affray.narration import narrate_text
    from affray.rulesystems.mst2.events import AttackPrevented
    from affray.rulesystems.mst2.narration import NARRATION

    (line,) = narrate_text([AttackPrevented("Sellsword", "Spearman", "attack")], NARRATION)
    assert line.strip() == (
        "Sellsword's attack is prevented by Spearman's counter-attack "
        "(a counter-attack that hits stops it)"
    )
