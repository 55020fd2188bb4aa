"""Blows in a Midian encounter: melee (with charges and set weapons), shots (with
allies in the way), what a blow does outside an attack roll, critical effects.

Every defence is the defender's choice: a question put to the answers, offering
each defence open to it and taking the blow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

from affray.encounter import Question
from affray.encounter.events import ActionChosen, Engaged
from affray.events import Event
from affray.rulesystems.midian.actions import LetAct, StrikeFirst
from affray.rulesystems.midian.character import Character, Encumbrance, Weapon
from affray.rulesystems.midian.criticals import Critical, critical_effect
from affray.rulesystems.midian.damage import damage_modifiers, roll_damage
from affray.rulesystems.midian.defence import TAKE_IT, Choice, DefencePool, Stance, TakeIt
from affray.rulesystems.midian.equipment import two_weapon_penalties
from affray.rulesystems.midian.events import AttackRolled, StatusChanged
from affray.rulesystems.midian.injury import OFF_BALANCE_PENALTY, Health, take_damage
from affray.rulesystems.midian.modifiers import Modifier
from affray.rulesystems.midian.resolve import (
    FIDELITY,
    AttackOutcome,
    DefenceChooser,
    Situation,
    resolve_attack,
)
from affray.rulesystems.midian.retests import note_retests, retester
from affray.rulesystems.midian.situations import bodies_in_the_way, cover_penalty, strikes_obstacle
from affray.rulesystems.midian.state import (
    MidianAnswers,
    MidianEncounter,
    MidianOptions,
    MidianOutcome,
    armed,
    close_in,
    defenceless,
    has_run_up,
    knock_down,
    release_fallen,
)
from affray.rulesystems.midian.topics import MidianTopic


def defence_chooser(
    encounter: MidianEncounter, defender: str, attacker: str, answers: MidianAnswers
) -> DefenceChooser:
    """The defender's choice of defence against ``attacker``, asked of ``answers``."""

    def choose(choices: Sequence[Choice], attack: AttackRolled) -> Choice | None:
        options: tuple[Choice | TakeIt, ...] = (*choices, TAKE_IT)
        template = f"{{about}}'s attack ({attack.total}) hits {{who}}: defend how?"
        question = Question.named(defender, MidianTopic.DEFENCE, template, options, about=attacker)
        answer = answers.ask(encounter, question)
        return answer if isinstance(answer, Choice) else None

    return choose


def meet(encounter: MidianEncounter, cid: str, target: str, events: list[Event]) -> MidianEncounter:
    """Engage ``target`` in melee if not engaged yet (recording it)."""
    if encounter.distance(cid, target) is None:
        events.append(Engaged(cid, target, "melee"))
        encounter = encounter.engage(cid, target, "melee")
    return close_in(encounter, cid, target)


def melee(
    options: MidianOptions,
    encounter: MidianEncounter,
    cid: str,
    target: str,
    answers: MidianAnswers,
    *,
    called: int = 0,
    extra: tuple[Modifier, ...] = (),
) -> MidianOutcome:
    """A melee attack (``called``: a called shot's penalty; ``extra``: other attack
    modifiers). Across open ground (the encounter's distance, at least 20 feet) the
    first blow is a charge: double damage, no active defence for the charger this
    round, and no more actions for it this round; a weapon set against it strikes it
    too (double damage; the longer reach first), and a defender of longer reach who
    is not set may strike first with one of its actions."""
    events: list[Event] = []
    charging = has_run_up(options, encounter, cid) and encounter.distance(cid, target) is None
    if encounter.distance(cid, target) is None:
        encounter = encounter.engage(cid, target, "melee")
        events.append(Engaged(cid, target, "charge" if charging else "melee"))
    encounter = close_in(encounter, cid, target)
    if charging:
        encounter = encounter.with_state(
            cid, replace(encounter.states[cid], charged=encounter.round)
        )
    situation = Situation(charging=charging, called_shot=called, extra_attack=extra)
    new = options.round3  # before round 3 of fidelity, the fallen still struck
    braced = (
        charging
        and encounter.states[target].set_against_charge
        and not (new and encounter.states[target].down_rounds)
    )
    if not charging:
        encounter, more = strike(options, encounter, cid, target, answers, situation)
        return encounter, [*events, *more]
    if braced:
        # a weapon set against the charge strikes too; the longer reach strikes first
        first_set = armed(encounter, target).weapon.reach > armed(encounter, cid).weapon.reach
        order = ("set", "charge") if first_set else ("charge", "set")
        for blow in order:
            if not (encounter.states[cid].fighting and encounter.states[target].fighting):
                break
            if new and encounter.states[target if blow == "set" else cid].down_rounds:
                continue  # knocked down by the first blow: no strike while getting up
            if blow == "set":
                encounter, more = strike(
                    options, encounter, target, cid, answers, Situation(set_against_charge=True)
                )
            else:  # the set weapon gave up its defence: a fall does not give it back
                given_up = replace(situation, defence_given_up=options.round4)
                encounter, more = strike(options, encounter, cid, target, answers, given_up)
            events.extend(more)
        encounter = _turned_around(_unset(encounter, target), target)
    else:
        encounter, more = _meet_the_charge(options, encounter, cid, target, answers)
        events.extend(more)
        me = encounter.states[cid]
        up = not (new and me.down_rounds)
        if me.fighting and up and encounter.states[target].fighting:
            encounter, more = strike(options, encounter, cid, target, answers, situation)
            events.extend(more)
    # "Hit or miss, multiple attacks are generally precluded by having to turn around
    # after running past": the charge ends the charger's actions for the round
    return _turned_around(encounter, cid), events


