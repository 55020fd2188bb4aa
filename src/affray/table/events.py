"""Events of the table itself (the rules bring their own): who joined, conditions
and notes the game master keeps, turns passed."""

from __future__ import annotations

from dataclasses import dataclass

from affray.events import Event
from affray.narration.core import Narration, Segment


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
    about: str | None = None


@dataclass(frozen=True, slots=True)
class Edited(Event):
    """The game master set ``combatant``'s state: ``values`` as ``KEY=VALUE`` words."""

    combatant: str
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Removed(Event):
    combatant: str


@dataclass(frozen=True, slots=True)
class Renamed(Event):
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class Hidden(Event):
    combatant: str
    hidden: bool
    """True: hidden from the players; False: shown to them again."""


@dataclass(frozen=True, slots=True)
class Allowed(Event):
    """The players are allowed ``what`` (``players_choose``, ``players_odds``) from now
    on, or no longer (``allowed`` False)."""

    what: str
    allowed: bool


@dataclass(frozen=True, slots=True)
class TurnMoved(Event):
    """``combatant``'s next turn this round now comes ``where`` (before or after)
    ``other``'s."""

    combatant: str
    where: str
    other: str


def _edited(event: Edited) -> tuple[list[Segment], bool]:
    return [
        ("The game master sets ", "dim"),
        (event.combatant, "name"),
        (": ", "dim"),
        (
            ", ".join(event.values),
            "",
        ),
    ], False


def _removed(event: Removed) -> tuple[list[Segment], bool]:
    return [(event.combatant, "name"), (" leaves the table", "dim")], False


def _renamed(event: Renamed) -> tuple[list[Segment], bool]:
    return [(event.old, "name"), (" is now called ", "dim"), (event.new, "name")], False


def _hidden(event: Hidden) -> tuple[list[Segment], bool]:
    words = " is hidden from the players" if event.hidden else " is shown to the players"
    return [(event.combatant, "name"), (words, "dim")], False


ALLOWED_WORDS = {
    "players_choose": "choose their own actions on their turns",
    "players_odds": "see the odds of each action",
}


def _allowed(event: Allowed) -> tuple[list[Segment], bool]:
    may = "may" if event.allowed else "may no longer"
    what = ALLOWED_WORDS.get(event.what, event.what)
    return [("The game master: ", "dim"), (f"the players {may} {what}", "")], False


def _moved(event: TurnMoved) -> tuple[list[Segment], bool]:
    return [
        (event.combatant, "name"),
        (f"'s turn now comes {event.where} ", "dim"),
        (event.other, "name"),
        ("'s", "dim"),
    ], False


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
    if event.about is not None:
        return [("Note on ", "dim"), (event.about, "name"), (": ", "dim"), (event.text, "")], False
    return [("Note: ", "dim"), (event.text, "")], False


TABLE = (
    Narration()
    .on(CombatantAdded, _added)
    .on(TurnPassed, _passed)
    .on(ConditionAdded, _condition)
    .on(ConditionEnded, _ended)
    .on(NoteAdded, _note)
    .on(Edited, _edited)
    .on(Removed, _removed)
    .on(Renamed, _renamed)
    .on(Hidden, _hidden)
    .on(TurnMoved, _moved)
    .on(Allowed, _allowed)
)
"""How the table's own events are told (beside the systems')."""
