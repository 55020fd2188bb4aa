"""Every other Midian mechanic, with scripted dice."""

from __future__ import annotations

from dataclasses import replace

import pytest

from affray.dice import ScriptedDice
from affray.errors import RulesError
from affray.rulesystems.midian import events as ev
from affray.rulesystems.midian.attack import description_bonus
from affray.rulesystems.midian.character import Encumbrance, Experience, Shield
from affray.rulesystems.midian.checks import repeat_penalty
from affray.rulesystems.midian.criticals import EFFECTS, critical_effect
from affray.rulesystems.midian.defence import (
    DefencePool,
    Stance,
    allowed_defences,
    bare_hand_parry_damage,
    free_parries,
    options,
    roll_defence,
    spend,
)
from affray.rulesystems.midian.equipment import (
    armour_modifiers,
    can_shield_punch,
    check_two_weapons,
    shield_block_modifiers,
    two_handed_bonus,
    two_weapon_penalties,
    weapon_modifiers,
)
from affray.rulesystems.midian.initiative import initiative_modifiers, interruption, surprise, wait
from affray.rulesystems.midian.injury import (
    Health,
    WillpowerRule,
    WillpowerShock,
    end_of_round,
    heal,
    system_shock_chance,
    take_damage,
    tend_wounds,
)
from affray.rulesystems.midian.modifiers import total
from affray.rulesystems.midian.resolve import Readings, Situation, resolve_attack
from affray.rulesystems.midian.situations import (
    bodies_in_the_way,
    charge,
    disarm,
    escape_hold,
    ganging_up,
    range_increments,
    strikes_obstacle,
)
from tests.rules.midian.helpers import character, weapon

# -- defence -------------------------------------------------------------------------------


@pytest.mark.parametrize(("skill", "parries"), [(0, 0), (1, 1), (2, 1), (3, 2), (5, 3), (6, 3)])
def test_free_parries_per_two_levels(skill: int, parries: int) -> None:
    assert free_parries(skill) == parries
    assert free_parries(skill, Stance.TOTAL_DEFENCE) == skill


def test_parry_bonus_and_unskilled_penalty() -> None:
    skilled = character(weapon=weapon(skill=3))
    pool = DefencePool.fresh(skilled)
    best = options(skilled, pool)[0]
    assert (best.kind, best.cost, total(best.modifiers)) == ("parry", "free", 3)
    unskilled = character(weapon=weapon(skill=0), dodge=0)
    choices = options(unskilled, DefencePool.fresh(unskilled))
    assert [(c.kind, c.cost, total(c.modifiers)) for c in choices] == [
        ("dodge", "action", 0),
        ("parry", "action", -5),
    ]


def test_defence_at_or_above_the_attack_stops_it() -> None:
    defender = character(weapon=weapon(skill=2))
    choice = options(defender, DefencePool.fresh(defender))[0]
    assert roll_defence(defender, choice, 15, ScriptedDice([13])).success
    assert not roll_defence(defender, choice, 15, ScriptedDice([12])).success
    shocked = roll_defence(defender, choice, 15, ScriptedDice([13]), penalty=1)
    assert not shocked.success


def test_free_parries_run_out_then_actions_are_spent() -> None:
    defender = character(weapon=weapon(skill=2))
    pool = DefencePool.fresh(defender, actions=1)
    first = options(defender, pool)[0]
    pool = spend(pool, first)
    assert pool.parries == 0
    second = options(defender, pool)[0]
    assert second.cost == "action"
    pool = spend(pool, second)
    assert options(defender, pool) == []


def test_shield_blocks() -> None:
    skilled = character(shield=Shield(armour_class=1, skill=3), weapon=weapon(skill=0))
    assert total(shield_block_modifiers(skilled)) == 3
    assert DefencePool.fresh(skilled).blocks == 2
    unskilled = character(shield=Shield(skill=0))
    assert total(shield_block_modifiers(unskilled)) == -11
    assert total(shield_block_modifiers(replace(unskilled, ambidextrous=True))) == -8
    with pytest.raises(RulesError):
        shield_block_modifiers(character())


