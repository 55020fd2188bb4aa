"""One whole Midian attack: the roll, the defence, the damage and what it does.

Dice order (docs/rules/midian.md): the attack d20; the defence d20 if the defender defends; the
damage dice; a Willpower check (2d20) if one is due; system shock (d100) if due.
Whether and how the defender defends is its choice (``defend``): it is offered
every defence open to it — none when the hit is a critical or the defender has no
active defence (surprised, charging, set against a charge), only a dodge from
behind — and may also take the blow. Without a chooser it defends with the best
defence open to it, a free parry or block first, otherwise one that costs an action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from affray.dice import Dice
from affray.events import Event
from affray.rulesystems.midian.attack import (
    HitRule,
    armour_class,
    attack_modifiers,
    over_twenty,
    roll_attack,
)
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.damage import damage_modifiers, roll_damage, striking_dice
from affray.rulesystems.midian.defence import (
    DEFENSIVE_ATTACK,
    Choice,
    Defence,
    DefencePool,
    Stance,
    allowed_defences,
    bare_hand_parry_damage,
    evaded,
    options,
    roll_defence,
    spend,
)
from affray.rulesystems.midian.events import AttackRolled, DefenceRolled, Evaded, RetestUsed
from affray.rulesystems.midian.injury import (
    OFF_BALANCE_PENALTY,
    Health,
    Retest,
    RollKind,
    WillpowerRule,
    WillpowerShock,
    no_retest,
    take_damage,
)
from affray.rulesystems.midian.modifiers import Modifier
from affray.rulesystems.midian.situations import (
    attacking_from_the_ground,
    called_shot,
    cover_penalty,
    flanking,
    ganging_up,
    helpless_target,
    knocked_down_target,
    moving_attacker,
    moving_target,
    range_penalty,
)

DefenceChooser = Callable[[Sequence[Choice], AttackRolled], Choice | None]
"""Picks one of the defences offered against an attack, or None to take the blow."""


def best_defence(choices: Sequence[Choice], attack: AttackRolled) -> Choice | None:
    """The default: the first defence offered (free first, best bonus first)."""
    return choices[0] if choices else None


FIDELITY = 4
"""The round of fidelity to the chapter these rules play: 4, the fourth round's (a weapon
set against a charge has given up its defence, fallen or not); 3, the third round's
(charges need a run-up, nobody acts while getting up, waiting lowers initiative,
untrained fists, bleeding below 0 life points may be bound); 2, the rules before it. A
table's changes logged in an older round replay with its rules (docs/table.md, "Old
tables")."""
ROUND3 = 3
"""The third round of fidelity (:data:`FIDELITY`)."""


@dataclass(frozen=True, slots=True)
class Readings:
    """The readings affray takes where the chapter allows two (docs/rules/midian.md):
    options of an encounter file."""

    hit_rule: HitRule = HitRule.AT_OR_ABOVE
    willpower: WillpowerRule = WillpowerRule.FIRST
    willpower_shock: WillpowerShock = WillpowerShock.EARLIER


@dataclass(frozen=True, slots=True)
class Situation:
    """The circumstances of one attack. Distances in feet, cover in percent."""

    ranged: bool = False
    distance: int | None = None
    touch: bool = False
    cover: int = 0
    called_shot: int = 0
    from_behind: bool = False
    helpless: bool = False
    target_down: bool = False
    attacker_down: bool = False
    attacker_speed: int = 0
    target_speed: int = 0
    description: int = 0
    charging: bool = False
    set_against_charge: bool = False
    total_defence: bool = False
    attacker_defensive: bool = False
    defender_stance: Stance = Stance.NORMAL
    untrained_brawl: bool = False
    surprised: bool = False
    defence_given_up: bool = False
    """The defender set its weapon against this charge: "you also get no active
    defence", fallen since or not (round 4 of fidelity)."""
    ganging: int = 0
    large_target: bool = False
    extra_damage: tuple[Modifier, ...] = ()
    extra_attack: tuple[Modifier, ...] = ()


