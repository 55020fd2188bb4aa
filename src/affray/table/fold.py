"""The table's state as the fold of its log, with undo and redo.

Each row of the log is a change: a command with the inputs it used, or an undo or
a redo of some steps. Folding keeps the changes in effect as a stack (``done``)
and those undone as another (``undone``, the redo branch): an undo moves steps
from one to the other, a redo moves them back, and a new command drops the redo
branch (the log still has it). Every state along the stack is kept, so undo and
redo cost nothing and a new command costs one command.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, NamedTuple

from affray.dice import Dice, DieRoll, ScriptedDice, TypedDice
from affray.encounter import Answers, Chooser, Phase
from affray.encounter.questions import (
    Answered,
    RecordingChooser,
    Refusing,
    ReplayChooser,
    ReplayError,
    ScriptedChooser,
    parse_choices,
)
from affray.errors import (
    AffrayError,
    ChoiceNeededError,
    DieNeededError,
    ScriptedDiceError,
    TableError,
)
from affray.events import Event
from affray.sheets.encounters import tactics_dice
from affray.table.commands import (
    ROLLING,
    Add,
    Command,
    Inputs,
    Note,
    Run,
    command_data,
    command_from_data,
    inputs_data,
    inputs_from_data,
)
from affray.table.given import AFFRAY, GM, Asker, Given
from affray.table.identity import derived_key, keyed, with_key
from affray.table.state import ERA, Rules, TableState, apply

UNDO = "undo"
REDO = "redo"


class Applied(NamedTuple):
    """A command in effect: the change that made it, and the state after it (a named
    tuple: a long log has one per change, and a checkpoint reads them back fast)."""

    version: int
    command: Command
    inputs: Inputs
    state: TableState


@dataclass(frozen=True, slots=True)
class Played:
    """A command just played live: what to write to the log, and what happened."""

    command: Command
    inputs: Inputs
    state: TableState
    events: tuple[Event, ...]
    unused_choices: tuple[str, ...] = ()
    note: str | None = None
    """Something to tell of how it was played (a run stopped short)."""

    def payload(self) -> dict[str, Any]:
        return {
            "command": command_data(self.command),
            **inputs_data(self.inputs),
            "events": [event.to_dict() for event in self.events],
        }


@dataclass(slots=True)
class Fold:
    """A table's log, folded: ``version`` is the last change read."""

    rules: Rules
    version: int = 0
    done: list[Applied] = field(default_factory=list)
    undone: list[Applied] = field(default_factory=list)
    initial: TableState = field(default_factory=TableState.empty)

    @property
    def state(self) -> TableState:
        return self.done[-1].state if self.done else self.initial

    def called(self) -> dict[str, str]:
        """What each combatant the fold knows of (in effect or undone) was called last,
        by its key: how the journal names one no longer at the table."""
        found: dict[str, str] = {}
        for applied in (*self.done, *reversed(self.undone)):
            found.update((key, cid) for cid, key in applied.state.keys.items())
        return found

    def befores(self) -> dict[int, TableState]:
        """The state just before each change in effect, by its version."""
        states = [self.initial, *(applied.state for applied in self.done)]
        return {applied.version: states[at] for at, applied in enumerate(self.done)}

    def notes(self) -> list[str]:
        """The game master's notes in effect, oldest first. A note is kept in the log,
        not in the state (which a note leaves as it was), so that every state along the
        stack is shared by the notes after it: a table's memory grows with its log, not
        with its log squared. A note on a combatant names it as it is called now (or
        was last, if it has left)."""
        called: Mapping[str, str] = self.state.keys_named()
        if any(
            isinstance(a.command, Note) and a.command.about and a.command.about not in called
            for a in self.done
        ):
            called = self.called()
        return [
            f"{self._name(a.command.about, called)}: {a.command.text}"
            if a.command.about
            else a.command.text
            for a in self.done
            if isinstance(a.command, Note)
        ]

    def notes_about(self) -> dict[str, list[str]]:
        """The game master's notes on each combatant at the table now (by its id),
        oldest first; a note follows its combatant through a rename (it names its key)."""
        found: dict[str, list[str]] = {}
        state = self.state
        for applied in self.done:
            command = applied.command
            if isinstance(command, Note) and command.about is not None:
                about = state.named(command.about) or command.about
                found.setdefault(about, []).append(command.text)
        return found

    @staticmethod
    def _name(who: str, called: Mapping[str, str]) -> str:
        return called.get(who, who)

    def feed(self, version: int, verb: str, payload: Mapping[str, Any]) -> tuple[Event, ...]:
        """Read the next change of the log; what it did (nothing, for an undo or a
        redo)."""
        if version <= self.version:
            raise TableError(f"the log has version {version} twice, or out of order")
        if version != self.version + 1:
            raise TableError(f"the log skips from version {self.version} to {version}")
        events: tuple[Event, ...] = ()
        if verb == UNDO:
            self._move(self.done, self.undone, int(payload["steps"]))
        elif verb == REDO:
            self._move(self.undone, self.done, int(payload["steps"]))
        else:
            command = command_from_data(payload["command"])
            if isinstance(command, Add) and command.key is None:  # logged before keys
                command = with_key(command, derived_key(self.state.joined + 1, version))
            inputs = inputs_from_data(payload)
            state, replayed = replay(self.rules, self.state, command, inputs)
            self.push(version, command, inputs, state)
            events = tuple(replayed)
        self.version = version
        return events

    def push(self, version: int, command: Command, inputs: Inputs, state: TableState) -> None:
        self.done.append(Applied(version, command, inputs, state))
        self.undone.clear()
        self.version = version

    def check_undo(self, steps: int) -> list[Applied]:
        """The changes ``steps`` undos would take back (the latest first).

        Raises:
            TableError: fewer changes than that are in effect.
        """
        return _check(self.done, steps, "undo", "in effect")

    def check_redo(self, steps: int) -> list[Applied]:
        """The changes ``steps`` redos would bring back (the first first)."""
        return _check(self.undone, steps, "redo", "undone since the last change")

    def undo(self, version: int, steps: int) -> None:
        self.check_undo(steps)
        self._move(self.done, self.undone, steps)
        self.version = version

    def redo(self, version: int, steps: int) -> None:
        self.check_redo(steps)
        self._move(self.undone, self.done, steps)
        self.version = version

    @staticmethod
    def _move(source: list[Applied], target: list[Applied], steps: int) -> None:
        if not 1 <= steps <= len(source):
            raise TableError(f"the log moves {steps} steps, but only {len(source)} are there")
        for _ in range(steps):
            target.append(source.pop())


