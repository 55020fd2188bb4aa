"""Midian fidelity, round 3 (issue 25): charges need a run-up, nobody acts while getting
up, knocked down lasts two rounds of turns, tending below 0 life points, waiting costs
later actions, untrained fists, bare-hand parries, fire resistance, the ogre's hide.
Each test is hand-checked dice through the reference engine."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from affray.dice import ScriptedDice
from affray.encounter import Answers, Attack, Encounter, FirstChoice
from affray.encounter.events import Engaged
from affray.rulesystems.midian import events as ev
from affray.rulesystems.midian.round import begin_turn
from affray.rulesystems.midian.ruleset import MidianRuleset
from affray.rulesystems.midian.state import release_fallen
from tests.encounter import driver
from tests.rules.midian.helpers import character, weapon


def fell(encounter: Encounter[Any, Any], cid: str) -> Encounter[Any, Any]:
    """``cid`` drops dead (and leaves its melee)."""
    state = encounter.states[cid]
    health = replace(state.health, alive=False, conscious=False)
    return release_fallen(encounter.with_state(cid, replace(state, health=health)), cid)


# -- 1. a charge needs a run-up --------------------------------------------------------


def test_a_fighter_whose_foe_falls_does_not_charge_the_next_one() -> None:
    knight = character("Knight", attack_bonus=5, weapon=weapon(damage="1d8"), hit_points=40)
    first = character("First", weapon=weapon(), hit_points=40)
    second = character("Second", weapon=weapon(), hit_points=40)
    encounter, rules = driver.build(
        MidianRuleset(distance=40),
        ("Knight", "a", knight, None),
        ("First", "b", first, None),
        ("Second", "b", second, None),
    )
    encounter = driver.with_actions(encounter.next_round(), "Knight", 1)
    # across 40 ft of open ground: a charge, 15 + 5 hits, 1d8 [4], doubled: 8
    answers = Answers(ScriptedDice([15, 4]), FirstChoice())
    encounter, events = rules.ruleset.perform(encounter, "Knight", Attack("First"), answers)
    assert Engaged("Knight", "First", "charge") in events
    assert next(e for e in events if isinstance(e, ev.DamageTaken)).amount == 8
    encounter = fell(encounter, "First")
    assert encounter.engaged_with("Knight") == []
    # the knight is in the thick of it now: no run-up, an ordinary blow, 1d8 [4]: 4
    encounter = driver.with_actions(encounter.next_round(), "Knight", 1)
    answers = Answers(ScriptedDice([15, 4]), FirstChoice())
    encounter, events = rules.ruleset.perform(encounter, "Knight", Attack("Second"), answers)
    assert Engaged("Knight", "Second", "melee") in events
    assert next(e for e in events if isinstance(e, ev.DamageTaken)).amount == 4
    assert encounter.states["Knight"].charged == 1  # the first round's, not this one's


def test_one_who_was_charged_has_no_run_up_either() -> None:
    knight = character("Knight", attack_bonus=5, weapon=weapon(), hit_points=40)
    foot = character("Foot", attack_bonus=5, weapon=weapon(), hit_points=40)
    other = character("Other", weapon=weapon(), hit_points=40)
    encounter, rules = driver.build(
        MidianRuleset(distance=40),
        ("Knight", "a", knight, None),
        ("Other", "a", other, None),
        ("Foot", "b", foot, None),
    )
    encounter = driver.with_actions(encounter.next_round(), "Knight", 1)
    answers = Answers(ScriptedDice([1]), FirstChoice())  # the charge fumbles
    encounter, _ = rules.ruleset.perform(encounter, "Knight", Attack("Foot"), answers)
    encounter = fell(encounter, "Knight")
    encounter = driver.with_actions(encounter.next_round(), "Foot", 1)
    answers = Answers(ScriptedDice([15, 4]), FirstChoice())
    _, events = rules.ruleset.perform(encounter, "Foot", Attack("Other"), answers)
    assert Engaged("Foot", "Other", "melee") in events


# -- 2. nobody acts, or strikes first, while getting up ---------------------------------


def pike_on_the_ground(pike_reach: int, *, set_weapon: bool) -> tuple[Encounter[Any, Any], Any]:
    knight = character("Knight", attack_bonus=5, weapon=weapon(reach=2), hit_points=40)
    pike = character(
        "Pike", attack_bonus=5, weapon=weapon(damage="1d6", reach=pike_reach), hit_points=40
    )
    encounter, rules = driver.build(
        MidianRuleset(distance=40), ("Knight", "a", knight, None), ("Pike", "b", pike, None)
    )
    encounter = driver.with_actions(
        driver.with_actions(encounter.next_round(), "Knight", 1), "Pike", 1
    )
    state = encounter.states["Pike"]
    encounter = encounter.with_state(
        "Pike", replace(state, set_against_charge=set_weapon, down_rounds=2)
    )
    return encounter.queued(("Pike",)), rules


def test_a_set_pikeman_on_the_ground_does_not_strike_the_charger() -> None:
    encounter, rules = pike_on_the_ground(pike_reach=3, set_weapon=True)
    # only the knight's charge: 15 + 5 + 4 (the pikeman is down) hits, 1d8 [3] doubled
    answers = Answers(ScriptedDice([15, 3]), FirstChoice())
    _, events = rules.ruleset.perform(encounter, "Knight", Attack("Pike"), answers)
    assert [e.attacker for e in events if isinstance(e, ev.AttackRolled)] == ["Knight"]


def test_a_longer_reach_on_the_ground_does_not_strike_first() -> None:
    encounter, rules = pike_on_the_ground(pike_reach=3, set_weapon=False)
    answers = Answers(ScriptedDice([15, 3]), FirstChoice())  # strike first? the AI says yes
    after, events = rules.ruleset.perform(encounter, "Knight", Attack("Pike"), answers)
    assert [e.attacker for e in events if isinstance(e, ev.AttackRolled)] == ["Knight"]
    assert after.states["Pike"].pool.actions == 1


# -- 3. knocked down: two rounds of turns getting back up --------------------------------


def knocked_down_by(attacker_turn_left: bool) -> tuple[Encounter[Any, Any], Any]:
    from affray.rulesystems.midian.criticals import EFFECTS, Critical

    face = 1 + [e.name for e in EFFECTS].index(Critical.KNOCKED_DOWN)
    knight = character("Knight", attack_bonus=5, weapon=weapon(), hit_points=40)
    foe = character("Foe", weapon=weapon(), hit_points=40)
    encounter, rules = driver.build(
        MidianRuleset(critical_effects=True), ("Knight", "a", knight, None), ("Foe", "b", foe, None)
    )
    encounter = driver.with_actions(encounter.next_round(), "Knight", 1)
    encounter = driver.with_actions(encounter, "Foe", 1 if attacker_turn_left else 0)
    encounter = encounter.queued(("Foe",) if attacker_turn_left else ())
    # a natural 19: a critical, 1d8 [2] doubled, and the table's die: knocked down
    answers = Answers(ScriptedDice([19, 2, face]), FirstChoice())
    encounter, _ = rules.ruleset.perform(encounter, "Knight", Attack("Foe"), answers)
    return encounter, rules


def turns_lost(encounter: Encounter[Any, Any], rules: Any, rounds: int) -> list[bool]:
    """For each round from the next: whether the foe's turn goes on getting up."""
    lost = []
    for _ in range(rounds):
        encounter, _ = rules.end_round(encounter, ScriptedDice([]))
        encounter = driver.with_actions(encounter.next_round(), "Foe", 1)
        encounter, _, free = begin_turn(encounter, "Foe")
        lost.append(not free)
    return lost