def _turned_around(encounter: MidianEncounter, cid: str) -> MidianEncounter:
    """No more actions this round (after a charge, or meeting one with a set weapon)."""
    state = encounter.states[cid]
    encounter = encounter.with_state(cid, replace(state, pool=replace(state.pool, actions=0)))
    return encounter.queued(tuple(t for t in encounter.queue if t != cid))


def _meet_the_charge(
    options: MidianOptions,
    encounter: MidianEncounter,
    cid: str,
    target: str,
    answers: MidianAnswers,
) -> MidianOutcome:
    """A defender of longer reach who is not set may spend one of its actions to strike
    the charger first ("whoever has the greatest reach actually hits first whenever some
    fool chooses to charge"); the charger cannot defend."""
    them = encounter.states[target]
    longer = armed(encounter, target).weapon.reach > armed(encounter, cid).weapon.reach
    if not (
        longer
        and them.fighting
        and them.pool.actions > 0
        and not (options.round3 and them.down_rounds)  # nobody strikes first getting up
        and not defenceless(encounter, target)
    ):
        return encounter, []
    template = "{about} charges {who}, whose reach is longer: does {who} strike first?"
    question = Question.named(
        target, MidianTopic.INTERRUPT, template, (StrikeFirst(cid), LetAct(cid)), about=cid
    )
    if isinstance(answers.ask(encounter, question), LetAct):
        return encounter, []
    encounter = encounter.with_state(
        target, replace(them, pool=replace(them.pool, actions=them.pool.actions - 1))
    )
    encounter = encounter.take_turn_now(target)  # the action it strikes with is its next
    encounter, more = strike(options, encounter, target, cid, answers, Situation())
    return encounter, [ActionChosen(target, StrikeFirst(cid)), *more]


def both_weapons(
    options: MidianOptions,
    encounter: MidianEncounter,
    cid: str,
    target: str,
    answers: MidianAnswers,
) -> MidianOutcome:
    """A blow with the weapon, then one with the off-hand weapon: -3 to both and -3 more
    off-hand; ambidextrous -3 to both; none with a two-weapon style. (The chapter's -5
    for a weapon one has no proficiency in is part of the sheet's attack bonus, as for
    any attack.)"""
    sheet = encounter.sheet(cid)
    off_hand = sheet.off_hand
    if off_hand is None:
        return encounter, []

    def penalties(off: bool) -> tuple[Modifier, ...]:
        return two_weapon_penalties(
            ambidextrous=sheet.ambidextrous,
            style_skill=sheet.two_weapon_style,
            skilled=True,
            off_hand=off,
        )

    encounter, events = melee(options, encounter, cid, target, answers, extra=penalties(False))
    me = encounter.states[cid]
    up = not (options.round3 and me.down_rounds)
    if me.fighting and up and encounter.states[target].fighting:
        situation = Situation(extra_attack=penalties(True))
        encounter, more = strike(
            options, encounter, cid, target, answers, situation, weapon=off_hand
        )
        events.extend(more)
    return encounter, events


