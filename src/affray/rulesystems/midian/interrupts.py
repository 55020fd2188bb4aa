"""Interrupts and pre-empting: acting just before a foe's action (the chapter's notes
on interrupts and on waiting).

> "Instead of going at your normal place (based on the initiative roll), your action
> takes place just barely before your opponents—thus ruining their attempt. […] If
> her attack roll is successful, the alchemist is too busy dodging (or bleeding) to
> throw the canister." — "Interrupts do not add actions."

When a combatant's turn comes, each foe with an interrupt left this round (sheet
key ``interrupts``) and an action still to come is asked whether it interrupts.
One that does takes that later action now (its later turn is gone), and if its
attack on the interrupted one hits and is not defended, the interrupted action is
ruined: the turn is lost. An interrupt cannot itself be interrupted.

> "If you had initiative over someone, but waited to see what he or she will do, you
> must make a wits challenge with your opponent to see if you can act first."

A combatant who waited for a foe is asked, when that foe's turn comes, whether to
pre-empt it: a Wits challenge; the winner acts first (an undetermined challenge
leaves the order as it was).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from affray.encounter import Question, Ruleset
from affray.encounter.events import ActionChosen, TurnSkipped
from affray.events import Event
from affray.rulesystems.midian.actions import Interrupt, LetAct, PreEmpt
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.checks import challenge
from affray.rulesystems.midian.events import AttackRolled, DefenceRolled, Evaded
from affray.rulesystems.midian.state import (
    MidianAnswers,
    MidianEncounter,
    MidianOptions,
    MidianState,
)
from affray.rulesystems.midian.topics import MidianTopic


class Interruptible(Protocol):
    """What an interrupt needs of the rules (the Midian ruleset, without naming it:
    the ruleset calls this module)."""

    @property
    def options(self) -> MidianOptions: ...

    def uninterrupted(self) -> Ruleset[Character, MidianState]:
        """The same rules, where no one may interrupt."""
        ...


def can_interrupt(encounter: MidianEncounter, who: str, cid: str) -> bool:
    """Whether ``who`` may interrupt ``cid``'s action now."""
    state = encounter.states[who]
    return (
        encounter.combatant(who).side != encounter.combatant(cid).side
        and state.fighting
        and state.interrupts_left > 0
        and state.pool.actions > 0
        and not state.held_by
        and not state.down_rounds
        and who in encounter.queue
    )


def interruptions(
    ruleset: Interruptible, encounter: MidianEncounter, cid: str, answers: MidianAnswers
) -> tuple[MidianEncounter, list[Event], bool]:
    """Ask each foe that could interrupt ``cid``; play the interrupts taken. False when
    ``cid``'s action is ruined or ``cid`` has fallen."""
    from affray.encounter.engine import play_turn

    events: list[Event] = []
    for c in encounter.combatants:
        if _can_pre_empt(encounter, c.id, cid, round3=ruleset.options.round3):
            encounter, more, went = _pre_empt(ruleset, encounter, c.id, cid, answers)
            events.extend(more)
            if not encounter.states[cid].fighting:
                return encounter, events, False
            if went:
                continue
        if not can_interrupt(encounter, c.id, cid):
            continue
        template = "{about} is about to act: does {who} interrupt?"
        options = (LetAct(cid), Interrupt(cid))
        question = Question.named(c.id, MidianTopic.INTERRUPT, template, options, about=cid)
        if isinstance(answers.ask(encounter, question), LetAct):
            continue
        state = encounter.states[c.id]
        # waiting_for marks the turn as one that cannot be put off again
        encounter = encounter.with_state(
            c.id, replace(state, interrupts_left=state.interrupts_left - 1, waiting_for=cid)
        )
        encounter = encounter.take_turn_now(c.id)  # the interrupt is that later action
        events.append(ActionChosen(c.id, Interrupt(cid)))
        encounter, turn = play_turn(encounter, ruleset.uninterrupted(), c.id, answers)
        events.extend(turn)
        if not encounter.states[cid].fighting:
            return encounter, events, False
        if _ruined(turn, c.id, cid):
            events.append(TurnSkipped(cid, f"its action was ruined by {c.id}'s interrupt"))
            return encounter, events, False
    return encounter, events, True


def _can_pre_empt(encounter: MidianEncounter, who: str, cid: str, *, round3: bool) -> bool:
    """Whether ``who``, waiting for ``cid``, may try to act first (not while getting
    up, from round 3 of fidelity on)."""
    state = encounter.states[who]
    return (
        state.waiting_for == cid
        and encounter.combatant(who).side != encounter.combatant(cid).side
        and state.fighting
        and not state.held_by
        and not (round3 and state.down_rounds)
        and state.pool.actions > 0
        and who in encounter.queue
    )


def _pre_empt(
    ruleset: Interruptible,
    encounter: MidianEncounter,
    who: str,
    cid: str,
    answers: MidianAnswers,
) -> tuple[MidianEncounter, list[Event], bool]:
    """Ask ``who`` (waiting for ``cid``) whether to pre-empt; on a won Wits challenge,
    ``who`` takes its waiting turn now. True when it went."""
    from affray.encounter.engine import play_turn

    template = "{about} is about to act: does {who}, who waited for it, try to act first?"
    options = (LetAct(cid), PreEmpt(cid))
    question = Question.named(who, MidianTopic.INTERRUPT, template, options, about=cid)
    answer = answers.ask(encounter, question)
    if isinstance(answer, LetAct):
        return encounter, [], False
    result, checks = challenge(
        encounter.sheet(who), "wits", encounter.sheet(cid), "wits", answers.dice
    )
    events: list[Event] = [ActionChosen(who, PreEmpt(cid)), *checks, result]
    if result.winner != who:  # it keeps waiting, and acts after ``cid``
        return encounter, events, False
    encounter = encounter.take_turn_now(who)  # its waiting turn, taken now
    encounter, turn = play_turn(encounter, ruleset.uninterrupted(), who, answers)
    return encounter, [*events, *turn], True


def _ruined(turn: list[Event], by: str, cid: str) -> bool:
    """An attack by ``by`` on ``cid`` that hit and was neither defended nor evaded."""
    for index, event in enumerate(turn):
        if isinstance(event, AttackRolled) and event.attacker == by and event.defender == cid:
            following = turn[index + 1 : index + 2]
            stopped = any(
                (isinstance(e, DefenceRolled) and e.success) or isinstance(e, Evaded)
                for e in following
            )
            if event.hit and not stopped:
                return True
    return False
