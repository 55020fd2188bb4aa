"""A table's state, and what each command does to it (pure: no I/O, no clock).

The state is the fight's turn cursor (:mod:`affray.encounter.cursor`: the rules' own
state and the place in the round, the same cursor ``affray fight`` moves) plus what
the table keeps around it: where each combatant came from, its tactics, the game
master's conditions and notes. :func:`apply` runs one command as a move of the
cursor; dice and choices come from the :class:`Answers` it is given, so the same
function plays a command live (typed-in faces, rolled dice, the tactics AI) and
replays it from the log (the faces and answers it used).

``act`` plays the current combatant's turn; ``next`` passes it, or, when every turn
of the round is taken, closes the round and opens the next; ``run`` leaves turns to
the combatants' tactics. Conditions count down on the cursor's turn markers.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from affray.encounter import Action, Answers, Encounter, Targeting
from affray.encounter import cursor as turns
from affray.encounter.cursor import Phase, TurnBegan, TurnEnded, sides_fighting
from affray.encounter.model import Combatant, named
from affray.errors import ActionRefusedError, AffrayError, RulesError
from affray.events import Event
from affray.sheets.combatants import sheet_from_data
from affray.table.commands import (
    Act,
    Add,
    Command,
    Edge,
    Hazard,
    Mark,
    Next,
    Note,
    Run,
    Start,
    Unmark,
)
from affray.table.events import (
    CombatantAdded,
    ConditionAdded,
    ConditionEnded,
    Hidden,
    NoteAdded,
    TurnPassed,
)
from affray.table.fiat import POWERS
from affray.table.identity import derived_key
from affray.table.model import (
    CURSOR_ERA,
    ERA,
    LEGACY_MAX_ROUNDS,
    RULES_KEYS,
    Condition,
    Rules,
    TableState,
)

MAX_COMBATANTS = 200
__all__ = [
    "ERA",
    "RULES_KEYS",
    "Condition",
    "Phase",
    "Rules",
    "TableState",
    "apply",
    "choose_action",
]


def apply(
    rules: Rules,
    state: TableState,
    command: Command,
    answers: Answers[Any, Any],
    *,
    era: int = ERA,
) -> tuple[TableState, list[Event]]:
    """``command`` played on ``state``: the state after it and what happened.

    ``era`` is how the table played when the command was logged (:data:`ERA`): the
    command plays by the rules of that era (:meth:`Rules.at`).

    Raises:
        AffrayError: the rules refuse it (nothing is changed: states are values).
    """
    rules = rules.at(era)
    cursor = state.cursor
    cap = rules.max_rounds if era >= CURSOR_ERA else LEGACY_MAX_ROUNDS
    closes = era >= CURSOR_ERA
    if cursor.max_rounds != cap or cursor.decided_closes != closes:  # else: the same value
        state = replace(state, cursor=replace(cursor, max_rounds=cap, decided_closes=closes))
    match command:
        case Add():
            state, events = _add(rules, state, command)
        case Start():
            state, events = _start(rules, state, command, answers)
        case Act():
            state, events = _act(rules, state, command, answers)
        case Next():
            state, events = _next(rules, state, answers)
        case Run():
            state, events = _run(rules, state, command, answers)
        case Mark():
            state, events = _mark(state, command)
        case Unmark():
            state, events = _unmark(state, command)
        case Hazard():
            was_over = state.started and state.phase(rules) is Phase.OVER
            state, events = _hazard(rules, state, command, answers)
            if state.started and not was_over and state.phase(rules) is Phase.OVER:
                events.append(turns.ending(state.cursor, rules.ruleset))
        case Note(text=text, about=about):  # the state is as it was: notes are the log's
            events = [NoteAdded(text, state.resolve(about) if about is not None else None)]
        case _:
            was_over = state.started and state.phase(rules) is Phase.OVER
            state, events = POWERS[type(command)](rules, state, command)
            if state.started and not was_over and state.phase(rules) is Phase.OVER:
                events.append(turns.ending(state.cursor, rules.ruleset))
    return _count_turns(state, events)


# -- the commands -----------------------------------------------------------------------


def _add(rules: Rules, state: TableState, command: Add) -> tuple[TableState, list[Event]]:
    encounter = state.encounter
    if len(encounter.combatants) >= MAX_COMBATANTS:
        raise RulesError(f"a table holds at most {MAX_COMBATANTS} combatants")
    if any(c.id.lower() == command.combatant.lower() for c in encounter.combatants):
        raise RulesError(
            f"there is already a combatant called {command.combatant!r}",
            hint="give the new one another name",
        )
    sheet = sheet_from_data(command.sheet, command.source)
    if not rules.system.owns(sheet):
        raise RulesError(
            f"{command.source} is not a {rules.system.title} sheet",
            hint=f"this table plays {rules.system.title}: add {rules.system.name} sheets",
        )
    try:
        targeting = Targeting.named(command.tactics)
        tactics = rules.system.tactics(
            targeting, dict(command.tactics_keys), where=command.source, at="tactics"
        )
    except AffrayError as error:
        raise RulesError(f"tactics {command.tactics!r}: {error.message}", hint=error.hint) from None
    sheet = named(sheet, command.combatant)
    combatant = Combatant(command.combatant, command.side, sheet)
    encounter = replace(
        encounter,
        combatants=(*encounter.combatants, combatant),
        states={**encounter.states, combatant.id: rules.ruleset.initial_state(sheet)},
    )
    state = replace(
        state,
        cursor=state.cursor.with_encounter(encounter),
        sources={**state.sources, combatant.id: command.source},
        tactics={**state.tactics, combatant.id: tactics},
        players=state.players | {combatant.id} if command.player else state.players,
        serials={**state.serials, combatant.id: state.joined + 1},
        joined=state.joined + 1,
        keys={**state.keys, combatant.id: command.key or derived_key(state.joined + 1, 0)},
        hidden=state.hidden | {combatant.id} if command.hidden else state.hidden,
    )
    added: list[Event] = [CombatantAdded(combatant.id, command.side, command.source)]
    return state, [*added, Hidden(combatant.id, True)] if command.hidden else added


def _start(
    rules: Rules, state: TableState, command: Start, answers: Answers[Any, Any]
) -> tuple[TableState, list[Event]]:
    if state.started:
        raise RulesError(
            f"the fight has started already (round {state.round})",
            hint="go on with act and next (the page: an action, or Pass)",
        )
    sides = {c.side for c in state.encounter.combatants}
    if len(sides) < 2:
        raise RulesError(
            "a fight needs combatants on at least two sides",
            hint="add combatants on a second side",
        )
    cursor, events = turns.start(state.cursor, rules.ruleset, answers, name=command.name)
    return replace(state, cursor=cursor), events


def _act(
    rules: Rules, state: TableState, command: Act, answers: Answers[Any, Any]
) -> tuple[TableState, list[Event]]:
    actor = state.resolve(command.actor)
    _check_turn(rules, state, actor)
    target = command.target
    if target is not None:  # by its key in the log (by name in an older one)
        with contextlib.suppress(RulesError):
            target = state.resolve(target)
    if state.cursor.begun:  # say what is wrong with the action before any die is rolled
        legal = rules.ruleset.actions(state.encounter, actor)
        choose_action(legal, actor, command.action, target)

    def pick(encounter: Encounter[Any, Any]) -> Action:
        legal = rules.ruleset.actions(encounter, actor)
        return choose_action(legal, actor, command.action, target)

    cursor, events = turns.act(state.cursor, rules.ruleset, answers, pick)
    return replace(state, cursor=cursor), events


def _hazard(
    rules: Rules, state: TableState, command: Hazard, answers: Answers[Any, Any]
) -> tuple[TableState, list[Event]]:
    """``who`` suffers the system's hazard (its dice from ``answers``); a fight it
    decides is settled as a fiat's is."""
    who = state.resolve(command.who)
    system = rules.system
    if system.hazard is None or not system.hazards:
        raise RulesError(f"{system.title} has no hazards to bring on a combatant")
    names = [h.name for h in system.hazards]
    kind = command.kind.strip().lower()
    if kind not in names:
        raise RulesError(f"no hazard called {command.kind!r}", hint="one of: " + ", ".join(names))
    encounter, events = system.hazard(
        rules.ruleset, state.encounter, who, kind, dict(command.values), answers=answers
    )
    cursor = state.cursor.with_encounter(encounter)
    if who == cursor.current:  # its turn can no longer be put off as it was before
        cursor = replace(cursor, unbegun=None)
    cursor, settled = turns.settle(cursor, rules.ruleset)
    return replace(state, cursor=cursor), [*events, *settled]


