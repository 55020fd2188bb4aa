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
from affray.rules.midian import events as ev
from affray.rules.midian.ruleset import MidianRuleset
from affray.rules.midian.state import release_fallen
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
