"""The game master's powers over a table (pure): set a combatant's state by fiat,
remove, rename, hide or reveal it, move its turn in the round, allow the players
to choose their own actions or to see the odds. Each is a command
like any other: one change in the log, undone by ``undo``; a refused one changes
nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from affray.encounter import cursor as turns
from affray.encounter.model import Combatant, named, pair
from affray.errors import RulesError
from affray.events import Event
from affray.sheets.validation import plain_name
from affray.table.commands import Allow, Hide, Move, Remove, Rename, Reveal, Set
from affray.table.events import Allowed, Edited, Hidden, Removed, Renamed, TurnMoved
from affray.table.model import Rules, TableState

Done = tuple[TableState, list[Event]]


def set_values(rules: Rules, state: TableState, command: Set) -> Done:
    """``who``'s snapshot keys and condition set (the system checks the values)."""
    who = state.resolve(command.who)
    edit = rules.system.edit
    if edit is None:
        raise RulesError(f"{rules.system.title} takes no edits of a combatant's state")
    snapshot = rules.ruleset.snapshot(state.encounter, who)
    if not command.values and not command.adds:
        keys = ", ".join([*snapshot, "condition"])
        raise RulesError("set what?", hint=f"set KEY=VALUE, KEY one of: {keys}")
    values = dict(command.values)
    for key, step in command.adds.items():
        now = snapshot.get(key)
        if isinstance(now, bool) or not isinstance(now, int):
            numbers = [
                k for k, v in snapshot.items() if isinstance(v, int) and not isinstance(v, bool)
            ]
            raise RulesError(
                f"{who}'s {key} is not a number to add to",
                hint="one of: " + (", ".join(numbers) or "none"),
            )
        values[key] = now + step
    encounter = edit(state.encounter, who, values, where=f"set {who}")
    words = tuple(
        f"{k}={v} ({command.adds[k]:+d})" if k in command.adds else f"{k}={v}"
        for k, v in values.items()
    )
    cursor = state.cursor
    unbegun = cursor.unbegun
    if who == cursor.current and unbegun is not None:  # the edit holds if the turn is put off
        before = edit(state.encounter.with_state(who, unbegun), who, values, where="")
        unbegun = before.state(who)
    cursor, events = turns.settle(
        replace(cursor, encounter=encounter, unbegun=unbegun), rules.ruleset
    )
    return replace(state, cursor=cursor), [Edited(who, words), *events]


def remove(rules: Rules, state: TableState, command: Remove) -> Done:
    """``who`` gone from the table: its turns, engagements, conditions and all; first it
    leaves the fight by the rules (as one who fled: holds let go), and then what
    others' states still say of it (whom they wait for, ...) is forgotten."""
    who = state.resolve(command.who)
    encounter = state.encounter
    leaving = rules.system.edit is not None and "fled" in rules.system.conditions
    if leaving and rules.system.edit is not None and rules.ruleset.fighting(encounter, who):
        encounter = rules.system.edit(encounter, who, {"condition": "fled"}, where="remove")
    encounter = encounter.release(who)
    encounter = replace(
        encounter,
        combatants=tuple(c for c in encounter.combatants if c.id != who),
        states={cid: forgotten(s, who) for cid, s in encounter.states.items() if cid != who},
        queue=tuple(cid for cid in encounter.queue if cid != who),
    )
    cursor = state.cursor
    current = cursor.current if cursor.current != who else None
    cursor = replace(
        cursor,
        encounter=encounter,
        order=tuple(cid for cid in cursor.order if cid != who),
        current=current,
        begun=cursor.begun and current is not None,
        unbegun=None,
    )
    cursor, events = turns.settle(cursor, rules.ruleset)
    state = replace(
        state,
        cursor=cursor,
        sources={k: v for k, v in state.sources.items() if k != who},
        tactics={k: v for k, v in state.tactics.items() if k != who},
        players=state.players - {who},
        hidden=state.hidden - {who},
        serials={k: v for k, v in state.serials.items() if k != who},
        keys={k: v for k, v in state.keys.items() if k != who},
        conditions=tuple(c for c in state.conditions if who not in (c.combatant, c.of)),
    )
    return state, [Removed(who), *events]


def forgotten(value: Any, who: str) -> Any:
    """``value`` with ``who`` (a combatant's id, in a rule system's state) gone: a field
    that names it is None, a tuple or set that holds it holds it no more."""
    if isinstance(value, tuple):
        return tuple(forgotten(item, who) for item in value if item != who)
    if isinstance(value, frozenset):
        return frozenset(forgotten(item, who) for item in value if item != who)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {
            f.name: None
            if getattr(value, f.name) == who
            else forgotten(getattr(value, f.name), who)
            for f in dataclasses.fields(value)
        }
        return replace(value, **changes)
    return value