def _unset(encounter: MidianEncounter, cid: str) -> MidianEncounter:
    """Once a charge has met it, a set weapon is no longer set."""
    state = encounter.states[cid]
    if not state.set_against_charge:
        return encounter
    return encounter.with_state(cid, replace(state, set_against_charge=False))


def getting_up(pool: DefencePool) -> DefencePool:
    """One getting back up has no action to spare: only free parries and blocks."""
    return replace(pool, actions=0)


def attack_roll(
    options: MidianOptions,
    encounter: MidianEncounter,
    cid: str,
    target: str,
    answers: MidianAnswers,
    situation: Situation,
    attacker: Character,
) -> tuple[MidianEncounter, AttackOutcome]:
    """One attack roll of ``cid`` (as ``attacker``: its sheet with the weapon it uses)
    on ``target``, with every choice asked (the defence, retests), and the target's
    health, defences and retests updated. One getting back up defends with free
    parries and blocks only."""
    them = encounter.states[target]
    outcome = resolve_attack(
        attacker,
        # disarmed, it parries with bare hands (before round 3: as if still armed)
        armed(encounter, target) if options.round3 else encounter.sheet(target),
        them.health,
        answers.dice,
        situation=situation,
        rules=options.rules,
        attacker_penalty=encounter.states[cid].health.penalty,
        pool=getting_up(them.pool) if them.down_rounds else them.pool,
        choose_defence=defence_chooser(encounter, target, cid, answers),
        retest=retester(encounter, target, answers),
        attack_retest=retester(encounter, cid, answers),
        fidelity=options.fidelity,
    )
    pool = replace(outcome.pool, actions=them.pool.actions) if them.down_rounds else outcome.pool
    encounter = encounter.with_state(target, replace(them, health=outcome.health, pool=pool))
    return note_retests(encounter, outcome.events), outcome


def positioned(
    options: MidianOptions,
    encounter: MidianEncounter,
    cid: str,
    target: str,
    situation: Situation,
    *,
    other_weapon: bool = False,
) -> Situation:
    """``situation`` with everything the positions and states say of ``cid``'s attack
    on ``target`` now (a strike resolves it so, and the live odds weigh it so): cover,
    ganging up, the fallen, surprise, and both stances (the defender's total defence
    raises its armour class). ``other_weapon``: the blow is struck with a weapon other
    than the one in hand (one lost is no untrained brawl then)."""
    me = encounter.states[cid]
    them = encounter.states[target]
    foes_on_target = [
        f
        for f in encounter.engaged_with(target)
        if encounter.states[f].fighting
        and encounter.combatant(f).side != encounter.combatant(target).side
    ]
    # ganged up on from opposite sides, the target can only dodge; one whose attention
    # is on another of them cannot defend against this one at all
    unfaced = len(foes_on_target) >= 2 and them.focus not in (None, cid)
    return replace(
        situation,
        cover=situation.cover or (0 if situation.ranged else options.melee_cover),
        untrained_brawl=situation.untrained_brawl or (not other_weapon and me.weapon_lost),
        ganging=len(foes_on_target),
        target_down=them.down_rounds > 0,
        attacker_down=me.down_rounds > 0,
        surprised=defenceless(encounter, target)
        or unfaced
        or (situation.charging and them.set_against_charge),
        attacker_defensive=me.pool.stance is Stance.DEFENSIVE,
        defender_stance=them.pool.stance,
        extra_attack=(*situation.extra_attack, *off_balance_attack(me.health)),
    )


def off_balance_attack(health: Health) -> tuple[Modifier, ...]:
    """Hit in the ear: -3 to the attack roll (not to its damage: a critical's numbers)."""
    if not health.off_balance:
        return ()
    return (Modifier("off balance (hit in the ear)", -OFF_BALANCE_PENALTY),)