def off_balance(choice: Choice) -> Choice:
    """A defence of one hit in the ear: a parry at -3 (a critical's numbers)."""
    if choice.kind is not Defence.PARRY:
        return choice
    penalty = Modifier("off balance (hit in the ear)", -OFF_BALANCE_PENALTY)
    return replace(choice, modifiers=(*choice.modifiers, penalty))


def situation_modifiers(attacker: Character, situation: Situation) -> tuple[Modifier, ...]:
    """Attack modifiers from the situation, each labelled."""
    found: list[Modifier] = []
    weapon = attacker.weapon
    if situation.ranged and situation.distance is not None and weapon.range_increment:
        found.append(
            range_penalty(situation.distance, weapon.range_increment, weapon.ranged or "hurled")
        )
    if situation.cover:
        found.append(cover_penalty(situation.cover))
    if situation.called_shot:
        found.append(called_shot(situation.called_shot))
    if situation.from_behind:
        found.append(flanking())
    elif situation.ganging >= 2:
        found.append(ganging_up(situation.ganging, large_target=situation.large_target))
    if situation.helpless:
        found.append(helpless_target())
    if situation.target_down:
        found.append(knocked_down_target())
    if situation.attacker_down:
        found.append(attacking_from_the_ground())
    if situation.ranged and situation.attacker_speed:
        found.append(moving_attacker(situation.attacker_speed))
    if situation.ranged and situation.target_speed:
        found.append(moving_target(situation.target_speed))
    if situation.description:
        found.append(Modifier("description", min(situation.description, 5)))
    if situation.attacker_defensive:
        found.append(Modifier("fighting defensively", DEFENSIVE_ATTACK))
    found.extend(situation.extra_attack)
    return tuple(m for m in found if m.value)


@dataclass(frozen=True, slots=True)
class AttackOutcome:
    natural: int
    total: int
    hit: bool
    critical: bool
    fumble: bool
    defended: bool
    damage_rolled: int
    damage: int
    health: Health
    pool: DefencePool
    events: tuple[Event, ...]