def test_defensive_stances() -> None:
    fencer = character(weapon=weapon(skill=2))
    normal = options(fencer, DefencePool.fresh(fencer))[0]
    defensive = options(fencer, DefencePool.fresh(fencer, stance=Stance.DEFENSIVE))[0]
    assert total(defensive.modifiers) == total(normal.modifiers) + 2
    assert DefencePool.fresh(fencer, stance=Stance.TOTAL_DEFENCE).parries == 2


def test_what_can_be_defended() -> None:
    assert allowed_defences(critical=True) == ()
    assert allowed_defences(from_behind=True) == ("dodge",)
    assert allowed_defences(no_active=True) == ()
    assert allowed_defences() == ("parry", "block", "dodge")


@pytest.mark.parametrize(
    ("damage", "kind", "hurt"), [(9, "stabbing", 1), (9, "hacking", 2), (12, "smashing", 3)]
)
def test_bare_hand_parry_hurts(damage: int, kind: str, hurt: int) -> None:
    assert bare_hand_parry_damage(damage, kind) == hurt


# -- equipment -------------------------------------------------------------------------------


def test_armour_encumbrance_tables() -> None:
    trained = character(armour_encumbrance=Encumbrance.HEAVY)
    assert total(armour_modifiers(trained, "initiative")) == -2
    assert total(armour_modifiers(trained, "attack")) == 0
    untrained = replace(trained, armour_trained=False)
    assert [total(armour_modifiers(untrained, r)) for r in ("initiative", "attack", "damage")] == [
        -5,
        -5,
        -2,
    ]
    very = character(armour_encumbrance=Encumbrance.VERY_HEAVY)
    assert [total(armour_modifiers(very, r)) for r in ("initiative", "attack", "damage")] == [
        -8,
        -8,
        -5,
    ]


def test_weapon_encumbrance() -> None:
    assert (
        total(weapon_modifiers(weapon(encumbrance=Encumbrance.MEDIUM, hands=1), "initiative")) == -2
    )
    assert (
        total(weapon_modifiers(weapon(encumbrance=Encumbrance.MEDIUM, hands=2), "initiative")) == 0
    )
    heavy = weapon(encumbrance=Encumbrance.VERY_HEAVY, hands=2)
    assert (
        total(weapon_modifiers(heavy, "initiative")),
        total(weapon_modifiers(heavy, "attack")),
    ) == (-2, -1)
    heroic = weapon(encumbrance=Encumbrance.HEROIC, hands=2)
    assert (
        total(weapon_modifiers(heroic, "initiative")),
        total(weapon_modifiers(heroic, "attack")),
    ) == (-5, -3)
    with pytest.raises(RulesError, match="both hands"):
        weapon(encumbrance=Encumbrance.HEAVY, hands=1)


def test_two_handed_damage_bonus() -> None:
    strong = character(attributes={"strength": 17})
    assert two_handed_bonus(strong, weapon(hands=2, two_hand_grip=True)).value == 4
    assert two_handed_bonus(strong, weapon(hands=2, two_hand_grip=False)).value == 1
    assert two_handed_bonus(strong, weapon(hands=1, two_hand_grip=True)).value == 0
    assert (
        two_handed_bonus(
            strong, weapon(hands=2, two_hand_grip=True, encumbrance=Encumbrance.HEROIC)
        ).value
        == 0
    )
    bow = weapon(hands=2, two_hand_grip=True, ranged="device", range_increment=20)
    assert two_handed_bonus(strong, bow).value == 0


@pytest.mark.parametrize(
    ("ambidextrous", "style", "skilled", "off_hand", "penalty"),
    [
        (False, False, True, True, -6),
        (False, False, True, False, -3),
        (True, False, True, True, -3),
        (False, True, True, True, 0),
        (False, False, False, True, -11),
    ],
)
def test_two_weapon_penalties(
    ambidextrous: bool, style: bool, skilled: bool, off_hand: bool, penalty: int
) -> None:
    mods = two_weapon_penalties(
        ambidextrous=ambidextrous, style_skill=style, skilled=skilled, off_hand=off_hand
    )
    assert total(mods) == penalty