def _check(stack: list[Applied], steps: int, verb: str, what: str) -> list[Applied]:
    if steps < 1:
        raise TableError(f"{verb} at least 1 step, not {steps}")
    if steps > len(stack):
        have = f"only {len(stack)} {'change is' if len(stack) == 1 else 'changes are'} {what}"
        raise TableError(
            f"cannot {verb} {steps} {'step' if steps == 1 else 'steps'}: {have}",
            hint=f"{verb} at most {len(stack)}" if stack else f"there is nothing to {verb}",
        )
    return list(reversed(stack[-steps:]))


def replay(
    rules: Rules, state: TableState, command: Command, inputs: Inputs
) -> tuple[TableState, list[Event]]:
    """``command`` played again from the faces and answers it used."""
    dice = ScriptedDice(inputs.faces)
    chooser = ReplayChooser(inputs.answers)
    try:
        after, events = apply(rules, state, command, Answers(dice, chooser), era=inputs.era)
    except (ScriptedDiceError, ReplayError) as error:
        raise TableError(
            f"replaying {command.verb}: {error.message}",
            hint="the log was written by another version of the rules",
        ) from None
    if dice.remaining or chooser.used != len(inputs.answers):
        raise TableError(
            f"replaying {command.verb} left recorded dice or answers unused",
            hint="the log was written by another version of the rules",
        )
    return after, events


