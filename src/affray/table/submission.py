"""A change asked of a table, whole: who asks, what, the faces and answers it brings,
and the question it saw waiting — one value, built at the edge (the terminal, the game
master's page, the JSON API, a player's phone) and passed whole through one door
(:func:`submit`), like a request in an HTTP client: only the edge differs.

Who asks decides what may be asked. The game master may ask anything. A player's own
link may answer only the die or question the table waits on from its combatant, and
act for its combatant on its turn when the game master allows it: its faces and
answers then serve its combatant's dice and questions alone, the command is played
once, and what it cannot finish waits (:func:`~affray.table.own_turn.play_own_turn`).
A refusal a player reads names only whom the players see
(:func:`~affray.table.projection.refusal`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from affray.errors import NamingError, NotAllowedError, QuestionConflictError, TableError
from affray.table.commands import Act, Command
from affray.table.folds import Done
from affray.table.given import GM, PLAYER, Asker
from affray.table.own_turn import play_own_turn
from affray.table.projection import refusal
from affray.table.service import Tables
from affray.table.store import TableRow


@dataclass(frozen=True, slots=True)
class Author:
    """Who asks for a change: the game master (from any of their doors), or one
    player's own link, for its combatant ``who`` (its id now)."""

    role: Asker
    who: str | None = None

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"


GAME_MASTER = Author("gm")


@dataclass(frozen=True, slots=True)
class Submission:
    """One change asked of a table, with what answers its dice and questions."""

    verb: str
    command: Command | None = None
    """The command (None for an answer, a cancel, an undo, a redo or an import)."""
    commands: tuple[Command, ...] = ()
    """An import's adds (each a change of its own, all in one transaction)."""
    options: Mapping[str, Any] | None = None
    """An import's rules."""
    steps: int = 1
    """An undo's or a redo's."""
    rolls: tuple[int, ...] = ()
    """The faces it brings, in the order the rules roll."""
    choices: tuple[str, ...] = ()
    """Its answers: ``TOPIC=CHOICE`` or ``WHO:TOPIC=CHOICE``."""
    seed: int | None = None
    roll_missing: bool = True
    """A die no face was given for is rolled (else the command waits for it); a
    command that brings some faces but not all waits all the same, unless
    ``roll_rest``."""
    choose_missing: bool = True
    """A question no answer was given for goes to the tactics (else it waits)."""
    roll_rest: bool = False
    """Every die after the faces it brings is rolled (an answer's: for the rest of the
    command)."""
    tactics_rest: bool = False
    """An answer: the tactics answer what is left of the command."""
    question: str | None = None
    """The question it saw waiting (an answer: the one it answers)."""
    rolled_one: bool = False
    """An answer: its face is one affray rolled at the asker's word ("roll it")."""
    beside: bool = False
    """A quick key: what waits is kept waiting beside it (:meth:`Tables.run`)."""
    author: Author = GAME_MASTER
    expected: int | None = None
    """The version of the table it was asked against (None: whatever it is now)."""


def submit(tables: Tables, table: TableRow, asked: Submission) -> Done:
    """Play ``asked`` on ``table``: once, committed once (the change, or what then
    waits).

    Raises:
        NotAllowedError: a player's link asks for what is not theirs (now).
        QuestionConflictError: an answer to a question no longer asked.
        ConflictError: ``expected`` is not the table's version.
        InputNeededError: it waits for a die or an answer.
        AffrayError: the rules refuse it; nothing is applied.
    """
    if not asked.author.is_gm:
        return _players(tables, table, asked)
    if asked.verb == "import":
        dones = tables.run_all(table, asked.commands, asked.expected, options=asked.options)
        if not dones:
            raise TableError("the encounter has no one in it")
        events = tuple(e for done in dones for e in done.events)
        lines = tuple(line for done in dones for line in done.lines)
        return Done(table, dones[-1].version, dones[-1].state, events, lines)
    if asked.verb == "answer":
        return tables.answer(
            table,
            rolls=asked.rolls,
            choices=asked.choices,
            roll_rest=asked.roll_rest,
            tactics_rest=asked.tactics_rest,
            expected=asked.expected,
            question=asked.question,
            rolled_one=asked.rolled_one,
            by=GM,
        )
    if asked.verb == "cancel":
        tables.cancel(table)
        return Done(table, tables.store.version(table.id), tables.fold(table).state)
    if asked.verb == "undo":
        return tables.undo(table, asked.steps, asked.expected)
    if asked.verb == "redo":
        return tables.redo(table, asked.steps, asked.expected)
    if asked.command is None:
        raise TableError(f"{asked.verb} needs a command")
    return tables.run(
        table,
        asked.command,
        rolls=asked.rolls,
        choices=asked.choices,
        seed=asked.seed,
        roll_missing=asked.roll_missing and (not asked.rolls or asked.roll_rest),
        choose_missing=asked.choose_missing,
        expected=asked.expected,
        beside=asked.beside,
        by=GM,
    )


def _players(tables: Tables, table: TableRow, asked: Submission) -> Done:
    """A player's link's submission: its combatant's answer, or its own action."""
    who = asked.author.who
    if who is None or asked.verb not in ("answer", "act"):
        raise NotAllowedError(
            "a player's link can only answer its own dice and questions",
            hint="answer what the table asks of your combatant, or act on its turn",
        )
    if asked.verb == "answer":
        return _answer(tables, table, asked, who)
    command = asked.command
    assert isinstance(command, Act)
    state = tables.fold(table).state
    try:
        mine = state.resolve(command.actor) == who
    except NamingError:
        mine = False
    if not mine:
        raise NotAllowedError(f"a player's link acts for {who} alone", hint=f"act for {who}")
    chosen = dict(choice.partition("=")[::2] for choice in asked.choices)
    try:
        return play_own_turn(
            tables,
            table,
            who,
            command.action,
            command.target,
            rolls=asked.rolls,
            choose=chosen,
            expected=asked.expected,
        )
    except NamingError as error:  # told to the player: only whom they see
        raise refusal(error, tables.fold(table)) from None


def _answer(tables: Tables, table: TableRow, asked: Submission, who: str) -> Done:
    """A player's answer to the die or question the table waits on from ``who``: the
    die's one face, or one of the offered answers (its label is enough)."""
    waiting = tables.waiting(table)
    given = asked.question
    if given and (waiting is None or waiting["question"] != given):
        # the question the page showed was answered meanwhile (or dropped)
        raise QuestionConflictError(given, None if waiting is None else waiting["question"])
    if waiting is None or waiting["who"] != who:
        raise NotAllowedError(f"nothing is waiting on {who} now", hint="wait for your turn")
    choice = waiting["needs"].get("choice")
    if choice is None:  # a die waits: its one face, and nothing more
        if len(asked.rolls) != 1 or asked.choices:
            raise TableError("give the one face of the die that is asked", hint="e.g. 14")
        return tables.answer(
            table,
            rolls=asked.rolls,
            expected=asked.expected,
            question=given,
            rolled_one=asked.rolled_one,
            by=PLAYER,
        )
    labels = [entry.partition("=")[2] or entry for entry in asked.choices]
    if len(labels) != 1 or asked.rolls:
        raise TableError("give the one answer that is asked", hint="one of the offered answers")
    answer = f"{choice['who']}:{choice['topic']}={labels[0]}"
    return tables.answer(
        table, choices=(answer,), expected=asked.expected, question=given, by=PLAYER
    )