def test_knocked_down_after_its_turn_it_loses_the_next_two_rounds() -> None:
    encounter, rules = knocked_down_by(attacker_turn_left=False)
    assert encounter.states["Foe"].down_rounds == 3
    assert turns_lost(encounter, rules, 3) == [True, True, False]


def test_knocked_down_before_its_turn_it_loses_that_one_and_the_next_round() -> None:
    encounter, rules = knocked_down_by(attacker_turn_left=True)
    assert encounter.states["Foe"].down_rounds == 2
    _, _, free = begin_turn(encounter, "Foe")
    assert not free  # this round's turn goes on getting up
    assert turns_lost(encounter, rules, 2) == [True, False]


# -- 4. binding the wounds of one below 0 life points ------------------------------------


def test_wounds_below_0_life_points_can_be_bound_and_stop_bleeding() -> None:
    from affray.rulesystems.midian.actions import TendWounds

    hurt = character("Hurt", weapon=weapon(), system_shock=100)
    foe = character("Foe", weapon=weapon())
    encounter, rules = driver.build(
        MidianRuleset(), ("Hurt", "a", hurt, None), ("Foe", "b", foe, None)
    )
    state = encounter.states["Hurt"]
    # at -1 life points without a serious wound (a blow of 9 on 8 hit points and 0 life)
    health = replace(state.health, hit_points=0, life_points=-1)
    encounter = encounter.with_state("Hurt", replace(state, health=health))
    encounter = driver.with_actions(encounter.next_round(), "Hurt", 1)
    assert TendWounds("Hurt") in rules.ruleset.actions(encounter, "Hurt")
    encounter, _ = rules.perform(encounter, "Hurt", TendWounds("Hurt"), ScriptedDice([]))
    # the end of the round: no bleeding, only system shock (d100 [50] under 95%)
    encounter, events = rules.end_round(encounter, ScriptedDice([50]))
    assert not any(isinstance(e, ev.Bled) for e in events)
    assert encounter.states["Hurt"].health.life_points == -1


