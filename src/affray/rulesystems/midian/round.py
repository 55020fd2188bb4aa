"""The Midian round: initiative and stances at the start, each turn's bookkeeping,
holds, bleeding and system shock at the end.

Each round everyone still fighting rolls initiative (last round's shock carried
in) and chooses a stance; every action slot (several for totals over 10) is a
turn, highest first, ties to the higher Wits. A defence that is not free spends
the defender's next unused action of the round. At the end of the round holds
squeeze, wounds bleed, system shock is rolled at 0 life points or below, and this
round's shock becomes next round's initiative penalty.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from affray.encounter import Question
from affray.encounter.events import TurnSkipped
from affray.events import Event
from affray.rulesystems.midian.defence import DefencePool, Stance, evade
from affray.rulesystems.midian.events import StatusChanged
from affray.rulesystems.midian.hazard_powers import burn_at_round_end
from affray.rulesystems.midian.initiative import initiative_modifiers, order_slots, roll_initiative
from affray.rulesystems.midian.injury import WINDED_PENALTY, Health, end_of_round
from affray.rulesystems.midian.modifiers import Modifier
from affray.rulesystems.midian.retests import note_retests, retester
from affray.rulesystems.midian.state import (
    MidianAnswers,
    MidianEncounter,
    MidianOptions,
    MidianOutcome,
    release_fallen,
)
from affray.rulesystems.midian.topics import MidianTopic
from affray.rulesystems.midian.wrestling import squeeze


def ask_stance(encounter: MidianEncounter, cid: str, answers: MidianAnswers) -> Stance:
    """How ``cid`` fights this round: normal, defensive, total defence or evasion."""
    prompt = f"round {encounter.round}: how does {cid} fight this round?"
    return answers.ask(encounter, Question(cid, MidianTopic.STANCE, prompt, tuple(Stance)))


def begin_round(
    options: MidianOptions, encounter: MidianEncounter, answers: MidianAnswers
) -> tuple[MidianEncounter, list[Event], Sequence[str]]:
    """Initiative, stances and fresh defences; the order of the round's turns."""
    events: list[Event] = []
    active = [c for c in encounter.combatants if encounter.states[c.id].fighting]
    if encounter.round == 1 and options.surprised:
        if options.surprised >= set(encounter.sides):
            for c in active:
                events.append(TurnSkipped(c.id, "surprised: everyone stands dumbfounded"))
            return encounter, events, []
        order = []
        for c in active:
            caught = c.side in options.surprised
            state = encounter.states[c.id]
            if caught:
                pool = DefencePool.fresh(c.sheet, actions=0)
            else:  # the ambushers choose how to fight, as in any round
                stance = ask_stance(encounter, c.id, answers)
                pool = DefencePool.fresh(c.sheet, actions=1, stance=stance)
                if stance is Stance.EVASION:
                    evasion = evade(c.sheet, answers.dice, penalty=state.health.penalty)
                    events.append(evasion)
                    pool = replace(pool, evasion_total=evasion.total)
                order.append(c.id)
            encounter = encounter.with_state(c.id, replace(state, pool=pool, surprised=caught))
        return encounter, events, order
    entries: list[tuple[str, int, int]] = []
    for c in active:
        state = encounter.states[c.id]
        sheet = c.sheet
        if state.holding is not None and not state.held_by:  # a continuing hold: no roll
            stance = ask_stance(encounter, c.id, answers)
            pool = DefencePool.fresh(sheet, actions=0, stance=stance)
            encounter = encounter.with_state(c.id, replace(state, pool=pool))
            continue
        rolled = roll_initiative(
            sheet,
            answers.dice,
            modifiers=initiative_modifiers(
                sheet,
                shock=state.health.carried_shock,
                fatigue=state.health.fatigue,
                extra=winded(state.health),
            ),
        )
        events.append(rolled)
        stance = ask_stance(encounter, c.id, answers)
        pool = DefencePool.fresh(sheet, actions=len(rolled.slots), stance=stance)
        health = replace(state.health, carried_shock=0)
        if stance is Stance.EVASION:  # one dodge roll at -6 stands for the whole round
            evasion = evade(sheet, answers.dice, penalty=health.penalty)
            events.append(evasion)
            pool = replace(pool, evasion_total=evasion.total)
        encounter = encounter.with_state(
            c.id,
            replace(
                state,
                health=health,
                pool=pool,
                initiative=rolled.total,
                surprised=False,
                interrupts_left=sheet.interrupts,
                waiting_for=None,
                waited=False,
                waited_to=None,
            ),
        )
        entries.append((c.id, rolled.total, sheet.wits))
    return encounter, events, [slot.character for slot in order_slots(entries)]


def begin_turn(encounter: MidianEncounter, cid: str) -> tuple[MidianEncounter, list[Event], bool]:
    """Spend the action this turn uses (a turn one waited for is waited no longer); no
    turn for one whose action went on defending or who is getting back up."""
    state = encounter.states[cid]
    if state.pool.actions <= 0:
        return encounter, [TurnSkipped(cid, "its action went on defending")], False
    state = replace(
        state,
        pool=replace(state.pool, actions=state.pool.actions - 1),
        waited=state.waiting_for is not None,
        waiting_for=None,
    )
    encounter = encounter.with_state(cid, state)
    if state.down_rounds:
        return encounter, [TurnSkipped(cid, "getting back up")], False
    return encounter, [], True


def end_round(
    options: MidianOptions, encounter: MidianEncounter, answers: MidianAnswers
) -> MidianOutcome:
    """Holds squeeze; those on fire burn; then everyone bleeds, rolls system shock if
    due, counts down."""
    events: list[Event] = []
    for c in encounter.combatants:
        state = encounter.states[c.id]
        if (
            state.holding is not None
            and state.fighting
            and encounter.round > state.holding_since  # not the round the hold was taken
        ):
            encounter, more = squeeze(options, encounter, c.id, state.holding, answers)
            events.extend(more)
    encounter, burnt = burn_at_round_end(options, encounter, answers)
    events.extend(burnt)
    for c in encounter.combatants:
        state = encounter.states[c.id]
        if not state.health.alive or state.fled:
            continue
        retest = retester(encounter, c.id, answers)
        health, more = end_of_round(c.sheet, state.health, answers.dice, retest=retest)
        events.extend(more)
        health, counted = count_down(c.id, health)
        events.extend(counted)
        encounter = encounter.with_state(
            c.id, replace(state, health=health, down_rounds=max(0, state.down_rounds - 1))
        )
        encounter = note_retests(encounter, more)
        encounter = release_fallen(encounter, c.id)
    return encounter, events


def winded(health: Health) -> tuple[Modifier, ...]:
    """The wind knocked out, on an initiative roll (-6 to every roll)."""
    return (Modifier("wind knocked out", -WINDED_PENALTY),) if health.winded else ()


def count_down(cid: str, health: Health) -> tuple[Health, list[Event]]:
    """A critical's rounds run down at the end of a round (``critical_numbers``): the
    wind comes back, and a severe throat wound's last round ends in death."""
    if not (health.winded or health.dying_in):
        return health, []
    events: list[Event] = []
    winded_left = max(0, health.winded - 1)
    if health.winded and not winded_left:
        events.append(StatusChanged(cid, "no longer winded", "critical: wind knocked out"))
    health = replace(health, winded=winded_left)
    if health.dying_in:
        left = health.dying_in - 1
        health = replace(health, dying_in=left)
        if not left and health.alive:
            health = replace(health, alive=False, conscious=False)
            events.append(StatusChanged(cid, "dead", "critical: severe throat wound"))
    return health, events
