"""Close work in a Midian encounter: grappling, holds that squeeze, breaking free,
and disarming."""

from __future__ import annotations

from dataclasses import replace

from affray.dice import Dice
from affray.encounter.events import ActionChosen
from affray.events import Event
from affray.rulesystems.midian.actions import Squeeze
from affray.rulesystems.midian.character import Encumbrance
from affray.rulesystems.midian.damage import roll_damage
from affray.rulesystems.midian.events import StatusChanged
from affray.rulesystems.midian.modifiers import Modifier, nonzero
from affray.rulesystems.midian.resolve import Situation
from affray.rulesystems.midian.situations import disarm as disarm_contest
from affray.rulesystems.midian.situations import escape_hold
from affray.rulesystems.midian.state import (
    MidianAnswers,
    MidianEncounter,
    MidianOptions,
    MidianOutcome,
    armed,
    break_hold,
    defenceless,
    release_fallen,
)
from affray.rulesystems.midian.strikes import attack_roll, hurt, meet


def grapple(
    options: MidianOptions,
    encounter: MidianEncounter,
    cid: str,
    target: str,
    answers: MidianAnswers,
) -> MidianOutcome:
    """A touch attack; if it lands undefended, ``target`` is held."""
    events: list[Event] = []
    encounter = meet(encounter, cid, target, events)
    situation = Situation(touch=True, surprised=defenceless(encounter, target))
    encounter, outcome = attack_roll(
        options, encounter, cid, target, answers, situation, encounter.sheet(cid)
    )
    events.extend(outcome.events)
    them = encounter.states[target]
    if outcome.hit and not outcome.defended and them.health.fighting:
        them = replace(them, held_by=(*them.held_by, cid))
        holder = replace(encounter.states[cid], holding=target, holding_since=encounter.round)
        encounter = encounter.with_state(cid, holder)
        events.append(StatusChanged(target, "held", f"in {cid}'s hold"))
    encounter = encounter.with_state(target, them)
    return release_fallen(encounter, target), events


def squeeze(
    options: MidianOptions,
    encounter: MidianEncounter,
    holder: str,
    held: str,
    answers: MidianAnswers,
) -> MidianOutcome:
    """A continuing hold does its damage at the end of the round, without a roll to hit."""
    grip, victim = encounter.sheet(holder), encounter.sheet(held)
    natural = grip.weapon.encumbrance is Encumbrance.NONE
    damage = roll_damage(
        grip,
        victim,
        answers.dice,
        critical=False,
        modifiers=nonzero(Modifier("damage bonus", grip.damage_bonus)),
        damage_dice=grip.weapon.damage if natural else "0",
        damage_type="smashing",
    )
    encounter, hurt_events = hurt(
        options, encounter, held, damage.final, answers, f"{holder}'s hold"
    )
    return encounter, [ActionChosen(holder, Squeeze(held)), damage.event, *hurt_events]


def escape(encounter: MidianEncounter, cid: str, holder: str, dice: Dice) -> MidianOutcome:
    """A contest to break ``holder``'s hold on ``cid``."""
    if holder not in encounter.states[cid].held_by:
        return encounter, []
    result, checks = escape_hold(
        encounter.sheet(cid),
        encounter.sheet(holder),
        dice,
        escaper_penalty=encounter.states[cid].health.penalty,
        holder_penalty=encounter.states[holder].health.penalty,
    )
    events: list[Event] = [*checks, result]
    if result.winner == cid:
        encounter = break_hold(encounter, holder, cid)
        events.append(StatusChanged(cid, "free", f"broke {holder}'s hold"))
    return encounter, events


def disarm(encounter: MidianEncounter, cid: str, target: str, dice: Dice) -> MidianOutcome:
    """A contest of rolls: the loser's weapon falls (the attacker's, on a reversal)."""
    events: list[Event] = []
    encounter = meet(encounter, cid, target, events)
    me, them = armed(encounter, cid), armed(encounter, target)
    result = disarm_contest(
        me,
        them,
        dice,
        attacker_two_hands=me.weapon.hands == 2,
        defender_two_hands=them.weapon.hands == 2,
        attacker_penalty=encounter.states[cid].health.penalty,
        defender_penalty=encounter.states[target].health.penalty,
        defenceless=defenceless(encounter, target),
    )
    loser = {"disarmed": target, "reversed": cid}.get(result.outcome)
    events.append(
        StatusChanged(
            loser or target,
            "disarmed" if loser else result.outcome,
            f"disarm: {result.attacker_total} against {result.defender_total}",
        )
    )
    if loser is not None:
        encounter = encounter.with_state(loser, replace(encounter.states[loser], weapon_lost=True))
    return encounter, events