def play(
    rules: Rules,
    state: TableState,
    command: Command,
    *,
    rolls: Sequence[int] = (),
    choices: Sequence[str] = (),
    answered: Sequence[Answered] = (),
    seed: int | None = None,
    roll_missing: bool = True,
    choose_missing: bool = True,
    seconds: float | None = None,
    given: Sequence[Given] = (),
    by: Asker = GM,
    owner: str | None = None,
) -> Played:
    """``command`` played live.

    Args:
        rolls: the faces typed in, in the order the rules roll; the dice after them
            are rolled (from ``seed``) unless ``roll_missing`` is off.
        choices: ``TOPIC=CHOICE`` (every question of that topic) or
            ``WHO:TOPIC=CHOICE`` (only WHO's, which wins).
        answered: the answers an earlier try of this command gave before it stopped
            for a die or a choice, given again first (with its faces at the start of
            ``rolls``, that try goes on exactly where it stopped).
        choose_missing: the combatants' tactics answer what nothing else answers;
            off, such a question stops the command.
        given: who gave each of the first faces of ``rolls`` (an earlier try's, typed
            or rolled by affray; a page's "roll it"); the rest of ``rolls`` are typed
            by ``by``, and the faces affray rolls now are rolled at ``by``'s asking
            (:attr:`Inputs.given`).
        owner: the faces and choices given are one player's, for their combatant
            ``owner`` alone (a player's own turn from their phone): a face answers only
            a die ``owner`` rolls, a plain ``TOPIC=CHOICE`` only ``owner``'s question;
            the first die or question of anyone else stops the command (it waits on
            them), as does one of ``owner``'s past what was given.
        seconds: for ``run --to-end``, how long it may take: past it, the fight stops
            at the end of a stretch of :data:`RUN_STRETCH` turns and the change logged
            is ``run --turns N`` of the turns played (the same dice and answers replay
            it exactly), with a note saying so.

    Raises:
        AffrayError: the rules refuse the command, a face cannot be shown by its
            die, faces are left over, or (without ``roll_missing``) a die is missing
            (:class:`DieNeededError`), or (without ``choose_missing``) a choice
            (:class:`ChoiceNeededError`); these two carry the faces and answers used
            so far.
    """
    if command.verb not in ROLLING and (rolls or choices):
        raise TableError(f"{command.verb} rolls no dice and asks nothing")
    command = keyed(state, command)
    typed = {
        (state.resolve(who) if who is not None else None, topic): label
        for (who, topic), label in parse_choices(choices, rules.topics).items()
    }
    rng = random.Random(seed) if roll_missing else None
    typed_dice = TypedDice(rolls, rng) if owner is None else _OwnDice(rolls, state, owner)
    stop = _Stop(playing_on=not isinstance(command, Run))  # a run would play on a whole fight
    dice = _PlayOn(typed_dice, stop)
    rest: Chooser[Any, Any] = (
        rules.ai(state, tactics_dice(seed)) if choose_missing else _AskOrPlayOn(stop, rules, state)
    )
    scripted = ScriptedChooser[Any, Any](typed, rest, who=owner)
    recorder = RecordingChooser[Any, Any](ReplayChooser(answered, then=scripted))
    stop.recorder = recorder
    answers = Answers(dice, recorder)
    note = None
    events: list[Event] = []
    try:
        if isinstance(command, Run) and command.to_end and seconds is not None:
            command, after, events, note = _run_for(rules, state, command, answers, seconds)
        else:
            after, events = apply(rules, state, command, answers)
    except (DieNeededError, ChoiceNeededError) as asked:  # a run's: it stops at once
        stop.caught(asked)
    except (AffrayError, ReplayError):
        if stop.needed is None:
            raise
        events = []  # it went otherwise on made-up dice: say nothing of it
    if stop.needed is not None:
        stopped = stop.needed
        log = dice.log[: stop.dice]
        stopped.so_far(
            tuple(die.face for die in log),
            tuple(recorder.answers[: stop.answers]),
            tuple(str(die.purpose) for die in log),
        )
        stopped.marks = _marked(log, len(rolls), given, by)
        if stop.playing_on:
            stopped.did = _told_before(rules, events, log)
            stopped.marks = _with_did(rules, events, log, stopped.marks)
            stopped.moment = _moment(events, log)
        raise stopped
    if typed_dice.used < len(rolls) and owner is None:  # a player's own faces: those it took
        from affray.narration.telling import narrate_text
        from affray.table.events import TABLE

        left = ", ".join(str(face) for face in rolls[typed_dice.used :])
        told = [line.strip() for line in narrate_text(events, rules.system.narration, TABLE)]
        why = f": {told[-1]}" if told else ""
        used = typed_dice.used
        count = f"{used} {'die' if used == 1 else 'dice'}"
        raise ScriptedDiceError(
            f"{len(rolls)} faces given, but the rules rolled only {count}; left over: {left}"
            + (f" (what happened{why})" if why else ""),
            hint="give only the faces of the dice this command rolls, in order (a miss "
            "rolls no damage, a fall no more dice)",
        )
    marks = _with_did(rules, events, dice.log, _marked(dice.log, len(rolls), given, by))
    inputs = Inputs(dice.recorded, tuple(recorder.answers), ERA, marks)  # today's rules
    unused = tuple(f"{who}:{topic}" if who else topic for who, topic in scripted.unused)
    return Played(command, inputs, after, tuple(events), unused, note)