def strike(
    options: MidianOptions,
    encounter: MidianEncounter,
    cid: str,
    target: str,
    answers: MidianAnswers,
    situation: Situation,
    *,
    weapon: Weapon | None = None,
) -> MidianOutcome:
    """One attack (with ``weapon`` instead of the one in hand, if given) with
    everything the positions say. Two or more foes on one target gang up: +2 each,
    and the target can only dodge; against one it is not facing it cannot defend at
    all. Knocked down: +4 to hit the fallen, -4 for them. No active defence for the
    surprised, a charger in the round of its charge, or a set defender being charged."""
    situation = positioned(
        options, encounter, cid, target, situation, other_weapon=weapon is not None
    )
    attacker = (
        armed(encounter, cid) if weapon is None else replace(encounter.sheet(cid), weapon=weapon)
    )
    encounter, outcome = attack_roll(options, encounter, cid, target, answers, situation, attacker)
    encounter = encounter.with_state(cid, replace(encounter.states[cid], focus=target))
    events = list(outcome.events)
    if outcome.critical and outcome.damage and options.critical_effects:
        encounter, more = critical(
            encounter,
            cid,
            target,
            answers,
            fidelity=options.fidelity,
            numbers=options.critical_numbers,
        )
        events.extend(more)
    if outcome.fumble and options.fumble_effects:
        encounter, more = fumble(encounter, cid, answers, fidelity=options.fidelity)
        events.extend(more)
    return release_fallen(encounter, target), events


def shoot(
    options: MidianOptions,
    encounter: MidianEncounter,
    cid: str,
    target: str,
    answers: MidianAnswers,
) -> MidianOutcome:
    """A shot across the encounter's distance; the shooter's allies in melee with the
    target are cover, and a miss that the cover explains strikes the first of them."""
    me = encounter.combatant(cid)
    allies_in_the_way = [
        a
        for a in encounter.engaged_with(target)
        if encounter.combatant(a).side == me.side and encounter.states[a].fighting
    ]
    cover = bodies_in_the_way(len(allies_in_the_way)) if allies_in_the_way else 0
    situation = Situation(
        ranged=True,
        distance=options.distance,
        cover=cover,
        surprised=defenceless(encounter, target),
    )
    events: list[Event] = []
    encounter, outcome = attack_roll(
        options, encounter, cid, target, answers, situation, armed(encounter, cid)
    )
    events.extend(outcome.events)
    if outcome.fumble and options.fumble_effects:
        encounter, more = fumble(encounter, cid, answers, fidelity=options.fidelity)
        events.extend(more)
    if not outcome.hit and allies_in_the_way and not outcome.fumble:
        attack = [e for e in outcome.events if isinstance(e, AttackRolled)][-1]
        obstacle = allies_in_the_way[0]
        if strikes_obstacle(
            attack.total,
            cover_penalty(cover),
            attack.armour_class,
            encounter.sheet(obstacle).armour_class,
        ):
            encounter, more = _stray(options, encounter, cid, obstacle, answers)
            events.extend(more)
    return release_fallen(encounter, target), events


def _stray(
    options: MidianOptions,
    encounter: MidianEncounter,
    cid: str,
    obstacle: str,
    answers: MidianAnswers,
) -> MidianOutcome:
    """The shot strikes the ally in the way instead."""
    shooter, victim = armed(encounter, cid), encounter.sheet(obstacle)
    modifiers = damage_modifiers(
        shooter, shooter.weapon, penalty=encounter.states[cid].health.penalty
    )
    damage = roll_damage(shooter, victim, answers.dice, critical=False, modifiers=modifiers)
    encounter, hurt_events = hurt(
        options, encounter, obstacle, damage.final, answers, f"{cid}'s stray shot"
    )
    struck = StatusChanged(obstacle, "struck", f"in the way of {cid}'s shot")
    return encounter, [struck, damage.event, *hurt_events]


def hurt(
    options: MidianOptions,
    encounter: MidianEncounter,
    cid: str,
    amount: int,
    answers: MidianAnswers,
    source: str,
) -> MidianOutcome:
    """Damage outside an attack roll (a stray shot, a hold): take it, and fall if it fells."""
    state = encounter.states[cid]
    injury = take_damage(
        encounter.sheet(cid),
        state.health,
        amount,
        answers.dice,
        source=source,
        willpower=options.rules.willpower,
        retest=retester(encounter, cid, answers),
        willpower_shock=options.rules.willpower_shock,
    )
    encounter = encounter.with_state(cid, replace(state, health=injury.health))
    encounter = note_retests(encounter, injury.events)
    return release_fallen(encounter, cid), list(injury.events)


@dataclass(frozen=True, slots=True)
class RollTheTable:
    """Roll the critical-effect table (one die with a side per effect)."""

    @property
    def label(self) -> str:
        return "roll"


