"""The one turn loop: a fight as a resumable cursor (pure: a cursor in, a cursor and
events out).

Everything that plays a fight drives this cursor: the reference engine and
``affray fight`` (:func:`affray.encounter.engine.steps`, which leaves every choice
to the tactics), duels, the table (each command one move of the cursor, with the
dice and answers the people at the table give), the table's odds and ``table run``.

Where it stands (:meth:`Cursor.phase`):

- ``SETUP``: nothing has happened; :func:`start` opens round 1.
- ``TURN``: it is :attr:`Cursor.current`'s turn. The rules' bookkeeping of the turn
  (``begin_turn``: spending the action it uses, turns it skips) is done as soon as
  the turn comes, unless it asks a question or rolls a die (a Midian interrupt):
  then it is done by the move that plays the turn, with that move's dice and
  answers (:attr:`Cursor.begun` says which). :func:`act` plays the turn, its
  action chosen by ``pick`` or asked of the answers; :func:`pass_turn` passes it.
- ``ROUND_OVER``: every turn of the round is taken; :func:`close_round` closes it
  (``end_round``: bleeding, fire, ...) and opens the next one.
- ``OVER``: at most one side is still fighting, or the round cap is reached.

When the last foe falls in the middle of a round, that round is closed at once
(its end-of-round rules still apply: a survivor may bleed to death) and the fight
ends. A move that ends the fight ends its events with :class:`EncounterEnded`.

Moves also report :class:`TurnBegan` and :class:`TurnEnded` between their events,
so that whoever drives the cursor can keep its own bookkeeping on turns (the
table's conditions); :func:`told` leaves them out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Generic

from affray.encounter.actions import Action
from affray.encounter.events import ActionChosen, EncounterEnded, EncounterStarted, RoundStarted
from affray.encounter.model import Encounter, SheetT, StateT
from affray.encounter.questions import Answers, NoAnswers, Question, Topic
from affray.encounter.ruleset import Ruleset
from affray.events import Event

DEFAULT_MAX_ROUNDS = 100


class Phase(Enum):
    SETUP = "setup"  # combatants are being gathered; no round yet
    TURN = "turn"  # someone's turn
    ROUND_OVER = "round over"  # every turn of the round is taken
    OVER = "over"  # at most one side is still fighting, or the round cap is reached


@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    """``combatant``'s turn comes (a marker for those who count turns); ``again``: it
    had come already and was put off (its start counted then)."""

    combatant: str
    again: bool = False


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """``combatant``'s turn is over, taken or skipped."""

    combatant: str


MARKERS = (TurnBegan, TurnEnded)


def told(events: Sequence[Event]) -> tuple[Event, ...]:
    """The events without the turn markers: what happened."""
    return tuple(e for e in events if not isinstance(e, MARKERS))


@dataclass(frozen=True, slots=True)
class Cursor(Generic[SheetT, StateT]):
    """Where a fight stands: the encounter, and the place in its round."""

    encounter: Encounter[SheetT, StateT]
    max_rounds: int = DEFAULT_MAX_ROUNDS
    started: bool = False
    order: tuple[str, ...] = ()
    """The round's turns as the rules set them out (a combatant with several actions
    appears as often); ``encounter.queue`` holds those still to come."""
    current: str | None = None
    begun: bool = False
    """Whether the rules' bookkeeping of the current turn is done."""
    closed: bool = False
    """Whether the rules' end of the current round has been played."""
    decided_closes: bool = True
    """Whether a fight decided in mid-round closes that round (``end_round``) before it
    ends; off only to replay tables logged before it did."""
    unbegun: Any = None
    """The current combatant's state before the bookkeeping done when its turn came
    (to put the turn off again: :func:`put_off`); None when there is none to undo."""
    put_off: tuple[str, ...] = ()
    """Combatants whose turn came and was put off this round (it comes again)."""

    @property
    def round(self) -> int:
        return self.encounter.round

    def phase(self, ruleset: Ruleset[SheetT, StateT]) -> Phase:
        if not self.started:
            return Phase.SETUP
        if len(sides_fighting(self.encounter, ruleset)) <= 1:
            return Phase.OVER
        if self.closed and self.round >= self.max_rounds:
            return Phase.OVER
        return Phase.TURN if self.current is not None else Phase.ROUND_OVER

    def with_encounter(self, encounter: Encounter[SheetT, StateT]) -> Cursor[SheetT, StateT]:
        return replace(self, encounter=encounter)