# -- 5. waiting down to 10 or lower costs the later actions ------------------------------


def waiting_round(initiatives: dict[str, int], queue: tuple[str, ...]) -> tuple[Any, Any]:
    members = [
        (cid, "a" if cid == "X" else "b", character(cid, weapon=weapon()), None)
        for cid in initiatives
    ]
    encounter, rules = driver.build(MidianRuleset(), *members)
    encounter = encounter.next_round()
    for cid, total in initiatives.items():
        state = encounter.states[cid]
        slots = len(range(total, 0, -10)) or 1
        pool = replace(state.pool, actions=slots - (1 if cid == "X" else 0))  # X is acting
        encounter = encounter.with_state(cid, replace(state, initiative=total, pool=pool))
    return encounter.queued(queue), rules


def test_waiting_from_15_to_7_loses_the_action_at_5() -> None:
    from affray.rulesystems.midian.actions import Wait

    # X acts at 15 and 5, Y at 7: at 15, X waits for Y (and so lowers its initiative to 7)
    encounter, rules = waiting_round({"X": 15, "Y": 7}, ("Y", "X"))
    after, _ = rules.perform(encounter, "X", Wait("Y"), ScriptedDice([]))
    assert after.queue == ("Y", "X")  # the turn at 5 is gone
    assert after.states["X"].pool.actions == 1 and after.states["X"].waited_to == 7


def test_waiting_from_25_to_12_keeps_one_later_action_moved_down() -> None:
    from affray.rulesystems.midian.actions import Wait

    # X at 25, 15, 5; Y at 12, 2; Z at 3. At 25 X waits for Y: now 12 and 2, after Z's 3
    encounter, rules = waiting_round({"X": 25, "Y": 12, "Z": 3}, ("X", "Y", "Z", "X", "Y"))
    after, _ = rules.perform(encounter, "X", Wait("Y"), ScriptedDice([]))
    assert after.queue == ("Y", "X", "Z", "Y", "X")
    assert after.states["X"].pool.actions == 2


def test_waiting_above_10_keeps_every_action_each_moved_down() -> None:
    from affray.rulesystems.midian.actions import Wait

    # X at 18 and 8, Y at 16: waiting to 16, X still acts again at 6
    encounter, rules = waiting_round({"X": 18, "Y": 16}, ("Y", "X", "Y"))
    after, _ = rules.perform(encounter, "X", Wait("Y"), ScriptedDice([]))
    assert after.queue == ("Y", "X", "Y", "X") and after.states["X"].pool.actions == 2