class _OwnDice(TypedDice):
    """One player's faces, for the dice their combatant ``owner`` rolls alone: any
    other's die, or one of theirs past the faces given, is asked (it stops the
    command)."""

    def __init__(self, faces: Sequence[int], state: TableState, owner: str) -> None:
        super().__init__(faces, None, record=True)
        self.state = state
        self.owner = owner

    def _face(self, sides: int, purpose: str) -> int:
        if self.used < len(self.faces) and self.state.whose_die(purpose) != self.owner:
            raise DieNeededError(sides, purpose, self.used)
        return super()._face(sides, purpose)


def _marked(
    log: Sequence[DieRoll], typed: int, given: Sequence[Given], by: Asker
) -> tuple[Given, ...]:
    """Who gave each face of ``log``, with its die: ``given`` for the first; the rest of
    the ``typed`` ones typed by ``by``; those past them rolled by affray, asked by ``by``."""
    marks = []
    for at, die in enumerate(log):
        mark = given[at] if at < len(given) else Given(by) if at < typed else Given(AFFRAY, by)
        marks.append(mark._replace(die=f"d{die.sides} for {die.purpose}"))
    return tuple(marks)


class _Stop:
    """The first die or question of a command that nothing answers, kept while the
    command plays on (made-up dice, the tactics' answers) to its end: one play tells
    where it stops and what the dice and answers given did before it (the rules keep
    their events until a command ends). A run stops at once (it would play on a whole
    fight)."""

    def __init__(self, *, playing_on: bool) -> None:
        self.playing_on = playing_on
        self.needed: DieNeededError | ChoiceNeededError | None = None
        self.dice = 0
        """How many dice were rolled before it (those given)."""
        self.answers = 0
        """How many answers were given before it."""
        self.recorder: RecordingChooser[Any, Any] | None = None
        self.source: Dice | None = None

    def caught(self, needed: DieNeededError | ChoiceNeededError) -> None:
        """The command stops here: before the next die of :attr:`source` and the next
        answer of :attr:`recorder`."""
        if self.needed is None:
            self.needed = needed
            self.dice = len(self.source.log) if self.source is not None else 0
            self.answers = len(self.recorder.answers) if self.recorder is not None else 0


MADE_UP = 0
"""The seed of the faces a command that stopped plays on with (nothing it tells may
depend on them: a test plays the same stop with others)."""


class _PlayOn(Dice):
    """``inner``'s faces until the command stops (:class:`_Stop`); made-up faces after
    it, when it plays on."""

    def __init__(self, inner: TypedDice, stop: _Stop) -> None:
        super().__init__(record=True)
        self.inner = inner
        self.stop = stop
        stop.source = self
        self.made_up = random.Random(MADE_UP)

    def _face(self, sides: int, purpose: str) -> int:
        if self.stop.needed is None:
            try:
                return self.inner._face(sides, purpose)
            except DieNeededError as needed:
                if not self.stop.playing_on:
                    raise
                self.stop.caught(needed)
        return self.made_up.randint(1, sides)


class _AskOrPlayOn:
    """A question nothing answers stops the command (:class:`_Stop`); after a stop,
    the tactics answer every question, as the command plays on."""

    def __init__(self, stop: _Stop, rules: Rules, state: TableState) -> None:
        self.stop = stop
        self.tactics = rules.ai(state, tactics_dice(0))

    def choose(self, encounter: Any, question: Any) -> Any:
        if self.stop.needed is None:
            try:
                return Refusing().choose(encounter, question)
            except ChoiceNeededError as needed:
                if not self.stop.playing_on:
                    raise
                self.stop.caught(needed)
        return self.tactics.choose(encounter, question)


