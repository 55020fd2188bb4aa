"""The round loop: generic over rule systems.

Each round the ruleset gives the order of turns (the encounter's queue, which an
action such as waiting may change). Each combatant still fighting takes its turn:
the ruleset lists its legal actions, ``answers`` chooses one (the tactics AI, a
person, a replay), the ruleset performs it. Then the ruleset closes the round.
The fight ends when at most one side has anyone still fighting (the others are
out or fled), or as a draw at the round cap. Events are the record of everything;
the result carries them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Generic

from affray.encounter.actions import Action
from affray.encounter.events import ActionChosen, EncounterEnded, EncounterStarted, RoundStarted
from affray.encounter.model import Encounter, SheetT, StateT
from affray.encounter.questions import Answers, Question, Topic
from affray.encounter.ruleset import Outcome, Ruleset
from affray.events import Event

DEFAULT_MAX_ROUNDS = 100


@dataclass(frozen=True, slots=True)
class Step(Generic[SheetT, StateT]):
    """One moment of the fight: the encounter after it, and the events it produced."""

    encounter: Encounter[SheetT, StateT]
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class EncounterResult(Generic[SheetT, StateT]):
    encounter: Encounter[SheetT, StateT]
    events: tuple[Event, ...]
    winner: str | None
    rounds: int
    reason: str


def sides_fighting(
    encounter: Encounter[SheetT, StateT], ruleset: Ruleset[SheetT, StateT]
) -> list[str]:
    return [
        side
        for side in encounter.sides
        if any(ruleset.fighting(encounter, c.id) for c in encounter.combatants if c.side == side)
    ]


def action_question(
    encounter: Encounter[SheetT, StateT], ruleset: Ruleset[SheetT, StateT], cid: str
) -> Question[Action]:
    """The question of ``cid``'s turn: which of its legal actions to take."""
    legal: Sequence[Action] = ruleset.actions(encounter, cid)
    return Question(cid, Topic.ACTION, f"{cid}'s turn: what does {cid} do?", tuple(legal))


def play_turn(
    encounter: Encounter[SheetT, StateT],
    ruleset: Ruleset[SheetT, StateT],
    cid: str,
    answers: Answers[SheetT, StateT],
) -> Outcome[SheetT, StateT]:
    """One turn of ``cid``: its bookkeeping, the choice of an action, the action."""
    encounter, events, free = ruleset.begin_turn(encounter, cid, answers)
    if not free:
        return encounter, events
    action = answers.ask(encounter, action_question(encounter, ruleset, cid))
    encounter, more = ruleset.perform(encounter, cid, action, answers)
    return encounter, [*events, ActionChosen(cid, action), *more]


def steps(
    encounter: Encounter[SheetT, StateT],
    ruleset: Ruleset[SheetT, StateT],
    answers: Answers[SheetT, StateT],
    *,
    name: str = "",
    max_rounds: int = DEFAULT_MAX_ROUNDS,
) -> Iterator[Step[SheetT, StateT]]:
    """Play the fight turn by turn, yielding each step; the last yields EncounterEnded."""
    roster = tuple(
        (side, tuple(c.id for c in encounter.combatants if c.side == side))
        for side in encounter.sides
    )
    yield Step(encounter, (EncounterStarted(name, ruleset.system, roster),))
    while len(sides_fighting(encounter, ruleset)) > 1 and encounter.round < max_rounds:
        encounter = encounter.next_round()
        encounter, opening, turns = ruleset.begin_round(encounter, answers)
        order = tuple(turns)
        encounter = encounter.queued(order)
        yield Step(encounter, (RoundStarted(encounter.round, order), *opening))
        while encounter.queue:
            cid, encounter = encounter.next_turn()
            if not ruleset.fighting(encounter, cid):
                continue
            encounter, events = play_turn(encounter, ruleset, cid, answers)
            yield Step(encounter, tuple(events))
            if len(sides_fighting(encounter, ruleset)) <= 1:
                break
        encounter, events = ruleset.end_round(encounter, answers)
        if events:
            yield Step(encounter, tuple(events))
    yield Step(encounter, (_ending(encounter, ruleset, max_rounds),))


def _ending(
    encounter: Encounter[SheetT, StateT], ruleset: Ruleset[SheetT, StateT], max_rounds: int
) -> EncounterEnded:
    left = sides_fighting(encounter, ruleset)
    standing = tuple(c.id for c in encounter.combatants if ruleset.fighting(encounter, c.id))
    if len(left) == 1:
        return EncounterEnded(
            left[0], "the other side is out of the fight", encounter.round, standing
        )
    if not left:
        return EncounterEnded(None, "no one is left fighting", encounter.round, standing)
    return EncounterEnded(None, f"round cap of {max_rounds} reached", encounter.round, standing)


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