def resolve_attack(
    attacker: Character,
    defender: Character,
    health: Health,
    dice: Dice,
    *,
    defend: bool = True,
    situation: Situation = Situation(),
    rules: Readings = Readings(),
    attacker_penalty: int = 0,
    pool: DefencePool | None = None,
    choose_defence: DefenceChooser = best_defence,
    retest: Retest = no_retest,
    attack_retest: Retest = no_retest,
    fidelity: int = FIDELITY,
) -> AttackOutcome:
    """Resolve one attack of ``attacker`` on ``defender`` (whose state is ``health``);
    ``choose_defence`` is the defender's choice of defence, asked only when there is one;
    ``attack_retest`` the attacker's after a missed attack roll (the last roll counts),
    ``retest`` the defender's after a failed Willpower check or system shock roll.
    Before round 3 of ``fidelity`` a sheet without a weapon strikes with its fists'
    dice, and its bare-hand parry does not hurt."""
    pool = pool or DefencePool.fresh(defender, stance=situation.defender_stance)
    round3 = fidelity >= ROUND3
    brawl = situation.untrained_brawl or (round3 and attacker.untrained_brawler)
    modifiers = attack_modifiers(
        attacker,
        penalty=attacker_penalty,
        situational=situation_modifiers(attacker, situation),
        unarmed_untrained=brawl,
    )
    target = armour_class(
        defender,
        ranged=situation.ranged,
        touch=situation.touch,
        total_defence=situation.total_defence or situation.defender_stance is Stance.TOTAL_DEFENCE,
        shield=not situation.from_behind,
    )
    events: list[Event] = []
    while True:
        attack: AttackRolled = roll_attack(
            attacker, defender, dice, modifiers=modifiers, target=target, rule=rules.hit_rule
        )
        events.append(attack)
        spent = None if attack.hit else attack_retest(RollKind.ATTACK, attack)
        if spent is None:
            break
        events.append(RetestUsed(attacker.name, spent, RollKind.ATTACK.value))
    defended = False
    bare_hands = False
    if attack.hit and defend:
        allowed = allowed_defences(
            critical=attack.critical,
            from_behind=situation.from_behind or situation.ganging >= 2,
            no_active=situation.surprised
            or situation.set_against_charge
            or situation.defence_given_up,
        )
        if health.off_balance:  # hit in the ear: no dodging
            allowed = tuple(d for d in allowed if d is not Defence.DODGE)
        choices = [
            off_balance(c) if health.off_balance else c
            for c in options(defender, pool, allowed=allowed)
        ]
        # evasion stands against shots; against blows only with a skill that allows it
        evasion = pool.evasion_total if pool.stance is Stance.EVASION else None
        if evasion is not None and (situation.ranged or defender.melee_evasion):
            defended = Defence.DODGE in allowed and evaded(evasion, attack.total)
            if defended:
                events.append(Evaded(defender.name, evasion, attack.total))
        elif choices:
            choice = choose_defence(choices, attack)
            if choice is not None:
                defence: DefenceRolled = roll_defence(
                    defender, choice, attack.total, dice, penalty=health.penalty
                )
                events.append(defence)
                pool = spend(pool, choice)
                defended = defence.success
                bare_hands = round3 and choice.kind is Defence.PARRY and defender.untrained_brawler
    damage_mods = damage_modifiers(
        attacker,
        attacker.weapon,
        over_20=over_twenty(attack.total),
        penalty=attacker_penalty,
        extra=situation.extra_damage,
        untrained_brawl=brawl,
    )
    multiplier = 2 if (situation.charging or situation.set_against_charge) else 1
    if defended and bare_hands:  # the parry works, but the hand in the way is hurt
        blow = roll_damage(
            attacker,
            defender,
            dice,
            critical=False,
            modifiers=damage_mods,
            damage_dice=striking_dice(attacker, untrained_brawl=brawl),
            multiplier=multiplier,
        )
        hurt = bare_hand_parry_damage(blow.final, attacker.weapon.type)
        events.append(blow.event)
        injury = take_damage(
            defender,
            health,
            hurt,
            dice,
            source=f"a bare-hand parry of {attacker.name}'s {attacker.weapon.name.lower()}",
            willpower=rules.willpower,
            retest=retest,
            willpower_shock=rules.willpower_shock,
        )
        events.extend(injury.events)
        health = injury.health
        return AttackOutcome(
            attack.die.face,
            attack.total,
            attack.hit,
            attack.critical,
            attack.fumble,
            True,
            blow.rolled,
            hurt,
            health,
            pool,
            tuple(events),
        )
    if not attack.hit or defended:
        return AttackOutcome(
            attack.die.face,
            attack.total,
            attack.hit,
            attack.critical,
            attack.fumble,
            defended,
            0,
            0,
            health,
            pool,
            tuple(events),
        )
    damage = roll_damage(
        attacker,
        defender,
        dice,
        critical=attack.critical,
        modifiers=damage_mods,
        # before round 3, a sheet without a weapon struck with its fists' dice
        damage_dice=striking_dice(attacker, untrained_brawl=brawl)
        if round3
        else ("0" if brawl else None),
        multiplier=multiplier,
    )
    events.append(damage.event)
    injury = take_damage(
        defender,
        health,
        damage.final,
        dice,
        source=f"{attacker.name}'s {attacker.weapon.name.lower()}",
        willpower=rules.willpower,
        retest=retest,
        willpower_shock=rules.willpower_shock,
    )
    events.extend(injury.events)
    return AttackOutcome(
        attack.die.face,
        attack.total,
        True,
        attack.critical,
        attack.fumble,
        False,
        damage.rolled,
        damage.final,
        injury.health,
        pool,
        tuple(events),
    )