def critical(
    encounter: MidianEncounter,
    attacker: str,
    target: str,
    answers: MidianAnswers,
    *,
    fidelity: int = FIDELITY,
    numbers: bool = False,
) -> MidianOutcome:
    """A critical effect: rolled on the table, or chosen (the chapter lets the game
    master pick); knocked down, knocked out and decapitated take effect, and with
    ``numbers`` the effects the text gives numbers for (:data:`NUMBERED`); the others
    are narrated."""
    template = "{who}'s critical hit on {about}: roll the effect, or choose one?"
    options: tuple[RollTheTable | Critical, ...] = (RollTheTable(), *Critical)
    question = Question.named(attacker, MidianTopic.CRITICAL, template, options, about=target)
    answer = answers.ask(encounter, question)
    chosen = answer.value if isinstance(answer, Critical) else None
    rolled = critical_effect(target, answers.dice, choose=chosen)
    effect = Critical(rolled[0].effect)
    state = encounter.states[target]
    events: list[Event] = list(rolled)
    if effect is Critical.KNOCKED_DOWN:
        state = knock_down(encounter, target, fidelity=fidelity).states[target]
    elif effect is Critical.BLOW_TO_THE_JAW_OR_SKULL and state.health.alive:
        state = replace(state, health=replace(state.health, conscious=False))
        events.append(StatusChanged(target, "unconscious", "critical: blow to the jaw"))
    elif effect is Critical.DECAPITATED:
        state = replace(state, health=replace(state.health, alive=False, conscious=False))
        events.append(StatusChanged(target, "dead", "critical: decapitated"))
    elif numbers and effect in NUMBERED and state.health.alive:
        state = replace(state, health=numbered(state.health, effect, rolled[0].rounds))
    return encounter.with_state(target, state), events


NUMBERED = (Critical.WIND_KNOCKED_OUT, Critical.HIT_IN_THE_EAR, Critical.SEVERE_THROAT_WOUND)
"""The critical effects the text gives numbers for (``critical_numbers``)."""


def numbered(health: Health, effect: Critical, rounds: int | None) -> Health:
    """``health`` with a numbered critical effect taken: the wind knocked out for
    ``rounds`` more rounds (the longer of two), off balance, or ``rounds`` left to live
    (the sooner of two throat wounds)."""
    if effect is Critical.WIND_KNOCKED_OUT:
        return replace(health, winded=max(health.winded, rounds or 1))
    if effect is Critical.HIT_IN_THE_EAR:
        return replace(health, off_balance=True)
    left = rounds or 1
    return replace(health, dying_in=min(health.dying_in, left) if health.dying_in else left)


class Mishap(Enum):
    """What a fumble does (the chapter's examples: "your weapon breaking or being
    dropped or you may trip and fall")."""

    DROPPED = "drops the weapon"
    BROKEN = "the weapon breaks"
    TRIPPED = "trips and falls"

    @property
    def label(self) -> str:
        return self.name.lower()


def fumble(
    encounter: MidianEncounter, cid: str, answers: MidianAnswers, *, fidelity: int = FIDELITY
) -> MidianOutcome:
    """A fumble's mishap: rolled (one die, a side each) or the game master's pick. A
    dropped or broken weapon is lost for the fight (bare hands from then on); a trip
    knocks the fumbler down (two rounds getting up)."""
    prompt = f"{cid} fumbles: roll the mishap, or choose one?"
    options: tuple[RollTheTable | Mishap, ...] = (RollTheTable(), *Mishap)
    answer = answers.ask(encounter, Question(cid, MidianTopic.FUMBLE, prompt, options))
    if isinstance(answer, Mishap):
        mishap = answer
    else:
        mishap = list(Mishap)[answers.dice.roll(len(Mishap), f"{cid}'s fumble").face - 1]
    state = encounter.states[cid]
    natural = encounter.sheet(cid).weapon.encumbrance is Encumbrance.NONE
    if mishap is Mishap.TRIPPED or natural:  # fists cannot be dropped: a stumble
        mishap = Mishap.TRIPPED
        state = knock_down(encounter, cid, fidelity=fidelity).states[cid]
    else:
        state = replace(state, weapon_lost=True)
    event = StatusChanged(cid, "fumbled", mishap.value)
    return encounter.with_state(cid, state), [event]