def rename(rules: Rules, state: TableState, command: Rename) -> Done:
    """``who`` called ``name`` everywhere: its sheet, its turns, who holds or waits
    for whom."""
    who = state.resolve(command.who)
    try:
        new = plain_name(command.name)
    except ValueError as error:
        raise RulesError(f"the name {error}") from None
    taken = {c.id.lower() for c in state.encounter.combatants if c.id != who}

    def swap(cid: str) -> str:
        return new if cid == who else cid

    if new.lower() in taken:
        raise RulesError(f"there is already a combatant called {new!r}", hint="choose another name")
    encounter = state.encounter
    encounter = replace(
        encounter,
        combatants=tuple(
            Combatant(new, c.side, named(c.sheet, new)) if c.id == who else c
            for c in encounter.combatants
        ),
        states={
            (new if cid == who else cid): renamed(s, who, new)
            for cid, s in encounter.states.items()
        },
        engagements={
            pair(*(new if x == who else x for x in p)): d for p, d in encounter.engagements.items()
        },
        queue=tuple(new if cid == who else cid for cid in encounter.queue),
    )
    cursor = state.cursor
    cursor = replace(
        cursor,
        encounter=encounter,
        order=tuple(new if cid == who else cid for cid in cursor.order),
        current=new if cursor.current == who else cursor.current,
        unbegun=renamed(cursor.unbegun, who, new),
    )
    state = replace(
        state,
        cursor=cursor,
        sources={swap(k): v for k, v in state.sources.items()},
        tactics={swap(k): v for k, v in state.tactics.items()},
        players=frozenset(swap(p) for p in state.players),
        hidden=frozenset(swap(p) for p in state.hidden),
        serials={swap(k): v for k, v in state.serials.items()},
        keys={swap(k): v for k, v in state.keys.items()},
        conditions=tuple(
            replace(c, combatant=swap(c.combatant), of=swap(c.of) if c.of else None)
            for c in state.conditions
        ),
    )
    return state, [Renamed(who, new)]


def renamed(value: Any, old: str, new: str) -> Any:
    """``value`` with every string that is ``old`` (a combatant's id, in a rule
    system's state: whom it holds, waits for, ...) made ``new``, through frozen
    dataclasses, tuples and frozensets."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, tuple):
        return tuple(renamed(item, old, new) for item in value)
    if isinstance(value, frozenset):
        return frozenset(renamed(item, old, new) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {
            f.name: renamed(getattr(value, f.name), old, new) for f in dataclasses.fields(value)
        }
        return replace(value, **changes)
    return value


def hide(rules: Rules, state: TableState, command: Hide | Reveal) -> Done:
    """``who`` hidden from the players, or shown to them again."""
    who = state.resolve(command.who)
    hiding = isinstance(command, Hide)
    if hiding == (who in state.hidden):
        word = "hidden" if hiding else "shown to the players"
        raise RulesError(f"{who} is {word} already")
    hidden = state.hidden | {who} if hiding else state.hidden - {who}
    return replace(state, hidden=hidden), [Hidden(who, hiding)]


def move(rules: Rules, state: TableState, command: Move) -> Done:
    """``who``'s next turn this round just before or after ``other``'s (the current
    turn counts as to come: put off, its bookkeeping undone; or taken over)."""
    if (command.before is None) == (command.after is None):
        raise RulesError("move before or after whom?", hint="give one of before and after")
    who = state.resolve(command.who)
    other = state.resolve(command.before or command.after or "")
    if other == who:
        raise RulesError(f"{who} cannot move before or after itself")
    cursor = state.cursor
    if not cursor.started or cursor.phase(rules.ruleset) not in (
        turns.Phase.TURN,
        turns.Phase.ROUND_OVER,
    ):
        raise RulesError("turns move only during a round", hint="start the fight first")
    to_come = list(cursor.encounter.queue)
    if cursor.current is not None:
        to_come.insert(0, cursor.current)
    for cid in (who, other):
        if cid not in to_come:
            raise RulesError(
                f"{cid} has no turn left this round",
                hint="still to act: " + (", ".join(dict.fromkeys(to_come)) or "no one"),
            )
    to_come.remove(who)
    at = to_come.index(other) + (0 if command.before else 1)
    to_come.insert(at, who)
    if cursor.current is not None and to_come[0] == cursor.current:
        queue = tuple(to_come[1:])  # the current turn stays where it is
        cursor = cursor.with_encounter(cursor.encounter.queued(queue))
        events: list[Event] = []
    else:
        if cursor.begun and cursor.unbegun is None:
            raise RulesError(
                f"{cursor.current}'s turn has begun: it cannot be put off now",
                hint=f"let {cursor.current} act or pass, or move the others around its turn",
            )
        cursor, events = turns.put_off(cursor, rules.ruleset, tuple(to_come))
    where = "before" if command.before else "after"
    return replace(state, cursor=cursor), [TurnMoved(who, where, other), *events]


def allow(rules: Rules, state: TableState, command: Allow) -> Done:
    """What the players are allowed from now on (each key on or off)."""
    changed = {k: v for k, v in command.values.items() if state.allows(rules, k) != v}
    if not changed:
        said = ", ".join(f"{k} is {'on' if v else 'off'}" for k, v in command.values.items())
        raise RulesError(f"{said} already")
    allowed = {**state.allowed, **changed}
    return replace(state, allowed=allowed), [Allowed(k, v) for k, v in changed.items()]


POWERS: Mapping[type, Any] = {
    Set: set_values,
    Remove: remove,
    Rename: rename,
    Hide: hide,
    Reveal: hide,
    Move: move,
    Allow: allow,
}