Moved = tuple[Cursor[SheetT, StateT], list[Event]]
"""A move of the cursor: where the fight stands after it, and what happened."""


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
) -> tuple[Encounter[SheetT, StateT], list[Event]]:
    """One whole turn of ``cid`` off the round's books (an interrupt's, a pre-empt's):
    its bookkeeping, the choice of an action, the action."""
    encounter, events, free = ruleset.begin_turn(encounter, cid, answers)
    if not free:
        return encounter, events
    action = answers.ask(encounter, action_question(encounter, ruleset, cid))
    encounter, more = ruleset.perform(encounter, cid, action, answers)
    return encounter, [*events, ActionChosen(cid, action), *more]


# -- the moves --------------------------------------------------------------------------


def start(
    cursor: Cursor[SheetT, StateT],
    ruleset: Ruleset[SheetT, StateT],
    answers: Answers[SheetT, StateT],
    *,
    name: str = "",
) -> Moved[SheetT, StateT]:
    """The fight begins: who is on which side, then round 1 (initiative, where the
    rules have it), up to the first turn that needs someone."""
    encounter = cursor.encounter
    roster = tuple(
        (side, tuple(c.id for c in encounter.combatants if c.side == side))
        for side in encounter.sides
    )
    events: list[Event] = [EncounterStarted(name, ruleset.system, roster)]
    cursor = replace(cursor, started=True, closed=True)
    if cursor.phase(ruleset) is Phase.OVER:  # no fight to have
        return cursor, [*events, ending(cursor, ruleset)]
    cursor, more = _new_round(cursor, ruleset, answers)
    return cursor, [*events, *more]


def act(
    cursor: Cursor[SheetT, StateT],
    ruleset: Ruleset[SheetT, StateT],
    answers: Answers[SheetT, StateT],
    pick: Callable[[Encounter[SheetT, StateT]], Action] | None = None,
) -> Moved[SheetT, StateT]:
    """The current combatant's turn: its bookkeeping (if not done when the turn came),
    the action ``pick`` chooses from the encounter then (or, without ``pick``, the
    one ``answers`` gives to the turn's question), the action; on to the next turn."""
    cid = _current(cursor, ruleset)
    cursor, events, free = _begin(cursor, ruleset, answers)
    if free:
        encounter = cursor.encounter
        if pick is not None:
            action = pick(encounter)
        else:
            action = answers.ask(encounter, action_question(encounter, ruleset, cid))
        encounter, more = ruleset.perform(encounter, cid, action, answers)
        cursor = cursor.with_encounter(encounter)
        events = [*events, ActionChosen(cid, action), *more]
    cursor, more = _after_turn(cursor, ruleset, answers, cid)
    return cursor, [*events, *more]


def pass_turn(
    cursor: Cursor[SheetT, StateT],
    ruleset: Ruleset[SheetT, StateT],
    answers: Answers[SheetT, StateT],
    passed: Callable[[str], Event] | None = None,
) -> Moved[SheetT, StateT]:
    """The current combatant lets its turn go by (its bookkeeping still happens);
    ``passed`` says so in an event of the caller's."""
    cid = _current(cursor, ruleset)
    cursor, events, free = _begin(cursor, ruleset, answers)
    if free and passed is not None:
        events.append(passed(cid))
    cursor, more = _after_turn(cursor, ruleset, answers, cid)
    return cursor, [*events, *more]


