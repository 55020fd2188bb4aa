"""What a table looks like from outside: the ``table show`` JSON, the order of the
turns to come, a short description of each command for the journal."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from affray.encounter import Encounter
from affray.encounter.cursor import sides_fighting
from affray.table.commands import (
    ALLOWED,
    Act,
    Add,
    Allow,
    Command,
    Hazard,
    Hide,
    Mark,
    Move,
    Note,
    Remove,
    Rename,
    Reveal,
    Run,
    Set,
    Unmark,
)
from affray.table.fold import Fold
from affray.table.identity import names_in
from affray.table.model import Rules
from affray.table.state import Phase, TableState
from affray.table.store import TableRow


def show_data(
    table: TableRow, fold: Fold, pending: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """``{"table", "name", "system", "round", "turn", "version", "phase", "queue",
    "order", "winner", "combatants": [{"id", "side", "condition", "state",
    "conditions", "source", "player"}], "notes", "can_undo", "can_redo", "pending",
    "allowed"}``: ``allowed`` what the players may (each of
    :data:`~affray.table.commands.ALLOWED`, true or false);
    ``order`` is the round's turns as they are played (:func:`played_order`: after a
    ``move``, the moved combatant in its new place), ``strip`` the same turns each
    with where it stands (:func:`turn_strip`), ``queue`` those still to come,
    ``pending`` the command waiting for a die or an answer (``{"who", "needs",
    "rolls", "command"}``) or null."""
    state = fold.state
    rules = fold.rules
    encounter = state.encounter
    ruleset = rules.ruleset
    phase = state.phase(rules)
    left = sides_fighting(encounter, ruleset)
    noted = fold.notes_about()
    effects = rules.system.effects
    return {
        "table": table.id,
        "name": table.name,
        "system": table.system,
        "round": state.round,
        "turn": state.current if phase is Phase.TURN else None,
        "version": fold.version,
        "phase": phase.value,
        "queue": [
            cid
            for cid in encounter.queue
            if ruleset.fighting(encounter, cid) and phase is not Phase.OVER
        ],
        "order": played_order(state),
        "strip": turn_strip(state, rules, phase),
        "winner": left[0] if phase is Phase.OVER and len(left) == 1 else None,
        "combatants": [
            {
                "id": c.id,
                "key": state.key_of(c.id),
                "side": c.side,
                "condition": ruleset.condition(encounter, c.id),
                "state": dict(ruleset.snapshot(encounter, c.id)),
                "conditions": [
                    {"text": k.text, "until": k.until, "public": k.public}
                    for k in state.conditions_of(c.id)
                ],
                **_effects(effects, encounter, c.id),
                "source": state.sources.get(c.id, ""),
                "player": c.id in state.players,
                "hidden": c.id in state.hidden,
                "engaged": [
                    {"with": other, "distance": encounter.distance(c.id, other)}
                    for other in encounter.engaged_with(c.id)
                ],
                "notes": noted.get(c.id, []),
            }
            for c in encounter.combatants
        ],
        "notes": fold.notes(),
        "can_undo": len(fold.done),
        "can_redo": len(fold.undone),
        "pending": dict(pending) if pending is not None else None,
        "allowed": {key: state.allows(rules, key) for key in ALLOWED},
    }


def _effects(
    effects: Callable[[Encounter[Any, Any], str], Sequence[str]] | None,
    encounter: Encounter[Any, Any],
    cid: str,
) -> dict[str, list[str]]:
    """``{"effects": [...]}`` where something lasts on ``cid`` beside its figures, else
    nothing (a table shows as it always did)."""
    found = list(effects(encounter, cid)) if effects is not None else []
    return {"effects": found} if found else {}


def played_order(state: TableState) -> list[str]:
    """This round's turns as they will have been played: those taken (the round's
    turns as set out, less the ones still to come), then the current turn and the rest
    still to come, in the order they come now (after a ``move`` too)."""
    cursor = state.cursor
    to_come = list(cursor.encounter.queue)
    if cursor.current is not None:
        to_come.insert(0, cursor.current)
    taken = list(state.order)
    for cid in reversed(to_come):  # each turn to come takes its latest place away
        for at in range(len(taken) - 1, -1, -1):
            if taken[at] == cid:
                del taken[at]
                break
    return [*taken, *to_come]


def turn_strip(state: TableState, rules: Rules, phase: Phase) -> list[dict[str, Any]]:
    """This round's turns (:func:`played_order`), each ``{"id", "at", "out"}``: ``at``
    is ``"done"`` (taken), ``"current"``, ``"to come"`` or ``"out"`` (a turn still to
    come of a combatant out of the fight: it is passed over), ``out`` whether the
    combatant is out of the fight now (one whose turn is done, too)."""
    cursor = state.cursor
    encounter = cursor.encounter
    order = played_order(state)
    current = cursor.current is not None and phase is Phase.TURN
    taken = len(order) - len(encounter.queue) - (1 if cursor.current is not None else 0)
    strip = []
    for at, cid in enumerate(order):
        out = not rules.ruleset.fighting(encounter, cid)
        if at < taken:
            where = "done"
        elif at == taken and current:
            where = "current"
        else:
            where = "out" if out or phase is Phase.OVER else "to come"
        strip.append({"id": cid, "at": where, "out": out})
    return strip


def health_word(fold: Fold, cid: str) -> str:
    """How ``cid`` looks from across the table now (:func:`health_in`)."""
    return health_in(fold.rules, fold.state, cid)


def health_in(rules: Rules, state: TableState, cid: str) -> str:
    """How ``cid`` looks from across the table in ``state``: unhurt, hurt, bloodied
    (half or more of its health gone), down, or fled. In the system's own words where it
    has them (Midian: hit points, then life points), else measured against its fresh
    state by the system's yardstick (``Ruleset.weakness``), so it works for every
    system."""
    ruleset = rules.ruleset
    encounter = state.encounter
    if not ruleset.fighting(encounter, cid):
        return "fled" if "fled" in ruleset.condition(encounter, cid) else "down"
    if rules.system.health is not None:
        return rules.system.health(encounter, cid)
    fresh = encounter.with_state(cid, ruleset.initial_state(encounter.sheet(cid)))
    before = ruleset.weakness(fresh, cid)
    lost = ruleset.weakness(encounter, cid) - before
    if lost <= 0:
        return "unhurt"
    return "bloodied" if lost >= max(-before, 1e-9) / 2 else "hurt"


def typed(value: object) -> str:
    """A value as one types it back (``true``, not ``True``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def describe(command: Command, called: Mapping[str, str] | None = None) -> str:
    """A command as a game master would say it, each combatant it names by key called
    as ``called`` says (:meth:`Fold.called`)."""
    if called:
        command = names_in(command, called)
    match command:
        case Add(combatant=who, side=side, source=source):
            return f"add {who} (side {side}, from {source})"
        case Act(actor=actor, action=action, target=target):
            return f"{actor}: {action}" + (f" {target}" if target else "")
        case Mark(combatant=who, text=text):
            return f"mark {who} {text}"
        case Unmark(combatant=who, text=text):
            return f"unmark {who} {text}"
        case Note(text=text):
            return f"note: {text}"
        case Set(who=who, values=values, adds=adds):
            return f"set {who} " + " ".join(
                [
                    *(f"{k}={typed(v)}" for k, v in values.items()),
                    *(f"{k}{v:+d}" for k, v in adds.items()),
                ]
            )
        case Hazard(who=who, kind=kind, values=values):
            return f"hazard {kind} on {who}" + "".join(
                f" {k}={typed(v)}" for k, v in values.items()
            )
        case Allow(values=values):
            return "allow " + " ".join(f"{k}={'on' if v else 'off'}" for k, v in values.items())
        case Remove(who=who) | Hide(who=who) | Reveal(who=who):
            return f"{command.verb} {who}"
        case Rename(who=who, name=name):
            return f"rename {who} to {name}"
        case Move(who=who, before=before, after=after):
            return f"move {who} " + (f"before {before}" if before else f"after {after}")
        case Run(turns=turns, to_end=to_end, toward_end=toward_end):
            if toward_end:
                return f"run to the end: stopped after {turns} turns (its time was up)"
            return "run to the end" if to_end else f"run {turns} turn{'s' if turns > 1 else ''}"
        case _:
            return command.verb