def test_two_weapon_weights_and_shield_punch() -> None:
    check_two_weapons(weapon(), weapon(encumbrance=Encumbrance.MEDIUM))
    with pytest.raises(RulesError, match="too heavy"):
        check_two_weapons(
            weapon(encumbrance=Encumbrance.MEDIUM), weapon(encumbrance=Encumbrance.MEDIUM)
        )
    assert can_shield_punch(character(shield=Shield(encumbrance=Encumbrance.MEDIUM)))
    heavy_arm = character(
        shield=Shield(encumbrance=Encumbrance.MEDIUM),
        weapon=weapon(encumbrance=Encumbrance.MEDIUM, hands=2),
    )
    assert not can_shield_punch(heavy_arm)
    assert not can_shield_punch(character(shield=Shield(encumbrance=Encumbrance.HEAVY)))


# -- initiative and the round ------------------------------------------------------------------


def test_initiative_modifiers_stack() -> None:
    novice = character(
        initiative_bonus=1,
        experience=Experience.NEVER_SEEN,
        armour_encumbrance=Encumbrance.HEAVY,
        weapon=weapon(encumbrance=Encumbrance.MEDIUM, hands=1),
    )
    mods = initiative_modifiers(novice, shock=3, fatigue=1)
    assert total(mods) == 1 - 2 - 2 - 6 - 3 - 1
    observer = character(experience=Experience.OBSERVED)
    assert total(initiative_modifiers(observer)) == -3


def test_waiting_interrupts_and_action_windows() -> None:
    assert wait(12, 3) == 9
    # lighting and throwing a canister: -4; natural 7 runs from 7 to 3
    assert interruption(7, -4, 8) == "before"
    assert interruption(7, -4, 5) == "during"
    assert interruption(7, -4, 3) == "during"
    assert interruption(7, -4, 2) == "after"


def test_surprise() -> None:
    assert surprise([False, False]) == "none"
    assert surprise([True, True]) == "both"
    assert surprise([True, False]) == "ambush"


def test_repeated_attempts_and_description_bonus() -> None:
    assert repeat_penalty(1).value == 0 and repeat_penalty(3).value == -4
    assert description_bonus(simple=True).value == 1
    assert description_bonus(graphic=True, reacting=True).value == 3
    assert (
        description_bonus(graphic=True, reacting=True, environment=True, position=True).value == 5
    )


# -- injury -----------------------------------------------------------------------------------


def test_hit_points_then_life_points_and_the_willpower_check() -> None:
    fighter = character(hit_points=10, life_points=8, attributes={"willpower": 12})
    health = Health.fresh(fighter)
    hurt = take_damage(fighter, health, 6, ScriptedDice([]), source="axe")
    assert (hurt.health.hit_points, hurt.health.life_points, hurt.willpower) == (4, 8, None)
    # 9 more: 4 from hit points, 5 from life points; only life points remain → Willpower
    worse = take_damage(fighter, hurt.health, 9, ScriptedDice([1, 1]), source="axe")
    assert (worse.health.hit_points, worse.health.life_points) == (0, 3)
    assert worse.willpower is not None
    # by default the check bears the shock of the round's earlier blows (6), not the
    # 9 of the blow that forced it: 12 - 6 = 6, and 1 + 1 passes
    assert worse.willpower.effective == 12 - 6
    assert worse.willpower.success and worse.health.conscious
    # the other reading: all 15 points of shock this round; the same roll fails
    strict = take_damage(
        fighter,
        hurt.health,
        9,
        ScriptedDice([1, 1]),
        source="axe",
        willpower_shock=WillpowerShock.ALL,
    )
    assert strict.willpower is not None and strict.willpower.effective == 12 - 15
    assert not strict.willpower.success
    assert not strict.health.conscious


def test_willpower_only_once_unless_each() -> None:
    fighter = character(hit_points=2, life_points=20, attributes={"willpower": 30})
    first = take_damage(fighter, Health.fresh(fighter), 3, ScriptedDice([1, 1]), source="x")
    assert first.willpower is not None and first.willpower.success
    again = take_damage(fighter, first.health, 1, ScriptedDice([]), source="x")
    assert again.willpower is None
    each = take_damage(
        fighter, first.health, 1, ScriptedDice([1, 1]), source="x", willpower=WillpowerRule.EACH
    )
    assert each.willpower is not None


