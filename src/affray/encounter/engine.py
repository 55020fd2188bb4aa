"""A fight played to its end with every choice left to the answers (the tactics AI,
a replay): the reference engine, and what ``affray fight`` narrates.

It is the turn cursor (:mod:`affray.encounter.cursor`) moved until the fight is
over; each move is a :class:`Step`. Events are the record of everything; the result
carries them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Generic

from affray.encounter.cursor import (
    DEFAULT_MAX_ROUNDS,
    Cursor,
    Phase,
    action_question,
    play_turn,
    proceed,
    sides_fighting,
    start,
    told,
)
from affray.encounter.events import EncounterEnded
from affray.encounter.model import Encounter, SheetT, StateT
from affray.encounter.questions import Answers
from affray.encounter.ruleset import Ruleset
from affray.events import Event

__all__ = [
    "DEFAULT_MAX_ROUNDS",
    "EncounterResult",
    "Step",
    "action_question",
    "play_turn",
    "run_encounter",
    "sides_fighting",
    "steps",
]


@dataclass(frozen=True, slots=True)
class Step(Generic[SheetT, StateT]):
    """One move of the fight: the encounter after it, and the events it produced."""

    encounter: Encounter[SheetT, StateT]
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class EncounterResult(Generic[SheetT, StateT]):
    encounter: Encounter[SheetT, StateT]
    events: tuple[Event, ...]
    winner: str | None
    rounds: int
    reason: str


def steps(
    encounter: Encounter[SheetT, StateT],
    ruleset: Ruleset[SheetT, StateT],
    answers: Answers[SheetT, StateT],
    *,
    name: str = "",
    max_rounds: int = DEFAULT_MAX_ROUNDS,
) -> Iterator[Step[SheetT, StateT]]:
    """Play the fight move by move, yielding each; the last ends with EncounterEnded."""
    cursor, events = start(Cursor(encounter, max_rounds), ruleset, answers, name=name)
    yield Step(cursor.encounter, told(events))
    while cursor.phase(ruleset) is not Phase.OVER:
        cursor, events = proceed(cursor, ruleset, answers)
        yield Step(cursor.encounter, told(events))


def run_encounter(
    encounter: Encounter[SheetT, StateT],
    ruleset: Ruleset[SheetT, StateT],
    answers: Answers[SheetT, StateT],
    *,
    name: str = "",
    max_rounds: int = DEFAULT_MAX_ROUNDS,
) -> EncounterResult[SheetT, StateT]:
    """Play the fight to its end."""
    events: list[Event] = []
    final = encounter
    for step in steps(encounter, ruleset, answers, name=name, max_rounds=max_rounds):
        final = step.encounter
        events.extend(step.events)
    ended = events[-1]
    assert isinstance(ended, EncounterEnded)
    return EncounterResult(final, tuple(events), ended.winner, ended.rounds, ended.reason)
