"""Events of the table itself (the rules bring their own): who joined, conditions
and notes the game master keeps, turns passed."""

from __future__ import annotations

from dataclasses import dataclass

from affray.events import Event
from affray.narration.core import Segment, register


@dataclass(frozen=True, slots=True)
class CombatantAdded(Event):
    combatant: str
    side: str
    source: str


@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    """The game master moved on: ``combatant``'s turn ends without an action."""

    combatant: str


@dataclass(frozen=True, slots=True)
class ConditionAdded(Event):
    combatant: str
    text: str
    until: str
    """When it ends, in words ("the end of Ogre's next turn"), or "" for until removed."""


@dataclass(frozen=True, slots=True)
class ConditionEnded(Event):
    combatant: str
    text: str
    why: str


@dataclass(frozen=True, slots=True)
class NoteAdded(Event):
    text: str


def _added(event: CombatantAdded) -> tuple[list[Segment], bool]:
    return [
        (event.combatant, "name"),
        (f" joins the fight on side {event.side}", ""),
        (f" ({event.source})", "dim"),
    ], False


def _passed(event: TurnPassed) -> tuple[list[Segment], bool]:
    return [(event.combatant, "name"), (" passes", "dim")], False


def _condition(event: ConditionAdded) -> tuple[list[Segment], bool]:
    until = f" until {event.until}" if event.until else ""
    return [(event.combatant, "name"), (f" is {event.text}{until}", "")], False


def _ended(event: ConditionEnded) -> tuple[list[Segment], bool]:
    return [(event.combatant, "name"), (f" is no longer {event.text}", ""), (event.why, "dim")], (
        False
    )


def _note(event: NoteAdded) -> tuple[list[Segment], bool]:
    return [("Note: ", "dim"), (event.text, "")], False


register(
    {
        CombatantAdded: _added,
        TurnPassed: _passed,
        ConditionAdded: _condition,
        ConditionEnded: _ended,
        NoteAdded: _note,
    }
)