def test_system_shock_when_hurt_at_zero_or_below() -> None:
    fighter = character(hit_points=0, life_points=5, system_shock=80)
    at_zero = Health(0, 0, 5)
    passed = take_damage(fighter, at_zero, 2, ScriptedDice([70]), source="x")
    assert passed.system_shock is not None and passed.system_shock.chance == 70  # -2 life: -10%
    assert passed.health.alive
    failed = take_damage(fighter, at_zero, 2, ScriptedDice([71]), source="x")
    assert not failed.health.alive


def test_system_shock_chance() -> None:
    fighter = character(system_shock=95)
    assert system_shock_chance(fighter, 3) == 95
    assert system_shock_chance(fighter, -4) == 75
    assert system_shock_chance(fighter, -30) == 0


def test_failing_system_shock_at_exactly_zero_is_a_coma() -> None:
    fighter = character(system_shock=50)
    health, events = end_of_round(fighter, Health(0, 0, 5), ScriptedDice([90]))
    assert health.coma and not health.conscious and health.alive
    assert events[-1] == ev.StatusChanged(
        fighter.name, "coma", "failed system shock at 0 life points"
    )


def test_serious_wounds_bleed_until_tended() -> None:
    fighter = character(hit_points=40, life_points=10)
    hurt = take_damage(fighter, Health.fresh(fighter), 25, ScriptedDice([]), source="x").health
    assert hurt.serious_wounds == 2
    bled, events = end_of_round(fighter, hurt, ScriptedDice([]))
    assert bled.hit_points == 40 - 25 - 2
    assert bled.carried_shock == 27 and bled.shock == 0
    tended, _ = tend_wounds(fighter, bled)
    after, events = end_of_round(fighter, tended, ScriptedDice([]))
    assert after.hit_points == bled.hit_points and events == []


def test_healing_waits_for_half_life_points_once_they_fell_to_zero() -> None:
    fighter = character(hit_points=20, life_points=10)
    health = Health(0, 2, 10, fell_to_zero=True)
    assert heal(fighter, health, life_points=2, hit_points=5) == replace(health, life_points=4)
    assert heal(fighter, health, life_points=3, hit_points=5) == replace(
        health, life_points=5, hit_points=5
    )
    # life points that never reached 0: hit points heal at once
    scratched = Health(0, 2, 10)
    assert heal(fighter, scratched, life_points=1, hit_points=5) == replace(
        scratched, life_points=3, hit_points=5
    )


def test_damage_and_bleeding_remember_that_life_points_fell_to_zero() -> None:
    fighter = character(hit_points=2, life_points=4, system_shock=100)
    hurt = take_damage(fighter, Health.fresh(fighter), 3, ScriptedDice([20, 20]), source="x")
    assert hurt.health.life_points == 3 and not hurt.health.fell_to_zero
    worse = take_damage(fighter, hurt.health, 3, ScriptedDice([1]), source="x")
    assert worse.health.life_points == 0 and worse.health.fell_to_zero


def test_heroic_armour_tires() -> None:
    tank = character(armour_encumbrance=Encumbrance.HEROIC)
    health, _ = end_of_round(tank, Health.fresh(tank), ScriptedDice([]))
    assert health.fatigue == 1


# -- situations -----------------------------------------------------------------------------


def test_firing_into_melee() -> None:
    assert bodies_in_the_way(1) == 40
    assert bodies_in_the_way(1, awareness=1) == 50
    assert bodies_in_the_way(3) == 90
    from affray.rulesystems.midian.situations import cover_penalty

    cover = cover_penalty(40)
    assert strikes_obstacle(10, cover, 12, 9)  # 18 without cover would hit the target
    assert not strikes_obstacle(10, cover, 12, 19)
    assert not strikes_obstacle(13, cover, 12, 5)  # it hit the target anyway


def test_range_increment_counting() -> None:
    assert [range_increments(d, 10) for d in (0, 10, 11, 20, 21, 34)] == [0, 0, 1, 1, 2, 3]


def test_charge_order_and_double_damage() -> None:
    knight = character("Knight", weapon=weapon(reach=2))
    pikeman = character("Pikeman", weapon=weapon(reach=3))
    order = charge(knight, pikeman, set_against=True)
    assert (order.first, order.double_damage) == ("Pikeman", ("Knight", "Pikeman"))
    assert charge(pikeman, knight, set_against=False).first == "Pikeman"


def test_ganging_up() -> None:
    assert ganging_up(2).value == 2
    with pytest.raises(RulesError):
        ganging_up(9)
    assert ganging_up(9, large_target=True).value == 2