def _told_before(
    rules: Rules, events: Sequence[Event], given: Sequence[DieRoll]
) -> tuple[str, ...]:
    """What a command that stopped did with the dice ``given`` before it and the answers
    so far, told as the log tells it ("Brenna attacks Goblin 2: d20 15 + 3 = 18 vs
    evasion 13, hits"): its ``events`` (played on past the stop) up to the first that
    holds a die not given; one that tells the outcome of dice after it (a round's
    order: the initiative) is left out while any of those is not given. An event that
    holds no die but came after the stop (rare: the rules tell most outcomes with
    their dice) is then told too."""
    from affray.narration.telling import narrate_text
    from affray.table.events import TABLE

    known = {id(die) for die in given}
    made_up = [any(id(die) not in known for die in _dice_of(event)) for event in events]
    kept: list[Event] = []
    for at, event in enumerate(events):
        if made_up[at]:
            break
        if event.told_before_its_dice and any(made_up[at:]):
            continue  # a round's order, while an initiative die is not yet given
        kept.append(event)
    return tuple(narrate_text(kept, rules.system.narration, TABLE))


def _with_did(
    rules: Rules, events: Sequence[Event], log: Sequence[DieRoll], marks: Sequence[Given]
) -> tuple[Given, ...]:
    """``marks`` (one per die of ``log``), each with what its die did: what the first
    event that holds it says on its own ("Brenna attacks Goblin 2: d20 15 + 3 = 18 vs
    evasion 13, hits"; "shock d10 2: out"), once every die that event holds is of
    ``log`` (an event that holds a die not yet given tells nothing yet: a round's
    order before its last initiative die)."""
    from affray.narration.telling import tell_alone
    from affray.table.events import TABLE

    place = {id(die): at for at, die in enumerate(log)}
    did = [""] * len(log)
    for event in events:
        held = [place.get(id(die)) for die in _dice_of(event)]
        if not held or None in held or all(did[at] for at in held if at is not None):
            continue
        said = tell_alone(event, rules.system.narration, TABLE)
        for at in held:
            if at is not None and not did[at]:
                did[at] = said
    return tuple(mark._replace(did=said) for mark, said in zip(marks, did, strict=True))


def _moment(
    events: Sequence[Event], given: Sequence[DieRoll]
) -> tuple[tuple[str, int | None], ...]:
    """The dice a held-back outcome waits on (a round's order, told before its
    initiative dice: :attr:`Event.told_before_its_dice`), when a command stopped among
    them: each ``("d10 for Rogue's initiative", face)``, with its face if given, else
    None ("waiting for 4 initiative dice: Rogue 7, Ilsa —, …"). Empty when nothing is
    held back."""
    known = {id(die) for die in given}
    for at, event in enumerate(events):
        if not event.told_before_its_dice:
            continue
        after = [die for later in events[at + 1 :] for die in _dice_of(later)]
        if any(id(die) not in known for die in after):
            return tuple(
                (f"d{die.sides} for {die.purpose}", die.face if id(die) in known else None)
                for die in after
            )
    return ()


def _dice_of(value: object, depth: int = 0) -> Iterator[DieRoll]:
    """The dice an event holds, in its fields and their fields (a few levels down)."""
    if isinstance(value, DieRoll):
        yield value
    elif depth > 3:
        return
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _dice_of(item, depth + 1)
    elif is_dataclass(value) and not isinstance(value, type):
        for one in fields(value):
            yield from _dice_of(getattr(value, one.name), depth + 1)


RUN_STRETCH = 25
"""Turns ``run --to-end`` plays between two looks at the clock."""


def _run_for(
    rules: Rules, state: TableState, command: Run, answers: Answers[Any, Any], seconds: float
) -> tuple[Command, TableState, list[Event], str | None]:
    """``run --to-end`` in stretches of turns until the fight ends or ``seconds`` pass:
    the command to log (the whole run, or the turns played), the state, the events,
    and a note when it stopped short. Stretches played one after the other with the
    same dice and answers are the whole run's moves, in the same order."""
    import time

    deadline = time.monotonic() + seconds
    events: list[Event] = []
    played = 0
    while True:
        stretch = Run(RUN_STRETCH, name=command.name)
        state, more = apply(rules, state, stretch, answers)
        events.extend(more)
        played += RUN_STRETCH
        if state.phase(rules) is Phase.OVER:
            return command, state, events, None
        if time.monotonic() > deadline:
            note = (
                f"stopped after {played} turns ({seconds:.0f} s), in round {state.round}: "
                "run --to-end again to go on (this change is those turns)"
            )
            return Run(played, name=command.name, toward_end=True), state, events, note
