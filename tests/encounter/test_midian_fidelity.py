"""Midian fights as the chapter says (issue "Midian fights as the chapter says"): each
test is a situation the encounter engine used to get wrong."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from affray.dice import RandomDice, ScriptedDice
from affray.encounter import Answers, Attack, Encounter, FirstChoice, Shoot, run_encounter
from affray.encounter.events import ActionChosen
from affray.rulesystems.midian import events as ev
from affray.rulesystems.midian.actions import Disarm
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.defence import DefencePool, Stance
from affray.rulesystems.midian.narration import NARRATION
from affray.rulesystems.midian.ruleset import MidianRuleset
from affray.rulesystems.midian.tactics import MidianTactics
from tests.encounter import driver
from tests.rules.midian.helpers import character, weapon


def pair(
    a: Character, b: Character, ruleset: MidianRuleset | None = None
) -> tuple[Encounter[Any, Any], driver.Driver]:
    return driver.build(ruleset or MidianRuleset(), (a.name, "a", a, None), (b.name, "b", b, None))


def test_the_surprised_cannot_parry_an_arrow() -> None:
    bow = weapon(name="Bow", damage="1d6", type="stabbing", ranged="device", range_increment=50)
    archer = character("Archer", attack_bonus=5, weapon=bow)
    elf = character("Elf", weapon=weapon(skill=4), dodge=3, hit_points=30)
    encounter, rules = driver.build(
        MidianRuleset(surprised=["caravan"]),
        ("Archer", "bandits", archer, None),
        ("Elf", "caravan", elf, None),
    )
    encounter = encounter.next_round()
    encounter, _, order = rules.begin_round(encounter, ScriptedDice([]))
    assert list(order) == ["Archer"] and encounter.states["Elf"].surprised
    # 12 + 5 = 17 hits; the Elf, surprised, has no parry and no dodge: 1d6 [4]
    answers = Answers(ScriptedDice([12, 4]), FirstChoice())
    _, events = rules.ruleset.perform(encounter, "Archer", Shoot("Elf"), answers)
    assert not any(isinstance(e, ev.DefenceRolled) for e in events)
    assert any(isinstance(e, ev.DamageTaken) and e.amount == 4 for e in events)


def test_the_surprised_cannot_hold_on_to_a_weapon() -> None:
    thief = character("Thief", attack_bonus=2, weapon=weapon(skill=1))
    guard = character("Guard", weapon=weapon(skill=5))
    encounter, rules = driver.build(
        MidianRuleset(surprised=["watch"]),
        ("Thief", "thieves", thief, None),
        ("Guard", "watch", guard, None),
    )
    encounter = encounter.next_round()
    encounter, _, _ = rules.begin_round(encounter, ScriptedDice([]))
    # the thief's disarm roll alone (the guard rolls nothing): 5 + 2 = 7, and the weapon goes
    dice = ScriptedDice([5])
    after, _ = rules.ruleset.perform(encounter, "Thief", Disarm("Guard"), Answers(dice))
    assert after.states["Guard"].weapon_lost and dice.remaining == ()


def set_pike_and_charger(pike_reach: int) -> tuple[Encounter[Any, Any], driver.Driver]:
    knight = character(
        "Knight", attack_bonus=5, weapon=weapon(damage="2d6", reach=2), hit_points=40
    )
    pike = character(
        "Pike",
        attack_bonus=5,
        weapon=weapon(damage="1d6", reach=pike_reach, hands=2, two_hand_grip=False),
        hit_points=40,
    )
    encounter, rules = pair(knight, pike, MidianRuleset(distance=40))
    encounter = driver.with_actions(encounter.next_round(), "Knight", 1)
    state = encounter.states["Pike"]
    return encounter.with_state("Pike", replace(state, set_against_charge=True)), rules


def test_a_set_weapon_of_shorter_reach_still_strikes_the_charger_second() -> None:
    encounter, rules = set_pike_and_charger(pike_reach=1)
    # the knight's reach (2) is longer: it strikes first, 15 + 5 = 20, and the set
    # pikeman cannot defend: 2d6 [3,3], doubled. Then the set pike strikes the charger,
    # who cannot defend either: 15 + 5 - 12 shock = 8 hits armour class 5; 1d6 [2].
    answers = Answers(ScriptedDice([15, 3, 3, 15, 2]), FirstChoice())
    _, events = rules.ruleset.perform(encounter, "Knight", Attack("Pike"), answers)
    attackers = [e.attacker for e in events if isinstance(e, ev.AttackRolled)]
    assert attackers == ["Knight", "Pike"]
    assert not any(isinstance(e, ev.DefenceRolled) for e in events)


def test_a_charger_cannot_defend_for_the_rest_of_the_round() -> None:
    knight = character("Knight", attack_bonus=5, weapon=weapon(skill=4), hit_points=40)
    foe = character("Foe", attack_bonus=5, weapon=weapon(), hit_points=40)
    encounter, rules = pair(knight, foe, MidianRuleset(distance=40))
    encounter = driver.with_actions(
        driver.with_actions(encounter.next_round(), "Knight", 2), "Foe", 1
    )
    answers = Answers(ScriptedDice([1, 10, 3]), FirstChoice())  # the charge fumbles
    encounter, events = rules.ruleset.perform(encounter, "Knight", Attack("Foe"), answers)
    assert encounter.states["Knight"].charged == encounter.round
    # the foe strikes back: 10 + 5 hits; the knight, with free parries left, cannot parry
    answers = Answers(ScriptedDice([10, 4]), FirstChoice())
    _, events = rules.ruleset.perform(encounter, "Foe", Attack("Knight"), answers)
    assert not any(isinstance(e, ev.DefenceRolled) for e in events)


def test_shock_weakens_the_struggle_to_break_a_hold() -> None:
    wrestler = character("Wrestler", grappling=2, attributes={"strength": 14})
    victim = character("Victim", attributes={"strength": 14, "agility": 10})
    encounter, rules = pair(wrestler, victim)
    hurt = encounter.states["Victim"]
    encounter = encounter.with_state(
        "Victim", replace(hurt, held_by=("Wrestler",), health=replace(hurt.health, shock=10))
    ).with_state("Wrestler", replace(encounter.states["Wrestler"], holding="Victim"))
    encounter = driver.with_actions(encounter.next_round(), "Victim", 1)
    _, events = rules.take_turn(encounter, "Victim", ScriptedDice([2, 2, 15, 15]))
    check = next(e for e in events if isinstance(e, ev.CheckRolled) and e.character == "Victim")
    assert check.effective == 14 - 5 - 10  # no grappling skill, 10 points of shock


def test_total_defence_keeps_the_action_and_dodges_twice_for_it() -> None:
    hitter = character("Hitter", attack_bonus=10, weapon=weapon())
    turtle = character("Turtle", dodge=2, hit_points=40)
    encounter, rules = pair(hitter, turtle)
    encounter = encounter.next_round()
    pool = DefencePool.fresh(turtle, actions=1, stance=Stance.TOTAL_DEFENCE)
    encounter = encounter.with_state("Turtle", replace(encounter.states["Turtle"], pool=pool))
    encounter = driver.with_actions(encounter, "Hitter", 2)
    # the turtle's turn: it stays on total defence and keeps its action
    encounter, events = rules.take_turn(encounter, "Turtle", ScriptedDice([]))
    assert encounter.states["Turtle"].pool.actions == 1
    # two attacks, two dodges for the one action (10+10 = 20 each; dodges 18+2, 19+2)
    for dodge in (18, 19):
        answers = Answers(ScriptedDice([10, dodge]), FirstChoice())
        encounter, events = rules.ruleset.perform(encounter, "Hitter", Attack("Turtle"), answers)
        defence = next(e for e in events if isinstance(e, ev.DefenceRolled))
        assert defence.defence == "dodge" and defence.success
    assert encounter.states["Turtle"].pool.actions == 0


def test_a_one_action_brute_is_not_kept_dodging_by_a_faster_fighter() -> None:
    fast = character("Fast", attack_bonus=3, initiative_bonus=10, weapon=weapon(damage="1d6"))
    brute = character("Brute", attack_bonus=3, weapon=weapon(damage="2d6"), hit_points=30, dodge=2)
    attacks = 0
    for seed in range(20):
        encounter, rules = pair(fast, brute)
        result = run_encounter(
            encounter, rules.ruleset, rules.answers(RandomDice(seed), fast), max_rounds=6
        )
        attacks += sum(
            1
            for e in result.events
            if isinstance(e, ActionChosen) and e.combatant == "Brute" and e.action.kind == "attack"
        )
    assert attacks >= 20 * 3  # about one a round, not none


def test_a_fallen_fighter_does_not_spend_its_get_up_turn_dodging() -> None:
    hitter = character("Hitter", attack_bonus=10, weapon=weapon())
    fallen = character("Fallen", dodge=5, hit_points=40)
    encounter, rules = pair(hitter, fallen)
    encounter = driver.with_actions(encounter.next_round(), "Fallen", 1)
    state = encounter.states["Fallen"]
    encounter = encounter.with_state("Fallen", replace(state, down_rounds=2))
    answers = Answers(ScriptedDice([10, 4]), FirstChoice())
    after, events = rules.ruleset.perform(encounter, "Hitter", Attack("Fallen"), answers)
    assert not any(isinstance(e, ev.DefenceRolled) for e in events)
    assert after.states["Fallen"].pool.actions == 1


def test_a_disarmer_without_a_weapon_cannot_disarm() -> None:
    duelist = character("Duelist", weapon=weapon(skill=3))
    soldier = character("Soldier", weapon=weapon(skill=1))
    encounter, rules = driver.build(
        MidianRuleset(),
        ("Duelist", "a", duelist, MidianTactics()),
        ("Soldier", "b", soldier, None),
    )
    assert Disarm("Soldier") in rules.ruleset.actions(encounter, "Duelist")
    lost = replace(encounter.states["Duelist"], weapon_lost=True)
    encounter = encounter.with_state("Duelist", lost)
    assert Disarm("Soldier") not in rules.ruleset.actions(encounter, "Duelist")


def ganged_target() -> tuple[Encounter[Any, Any], driver.Driver]:
    left = character("Left", attack_bonus=10, weapon=weapon())
    right = character("Right", attack_bonus=10, weapon=weapon())
    target = character("Target", weapon=weapon(skill=6), dodge=2, hit_points=40)
    encounter, rules = driver.build(
        MidianRuleset(),
        ("Left", "a", left, None),
        ("Right", "a", right, None),
        ("Target", "b", target, None),
    )
    encounter = encounter.next_round().engage("Left", "Target", "melee")
    encounter = encounter.engage("Right", "Target", "melee")
    encounter = driver.with_actions(encounter, "Target", 2)
    facing = replace(encounter.states["Target"], focus="Left")
    return encounter.with_state("Target", facing), rules


def test_ganged_up_on_the_target_can_only_dodge_the_one_it_faces() -> None:
    encounter, rules = ganged_target()
    # Left (faced): 10 + 10 + 2 ganging = 22; parries are out, the dodge (an action) is in
    answers = Answers(ScriptedDice([10, 15, 4]), FirstChoice())
    _, events = rules.ruleset.perform(encounter, "Left", Attack("Target"), answers)
    attack = next(e for e in events if isinstance(e, ev.AttackRolled))
    assert any(m.label == "ganging up" and m.value == 2 for m in attack.modifiers)
    assert [e.defence for e in events if isinstance(e, ev.DefenceRolled)] == ["dodge"]


def test_ganged_up_on_the_target_cannot_defend_against_the_one_it_does_not_face() -> None:
    encounter, rules = ganged_target()
    answers = Answers(ScriptedDice([10, 4]), FirstChoice())
    _, events = rules.ruleset.perform(encounter, "Right", Attack("Target"), answers)
    assert not any(isinstance(e, ev.DefenceRolled) for e in events)


def test_no_more_than_eight_can_gang_up_on_one_target() -> None:
    members = [(f"Foe {i}", "a", character(f"Foe {i}", weapon=weapon()), None) for i in range(9)]
    target = character("Target", hit_points=40)
    encounter, rules = driver.build(MidianRuleset(), *members, ("Target", "b", target, None))
    for i in range(8):
        encounter = encounter.engage(f"Foe {i}", "Target", "melee")
    assert Attack("Target") in rules.ruleset.actions(encounter, "Foe 0")
    assert Attack("Target") not in rules.ruleset.actions(encounter, "Foe 8")


def test_a_disarmed_fighter_loses_its_weapon_skill() -> None:
    fighter = character("Fighter", attack_bonus=6, weapon=weapon(skill=4))
    foe = character("Foe", hit_points=40)
    encounter, rules = pair(fighter, foe)
    lost = replace(encounter.states["Fighter"], weapon_lost=True)
    encounter = driver.with_actions(encounter.with_state("Fighter", lost).next_round(), "Foe", 0)
    answers = Answers(ScriptedDice([10]), FirstChoice())
    _, events = rules.ruleset.perform(encounter, "Fighter", Attack("Foe"), answers)
    attack = next(e for e in events if isinstance(e, ev.AttackRolled))
    assert attack.weapon == "Unarmed" and attack.total == 10 + 6 - 4
    # an untrained brawler's bare hands: no damage dice, only the damage bonus (0 here)
    damage = next(e for e in events if isinstance(e, ev.DamageRolled))
    assert damage.dice == () and damage.final == 0


def test_narration_of_a_critical_charge_an_evasion_and_an_evaded_blow() -> None:
    from affray.narration import narrate_text

    knight = character("Knight", attack_bonus=5, weapon=weapon(damage="1d6"), hit_points=40)
    foe = character("Foe", hit_points=40, weapon=weapon())
    encounter, rules = pair(knight, foe, MidianRuleset(distance=40))
    encounter = driver.with_actions(encounter.next_round(), "Foe", 0)
    answers = Answers(ScriptedDice([20, 3]), FirstChoice())  # a critical charge: ×4
    _, events = rules.ruleset.perform(encounter, "Knight", Attack("Foe"), answers)
    told = " ".join(narrate_text(events, NARRATION))
    assert "×4" in told and "doubled" not in told

    runner = character("Runner", dodge=10, hit_points=40, melee_evasion=True)
    encounter, rules = pair(character("Hitter", attack_bonus=2, weapon=weapon()), runner)
    encounter = encounter.next_round()
    from affray.encounter import ScriptedChooser

    chooser = ScriptedChooser({"stance": "evasion"}, FirstChoice(), who="Runner")
    encounter, opening, _ = rules.ruleset.begin_round(
        encounter, Answers(ScriptedDice([5, 5, 18]), chooser)
    )
    told_round = " ".join(narrate_text(opening, NARRATION))
    assert "stands against every attack" in told_round and "vs 0" not in told_round
    _, events = rules.ruleset.perform(
        encounter, "Hitter", Attack("Runner"), Answers(ScriptedDice([10]), FirstChoice())
    )
    assert "Runner evades it (evasion 22 vs 12)" in " ".join(narrate_text(events, NARRATION))


def test_a_charge_ends_the_chargers_round_and_longer_reach_strikes_first() -> None:
    knight = character("Knight", attack_bonus=5, weapon=weapon(reach=1), hit_points=40)
    spear = character("Spear", attack_bonus=5, weapon=weapon(reach=3), hit_points=40)
    encounter, rules = pair(knight, spear, MidianRuleset(distance=40))
    encounter = driver.with_actions(
        driver.with_actions(encounter.next_round(), "Knight", 2), "Spear", 1
    )
    encounter = encounter.queued(("Spear", "Knight"))
    # the spear (reach 3, not set) strikes the charger first with its one action:
    # 10 + 5 hits, the charger cannot defend, 1d8 [2]; then the knight's charge:
    # 10 + 5 - 2 shock hits, the spear has no action left to dodge with, [4] doubled
    answers = Answers(ScriptedDice([10, 2, 10, 4]), FirstChoice())
    after, events = rules.ruleset.perform(encounter, "Knight", Attack("Spear"), answers)
    assert [e.attacker for e in events if isinstance(e, ev.AttackRolled)] == ["Spear", "Knight"]
    assert not any(isinstance(e, ev.DefenceRolled) for e in events)
    assert after.states["Spear"].pool.actions == 0 and "Spear" not in after.queue
    # hit or miss, the charger has run past: no more actions this round
    assert after.states["Knight"].pool.actions == 0 and "Knight" not in after.queue


def test_a_missed_attack_roll_may_be_retested() -> None:
    lucky = character("Tanya", attack_bonus=2, weapon=weapon(), retests=("Very lucky",))
    foe = character("Guard", armour_class=12, hit_points=40)
    encounter, rules = pair(lucky, foe)
    encounter = driver.with_actions(encounter.next_round(), "Guard", 0)
    # a 2 fumbles; the retest (the AI spends it) rolls 15 + 2 = 17: a hit, 1d8 [4].
    # The source is spent for attack rolls: the next miss stands.
    answers = Answers(ScriptedDice([2, 15, 4]), FirstChoice())
    after, events = rules.ruleset.perform(encounter, "Tanya", Attack("Guard"), answers)
    attacks = [(e.die.face, e.hit) for e in events if isinstance(e, ev.AttackRolled)]
    assert attacks == [(2, False), (15, True)]
    assert after.states["Tanya"].retests_used == {("Very lucky", "attack")}
    again = Answers(ScriptedDice([3]), FirstChoice())
    _, events = rules.ruleset.perform(after, "Tanya", Attack("Guard"), again)
    assert [e.die.face for e in events if isinstance(e, ev.AttackRolled)] == [3]


def test_fumble_mishaps_when_the_game_master_wants_them() -> None:
    from affray.encounter import ScriptedChooser

    fighter = character("Fighter", weapon=weapon())
    foe = character("Foe", hit_points=40)
    plain, rules = pair(fighter, foe)
    plain = plain.next_round()
    _, events = rules.ruleset.perform(
        plain, "Fighter", Attack("Foe"), Answers(ScriptedDice([1]), FirstChoice())
    )
    assert not any(isinstance(e, ev.StatusChanged) for e in events)  # off by default
    encounter, rules = pair(fighter, foe, MidianRuleset(fumble_effects=True))
    encounter = encounter.next_round()
    rolled = Answers(ScriptedDice([1, 1]), FirstChoice())  # the mishap die: 1, dropped
    after, events = rules.ruleset.perform(encounter, "Fighter", Attack("Foe"), rolled)
    assert after.states["Fighter"].weapon_lost
    chosen = Answers(ScriptedDice([2]), ScriptedChooser({"fumble": "tripped"}, FirstChoice()))
    after, events = rules.ruleset.perform(encounter, "Fighter", Attack("Foe"), chosen)
    # tripped on its own (last) turn: the next two rounds go on getting up (issue 25)
    assert after.states["Fighter"].down_rounds == 3 and not after.states["Fighter"].weapon_lost


def test_evasion_stands_against_blows_only_with_a_skill_for_it() -> None:
    from affray.encounter import ScriptedChooser

    for skilled in (False, True):
        runner = character("Runner", dodge=10, hit_points=40, melee_evasion=skilled)
        encounter, rules = pair(character("Hitter", attack_bonus=2, weapon=weapon()), runner)
        chooser = ScriptedChooser({"stance": "evasion"}, FirstChoice(), who="Runner")
        encounter, _, _ = rules.ruleset.begin_round(
            encounter.next_round(), Answers(ScriptedDice([5, 5, 18]), chooser)
        )
        # 10 + 2 = 12 against an evasion of 22: evaded with the skill, no roll; without
        # it the runner must dodge as usual, with its action: 3 + 10 = 13
        answers = Answers(ScriptedDice([10] if skilled else [10, 3]), FirstChoice())
        after, events = rules.ruleset.perform(encounter, "Hitter", Attack("Runner"), answers)
        assert any(isinstance(e, ev.Evaded) for e in events) is skilled
        assert any(isinstance(e, ev.DefenceRolled) for e in events) is not skilled
        assert after.states["Runner"].pool.actions == (1 if skilled else 0)


def test_cover_in_melee_penalises_both_sides() -> None:
    left = character("Left", attack_bonus=4, weapon=weapon())
    right = character("Right", attack_bonus=4, weapon=weapon())
    encounter, rules = pair(left, right, MidianRuleset(melee_cover=25))
    encounter = driver.with_actions(
        driver.with_actions(encounter.next_round(), "Left", 0), "Right", 0
    )
    for attacker, target in (("Left", "Right"), ("Right", "Left")):
        answers = Answers(ScriptedDice([10, 1]), FirstChoice())
        _, events = rules.ruleset.perform(encounter, attacker, Attack(target), answers)
        attack = next(e for e in events if isinstance(e, ev.AttackRolled))
        assert any(m.label == "25% cover" and m.value == -5 for m in attack.modifiers)
        assert attack.total == 10 + 4 - 5


def test_two_may_hold_one_who_may_break_one_hold_or_grapple_back() -> None:
    from affray.rulesystems.midian.actions import Escape, Grapple
    from affray.rulesystems.midian.character import Encumbrance

    fists = weapon(name="Fists", damage="1d4", type="smashing", encumbrance=Encumbrance.NONE)
    one = character("One", attack_bonus=10, grappling=2, weapon=fists)
    two = character("Two", attack_bonus=10, grappling=2, weapon=fists)
    bear = character("Bear", grappling=3, hit_points=60, natural_armour_class=5)
    encounter, rules = driver.build(
        MidianRuleset(),
        ("One", "a", one, None),
        ("Two", "a", two, None),
        ("Bear", "b", bear, None),
    )
    encounter = driver.with_actions(encounter.next_round(), "Bear", 0)
    for holder in ("One", "Two"):  # 10 + 10 hits the natural armour class; [2] damage
        answers = Answers(ScriptedDice([10, 2]), FirstChoice())
        encounter, _ = rules.ruleset.perform(encounter, holder, Grapple("Bear"), answers)
    assert encounter.states["Bear"].held_by == ("One", "Two")
    assert rules.ruleset.actions(encounter, "Bear") == [
        Escape("One"),
        Escape("Two"),
        Grapple("One"),
        Grapple("Two"),
    ]
    # the bear breaks One's hold (its Strength challenge wins) and is still in Two's
    answers = Answers(ScriptedDice([2, 2, 19, 19]), FirstChoice())
    encounter, _ = rules.ruleset.perform(encounter, "Bear", Escape("One"), answers)
    assert encounter.states["Bear"].held_by == ("Two",)
    assert encounter.states["One"].holding is None
    # then grapples Two back: now each holds the other
    answers = Answers(ScriptedDice([15, 1]), FirstChoice())
    encounter, _ = rules.ruleset.perform(encounter, "Bear", Grapple("Two"), answers)
    assert encounter.states["Two"].held_by == ("Bear",)
    assert encounter.states["Bear"].holding == "Two"


def test_a_stray_shot_carries_the_shooters_damage_bonus() -> None:
    bow = weapon(name="Bow", damage="1d6", type="stabbing", ranged="device", range_increment=50)
    archer = character("Archer", attack_bonus=0, damage_bonus=3, weapon=bow)
    friend = character("Friend", armour_class=5, hit_points=40)
    foe = character("Foe", armour_class=10, hit_points=40)
    encounter, rules = driver.build(
        MidianRuleset(),
        ("Archer", "a", archer, None),
        ("Friend", "a", friend, None),
        ("Foe", "b", foe, None),
    )
    encounter = driver.with_actions(
        encounter.next_round().engage("Friend", "Foe", "melee"), "Foe", 0
    )
    # 10 - 8 (40 % cover: the friend in the way) = 2 misses AC 10, but 10 alone would
    # have hit: the shot strikes the friend (AC 8 at range), 1d6 [4] + 3 damage bonus = 7
    answers = Answers(ScriptedDice([10, 4]), FirstChoice())
    after, events = rules.ruleset.perform(encounter, "Archer", Shoot("Foe"), answers)
    stray = [e for e in events if isinstance(e, ev.DamageRolled)]
    assert len(stray) == 1 and stray[0].final == 7
    assert after.states["Friend"].health.hit_points == 40 - 7


def test_ambushers_choose_a_stance_in_the_surprise_round() -> None:
    from affray.encounter import ScriptedChooser

    bandit = character("Bandit", weapon=weapon())
    merchant = character("Merchant")
    encounter, rules = driver.build(
        MidianRuleset(surprised=["caravan"]),
        ("Bandit", "bandits", bandit, None),
        ("Merchant", "caravan", merchant, None),
    )
    chooser = ScriptedChooser({"stance": "defensive"}, FirstChoice())
    encounter, _, _ = rules.ruleset.begin_round(
        encounter.next_round(), Answers(ScriptedDice([]), chooser)
    )
    assert encounter.states["Bandit"].pool.stance is Stance.DEFENSIVE