def test_escaping_a_hold() -> None:
    wrestler = character("Wrestler", grappling=2, attributes={"strength": 15})
    victim = character("Victim", attributes={"strength": 10, "agility": 14})
    result, (a, b) = escape_hold(victim, wrestler, ScriptedDice([5, 5, 6, 6]))
    assert a.attribute == "agility" and a.effective == 14 - 5
    assert b.attribute == "strength" and b.effective == 15
    assert result.winner == "Wrestler"


@pytest.mark.parametrize(
    ("faces", "two_hands", "outcome"),
    [
        ([15, 10], False, "disarmed"),
        ([10, 15], False, "kept"),
        ([10, 10], False, "locked"),
        ([2, 5], False, "reversed"),
        ([10, 19], False, "reversed"),
        ([19, 18], False, "disarmed"),
        ([12, 10], True, "kept"),
    ],
)
def test_disarm(faces: list[int], two_hands: bool, outcome: str) -> None:
    attacker = character("A", attack_bonus=2)
    defender = character("D", weapon=weapon(skill=2))
    result = disarm(attacker, defender, ScriptedDice(faces), defender_two_hands=two_hands)
    assert result.outcome == outcome


def test_critical_effects() -> None:
    rolled = critical_effect("Orc", ScriptedDice([len(EFFECTS), 3]))
    assert rolled[0].effect == "wind knocked out" and "3 rounds" in rolled[0].detail
    chosen = critical_effect("Orc", ScriptedDice([1, 3]), choose="severe throat wound")
    assert chosen[0].detail == "dies in 4 rounds"
    with pytest.raises(RulesError):
        critical_effect("Orc", ScriptedDice([]), choose="tickled")


# -- a whole attack -------------------------------------------------------------------------------


def test_resolve_attack_dice_order_and_outcome() -> None:
    attacker = character(
        "A", attack_bonus=3, damage_bonus=1, weapon=weapon(damage="2d6", type="hacking")
    )
    defender = character(
        "D",
        armour_class=12,
        damage_reduction=2,
        weapon=weapon(skill=2),
        hit_points=5,
        life_points=10,
    )
    dice = ScriptedDice(
        [14, 10, 6, 5, 3, 4]
    )  # attack 17; parry 10+2=12 fails; 6+5+1=12-2=10; Willpower 7 against 11 - 10 shock
    rules = Readings(willpower_shock=WillpowerShock.ALL)  # the blow's own shock counts
    outcome = resolve_attack(attacker, defender, Health.fresh(defender), dice, rules=rules)
    assert (outcome.natural, outcome.total, outcome.hit, outcome.defended) == (14, 17, True, False)
    assert (outcome.damage_rolled, outcome.damage) == (12, 10)
    assert (outcome.health.hit_points, outcome.health.life_points) == (0, 5)
    assert dice.remaining == ()
    kinds = [e.kind for e in outcome.events]
    assert kinds == [
        "attack_rolled",
        "defence_rolled",
        "damage_rolled",
        "damage_taken",
        "check_rolled",
        "status_changed",
    ]
    assert not outcome.health.conscious and outcome.health.alive


def test_resolve_attack_no_defence_on_a_critical_or_when_told() -> None:
    attacker = character("A", weapon=weapon(damage="1d4"))
    defender = character("D", weapon=weapon(skill=5))
    crit = resolve_attack(attacker, defender, Health.fresh(defender), ScriptedDice([20, 4]))
    assert crit.critical and not crit.defended and crit.damage == 8
    told = resolve_attack(
        attacker, defender, Health.fresh(defender), ScriptedDice([15, 4]), defend=False
    )
    assert told.damage == 4


def test_resolve_attack_from_behind_can_only_be_dodged() -> None:
    attacker = character("A", weapon=weapon(damage="1d4"))
    defender = character(
        "D", weapon=weapon(skill=5), dodge=1, shield=Shield(armour_class=2, skill=2)
    )
    outcome = resolve_attack(
        attacker,
        defender,
        Health.fresh(defender),
        ScriptedDice([10, 11, 2]),
        situation=Situation(from_behind=True),
    )
    defence = outcome.events[1]
    assert isinstance(defence, ev.DefenceRolled) and defence.defence == "dodge"
    attack = outcome.events[0]
    assert (
        isinstance(attack, ev.AttackRolled) and attack.armour_class == 5
    )  # the shield does not cover the back
    assert attack.total == 12  # +2 flanking


