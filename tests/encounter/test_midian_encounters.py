"""Midian fights in the encounter engine: whole rounds with scripted dice, and invariants."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from affray.dice import RandomDice, ScriptedDice
from affray.encounter import Encounter, run_encounter, steps
from affray.encounter import events as enc
from affray.rulesystems.midian import events as ev
from affray.rulesystems.midian.actions import Defend
from affray.rulesystems.midian.character import Character, Encumbrance
from affray.rulesystems.midian.defence import Stance
from affray.rulesystems.midian.ruleset import MidianRuleset
from affray.rulesystems.midian.state import armed
from affray.rulesystems.midian.tactics import MidianTactics, Role
from affray.sheets import load_encounter
from affray.sim import simulate_encounter_duels
from tests.encounter import driver
from tests.helpers import EXAMPLES
from tests.rules.midian.helpers import character, weapon

ENCOUNTERS = [
    path
    for path in sorted((EXAMPLES / "encounters").glob("*.toml"))
    if 'system = "midian"' in path.read_text()
]


Tactics = MidianTactics


def build(
    *members: tuple[str, str, Character, MidianTactics], ruleset: MidianRuleset | None = None
) -> tuple[Encounter[Character, object], driver.Driver]:
    return driver.build(ruleset or MidianRuleset(), *members)


def test_a_whole_round_two_actions_a_defence_that_costs_an_action_bleeding_and_system_shock() -> (
    None
):
    swift = character(
        "Swift", attack_bonus=5, initiative_bonus=5, armour_class=10, weapon=weapon(damage="2d6")
    )
    slow = character(
        "Slow",
        armour_class=10,
        hit_points=5,
        life_points=5,
        system_shock=50,
        attributes={"willpower": 30},
        weapon=weapon(damage="1d6"),
    )
    encounter, rules = build(("Swift", "a", swift, Tactics()), ("Slow", "b", slow, Tactics()))
    # initiative: Swift 8+5 = 13 (acts at 13 and 3), Slow 5.
    # Swift at 13: 10+5 = 15 hits; Slow dodges with its only action: 3 fails; 2d6 [4,4] = 8:
    #   hit points 5 → 0, life points 5 → 2; Willpower 2d20 [1,1] = 2 vs 30-8 → stays up.
    # Slow at 5: its action went on the dodge.
    # Swift at 3: 12+5 = 17 hits, no defence left; [3,3] = 6: life points 2 → -4.
    # End of round: Slow bleeds 4 (below 0) → -8; system shock 50 - 40 = 10%: 50 fails → dead.
    dice = ScriptedDice([8, 5, 10, 3, 4, 4, 1, 1, 12, 3, 3, 50])
    result = run_encounter(encounter, rules.ruleset, rules.answers(dice, swift))
    kinds = [type(e) for e in result.events]
    assert kinds == [
        enc.EncounterStarted,
        enc.RoundStarted,
        ev.InitiativeRolled,
        ev.InitiativeRolled,
        enc.ActionChosen,
        enc.Engaged,
        ev.AttackRolled,
        ev.DefenceRolled,
        ev.DamageRolled,
        ev.DamageTaken,
        ev.CheckRolled,
        enc.TurnSkipped,
        enc.ActionChosen,
        ev.AttackRolled,
        ev.DamageRolled,
        ev.DamageTaken,
        ev.Bled,
        ev.SystemShockRolled,
        ev.StatusChanged,
        enc.EncounterEnded,
    ]
    assert dice.remaining == ()
    started = result.events[1]
    assert isinstance(started, enc.RoundStarted) and started.order == ("Swift", "Slow", "Swift")
    defence = result.events[7]
    assert (
        isinstance(defence, ev.DefenceRolled) and defence.cost == "action" and not defence.success
    )
    shock = result.events[17]
    assert isinstance(shock, ev.SystemShockRolled) and shock.chance == 10 and not shock.success
    assert result.winner == "a" and result.rounds == 1
    assert rules.ruleset.condition(result.encounter, "Slow") == "dead"


def test_shock_carries_into_next_initiative() -> None:
    hitter = character("Hitter", attack_bonus=10, weapon=weapon(damage="1d4"))
    target = character("Target", hit_points=50)
    encounter, rules = build(
        ("Hitter", "a", hitter, Tactics()),
        ("Target", "b", target, Tactics(stance=Stance.TOTAL_DEFENCE)),
    )
    # round 1: Hitter 9, Target 1; Hitter 10+10 = 20 hits; Target parries (unskilled, an
    # action) 2 → fails; 1d4 [4]: 4 shock. Target's turn: total defence, no attack.
    # Round 2: Target's initiative 6 - 4 = 2.
    dice = ScriptedDice([9, 1, 10, 2, 4, 3, 6])
    encounter = encounter.next_round()
    encounter, opening, order = rules.begin_round(encounter, dice)
    for cid in order:
        encounter, _ = rules.take_turn(encounter, cid, dice)
    encounter, _ = rules.end_round(encounter, dice)
    encounter = encounter.next_round()
    encounter, opening, order = rules.begin_round(encounter, dice)
    rolled = next(
        e for e in opening if isinstance(e, ev.InitiativeRolled) and e.character == "Target"
    )
    assert rolled.total == 6 - 4
    assert any(m.label == "shock from last round" and m.value == -4 for m in rolled.modifiers)


def test_surprise_round_the_ambushers_act_alone_and_the_surprised_cannot_defend() -> None:
    bandit = character("Bandit", attack_bonus=3, weapon=weapon(damage="1d6"))
    merchant = character("Merchant", weapon=weapon(skill=4), dodge=3, hit_points=30)
    encounter, rules = build(
        ("Bandit", "bandits", bandit, Tactics()),
        ("Merchant", "caravan", merchant, Tactics()),
        ruleset=MidianRuleset(surprised=["caravan"]),
    )
    dice = ScriptedDice([10, 5] + [1] * 40)
    stepper = steps(encounter, rules.ruleset, rules.answers(dice, bandit), max_rounds=1)
    events = [e for step in stepper for e in step.events]
    started = next(e for e in events if isinstance(e, enc.RoundStarted))
    assert started.order == ("Bandit",)
    assert not any(isinstance(e, ev.InitiativeRolled) for e in events)
    assert not any(isinstance(e, ev.DefenceRolled) for e in events)
    damage = next(e for e in events if isinstance(e, ev.DamageTaken))
    assert damage.amount == 5


def test_everyone_surprised_loses_a_round() -> None:
    a, b = character("A"), character("B")
    encounter, rules = build(
        ("A", "x", a, Tactics()),
        ("B", "y", b, Tactics()),
        ruleset=MidianRuleset(surprised=["x", "y"]),
    )
    events = [
        e
        for step in steps(
            encounter, rules.ruleset, rules.answers(ScriptedDice([]), a), max_rounds=1
        )
        for e in step.events
    ]
    assert [e.kind for e in events if isinstance(e, enc.TurnSkipped)] == [
        "turn_skipped",
        "turn_skipped",
    ]
    assert not any(isinstance(e, ev.AttackRolled) for e in events)


def test_charge_against_a_set_pike_the_longer_reach_strikes_first_for_double_damage() -> None:
    knight = character(
        "Knight",
        attack_bonus=5,
        initiative_bonus=10,
        weapon=weapon(damage="2d6", reach=2),
        hit_points=40,
    )
    pike = character(
        "Pike",
        attack_bonus=5,
        weapon=weapon(damage="1d6", reach=3, hands=2, two_hand_grip=False),
        hit_points=40,
    )
    encounter, rules = build(
        ("Knight", "riders", knight, Tactics()),
        ("Pike", "foot", pike, Tactics(role=Role.PIKEMAN)),
        ruleset=MidianRuleset(distance=40),
    )
    encounter = encounter.next_round()
    # round 1: Knight 1+10 = 11 (acts at 11 and 1), Pike 9. Knight at 11 charges; the pike is set.
    dice = ScriptedDice([1, 9])
    encounter, _, order = rules.begin_round(encounter, dice)
    assert list(order) == ["Knight", "Pike", "Knight"]
    state = encounter.states["Pike"]
    encounter = encounter.with_state(
        "Pike",
        type(state)(
            **{**{f: getattr(state, f) for f in state.__slots__}, "set_against_charge": True}
        ),
    )
    # the pike, set, strikes first: 15+5 hits (the charger cannot defend),
    # 1d6 [3] +1 two-handed = 4, doubled 8;
    # then the knight, shaken (-8 shock to every roll): 15+5-8 hits, the set pikeman cannot
    # defend, 2d6 [6,6] - 8 = 4, doubled 8
    encounter, events = rules.take_turn(encounter, "Knight", ScriptedDice([15, 3, 15, 6, 6]))
    attacks = [e for e in events if isinstance(e, ev.AttackRolled)]
    assert [a.attacker for a in attacks] == ["Pike", "Knight"]
    damages = [e for e in events if isinstance(e, ev.DamageRolled)]
    assert [(d.rolled, d.final, d.doubled) for d in damages] == [(4, 8, True), (4, 8, True)]
    assert not any(isinstance(e, ev.DefenceRolled) for e in events)


def with_actions(
    encounter: Encounter[Character, object], cid: str, actions: int
) -> Encounter[Character, object]:
    state = encounter.states[cid]
    return encounter.with_state(cid, replace(state, pool=replace(state.pool, actions=actions)))


def test_grapple_hold_squeezes_at_the_end_of_the_round_and_can_be_broken() -> None:
    fists = weapon(name="Fists", damage="1d4", type="smashing", encumbrance=Encumbrance.NONE)
    wrestler = character("Wrestler", attack_bonus=5, grappling=2, damage_bonus=2, weapon=fists)
    victim = character("Victim", armour_class=15, natural_armour_class=5, hit_points=40)
    encounter, rules = build(
        ("Wrestler", "a", wrestler, Tactics(role=Role.GRAPPLER)), ("Victim", "b", victim, Tactics())
    )
    encounter = with_actions(with_actions(encounter.next_round(), "Wrestler", 1), "Victim", 1)
    # grapple: 10+5 = 15 against the natural armour class 5 (armour does not count): hits;
    # the victim keeps its one action to strike back (the blow cannot fell it: it takes
    # it); the first grapple hurts like a strike: [3] +2 = 5
    encounter, events = rules.take_turn(encounter, "Wrestler", ScriptedDice([10, 3]))
    attack = next(e for e in events if isinstance(e, ev.AttackRolled))
    assert attack.armour_class == 5
    assert encounter.states["Victim"].held_by == ("Wrestler",)
    assert any(isinstance(e, ev.StatusChanged) and e.status == "held" for e in events)
    # the hold does no more harm the round it was taken (the grapple did its damage)
    encounter, events = rules.end_round(encounter, ScriptedDice([]))
    assert encounter.states["Victim"].health.hit_points == 40 - 5
    assert not any(isinstance(e, ev.DamageRolled) for e in events)
    # the holder rolls no initiative while the hold goes on
    encounter = encounter.next_round()
    encounter, _, order = rules.begin_round(encounter, ScriptedDice([5]))
    assert list(order) == ["Victim"]
    # the next round's end: the hold squeezes, no roll to hit: 1d4 [4] + 2 = 6
    encounter, events = rules.end_round(encounter, ScriptedDice([4]))
    assert encounter.states["Victim"].health.hit_points == 40 - 5 - 6
    encounter = encounter.next_round()
    encounter, _, order = rules.begin_round(encounter, ScriptedDice([5]))
    # the victim's turn: a Strength-or-Agility challenge; the victim has no grappling skill (-5)
    encounter, events = rules.take_turn(encounter, "Victim", ScriptedDice([2, 2, 15, 15]))
    assert isinstance(events[-1], ev.StatusChanged) and events[-1].status == "free"
    assert encounter.states["Victim"].held_by == () and encounter.states["Wrestler"].holding is None


def test_disarmer_takes_the_weapon_and_the_victim_fights_with_fists() -> None:
    duelist = character("Duelist", attack_bonus=6, weapon=weapon(skill=3))
    soldier = character("Soldier", weapon=weapon(name="Axe", damage="1d10", skill=1))
    encounter, rules = build(
        ("Duelist", "a", duelist, Tactics(role=Role.DISARMER)), ("Soldier", "b", soldier, Tactics())
    )
    encounter = with_actions(encounter.next_round(), "Duelist", 1)
    encounter, events = rules.take_turn(encounter, "Duelist", ScriptedDice([12, 8]))  # 18 against 9
    assert encounter.states["Soldier"].weapon_lost
    assert any(isinstance(e, ev.StatusChanged) and e.status == "disarmed" for e in events)
    assert armed(encounter, "Soldier").weapon.name == "Unarmed"


@pytest.mark.parametrize("path", ENCOUNTERS, ids=lambda p: p.stem)
def test_invariants_over_many_seeded_midian_fights(path: Path) -> None:
    setup = load_encounter(path)
    for seed in range(12):
        out: set[str] = set()
        for step in steps(
            setup.encounter,
            setup.ruleset,
            setup.answers(RandomDice(seed)),
            max_rounds=setup.max_rounds,
        ):
            for event in step.events:
                if isinstance(event, enc.ActionChosen):
                    assert event.combatant not in out, "someone out of the fight acted"
            for cid in step.encounter.states:
                if not setup.ruleset.fighting(step.encounter, cid):
                    out.add(cid)
                health = step.encounter.states[cid].health
                assert health.hit_points >= 0
                assert health.hit_points <= step.encounter.combatant(cid).sheet.hit_points
        assert isinstance(step.events[-1], enc.EncounterEnded)


def test_midian_duels_simulate_with_an_interval() -> None:
    guard = (
        load_encounter(EXAMPLES / "encounters" / "city_watch.toml")
        .encounter.combatant("Guard 1")
        .sheet
    )
    brawler = (
        load_encounter(EXAMPLES / "encounters" / "city_watch.toml").encounter.combatant("Tim").sheet
    )
    stats = simulate_encounter_duels(guard, brawler, MidianRuleset(), 300, seed=3)
    assert stats.n == 300 and stats.a_wins + stats.b_wins + stats.draws == 300
    low, high = stats.ci95_a_wins
    assert low <= stats.p_a_wins <= high
    assert 0 < stats.mean_rounds < 100
    again = simulate_encounter_duels(guard, brawler, MidianRuleset(), 300, seed=3)
    assert again == stats
    assert math.isfinite(stats.mean_rounds)


def test_evasion_stance_rolls_once_at_the_start_of_the_round() -> None:
    archer = character(
        "Archer", attack_bonus=2, weapon=weapon(damage="1d4", ranged="device", range_increment=50)
    )
    runner = character("Runner", dodge=2)
    encounter, rules = build(
        ("Archer", "a", archer, Tactics(role=Role.ARCHER)),
        ("Runner", "b", runner, Tactics(stance=Stance.EVASION)),
    )
    encounter = encounter.next_round()
    # initiative Archer 9, Runner 2; the runner's evasion: 14 + 2 - 6 = 10
    encounter, opening, _ = rules.begin_round(encounter, ScriptedDice([9, 2, 14]))
    assert [e.kind for e in opening] == ["initiative_rolled", "initiative_rolled", "defence_rolled"]
    assert encounter.states["Runner"].pool.evasion_total == 10
    # the archer's 8 + 2 = 10 is evaded without a new roll; the runner's own turn attacks no one
    encounter, events = rules.take_turn(encounter, "Archer", ScriptedDice([8]))
    assert not any(isinstance(e, ev.DamageRolled) for e in events)
    encounter, events = rules.take_turn(encounter, "Runner", ScriptedDice([]))
    assert events == [enc.ActionChosen("Runner", Defend(stance=Stance.EVASION))]


def test_midian_duels_give_the_same_result_whatever_the_workers() -> None:
    from affray.sim.encounters import ENCOUNTER_CHUNK

    city = load_encounter(EXAMPLES / "encounters" / "city_watch.toml").encounter
    guard, tim = city.combatant("Guard 1").sheet, city.combatant("Tim").sheet
    n = ENCOUNTER_CHUNK + 20
    one = simulate_encounter_duels(guard, tim, MidianRuleset(), n, seed=8, workers=1)
    two = simulate_encounter_duels(guard, tim, MidianRuleset(), n, seed=8, workers=2)
    assert one == two and one.n == n


@pytest.mark.parametrize("distance", [10, 45])
def test_the_live_odds_of_a_shot_count_range_and_cover(distance: int) -> None:
    """An elf shoots at a brawler locked in melee with the elf's friend: the live odds
    of the shot (range increments, the friend's cover, the armour class against
    missiles) hit as often as the rules' own shots do, shot after shot."""
    import random

    from affray import registry
    from affray.encounter import Answers, Combatant, FirstChoice, Shoot, named
    from affray.registry import EncounterKeys
    from affray.sheets import load_sheet

    system = registry.system("midian")
    ruleset = system.ruleset(EncounterKeys({"distance": distance}, {}, "test"))
    sheets = {
        "Elf": load_sheet(EXAMPLES / "midian" / "elf_archer.toml"),
        "Guard": load_sheet(EXAMPLES / "midian" / "guard.toml"),
        "Brawler": load_sheet(EXAMPLES / "midian" / "brawler.toml"),
    }
    sides = {"Elf": "watch", "Guard": "watch", "Brawler": "rowdies"}
    combatants = tuple(Combatant(c, sides[c], named(s, c)) for c, s in sheets.items())
    encounter = Encounter(combatants, {c.id: ruleset.initial_state(c.sheet) for c in combatants})
    encounter = encounter.engage("Guard", "Brawler", "melee")
    assert system.live_odds is not None
    odds = system.live_odds(ruleset, encounter, who="Elf", action=Shoot("Brawler"))
    assert odds is not None and "cover" in odds.text and "may strike Guard" in odds.text
    n, hits = 4000, 0
    rng = random.Random(distance)
    for _ in range(n):
        _, events = ruleset.perform(
            encounter, "Elf", Shoot("Brawler"), Answers(RandomDice(rng), FirstChoice())
        )
        hits += any(
            isinstance(e, ev.AttackRolled) and e.defender == "Brawler" and e.hit for e in events
        )
    p = odds.figures["p_hit"]
    assert abs(hits / n - p) < 4 * math.sqrt(p * (1 - p) / n) + 1e-9, (hits / n, p)