def close_round(
    cursor: Cursor[SheetT, StateT],
    ruleset: Ruleset[SheetT, StateT],
    answers: Answers[SheetT, StateT],
) -> Moved[SheetT, StateT]:
    """Every turn taken: the rules' end of the round, then (unless the fight is over)
    the next round, up to its first turn that needs someone."""
    if cursor.phase(ruleset) is not Phase.ROUND_OVER:
        raise ValueError(f"the round is not over: {cursor.phase(ruleset).value}")
    events: list[Event] = []
    if not cursor.closed:
        encounter, events = ruleset.end_round(cursor.encounter, answers)
        cursor = replace(cursor, encounter=encounter, closed=True)
    if cursor.phase(ruleset) is Phase.OVER:
        return cursor, [*events, ending(cursor, ruleset)]
    cursor, more = _new_round(cursor, ruleset, answers)
    return cursor, [*events, *more]


def proceed(
    cursor: Cursor[SheetT, StateT],
    ruleset: Ruleset[SheetT, StateT],
    answers: Answers[SheetT, StateT],
    *,
    name: str = "",
) -> Moved[SheetT, StateT]:
    """One move with every choice left to ``answers``: start the fight, play the
    current turn, or close the round. Nothing happens once the fight is over."""
    match cursor.phase(ruleset):
        case Phase.SETUP:
            return start(cursor, ruleset, answers, name=name)
        case Phase.TURN:
            return act(cursor, ruleset, answers)
        case Phase.ROUND_OVER:
            return close_round(cursor, ruleset, answers)
        case _:
            return cursor, []


def settle(
    cursor: Cursor[SheetT, StateT], ruleset: Ruleset[SheetT, StateT]
) -> Moved[SheetT, StateT]:
    """After a change from outside the rules (the game master's fiat): a current
    combatant who can no longer act has its turn end, and the round goes on to the
    next turn that needs someone (no die is rolled, no question asked: a fight so
    decided ends without its round's end)."""
    events: list[Event] = []
    if cursor.current is not None and not ruleset.fighting(cursor.encounter, cursor.current):
        events.append(TurnEnded(cursor.current))
        cursor = replace(cursor, current=None, begun=False, unbegun=None)
    if cursor.started and cursor.current is None and not cursor.closed:
        cursor, more = _advance(cursor, ruleset)
        events.extend(more)
    return cursor, events


def put_off(
    cursor: Cursor[SheetT, StateT], ruleset: Ruleset[SheetT, StateT], queue: tuple[str, ...]
) -> Moved[SheetT, StateT]:
    """The round's turns to come set to ``queue`` (the current turn, if it is among
    them, put off: its bookkeeping undone); then on to the next turn that needs
    someone."""
    encounter = cursor.encounter
    if cursor.current is not None and cursor.current in queue:
        if cursor.begun and cursor.unbegun is None:
            raise ValueError(f"{cursor.current}'s turn has begun and cannot be put off")
        if cursor.begun:
            encounter = encounter.with_state(cursor.current, cursor.unbegun)
        later = (*cursor.put_off, cursor.current)
        cursor = replace(cursor, current=None, begun=False, unbegun=None, put_off=later)
    return settle(cursor.with_encounter(encounter.queued(queue)), ruleset)


def ending(cursor: Cursor[SheetT, StateT], ruleset: Ruleset[SheetT, StateT]) -> EncounterEnded:
    """How the fight ended (or would end now): the side left, or a draw."""
    encounter = cursor.encounter
    left = sides_fighting(encounter, ruleset)
    standing = tuple(c.id for c in encounter.combatants if ruleset.fighting(encounter, c.id))
    if len(left) == 1:
        return EncounterEnded(left[0], "the other side is out of the fight", cursor.round, standing)
    if not left:
        return EncounterEnded(None, "no one is left fighting", cursor.round, standing)
    return EncounterEnded(None, f"round cap of {cursor.max_rounds} reached", cursor.round, standing)


# -- turns and rounds -------------------------------------------------------------------


def _current(cursor: Cursor[SheetT, StateT], ruleset: Ruleset[SheetT, StateT]) -> str:
    if cursor.phase(ruleset) is not Phase.TURN or cursor.current is None:
        raise ValueError(f"no one's turn: the fight is at {cursor.phase(ruleset).value}")
    return cursor.current


