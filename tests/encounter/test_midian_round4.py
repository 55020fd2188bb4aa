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


# -- critical effects with numbers (critical_numbers) ------------------------------------


def critical_on_foe(effect: str, duration: tuple[int, ...], *, numbers: bool = True) -> Any:
    """The knight's natural 19 on the foe: 1d8 [2] doubled, then the table's die gives
    ``effect`` (and its rounds dice, ``duration``)."""
    from affray.rulesystems.midian.criticals import EFFECTS

    face = 1 + [e.name.value for e in EFFECTS].index(effect)
    knight = character("Knight", attack_bonus=5, weapon=weapon(), hit_points=40)
    foe = character("Foe", weapon=weapon(skill=2), hit_points=40)
    rules = MidianRuleset(critical_effects=True, critical_numbers=numbers)
    encounter, built = driver.build(rules, ("Knight", "a", knight, None), ("Foe", "b", foe, None))
    encounter = driver.with_actions(
        driver.with_actions(encounter.next_round(), "Knight", 1), "Foe", 1
    )
    faces = [19, 2, face, *duration]
    after, events = built.ruleset.perform(
        encounter, "Knight", Attack("Foe"), Answers(ScriptedDice(faces), FirstChoice())
    )
    (said,) = [e for e in events if isinstance(e, ev.CriticalEffect)]
    assert said.effect == effect and said.rounds == (sum(duration) if duration else None)
    return after, built


def end_rounds(encounter: Any, rules: Any, count: int) -> tuple[Any, list[Any]]:
    told = []
    for _ in range(count):
        encounter, events = rules.end_round(encounter, ScriptedDice([]))
        told.extend(events)
        encounter = encounter.next_round()
    return encounter, told


def test_the_wind_knocked_out_is_minus_6_to_every_roll_for_its_rounds() -> None:
    encounter, rules = critical_on_foe("wind knocked out", (2,))
    health = encounter.states["Foe"].health
    assert health.winded == 2 and health.shock > 0
    assert health.penalty == health.shock + 6  # the blow's shock, and the wind knocked out
    answers = Answers(ScriptedDice([10, 1, 1]), FirstChoice())
    _, events = rules.ruleset.perform(encounter, "Foe", Attack("Knight"), answers)
    attack = next(e for e in events if isinstance(e, ev.AttackRolled))
    assert attack.total == 10 + sum(m.value for m in attack.modifiers)
    assert -(health.shock + 6) in [m.value for m in attack.modifiers], attack.modifiers
    after, told = end_rounds(encounter, rules, 2)
    assert after.states["Foe"].health.winded == 0
    assert [e.status for e in told if isinstance(e, ev.StatusChanged)] == ["no longer winded"]


def test_hit_in_the_ear_is_minus_3_to_attack_and_parry_and_no_dodge() -> None:
    from affray.rulesystems.midian.defence import Defence, DefencePool, Stance, options
    from affray.rulesystems.midian.resolve import off_balance

    encounter, rules = critical_on_foe("hit in the ear", ())
    health = encounter.states["Foe"].health
    assert health.off_balance
    # the foe's own blow: -3 to its attack roll, none to its damage
    hits = Answers(ScriptedDice([19, 4]), FirstChoice())  # a natural 19: it hits
    _, events = rules.ruleset.perform(encounter, "Foe", Attack("Knight"), hits)
    attack = next(e for e in events if isinstance(e, ev.AttackRolled))
    assert ("off balance (hit in the ear)", -3) in [(m.label, m.value) for m in attack.modifiers]
    damage = next(e for e in events if isinstance(e, ev.DamageRolled))
    assert all("off balance" not in m.label for m in damage.modifiers)
    foe = encounter.sheet("Foe")
    parry = next(
        c for c in options(foe, DefencePool(1, 0, 1, Stance.NORMAL)) if c.kind is Defence.PARRY
    )
    assert sum(m.value for m in off_balance(parry).modifiers) == (
        sum(m.value for m in parry.modifiers) - 3
    )


def test_a_severe_throat_wound_kills_when_its_rounds_run_out() -> None:
    encounter, rules = critical_on_foe("severe throat wound", (1, 2))
    assert encounter.states["Foe"].health.dying_in == 3
    after, told = end_rounds(encounter, rules, 2)
    assert after.states["Foe"].health.alive and after.states["Foe"].health.dying_in == 1
    after, told = end_rounds(after, rules, 1)
    assert not after.states["Foe"].health.alive
    assert ("dead", "critical: severe throat wound") in [
        (e.status, e.reason) for e in told if isinstance(e, ev.StatusChanged)
    ]


def test_without_critical_numbers_the_effects_are_only_told() -> None:
    encounter, _ = critical_on_foe("severe throat wound", (1, 2), numbers=False)
    health = encounter.states["Foe"].health
    assert (health.winded, health.off_balance, health.dying_in) == (0, False, 0)


def test_critical_numbers_need_critical_effects_and_the_fast_engine_refuses_them(
    tmp_path: Any,
) -> None:
    from tests.helpers import EXAMPLES, run

    brawl = (EXAMPLES / "encounters/tavern_brawl.toml").read_text()
    base = (EXAMPLES / "encounters").as_posix()
    alone = tmp_path / "alone.toml"
    alone.write_text(
        brawl.replace('system = "midian"', 'system = "midian"\ncritical_numbers = true').replace(
            '"../', f'"{base}/../'
        )
    )
    refused = run("fight", str(alone), "-n", "10")
    assert refused.exit_code == 2 and "set critical_effects = true" in refused.stderr
    both = tmp_path / "both.toml"
    both.write_text(
        alone.read_text().replace("critical_numbers = true", "critical_numbers = true\n"
                                  "critical_effects = true")
    )  # fmt: skip
    fast = run("fight", str(both), "-n", "10", "--engine", "fast")
    assert fast.exit_code == 2 and "critical_numbers" in fast.stderr, fast.stderr
    played = run("fight", str(both), "-n", "20", "--seed", "1")
    assert played.exit_code == 0, played.output