def test_fumble_and_miss_roll_nothing_else() -> None:
    attacker = character("A")
    defender = character("D", armour_class=15)
    dice = ScriptedDice([2])
    outcome = resolve_attack(attacker, defender, Health.fresh(defender), dice)
    assert outcome.fumble and not outcome.hit and dice.remaining == ()


def test_untrained_brawler_hits_with_only_the_damage_bonus() -> None:
    brawler = character("B", attack_bonus=5, damage_bonus=2, weapon=weapon(skill=3))
    target = character("T")
    outcome = resolve_attack(
        brawler,
        target,
        Health.fresh(target),
        ScriptedDice([8]),
        defend=False,
        situation=Situation(untrained_brawl=True),
    )
    assert outcome.total == 8 + 5 - 3
    assert outcome.damage == 2


def test_evasion_one_roll_at_minus_6_for_every_attack() -> None:
    from affray.rulesystems.midian.defence import evade

    runner = character("Runner", dodge=2, melee_evasion=True)  # evades blows too
    roll = evade(runner, ScriptedDice([15]))
    assert roll.total == 15 + 2 - 6
    pool = replace(DefencePool.fresh(runner, stance=Stance.EVASION), evasion_total=roll.total)
    archer = character("Archer", attack_bonus=0, weapon=weapon(damage="1d4"))
    dice = ScriptedDice([11, 4])  # 11 vs 11: evaded; no defence die is rolled
    first = resolve_attack(archer, runner, Health.fresh(runner), dice, pool=pool)
    assert first.defended and dice.remaining == (4,)
    second = resolve_attack(archer, runner, Health.fresh(runner), ScriptedDice([12, 4]), pool=pool)
    assert not second.defended and second.damage == 4


def test_joint_locks() -> None:
    from affray.rulesystems.midian.situations import joint_lock

    assert joint_lock(ScriptedDice([]), "W", struggling=False, forced=False) is None
    assert joint_lock(ScriptedDice([3]), "W", struggling=True, forced=False) == "broken bone"


def test_a_charge_doubles_damage_and_a_critical_doubles_again() -> None:
    rider = character("Rider", weapon=weapon(damage="1d6"))
    target = character("T", hit_points=40)
    charged = resolve_attack(
        rider,
        target,
        Health.fresh(target),
        ScriptedDice([10, 5]),
        defend=False,
        situation=Situation(charging=True),
    )
    assert charged.damage_rolled == 5 and charged.damage == 10
    both = resolve_attack(
        rider,
        target,
        Health.fresh(target),
        ScriptedDice([20, 5]),
        situation=Situation(charging=True),
    )
    assert both.damage == 20


def test_a_disarm_where_both_roll_a_critical_is_decided_by_the_totals() -> None:
    attacker = character("A", attack_bonus=3, weapon=weapon(skill=1))
    defender = character("D", weapon=weapon(skill=2))
    both = disarm(attacker, defender, ScriptedDice([20, 19]))
    assert (both.attacker_total, both.defender_total) == (23, 21)
    assert both.outcome == "disarmed"
    lone = disarm(attacker, defender, ScriptedDice([10, 19]))
    assert lone.outcome == "reversed"


def test_a_regenerating_creature_does_not_bleed_and_gets_back_up() -> None:
    troll = character("Troll", hit_points=0, life_points=10, regenerates=True, system_shock=100)
    down = Health(0, -2, 10, conscious=False, serious_wounds=2, fell_to_zero=True)
    # system shock at -2: 100 - 10 = 90 %: 50 passes; no bleeding; a life point back
    health, events = end_of_round(troll, down, ScriptedDice([50]))
    assert [e.kind for e in events] == ["system_shock_rolled", "regenerated"]
    assert health.life_points == -1 and not health.conscious
    back, events = end_of_round(troll, replace(health, life_points=0), ScriptedDice([50]))
    assert back.life_points == 1 and back.conscious
    ordinary = replace(troll, regenerates=False)
    _, events = end_of_round(ordinary, down, ScriptedDice([50]))
    assert "bled" in [e.kind for e in events]