def _next(
    rules: Rules, state: TableState, answers: Answers[Any, Any]
) -> tuple[TableState, list[Event]]:
    """``next``: pass the current turn, or close the round and open the next."""
    if _fighting_phase(rules, state) is Phase.TURN:
        cursor, events = turns.pass_turn(state.cursor, rules.ruleset, answers, TurnPassed)
    else:
        cursor, events = turns.close_round(state.cursor, rules.ruleset, answers)
    return replace(state, cursor=cursor), events


def _run(
    rules: Rules, state: TableState, command: Run, answers: Answers[Any, Any]
) -> tuple[TableState, list[Event]]:
    """The combatants' tactics take ``turns`` turns (rounds closing and opening as
    they come), or every turn to the end of the fight; round 1 starts first if the
    fight has not started."""
    if command.turns < 1:
        raise RulesError(f"run at least 1 turn, not {command.turns}")
    events: list[Event] = []
    if not state.started:
        state, events = _start(rules, state, Start(command.name), answers)
    else:
        _fighting_phase(rules, state)
    cursor = state.cursor
    left = command.turns
    while cursor.phase(rules.ruleset) is not Phase.OVER and (command.to_end or left > 0):
        if cursor.phase(rules.ruleset) is Phase.TURN:
            left -= 1
        elif not command.to_end and left <= 0:
            break
        cursor, more = turns.proceed(cursor, rules.ruleset, answers)
        events.extend(more)
    return replace(state, cursor=cursor), events


