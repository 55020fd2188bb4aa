"""Midian fidelity, round 4 (issue 41, item 7): a weapon set against a charge has given
up its defence ("must simply stand there ... you also get no active defence"), and a
fall does not give it back. Hand-checked dice through the reference engine; a table's
change logged in era 3 replays as it played then."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from affray.dice import ScriptedDice
from affray.encounter import Answers, Attack, Encounter, FirstChoice
from affray.rulesystems.midian import events as ev
from affray.rulesystems.midian.ruleset import MidianRuleset
from tests.encounter import driver
from tests.rules.midian.helpers import character, weapon


def set_pike(rules: MidianRuleset) -> tuple[Encounter[Any, Any], Any]:
    """A knight charges across 40 ft at a pikeman whose longer pike is set."""
    knight = character("Knight", attack_bonus=5, weapon=weapon(reach=2), hit_points=40)
    pike = character(
        "Pike", attack_bonus=5, weapon=weapon(damage="1d6", reach=3, skill=2), hit_points=40
    )
    encounter, built = driver.build(rules, ("Knight", "a", knight, None), ("Pike", "b", pike, None))
    encounter = driver.with_actions(
        driver.with_actions(encounter.next_round(), "Knight", 1), "Pike", 1
    )
    state = encounter.states["Pike"]
    return encounter.with_state("Pike", replace(state, set_against_charge=True)), built


def test_a_set_pikeman_who_trips_has_no_defence_against_the_charger() -> None:
    encounter, built = set_pike(MidianRuleset(distance=40, fumble_effects=True))
    # the pike strikes first: a natural 1, a fumble; its mishap d3 [3]: trips and falls.
    # The knight's charge then: 15 + 5 (+4, the pikeman is down) hits; no parry, no
    # dodge (the set pike gave its defence up); 1d8 [3], doubled
    dice = ScriptedDice([1, 3, 15, 3])
    after, events = built.ruleset.perform(
        encounter, "Knight", Attack("Pike"), Answers(dice, FirstChoice())
    )
    assert [e.attacker for e in events if isinstance(e, ev.AttackRolled)] == ["Pike", "Knight"]
    assert any(isinstance(e, ev.StatusChanged) and e.reason == "trips and falls" for e in events)
    assert not [e for e in events if isinstance(e, ev.DefenceRolled)]
    assert dice.remaining == ()  # no die was rolled for a defence
    assert after.states["Pike"].down_rounds > 0


def test_a_table_of_round_3_replays_with_the_defence_given_back() -> None:
    """Before round 4 (a change logged in era 3) the fallen pikeman defended: the
    defence question is asked, and a parry's die rolled."""
    encounter, built = set_pike(MidianRuleset(distance=40, fumble_effects=True).at_era(3))
    dice = ScriptedDice([1, 3, 15, 2, 3])
    _, events = built.ruleset.at_era(3).perform(
        encounter, "Knight", Attack("Pike"), Answers(dice, FirstChoice())
    )
    assert [e for e in events if isinstance(e, ev.DefenceRolled)]
