"""MST-2 fights in the encounter engine: scripted sequences, tactics, invariants."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from affray.dice import RandomDice, ScriptedDice
from affray.encounter import Attack, Encounter, Flee, Shoot, Targeting, run_encounter, steps
from affray.encounter import events as enc
from affray.errors import SheetError
from affray.rulesystems.mst2 import Condition, FighterState, Reach
from affray.rulesystems.mst2 import events as ev
from affray.rulesystems.mst2.fighter import Fighter
from affray.rulesystems.mst2.odds import duel_odds
from affray.rulesystems.mst2.ruleset import Mst2Ruleset, StepAway, TurnOrder
from affray.rulesystems.mst2.tactics import Mst2Tactics, Role
from affray.sheets import load_encounter
from tests.encounter import driver
from tests.helpers import EXAMPLES, example, make_fighter

ENCOUNTERS = [
    path
    for path in sorted((EXAMPLES / "encounters").glob("*.toml"))
    if 'system = "mst2"' in path.read_text()
]


Tactics = Mst2Tactics


def build(
    *members: tuple[str, str, Fighter, Mst2Tactics], ruleset: Mst2Ruleset | None = None
) -> tuple[Encounter[Fighter, FighterState], driver.Driver]:
    return driver.build(ruleset or Mst2Ruleset(), *members)


def test_scripted_one_on_one_event_sequence() -> None:
    knifer = make_fighter(weapon_name="dagger", hit_dice="1d6")
    spear = make_fighter(weapon_name="spear", hit_dice="1d6")
    encounter, rules = build(("K", "left", knifer, Tactics()), ("S", "right", spear, Tactics()))
    # Round 1: K engages S at far; S counters: miss (2); K hits (16) 1d6 [3]: 1 wound, shock 6.
    # S attacks K at close: must disengage; K counters: miss (1); S hits (20) 2d8 [8,8]: 2 wounds,
    # shock 1 -> K is out.
    dice = ScriptedDice([2, 16, 3, 6, 1, 20, 8, 8, 1])
    result = run_encounter(encounter, rules.ruleset, rules.answers(dice, knifer))
    kinds = [type(e) for e in result.events]
    assert kinds == [
        enc.EncounterStarted,
        enc.RoundStarted,
        enc.ActionChosen,
        enc.Engaged,
        ev.CounterAttackGranted,
        ev.AttackRolled,
        ev.DistanceChanged,
        ev.AttackRolled,
        ev.PowerRolled,
        ev.Wounded,
        ev.ShockChecked,
        enc.ActionChosen,
        ev.CounterAttackGranted,
        ev.AttackRolled,
        ev.DistanceChanged,
        ev.AttackRolled,
        ev.PowerRolled,
        ev.Wounded,
        ev.ShockChecked,
        ev.Succumbed,
        enc.EncounterEnded,
    ]
    assert result.winner == "right" and result.rounds == 1
    assert dice.remaining == ()
    assert result.encounter.states["K"] == FighterState(2, Condition.OUT)
    assert result.encounter.engagements == {}  # the fallen leave their melee


def test_one_on_one_encounters_match_the_exact_duel() -> None:
    a, b = example("sellsword.toml"), example("spearman.toml")
    encounter, rules = build(("A", "a", a, Tactics()), ("B", "b", b, Tactics()))
    n = 1500
    answers = rules.answers(RandomDice(77), a)
    wins = sum(
        run_encounter(encounter, rules.ruleset, answers, max_rounds=1000).winner == "a"
        for _ in range(n)
    )
    p = float(duel_odds(a, b).p_a_wins)
    assert abs(wins / n - p) < 4 * math.sqrt(p * (1 - p) / n)


def test_archer_shoots_while_free_and_stray_shots_hit_the_melee() -> None:
    archer = example("archer.toml")
    brute = make_fighter(weapon_name="club", hit_dice="1d8")
    friend = make_fighter(weapon_name="sword", hit_dice="1d8")
    encounter, rules = build(
        ("Archer", "us", archer, Tactics(role=Role.ARCHER)),
        ("Friend", "us", friend, Tactics()),
        ("Brute", "them", brute, Tactics()),
    )
    encounter = encounter.engage("Friend", "Brute", Reach.MID.label)
    action = rules.choose(encounter, "Archer", ScriptedDice([]))
    assert action == Shoot("Brute")
    # odd face 13: Brute's melee (Brute and Friend) is near; d2 = 2 picks Friend
    _, events = rules.perform(encounter, "Archer", action, ScriptedDice([13, 2, 1, 1, 8]))
    scattered = [e for e in events if isinstance(e, ev.TargetScattered)]
    assert scattered[0].candidates == ("Brute", "Friend") and scattered[0].actual == "Friend"


def test_engaged_archer_fights_in_melee() -> None:
    archer = example("archer.toml")
    brute = make_fighter(weapon_name="club", hit_dice="1d8")
    encounter, rules = build(
        ("Archer", "us", archer, Tactics(role=Role.ARCHER)), ("Brute", "them", brute, Tactics())
    )
    encounter = encounter.engage("Archer", "Brute", Reach.MID.label)
    assert rules.choose(encounter, "Archer", ScriptedDice([])) == Attack("Brute")


def test_retreat_threshold_and_fleeing() -> None:
    coward = make_fighter(weapon_name="dagger", hit_dice="1d6")
    brute = make_fighter(weapon_name="club", hit_dice="1d8")
    encounter, rules = build(
        ("Coward", "us", coward, Tactics(retreat_at=2)), ("Brute", "them", brute, Tactics())
    )
    encounter = encounter.engage("Coward", "Brute", Reach.MID.label).with_state(
        "Coward", FighterState(2)
    )
    assert rules.choose(encounter, "Coward", ScriptedDice([])) == Flee()
    after, events = rules.perform(encounter, "Coward", Flee(), ScriptedDice([3]))  # counter misses
    assert after.states["Coward"].condition is Condition.FLED
    assert after.engagements == {}
    assert isinstance(events[-1], ev.Fled)


def test_step_away_keeps_fighting_but_leaves_the_melee() -> None:
    a = make_fighter(weapon_name="dagger", hit_dice="1d6")
    b = make_fighter(weapon_name="club", hit_dice="1d8")
    encounter, rules = build(("A", "us", a, Tactics()), ("B", "them", b, Tactics()))
    encounter = encounter.engage("A", "B", Reach.MID.label)
    after, events = rules.perform(encounter, "A", StepAway(), ScriptedDice([3]))
    assert after.states["A"].fighting and after.engagements == {}
    assert isinstance(events[-1], enc.Disengaged)


@pytest.mark.parametrize("policy", ["weakest", "nearest", "focus", "random"])
def test_target_policies(policy: str) -> None:
    hero = make_fighter(weapon_name="sword", hit_dice="1d8")
    fresh = make_fighter(weapon_name="dagger", hit_dice="2d10")
    hurt = make_fighter(weapon_name="dagger", hit_dice="1d6")
    ally = make_fighter(weapon_name="sword", hit_dice="1d8")
    encounter, rules = build(
        ("Hero", "us", hero, Tactics(target=Targeting(policy))),
        ("Ally", "us", ally, Tactics()),
        ("Fresh", "them", fresh, Tactics()),
        ("Hurt", "them", hurt, Tactics()),
    )
    encounter = encounter.with_state("Hurt", FighterState(3)).engage(
        "Ally", "Fresh", Reach.MID.label
    )
    choice = rules.choose(encounter, "Hero", ScriptedDice([2]))
    expected = {"weakest": "Hurt", "nearest": "Fresh", "focus": "Fresh", "random": "Hurt"}[policy]
    assert choice == Attack(expected)


def test_shuffled_order_uses_the_dice() -> None:
    a = make_fighter(hit_dice="1d6")
    encounter, rules = build(
        ("A", "x", a, Tactics()),
        ("B", "x", a, Tactics()),
        ("C", "y", a, Tactics()),
        ruleset=Mst2Ruleset(order=TurnOrder.SHUFFLED),
    )
    encounter = encounter.next_round()
    # Fisher-Yates: i=2 draws d3 -> 1 swaps C and A: [C, B, A]; i=1 draws d2 -> 2: no swap
    _, events, order = rules.begin_round(encounter, ScriptedDice([1, 2]))
    assert list(order) == ["C", "B", "A"]
    assert events == []


@pytest.mark.parametrize("path", ENCOUNTERS, ids=lambda p: p.stem)
def test_invariants_over_many_seeded_fights(path: Path) -> None:
    setup = load_encounter(path)
    for seed in range(25):
        wounds: dict[str, int] = {}
        out: set[str] = set()
        for step in steps(
            setup.encounter,
            setup.ruleset,
            setup.answers(RandomDice(seed)),
            max_rounds=setup.max_rounds,
        ):
            events = step.events
            for index, event in enumerate(events):
                if isinstance(event, enc.ActionChosen):
                    assert event.combatant not in out, "someone out of the fight acted"
                if isinstance(event, ev.CounterAttackGranted):
                    follow = events[index + 1]
                    assert isinstance(follow, ev.AttackRolled)
                    assert (follow.attacker, follow.mode) == (event.by, "counter")
                if isinstance(event, ev.AttackRolled) and event.mode == "counter":
                    assert not any(
                        isinstance(e, ev.CounterAttackGranted) and e.against == event.attacker
                        for e in events[index + 1 : index + 2]
                    ), "a counter-attack provoked a counter-attack"
            for cid, state in step.encounter.states.items():
                assert state.wounds >= wounds.get(cid, 0), "wounds went down"
                wounds[cid] = state.wounds
                if not state.fighting:
                    out.add(cid)
        assert isinstance(events[-1], enc.EncounterEnded)


def test_round_cap_is_a_draw() -> None:
    setup = load_encounter(EXAMPLES / "encounters" / "shield_wall.toml")
    result = run_encounter(
        setup.encounter, setup.ruleset, setup.answers(RandomDice(1)), max_rounds=1
    )
    assert result.winner is None and result.rounds == 1
    assert "round cap" in result.reason


def test_encounter_file_builds_unique_names_and_tactics() -> None:
    setup = load_encounter(EXAMPLES / "encounters" / "ambush.toml")
    ids = [c.id for c in setup.encounter.combatants]
    assert ids == [
        "Sellsword",
        "Spearman",
        "Archer",
        "Bandit 1",
        "Bandit 2",
        "Bandit 3",
        "Bandit archer 1",
        "Bandit archer 2",
    ]
    bandit = setup.encounter.combatant("Bandit 2")
    assert setup.tactics["Bandit 2"] == Tactics(Targeting.FOCUS, Role.FIGHTER, retreat_at=3)
    assert bandit.sheet.name == "Bandit 2"
    assert setup.tactics["Archer"].role is Role.ARCHER
    assert setup.ruleset.order is TurnOrder.SHUFFLED


def two_sides(
    head: str = "",
    first: str = 'members=["goblin"]',
    second: str = 'members=["orc"]',
    name: str = "b",
) -> str:
    sides = f'[[sides]]\nname="a"\n{first}\n[[sides]]\nname="{name}"\n{second}\n'
    return f'system = "mst2"\n{head}\n{sides}'


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "fight.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "at", "words"),
    [
        ('system = "mst2"\nsides = []', "key 'sides'", "needs at least 2 entries (got 0)"),
        (
            two_sides(second='members=["dragonling"]'),
            'side 2 ("b"), member 1',
            'no sheet file or bestiary creature called "dragonling"',
        ),
        (
            two_sides(second='members=["missing.toml"]'),
            'side 2 ("b"), member 1',
            '"missing.toml": ',
        ),
        (
            two_sides(first='tactics="berserk"\nmembers=["goblin"]'),
            "side 1 (\"a\"), key 'tactics'",
            'unknown tactics "berserk"',
        ),
        (
            two_sides(name="a"),
            "key 'sides'",
            'two sides are called "a"',
        ),
        (
            two_sides(first='members=["500 goblins"]'),
            'side 1 ("a"), member 1',
            "count 500",
        ),
        (
            two_sides(first='members=[{ sheet = "goblin", count = 0 }]'),
            "side 1 (\"a\"), member 1, key 'count'",
            "should be at least 1 (got 0)",
        ),
        (
            two_sides(first='members=[{ sheet = "goblin", retreat_at = "2" }]'),
            "side 1 (\"a\"), member 1, key 'retreat_at'",
            'should be a whole number (got "2")',
        ),
        (
            two_sides("moon = 1"),
            "key 'moon'",
            "unknown key",
        ),
        (
            two_sides('lethality = "mild"'),
            "key 'lethality'",
            'should be "high", "standard" or "optional" (got "mild")',
        ),
    ],
)
def test_encounter_file_errors(tmp_path: Path, text: str, at: str, words: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(SheetError) as caught:
        load_encounter(path)
    assert caught.value.at == at
    assert str(caught.value).startswith(f"{path}: {at}: ")
    assert words in str(caught.value)


def test_bestiary_names_forgive_plurals() -> None:
    from affray.sheets import bestiary

    assert bestiary.text("mst2", "wolves") is not None
    assert bestiary.text("mst2", "Goblins") is not None
    assert bestiary.text("mst2", "dragons") is None
    assert "ogre" in bestiary.names("mst2")


def test_the_odds_of_a_shot_into_a_melee_say_who_could_be_hit() -> None:
    """An archer shooting at an ogre locked in melee with the archer's friend: the live
    odds split the shot between them as the rules do (odd d20: either, alike), checked
    against the rules themselves, shot after shot."""
    import random

    from affray import registry
    from affray.dice import RandomDice
    from affray.encounter import Answers, Combatant, Encounter, FirstChoice, Shoot, named
    from affray.rulesystems.mst2.events import AttackRolled
    from affray.sheets import load_sheet

    system = registry.system("mst2")
    ruleset = system.duel_ruleset()
    sheets = {
        "Archer": load_sheet(EXAMPLES / "mst2" / "archer.toml"),
        "Sellsword": load_sheet(EXAMPLES / "mst2" / "sellsword.toml"),
        "Ogre": load_sheet(EXAMPLES / "mst2" / "ogre.toml"),
    }
    sides = {"Archer": "road", "Sellsword": "road", "Ogre": "bridge"}
    combatants = tuple(
        Combatant(cid, sides[cid], named(sheet, cid)) for cid, sheet in sheets.items()
    )
    encounter = Encounter(combatants, {c.id: ruleset.initial_state(c.sheet) for c in combatants})
    encounter = encounter.engage("Ogre", "Sellsword", "mid")
    assert system.live_odds is not None
    odds = system.live_odds(ruleset, encounter, who="Archer", action=Shoot("Ogre"))
    assert odds is not None and "Sellsword" in odds.text
    n = 6000
    rng = random.Random(3)
    hits = {"Ogre": 0, "Sellsword": 0}
    for _ in range(n):
        answers = Answers(RandomDice(rng), FirstChoice())
        _, events = ruleset.perform(encounter, "Archer", Shoot("Ogre"), answers)
        for event in events:
            if isinstance(event, AttackRolled) and event.attacker == "Archer" and event.hit:
                hits[event.defender] += 1
    for who, key in (("Ogre", "p_hit"), ("Sellsword", "p_hit:Sellsword")):
        p = odds.figures[key]
        assert abs(hits[who] / n - p) < 4 * (p * (1 - p) / n) ** 0.5, (who, hits[who] / n, p)
    assert odds.figures["p_hit:Sellsword"] > 0.05