def _mark(state: TableState, command: Mark) -> tuple[TableState, list[Event]]:
    who = state.resolve(command.combatant)
    text = " ".join(command.text.split())
    if not text:
        raise RulesError("a condition needs a name", hint='e.g. "prone" or "on fire"')
    of = None
    if command.ends is not None:
        of = state.resolve(command.of) if command.of else who
    if command.turns < 1:
        raise RulesError(f"a condition lasts at least 1 turn, not {command.turns}")
    condition = Condition(who, text, command.ends, of, command.turns, command.public)
    kept = tuple(c for c in state.conditions if (c.combatant, c.text) != (who, text))
    return replace(state, conditions=(*kept, condition)), [
        ConditionAdded(who, text, condition.until)
    ]


def _unmark(state: TableState, command: Unmark) -> tuple[TableState, list[Event]]:
    who = state.resolve(command.combatant)
    held = state.conditions_of(who)
    gone = [c for c in held if c.text.lower() == " ".join(command.text.lower().split())]
    if not gone:
        listed = ", ".join(c.text for c in held) or "none"
        raise RulesError(f"{who} is not {command.text!r}", hint=f"{who}'s conditions: {listed}")
    kept = tuple(c for c in state.conditions if c is not gone[0])
    return replace(state, conditions=kept), [ConditionEnded(who, gone[0].text, "")]


# -- turns and rounds -------------------------------------------------------------------


def _fighting_phase(rules: Rules, state: TableState) -> Phase:
    """The phase, which must be a turn or the end of a round.

    Raises:
        RulesError: the fight has not started, or is over.
    """
    phase = state.phase(rules)
    if phase is Phase.SETUP:
        raise RulesError(
            "the fight has not started",
            hint="start it first (table start; the page: Start round 1)",
        )
    if phase is Phase.OVER:
        raise RulesError(_over(rules, state), hint="undo to go back, or add combatants")
    return phase


def _check_turn(rules: Rules, state: TableState, actor: str) -> None:
    if _fighting_phase(rules, state) is Phase.ROUND_OVER:
        raise RulesError(
            f"every turn of round {state.round} is taken",
            hint=f"next (the page: Next round) ends the round and starts round {state.round + 1}",
        )
    if state.current != actor:
        raise RulesError(
            f"it is {state.current}'s turn, not {actor}'s",
            hint=f"act for {state.current}, or pass its turn (next; the page: Pass)",
        )


def choose_action(legal: Sequence[Action], actor: str, name: str, target: str | None) -> Action:
    """The legal action called ``name`` (its kind or its full name) at ``target``.

    Raises:
        RulesError: no legal action fits; the message lists those there are.
    """
    wanted = " ".join(name.lower().split())
    named_so = [a for a in legal if wanted in (a.kind.lower(), a.name.lower())]
    if target is not None:
        aim = " ".join(target.lower().split())
        fits = [a for a in named_so if a.target is not None and a.target.lower() == aim]
        fits = fits or [a for a in named_so if a.target and a.target.lower().startswith(aim)]
    else:
        fits = named_so
    if len(fits) == 1:
        return fits[0]
    told = [(a.label, a.target, a in named_so) for a in legal]
    whom = [a.target or "" for a in fits] if len(fits) > 1 else []
    raise ActionRefusedError(actor, name, target, told, whom)


def _count_turns(state: TableState, events: Sequence[Event]) -> tuple[TableState, list[Event]]:
    """Conditions counted down on the cursor's turn markers (the markers themselves
    are left out: they say nothing that happened)."""
    told: list[Event] = []
    for event in events:
        if isinstance(event, TurnBegan):
            if event.again:  # its start was counted when it first came
                continue
            state, ended = _expire(state, event.combatant, Edge.START)
        elif isinstance(event, TurnEnded):
            state, ended = _expire(state, event.combatant, Edge.END)
        else:
            told.append(event)
            continue
        told.extend(ended)
    return state, told


def _expire(state: TableState, cid: str, edge: Edge) -> tuple[TableState, list[Event]]:
    """Count down conditions that last until the ``edge`` of ``cid``'s turn."""
    kept: list[Condition] = []
    events: list[Event] = []
    for condition in state.conditions:
        if condition.ends is not edge or condition.of != cid:
            kept.append(condition)
        elif condition.turns > 1:
            kept.append(replace(condition, turns=condition.turns - 1))
        else:
            why = f" (the {edge.value} of {cid}'s turn)"
            events.append(ConditionEnded(condition.combatant, condition.text, why))
    if kept == list(state.conditions):  # none of them counts this turn
        return state, []
    return replace(state, conditions=tuple(kept)), events


def _over(rules: Rules, state: TableState) -> str:
    left = sides_fighting(state.encounter, rules.ruleset)
    if len(left) > 1:
        return f"the fight is over: the round cap of {rules.max_rounds} is reached"
    return f"the fight is over: {left[0]} won" if left else "the fight is over: no one is left"
