"""What a table looks like from outside: the ``table show`` JSON, the order of the
turns to come, a short description of each command for the journal."""

from __future__ import annotations

from typing import Any

from affray.encounter.engine import sides_fighting
from affray.table.commands import Act, Add, Command, Mark, Note, Unmark
from affray.table.fold import Fold
from affray.table.state import Phase
from affray.table.store import TableRow


def show_data(table: TableRow, fold: Fold) -> dict[str, Any]:
    """``{"table", "name", "system", "round", "turn", "version", "phase", "queue",
    "winner", "combatants": [{"id", "side", "condition", "state", "conditions",
    "source"}], "notes"}``."""
    state = fold.state
    rules = fold.rules
    encounter = state.encounter
    ruleset = rules.ruleset
    phase = state.phase(rules)
    left = sides_fighting(encounter, ruleset)
    return {
        "table": table.id,
        "name": table.name,
        "system": table.system,
        "round": state.round,
        "turn": state.current if phase is Phase.TURN else None,
        "version": fold.version,
        "phase": phase.value,
        "queue": [cid for cid in encounter.queue if ruleset.fighting(encounter, cid)],
        "winner": (left[0] if left else None) if phase is Phase.OVER else None,
        "combatants": [
            {
                "id": c.id,
                "side": c.side,
                "condition": ruleset.condition(encounter, c.id),
                "state": dict(ruleset.snapshot(encounter, c.id)),
                "conditions": [
                    {"text": k.text, "until": k.until} for k in state.conditions_of(c.id)
                ],
                "source": state.sources.get(c.id, ""),
            }
            for c in encounter.combatants
        ],
        "notes": list(state.notes),
        "can_undo": len(fold.done),
        "can_redo": len(fold.undone),
    }


def describe(command: Command) -> str:
    """A command as a game master would say it."""
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
        case _:
            return command.verb
