"""Legal actions and the questions the rules ask: every choice is answered by a
chooser (the AI, typed-in choices, a replay), from the legal options only."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from affray.dice import RandomDice, ScriptedDice
from affray.encounter import (
    Answers,
    Attack,
    Encounter,
    FirstChoice,
    Flee,
    Hold,
    Question,
    RecordingChooser,
    ReplayChooser,
    ScriptedChooser,
    Shoot,
    Topic,
    play_turn,
    run_encounter,
    steps,
    word,
)
from affray.encounter.events import ActionChosen, TurnSkipped
from affray.encounter.questions import OptionT
from affray.errors import RulesError, SheetError
from affray.rulesystems.midian import events as mev
from affray.rulesystems.midian.actions import AimedAttack, BothWeapons, Defend, TendWounds, Wait
from affray.rulesystems.midian.character import Encumbrance
from affray.rulesystems.midian.defence import Stance
from affray.rulesystems.midian.injury import WillpowerRule
from affray.rulesystems.midian.resolve import Readings
from affray.rulesystems.midian.ruleset import MidianRuleset
from affray.rulesystems.midian.situations import CalledShot
from affray.rulesystems.mst2 import events as ev
from affray.rulesystems.mst2 import missile
from affray.rulesystems.mst2.ruleset import Mst2Ruleset, NonCombat, StepAway
from affray.rulesystems.mst2.state import FighterState
from affray.sheets import load_encounter, load_sheet
from tests.encounter import driver
from tests.helpers import EXAMPLES, make_fighter
from tests.rules.midian.helpers import character, weapon


@dataclass
class Once:
    """Answers the first question of ``topic`` from ``who`` with ``label``, then
    leaves everything to ``fallback`` (a person who typed in one choice)."""

    who: str
    topic: Topic
    label: str
    fallback: Any = field(default_factory=FirstChoice)
    used: bool = False

    def choose(self, encounter: Encounter[Any, Any], question: Question[OptionT]) -> OptionT:
        if not self.used and (question.who, question.topic) == (self.who, self.topic):
            self.used = True
            return question.option(self.label)
        chosen: OptionT = self.fallback.choose(encounter, question)
        return chosen


def mst2_trio() -> tuple[Encounter[Any, Any], driver.Driver]:
    archer = make_fighter("Archer", skill=20, missile=missile("short bow"))
    brute = make_fighter("Brute", weapon_name="club")
    fallen = make_fighter("Fallen")
    encounter, rules = driver.build(
        Mst2Ruleset(),
        ("Archer", "us", archer, None),
        ("Brute", "them", brute, None),
        ("Fallen", "them", fallen, None),
    )
    encounter = encounter.with_state(
        "Fallen", FighterState(5).becomes(FighterState().condition.OUT)
    )
    return encounter.engage("Archer", "Brute", "mid"), rules


def test_mst2_legal_actions_name_every_foe_still_fighting() -> None:
    encounter, rules = mst2_trio()
    legal = rules.ruleset.actions(encounter, "Archer")
    assert legal == [
        Attack("Brute"),
        Shoot("Brute"),
        StepAway(),
        Flee(),
        NonCombat(),
        Hold(),
    ]
    assert [a.label for a in legal] == [
        "attack Brute",
        "shoot Brute",
        "step away",
        "flee",
        "acts",
        "hold",
    ]


def test_an_answer_outside_the_legal_options_is_refused_and_says_what_is_legal() -> None:
    encounter, rules = mst2_trio()
    answers = Answers(
        ScriptedDice([]), ScriptedChooser({Topic.ACTION: "attack Fallen"}, FirstChoice())
    )
    with pytest.raises(RulesError) as caught:
        play_turn(encounter, rules.ruleset, "Archer", answers)
    assert "'attack Fallen' is not a legal action for Archer" in caught.value.message
    assert "attack Brute" in (caught.value.hint or "")


def test_a_typed_in_circumstance_adds_its_power_dice() -> None:
    knight = make_fighter("Knight", skill=10, weapon_name="dagger", hit_dice="1d6")
    target = make_fighter("Target", hit_dice="3d10")
    encounter, rules = driver.build(
        Mst2Ruleset(), ("Knight", "a", knight, None), ("Target", "b", target, None)
    )
    encounter = encounter.engage("Knight", "Target", "close")
    chooser = ScriptedChooser(
        {Topic.ACTION: "attack Target", "circumstance": "sneak attack"}, FirstChoice()
    )
    # d20 6 +10 = 16 beats evasion 15; the dagger's d6 then the sneak attack's 2d12;
    # then the shock 3d10
    dice = ScriptedDice([6, 6, 12, 12, 10, 10, 10])
    _, events = play_turn(encounter, rules.ruleset, "Knight", Answers(dice, chooser))
    power = next(e for e in events if isinstance(e, ev.PowerRolled))
    assert [d.sides for d in power.dice] == [6, 12, 12]
    assert power.circumstance == "sneak attack"
    assert dice.remaining == ()


def test_the_ai_answers_no_circumstance_and_rolls_only_the_weapon() -> None:
    encounter, rules = mst2_trio()
    chosen = rules.choose(encounter, "Archer", ScriptedDice([]))
    assert chosen == Attack("Brute")  # engaged: it fights who is in front of it
    answers = rules.answers(RandomDice(1), encounter.sheet("Archer"))
    _, events = rules.ruleset.perform(encounter, "Archer", chosen, answers)
    power = next(e for e in events if isinstance(e, ev.PowerRolled))
    assert [d.sides for d in power.dice] == [6, 6] and power.circumstance is None


def midian_pair(**tweaks: Any) -> tuple[Encounter[Any, Any], driver.Driver]:
    hero = character("Hero", attack_bonus=4, weapon=weapon(skill=2), dodge=1, hit_points=30)
    foe = character("Foe", attack_bonus=2, hit_points=30, weapon=weapon(), **tweaks)
    return driver.build(MidianRuleset(), ("Hero", "a", hero, None), ("Foe", "b", foe, None))


def test_a_defender_chooses_its_defence_or_takes_the_blow() -> None:
    encounter, rules = midian_pair()
    encounter = encounter.next_round()
    encounter, _, _ = rules.begin_round(encounter, ScriptedDice([9, 3]))  # Hero 9, Foe 3
    # Foe attacks: 15+2 = 17 hits. The AI would parry (free); typed in: take it.
    take = ScriptedChooser({"defence": "take it"}, FirstChoice(), who="Hero")
    _, events = play_turn(
        encounter,
        rules.ruleset,
        "Foe",
        Answers(ScriptedDice([15, 4]), ScriptedChooser({Topic.ACTION: "attack Hero"}, take)),
    )
    assert not any(isinstance(e, mev.DefenceRolled) for e in events)
    assert any(isinstance(e, mev.DamageTaken) for e in events)
    # the same blow, dodged as typed in: the dodge costs the action, not a free parry
    dodge = ScriptedChooser({"defence": "dodge"}, FirstChoice(), who="Hero")
    after, events = play_turn(
        encounter,
        rules.ruleset,
        "Foe",
        Answers(ScriptedDice([15, 19]), ScriptedChooser({Topic.ACTION: "attack Hero"}, dodge)),
    )
    defence = next(e for e in events if isinstance(e, mev.DefenceRolled))
    assert (defence.defence, defence.cost, defence.success) == ("dodge", "action", True)
    assert after.states["Hero"].pool.actions == encounter.states["Hero"].pool.actions - 1
    assert after.states["Hero"].pool.parries == encounter.states["Hero"].pool.parries


def test_a_stance_chosen_for_the_round_limits_the_actions() -> None:
    encounter, rules = midian_pair()
    encounter = encounter.next_round()
    chooser = ScriptedChooser({"stance": "total defence"}, FirstChoice(), who="Hero")
    encounter, _, _ = rules.ruleset.begin_round(encounter, Answers(ScriptedDice([9, 3]), chooser))
    assert encounter.states["Hero"].pool.stance is Stance.TOTAL_DEFENCE
    assert rules.ruleset.actions(encounter, "Hero") == [
        Defend(stance=Stance.TOTAL_DEFENCE),
        Flee(),
        Hold(),
    ]


def test_waiting_lets_the_next_in_line_act_first_and_keeps_the_action() -> None:
    encounter, rules = midian_pair()
    # Hero 9 then Foe 3; Hero waits for Foe: Foe attacks (15+2 = 17, Hero's AI parries
    # 2+2 = 4: fails; 1d8 [4]), then Hero attacks (12+4 = 16 against AC 5: hits; Foe's
    # unskilled parry costs its action... it has none left; 1d8 [5]).
    chooser = Once(
        "Hero",
        Topic.ACTION,
        "wait Foe",
        rules.answers(RandomDice(0), encounter.sheet("Hero")).chooser,
    )
    dice = ScriptedDice([9, 3, 15, 2, 4, 12, 5])
    result = run_encounter(encounter, rules.ruleset, Answers(dice, chooser), max_rounds=1)
    chosen = [(e.combatant, e.action) for e in result.events if isinstance(e, ActionChosen)]
    assert chosen == [("Hero", Wait("Foe")), ("Foe", Attack("Hero")), ("Hero", Attack("Foe"))]
    attacks = [e.attacker for e in result.events if isinstance(e, mev.AttackRolled)]
    assert attacks == ["Foe", "Hero"]
    assert dice.remaining == ()


def test_a_called_shot_takes_its_penalty() -> None:
    encounter, rules = midian_pair()
    encounter = driver.with_actions(encounter.next_round(), "Hero", 1)
    legal = rules.ruleset.actions(encounter, "Hero")
    assert AimedAttack("Foe", CalledShot.HARD) in legal
    answers = Answers(ScriptedDice([15, 1, 3]), FirstChoice())
    _, events = rules.ruleset.perform(
        encounter, "Hero", AimedAttack("Foe", CalledShot.HARD), answers
    )
    attack = next(e for e in events if isinstance(e, mev.AttackRolled))
    assert any(m.value == -5 for m in attack.modifiers)
    assert attack.total == 15 + 4 - 5


def test_binding_an_allys_wounds_stops_the_bleeding() -> None:
    encounter, rules = midian_pair()
    hurt = encounter.states["Hero"]
    encounter = encounter.with_state(
        "Hero", replace(hurt, health=replace(hurt.health, serious_wounds=2))
    )
    assert TendWounds("Hero") in rules.ruleset.actions(encounter, "Hero")
    assert not any(isinstance(a, TendWounds) for a in rules.ruleset.actions(encounter, "Foe"))
    after, events = rules.ruleset.perform(
        encounter, "Hero", TendWounds("Hero"), Answers(ScriptedDice([]))
    )
    assert after.states["Hero"].health.tended
    assert [e.kind for e in events] == ["wounds_tended"]


@pytest.mark.parametrize("path", ["ambush.toml", "city_watch.toml", "shield_wall.toml"])
def test_a_recorded_fight_replays_exactly(path: str) -> None:
    setup = load_encounter(EXAMPLES / "encounters" / path)
    dice = RandomDice(5, record=True)
    recorder = RecordingChooser(setup.answers(dice).chooser)
    first = run_encounter(setup.encounter, setup.ruleset, Answers(dice, recorder))
    replayed = run_encounter(
        setup.encounter,
        setup.ruleset,
        Answers(ScriptedDice(dice.recorded), ReplayChooser(recorder.answers)),
    )
    assert replayed.events == first.events
    topics = {answer.topic for answer in recorder.answers}
    assert "action" in topics


def test_a_replay_that_does_not_fit_the_fight_is_refused() -> None:
    setup = load_encounter(EXAMPLES / "encounters" / "ambush.toml")
    with pytest.raises(RulesError, match="recording"):
        list(
            steps(
                setup.encounter,
                setup.ruleset,
                Answers(RandomDice(1), ReplayChooser([])),
            )
        )


def test_a_failed_willpower_check_is_retested_once_per_battle() -> None:
    hero = character("Hero", attack_bonus=10, weapon=weapon(damage="1d8"))
    lucky = character(
        "Lucky",
        hit_points=3,
        life_points=20,
        retests=("Lucky charm",),
        weapon=weapon(),
        attributes={"willpower": 39},
    )
    encounter, rules = driver.build(
        MidianRuleset(rules=Readings(willpower=WillpowerRule.EACH)),
        ("Hero", "a", hero, None),
        ("Lucky", "b", lucky, None),
    )
    encounter = driver.with_actions(encounter.next_round(), "Lucky", 0)
    # Hero hits (8+10 = 18); no defence left; 1d8 [5]: 3 hit points then 2 life points.
    # Willpower 2d20 [20,20] = 40 fails against 39 (the blow's own shock does not count);
    # the retest (the AI spends it) [1,1] passes.
    answers = Answers(ScriptedDice([8, 5, 20, 20, 1, 1]), FirstChoice())
    after, events = rules.ruleset.perform(encounter, "Hero", Attack("Lucky"), answers)
    used = [e for e in events if isinstance(e, mev.RetestUsed)]
    assert [(e.source, e.situation) for e in used] == [("Lucky charm", "willpower")]
    assert after.states["Lucky"].health.conscious
    assert after.states["Lucky"].retests_used == {("Lucky charm", "willpower")}
    # the next failed Willpower check of the battle has no retest left: it stands
    answers = Answers(ScriptedDice([8, 1, 20, 20]), FirstChoice())
    final, events = rules.ruleset.perform(after, "Hero", Attack("Lucky"), answers)
    assert not any(isinstance(e, mev.RetestUsed) for e in events)
    assert not final.states["Lucky"].health.conscious


def test_a_retest_can_be_declined() -> None:
    hero = character("Hero", attack_bonus=10, weapon=weapon(damage="1d8"))
    lucky = character(
        "Lucky", hit_points=3, life_points=20, retests=("Lucky charm",), weapon=weapon()
    )
    encounter, rules = driver.build(
        MidianRuleset(), ("Hero", "a", hero, None), ("Lucky", "b", lucky, None)
    )
    encounter = driver.with_actions(encounter.next_round(), "Lucky", 0)
    chooser = ScriptedChooser({"retest": "no retest"}, FirstChoice())
    answers = Answers(ScriptedDice([8, 5, 20, 20]), chooser)
    after, events = rules.ruleset.perform(encounter, "Hero", Attack("Lucky"), answers)
    assert not any(isinstance(e, mev.RetestUsed) for e in events)
    assert not after.states["Lucky"].health.conscious


def interrupting_pair() -> tuple[Encounter[Any, Any], driver.Driver]:
    hero = character("Hero", attack_bonus=10, weapon=weapon(), interrupts=1)
    foe = character("Foe", attack_bonus=2, hit_points=30, weapon=weapon())
    return driver.build(MidianRuleset(), ("Hero", "a", hero, None), ("Foe", "b", foe, None))


def test_an_interrupt_that_hits_ruins_the_interrupted_action() -> None:
    encounter, rules = interrupting_pair()
    # initiative Hero 3, Foe 9: Foe first. Hero interrupts with its one action:
    # 10+10 = 20 hits (Foe, its action spent, has no defence); 1d8 [4]. Foe's action
    # is ruined, and Hero's own turn is gone (the interrupt was that action).
    chooser = ScriptedChooser({"interrupt": "interrupt Foe"}, FirstChoice())
    dice = ScriptedDice([3, 9, 10, 4])
    result = run_encounter(encounter, rules.ruleset, Answers(dice, chooser), max_rounds=1)
    chosen = [(e.combatant, e.action.label) for e in result.events if isinstance(e, ActionChosen)]
    assert chosen == [("Hero", "interrupt Foe"), ("Hero", "attack Foe")]
    skipped = [e for e in result.events if isinstance(e, TurnSkipped)]
    assert [(e.combatant, e.reason) for e in skipped] == [
        ("Foe", "its action was ruined by Hero's interrupt")
    ]
    assert result.encounter.states["Hero"].interrupts_left == 0
    assert dice.remaining == ()


def test_an_interrupt_that_misses_lets_the_action_go_ahead() -> None:
    encounter, rules = interrupting_pair()
    # Hero interrupts and fumbles (1); Foe attacks: 15+2 = 17 hits, Hero has no action
    # left to defend with; 1d8 [3]
    chooser = ScriptedChooser({"interrupt": "interrupt Foe"}, FirstChoice())
    dice = ScriptedDice([3, 9, 1, 15, 3])
    result = run_encounter(encounter, rules.ruleset, Answers(dice, chooser), max_rounds=1)
    attacks = [(e.attacker, e.hit) for e in result.events if isinstance(e, mev.AttackRolled)]
    assert attacks == [("Hero", False), ("Foe", True)]
    assert dice.remaining == ()


def test_without_an_interrupt_no_one_is_asked() -> None:
    encounter, rules = midian_pair()
    asked: list[str] = []

    class Spy(FirstChoice):
        def choose(self, encounter: Encounter[Any, Any], question: Question[OptionT]) -> OptionT:
            asked.append(word(question.topic))
            return super().choose(encounter, question)

    run_encounter(encounter, rules.ruleset, Answers(RandomDice(2), Spy()), max_rounds=2)
    assert "interrupt" not in asked and "action" in asked


def test_one_who_waited_may_pre_empt_with_a_wits_challenge() -> None:
    encounter, rules = midian_pair()
    # Hero 9 waits for Foe 3. When Foe's turn comes Hero tries to act first: Wits
    # challenge, Hero [1,1] = 2 succeeds, Foe [20,20] fails: Hero attacks now
    # (12+4 = 16 hits; Foe's only action is spent: no defence; 1d8 [5]); then Foe
    # attacks (15+2 = 17; Hero's free parry 2+2 = 4 fails; [3]).
    chooser = Once(
        "Hero",
        Topic.ACTION,
        "wait Foe",
        ScriptedChooser({"interrupt": "pre-empt Foe"}, FirstChoice(), who="Hero"),
    )
    dice = ScriptedDice([9, 3, 1, 1, 20, 20, 12, 5, 15, 2, 3])
    result = run_encounter(encounter, rules.ruleset, Answers(dice, chooser), max_rounds=1)
    chosen = [(e.combatant, e.action.label) for e in result.events if isinstance(e, ActionChosen)]
    assert chosen == [
        ("Hero", "wait Foe"),
        ("Hero", "pre-empt Foe"),
        ("Hero", "attack Foe"),
        ("Foe", "attack Hero"),
    ]
    won = next(e for e in result.events if isinstance(e, mev.ChallengeResolved))
    assert won.winner == "Hero"
    assert dice.remaining == ()


def test_both_weapons_strike_in_one_action_with_the_two_weapon_penalties() -> None:
    main = weapon(name="Rapier", damage="1d6", type="stabbing", skill=2)
    off = weapon(name="Main gauche", damage="1d4", type="stabbing", skill=1)
    duellist = character("Duellist", attack_bonus=4, weapon=main, off_hand=off)
    foe = character("Foe", hit_points=40, weapon=weapon())
    encounter, rules = driver.build(
        MidianRuleset(), ("Duellist", "a", duellist, None), ("Foe", "b", foe, None)
    )
    encounter = driver.with_actions(encounter.next_round(), "Foe", 0)
    assert BothWeapons("Foe") in rules.ruleset.actions(encounter, "Duellist")
    assert rules.choose(encounter, "Duellist", ScriptedDice([])) == BothWeapons("Foe")
    # rapier: 10 +4 -3 = 11 hits AC 5, 1d6 [3]; main gauche: 10 +4 -3 -3 = 8 hits, 1d4 [2]
    answers = Answers(ScriptedDice([10, 3, 10, 2]), FirstChoice())
    after, events = rules.ruleset.perform(encounter, "Duellist", BothWeapons("Foe"), answers)
    attacks = [e for e in events if isinstance(e, mev.AttackRolled)]
    assert [(a.weapon, a.total) for a in attacks] == [("Rapier", 11), ("Main gauche", 8)]
    assert after.states["Foe"].health.hit_points == 40 - 3 - 2


def test_an_off_hand_weapon_must_pair_with_the_main_one(tmp_path: Path) -> None:
    sheet = tmp_path / "two.toml"
    sheet.write_text(
        'system = "midian"\nname = "T"\nhit_points = 5\nlife_points = 5\n'
        "attributes = { strength = 10, agility = 10, wits = 10, willpower = 10, stamina = 10 }\n"
        'weapon = { name = "Sword", damage = "1d8", type = "hacking", encumbrance = "medium" }\n'
        'off_hand = { name = "Axe", damage = "1d8", type = "hacking", encumbrance = "medium" }\n'
    )
    with pytest.raises(SheetError) as caught:
        load_sheet(sheet)
    assert caught.value.key == "off_hand" and "too heavy" in caught.value.message


class WaitWheneverLegal(FirstChoice):
    """A stubborn player: waits whenever the rules allow it."""

    def choose(self, encounter: Encounter[Any, Any], question: Question[OptionT]) -> OptionT:
        waits = [o for o in question.options if isinstance(o, Wait)]
        return waits[0] if waits else super().choose(encounter, question)


def test_two_who_keep_waiting_for_each_other_still_act() -> None:
    encounter, rules = midian_pair()
    result = run_encounter(
        encounter, rules.ruleset, Answers(RandomDice(3), WaitWheneverLegal()), max_rounds=3
    )
    chosen = [e for e in result.events if isinstance(e, ActionChosen)]
    waits = [e for e in chosen if isinstance(e.action, Wait)]
    assert waits and len(chosen) > len(waits)  # everyone acted after waiting once
    assert result.rounds <= 3


def test_a_disarmed_archer_cannot_shoot_and_fists_cannot_be_struck_away() -> None:
    bow = weapon(name="Bow", damage="1d6", type="stabbing", ranged="device", range_increment=50)
    archer = character("Archer", weapon=bow)
    fists = weapon(name="Fists", damage="1d4", type="smashing", encumbrance=Encumbrance.NONE)
    brawler = character("Brawler", weapon=fists)
    encounter, rules = driver.build(
        MidianRuleset(), ("Archer", "a", archer, None), ("Brawler", "b", brawler, None)
    )
    assert Shoot("Brawler") in rules.ruleset.actions(encounter, "Archer")
    assert not any(a.kind == "disarm" for a in rules.ruleset.actions(encounter, "Archer"))
    lost = replace(encounter.states["Archer"], weapon_lost=True)
    encounter = encounter.with_state("Archer", lost)
    assert Shoot("Brawler") not in rules.ruleset.actions(encounter, "Archer")


def test_an_evaded_interrupt_does_not_ruin_the_action() -> None:
    hero = character("Hero", attack_bonus=10, weapon=weapon(), interrupts=1)
    runner = character("Runner", dodge=10, hit_points=30, weapon=weapon(), melee_evasion=True)
    encounter, rules = driver.build(
        MidianRuleset(), ("Hero", "a", hero, None), ("Runner", "b", runner, None)
    )
    # Hero 3, Runner 9 on evasion: its one dodge roll 20 + 10 - 6 = 24 stands for the
    # round. Hero interrupts: 10 + 10 = 20 hits AC 5 but is evaded; Runner acts on.
    hero_interrupts = ScriptedChooser({"interrupt": "interrupt Runner"}, FirstChoice())
    stance_for_runner_only = ScriptedChooser({"stance": "evasion"}, hero_interrupts, who="Runner")
    dice = ScriptedDice([3, 9, 20, 10])
    result = run_encounter(
        encounter, rules.ruleset, Answers(dice, stance_for_runner_only), max_rounds=1
    )
    assert not any(isinstance(e, TurnSkipped) and "ruined" in e.reason for e in result.events)
    chosen = [(e.combatant, e.action.label) for e in result.events if isinstance(e, ActionChosen)]
    assert chosen == [
        ("Hero", "interrupt Runner"),
        ("Hero", "attack Runner"),
        ("Runner", "evasion"),
    ]


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (
            "shield = { armour_class = 1 }\n"
            'weapon = { name = "S", damage = "1d6", type = "hacking" }\n',
            "three hands",
        ),
        ("", "needs a weapon in the main hand"),
    ],
)
def test_impossible_two_weapon_sheets_are_refused(tmp_path: Path, extra: str, words: str) -> None:
    sheet = tmp_path / "two.toml"
    sheet.write_text(
        'system = "midian"\nname = "T"\nhit_points = 5\nlife_points = 5\n'
        "attributes = { strength = 10, agility = 10, wits = 10, willpower = 10, stamina = 10 }\n"
        'off_hand = { name = "Knife", damage = "1d4", type = "stabbing" }\n' + extra
    )
    with pytest.raises(SheetError) as caught:
        load_sheet(sheet)
    assert caught.value.key == "off_hand" and words in caught.value.message


def test_the_game_master_may_choose_a_critical_effect() -> None:
    hero = character("Hero", attack_bonus=4, weapon=weapon(damage="1d8"))
    foe = character("Foe", hit_points=40, weapon=weapon())
    encounter, rules = driver.build(
        MidianRuleset(critical_effects=True), ("Hero", "a", hero, None), ("Foe", "b", foe, None)
    )
    encounter = driver.with_actions(encounter.next_round(), "Foe", 0)
    # a natural 20 is a critical; the effect is chosen, not rolled: no die for it
    chooser = ScriptedChooser({"critical": "knocked down"}, FirstChoice())
    dice = ScriptedDice([20, 5])
    after, events = rules.ruleset.perform(encounter, "Hero", Attack("Foe"), Answers(dice, chooser))
    effect = next(e for e in events if isinstance(e, mev.CriticalEffect))
    assert effect.effect == "knocked down" and effect.die is None
    # no turn of its left this round: it spends the next two getting up (issue 25)
    assert after.states["Foe"].down_rounds == 3
    assert dice.remaining == ()