def _begin(
    cursor: Cursor[SheetT, StateT],
    ruleset: Ruleset[SheetT, StateT],
    answers: Answers[SheetT, StateT],
) -> tuple[Cursor[SheetT, StateT], list[Event], bool]:
    """The rules' bookkeeping of the current turn, unless done when the turn came."""
    if cursor.begun:
        return cursor, [], True
    assert cursor.current is not None
    encounter, events, free = ruleset.begin_turn(cursor.encounter, cursor.current, answers)
    return replace(cursor, encounter=encounter, begun=True), events, free


def _after_turn(
    cursor: Cursor[SheetT, StateT],
    ruleset: Ruleset[SheetT, StateT],
    answers: Answers[SheetT, StateT],
    cid: str,
) -> Moved[SheetT, StateT]:
    cursor = replace(cursor, current=None, begun=False, unbegun=None)
    events: list[Event] = [TurnEnded(cid)]
    if len(sides_fighting(cursor.encounter, ruleset)) <= 1:
        return _finish(cursor, ruleset, answers, events)
    cursor, more = _advance(cursor, ruleset)
    if cursor.phase(ruleset) is Phase.OVER:  # a skipped turn ended it
        return _finish(cursor, ruleset, answers, [*events, *more])
    return cursor, [*events, *more]


def _finish(
    cursor: Cursor[SheetT, StateT],
    ruleset: Ruleset[SheetT, StateT],
    answers: Answers[SheetT, StateT],
    events: list[Event],
) -> Moved[SheetT, StateT]:
    """The fight is decided in mid-round: the round is closed, and the fight ends."""
    if not cursor.closed and cursor.decided_closes:
        encounter, more = ruleset.end_round(cursor.encounter, answers)
        cursor = replace(cursor, encounter=encounter, closed=True)
        events = [*events, *more]
    return cursor, [*events, ending(cursor, ruleset)]


def _new_round(
    cursor: Cursor[SheetT, StateT],
    ruleset: Ruleset[SheetT, StateT],
    answers: Answers[SheetT, StateT],
) -> Moved[SheetT, StateT]:
    encounter = cursor.encounter.next_round()
    encounter, opening, turns = ruleset.begin_round(encounter, answers)
    order = tuple(turns)
    encounter = encounter.queued(order)
    cursor = replace(
        cursor,
        encounter=encounter,
        order=order,
        current=None,
        begun=False,
        closed=False,
        put_off=(),
    )
    cursor, events = _advance(cursor, ruleset)
    return cursor, [RoundStarted(encounter.round, order), *opening, *events]


def _advance(
    cursor: Cursor[SheetT, StateT], ruleset: Ruleset[SheetT, StateT]
) -> Moved[SheetT, StateT]:
    """On to the next turn that needs someone: past turns of those out of the fight,
    and past turns the rules skip without asking anything."""
    events: list[Event] = []
    probe: Answers[Any, Any] = NoAnswers.answers()
    while cursor.current is None and len(sides_fighting(cursor.encounter, ruleset)) > 1:
        if not cursor.encounter.queue:
            break
        cid, encounter = cursor.encounter.next_turn()
        cursor = cursor.with_encounter(encounter)
        if not ruleset.fighting(encounter, cid):
            continue
        again = cid in cursor.put_off
        if again:
            at = cursor.put_off.index(cid)
            left = (*cursor.put_off[:at], *cursor.put_off[at + 1 :])
            cursor = replace(cursor, put_off=left)
        cursor = replace(cursor, current=cid, begun=False)
        events.append(TurnBegan(cid, again))
        try:
            after, skipped, free = ruleset.begin_turn(encounter, cid, probe)
        except NoAnswers.NeededError:
            break  # it asks something (an interrupt?): that waits for the turn's move
        cursor = replace(cursor, encounter=after, begun=True, unbegun=encounter.state(cid))
        events.extend(skipped)
        if free:
            break  # the turn waits for its action
        cursor = replace(cursor, current=None, begun=False, unbegun=None)
        events.append(TurnEnded(cid))
    return cursor, events