def test_the_live_odds_of_a_blow_weigh_the_defenders_total_defence() -> None:
    """Issue 36, item 6: with the guard in total defence (armour class 12 + 2) the live
    odds said the AC 12 figure. They weigh the situation as a strike resolves it, and
    the blows the rules strike hit as often."""
    import random
    from dataclasses import replace

    from affray import registry
    from affray.encounter import Answers, Attack, Combatant, FirstChoice, named
    from affray.registry import EncounterKeys
    from affray.rulesystems.midian.defence import DefencePool, Stance
    from affray.sheets import load_sheet

    system = registry.system("midian")
    ruleset = system.ruleset(EncounterKeys({}, {}, "test"))
    sheets = {
        "Guard": load_sheet(EXAMPLES / "midian" / "guard.toml"),
        "Brawler": load_sheet(EXAMPLES / "midian" / "brawler.toml"),
    }
    sides = {"Guard": "watch", "Brawler": "rowdies"}
    combatants = tuple(Combatant(c, sides[c], named(s, c)) for c, s in sheets.items())
    encounter = Encounter(combatants, {c.id: ruleset.initial_state(c.sheet) for c in combatants})
    encounter = encounter.engage("Guard", "Brawler", "melee")
    assert system.live_odds is not None
    plain = system.live_odds(ruleset, encounter, who="Brawler", action=Attack("Guard"))
    guard = encounter.states["Guard"]
    pool = DefencePool.fresh(sheets["Guard"], stance=Stance.TOTAL_DEFENCE)
    defending = encounter.with_state("Guard", replace(guard, pool=pool))
    odds = system.live_odds(ruleset, defending, who="Brawler", action=Attack("Guard"))
    assert plain is not None and odds is not None
    assert odds.figures["p_hit"] == pytest.approx(plain.figures["p_hit"] - 2 / 20)  # +2 AC
    n, hits = 4000, 0
    rng = random.Random(7)
    for _ in range(n):
        _, events = ruleset.perform(
            defending, "Brawler", Attack("Guard"), Answers(RandomDice(rng), FirstChoice())
        )
        hits += any(
            isinstance(e, ev.AttackRolled) and e.defender == "Guard" and e.hit for e in events
        )
    p = odds.figures["p_hit"]
    assert abs(hits / n - p) < 4 * math.sqrt(p * (1 - p) / n) + 1e-9, (hits / n, p)
