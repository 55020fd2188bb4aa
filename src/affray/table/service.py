"""Tables: the store and the rules together — what the terminal verbs and the web
tracker call. Every write is one transaction on the store; every read folds the
log (in memory, a table's fold is kept and only new changes are read: :mod:`folds`).
Here is the one door a command comes in by (:meth:`Tables.run`), and the answers to
a command that waits (:meth:`Tables.answer`)."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from affray.encounter.questions import Answered
from affray.errors import (
    AffrayError,
    ChoiceNeededError,
    ConflictError,
    DieNeededError,
    InputNeededError,
    PendingError,
    QuestionConflictError,
    TableError,
)
from affray.narration.telling import narrate_text
from affray.table.commands import Command, Run, Start, command_from_data
from affray.table.events import TABLE
from affray.table.fold import play
from affray.table.folds import Done
from affray.table.given import AFFRAY, GM, Asker, Given, faces_data, marks_from_data
from affray.table.joining import Importing, Joining
from affray.table.links import Links
from affray.table.model import Rules, TableState
from affray.table.moves import Moves
from affray.table.store import TableRow
from affray.table.waiting import Waiting, needs, waiting_words

__all__ = ["PHYSICAL_DICE", "RUN_SECONDS", "Done", "Importing", "Tables"]

RUN_SECONDS = 10.0
"""How long one ``run --to-end`` may play before it stops (at a stretch's end) and logs
the turns played: a run again goes on."""
PHYSICAL_DICE = "physical_dice"
"""The table option that says affray rolls no die at all: every face is typed."""

PLAY_TRIES = 3
"""How many times a command is played on the table as it is, outside the write lock,
when another process keeps changing the table meanwhile (the last try is played
inside the write lock, so that it cannot be overtaken)."""


class Tables(Joining, Links, Moves):
    """The store and the rules together: the tables of one database (:class:`Folds`),
    who joins them (:class:`Joining`), players' links (:class:`Links`), undo and redo
    (:class:`Moves`), and here the one door every other change comes in by: a command
    is played outside the database's write lock, which is held only to check the
    version and append the change (and what then waits), in one transaction."""

    def run(
        self,
        table: TableRow,
        command: Command,
        *,
        rolls: Sequence[int] = (),
        choices: Sequence[str] = (),
        answered: Sequence[Answered] = (),
        seed: int | None = None,
        roll_missing: bool = True,
        choose_missing: bool = True,
        expected: int | None = None,
        given: Sequence[Given] = (),
        by: Asker = GM,
        beside: bool = False,
        owner: str | None = None,
    ) -> Done:
        """Play ``command`` on the table as it stands and log it: it is played outside
        the write lock, which is taken only to check that the table has not moved on
        and to append the change, in one transaction (played again if it had moved on;
        :func:`~affray.table.fold.play` says what answers it).

        ``owner``: ``rolls`` and ``choices`` are a player's, for the dice and questions
        of their combatant alone (:func:`~affray.table.fold.play`). ``given``: who gave
        the first of ``rolls`` (an earlier try's); ``by``: who typed the rest, and asked
        affray to roll the dice past them (the change logs each face's mark).

        ``beside``: a command that waits for a die or an answer is kept waiting, the same
        question (the game master's quick keys: a wound more while an attack waits for its
        damage die), if it asks the same of the table after this change; if it would not,
        nothing is applied. Without it, a new change drops what waits (the terminal's way:
        the same command again, with more faces).

        Raises:
            ConflictError: ``expected`` is not the table's version (nothing applied).
            PendingError: ``beside``, and the command that waits would not go on the same
                after this change (nothing applied).
            AffrayError: the rules refuse it (nothing applied).
        """
        command = self._named(table, command)
        if self.fold(table).rules.options.get(PHYSICAL_DICE):
            if any(mark.rolled for mark in given):
                raise TableError(
                    "this table's dice are all physical: affray rolls none of them",
                    hint="roll the die and type its face (the table option physical_dice)",
                )
            roll_missing = False  # a die not typed is asked for, never rolled
        for last in [False] * (PLAY_TRIES - 1) + [True]:
            # played outside the write lock (and outside the fold's, so that reads go on
            # meanwhile); if the table changed in the meantime, played again, the last
            # time inside the write lock
            with contextlib.ExitStack() as held:
                if last:
                    held.enter_context(self.store.transaction())
                fold, base, state = self._at(table)
                if expected is not None and expected != base:
                    raise ConflictError(expected, base)
                try:
                    played = play(
                        fold.rules,
                        state,
                        command,
                        rolls=rolls,
                        choices=choices,
                        answered=answered,
                        seed=seed,
                        roll_missing=roll_missing,
                        choose_missing=choose_missing,
                        seconds=RUN_SECONDS,
                        given=given,
                        by=by,
                        owner=owner,
                    )
                except InputNeededError as needed:
                    waiting = Waiting(
                        command,
                        needed,
                        roll_missing,
                        choose_missing,
                        seed,
                        self._whose(table, needed),
                    )
                    kept = waiting.data(base)
                    self.store.wait_on(table.id, base, kept)
                    needed.question = kept["question"]  # a 422 says which question it asks
                    raise
                lines = tuple(narrate_text(played.events, fold.rules.system.narration, TABLE))
                kept_waiting = self._beside(table, fold.rules, played.state) if beside else None
                with self.store.writing(table.id, expected) as writer:
                    if writer.version != base:
                        continue  # the table changed meanwhile: play it again
                    version = writer.append(
                        command.verb, {**played.payload(), "lines": list(lines)}
                    )
                    if kept_waiting is not None:
                        writer.wait_on(kept_waiting)
            break
        else:  # pragma: no cover - the last try holds the write lock: nothing can move
            raise TableError(f"table {table.id} kept changing while this was played")
        self._pushed(table, fold, base, version, played)
        self.checkpoint(table)
        return Done(
            table,
            version,
            played.state,
            played.events,
            lines,
            (),
            played.unused_choices,
            played.note,
            tuple(faces_data(played.inputs.faces, played.inputs.given)),
        )

    def _beside(self, table: TableRow, rules: Rules, state: TableState) -> dict[str, Any] | None:
        """What waits now (if anything), kept waiting after a change that leaves the
        table in ``state``: the same question, by the same id, if the command that waits
        asks the same of the table from there.

        Raises:
            PendingError: it would not (it would ask something else, or end).
        """
        data = self.store.pending(table.id)
        if data is None:
            return None
        command = command_from_data(data["command"])
        try:
            play(
                rules,
                state,
                command,
                rolls=data["rolls"],
                answered=[Answered(*a) for a in data["answered"]],
                seed=data["seed"],
                roll_missing=bool(data["roll_rest"]),
                choose_missing=bool(data["tactics_rest"]),
                given=marks_from_data(data, len(data["rolls"])),
            )
        except InputNeededError as needed:
            asks = needs(needed)
            if asks == {k: v for k, v in data["needs"].items() if k != "question"}:
                waiting = Waiting(
                    command,
                    needed,
                    bool(data["roll_rest"]),
                    bool(data["tactics_rest"]),
                    data["seed"],
                    data["who"],
                )
                kept = waiting.data(0)
                kept["question"] = kept["needs"]["question"] = data.get("question")
                return kept
        except AffrayError:
            pass
        raise PendingError(waiting_words(data, state.keys_named()), data.get("question"))

    def answer(
        self,
        table: TableRow,
        *,
        rolls: Sequence[int] = (),
        choices: Sequence[str] = (),
        roll_rest: bool = False,
        tactics_rest: bool = False,
        expected: int | None = None,
        question: str | None = None,
        rolled_one: bool = False,
        by: Asker = GM,
    ) -> Done:
        """Go on with the command the table waits on: the faces it used so far, then
        ``rolls``; the answer to the question it stopped on (the entry of ``choices``
        of that topic), then the rest of ``choices`` for later questions. With
        ``roll_rest`` the dice after these are rolled, and with ``tactics_rest`` the
        combatants' tactics answer what is left, for the rest of the command. If it
        stops again, it waits again.

        ``question``: the id of the question this answers (as the table gave it); if
        the table asks another now, nothing is applied. ``by``: who answers (types
        ``rolls``); ``rolled_one``: the last of ``rolls`` is a face affray rolled at their
        asking (a page's "roll it").

        Raises:
            TableError: nothing waits.
            QuestionConflictError: ``question`` is not the one the table asks now.
            AffrayError: as :meth:`run`.
        """
        data = self.store.pending(table.id)
        if question is not None and (data is None or data.get("question") != question):
            raise QuestionConflictError(question, None if data is None else data.get("question"))
        if data is None:
            raise TableError(
                "no command is waiting for a die or an answer",
                hint="give the command again (act, next, ...) with its dice",
            )
        if (roll_rest or rolled_one) and self.fold(table).rules.options.get(PHYSICAL_DICE):
            raise TableError(
                "this table's dice are all physical: affray rolls none of them",
                hint="roll the die and type its face (the table option physical_dice)",
            )
        given = [*marks_from_data(data, len(data["rolls"])), *(Given(by) for _ in rolls)]
        if rolled_one and rolls:  # the last of them, rolled after any typed beside it
            given[-1] = Given(AFFRAY, by)
        answered = [Answered(*a) for a in data["answered"]]
        rest = list(choices)
        asked = data["needs"].get("choice")
        if asked is not None:
            state = self.fold(table).state
            for entry in rest:
                key, _, label = entry.partition("=")
                who, colon, topic = key.rpartition(":")
                if topic.strip().lower() != asked["topic"]:
                    continue
                if colon and state.resolve(who) != asked["who"]:
                    continue
                rest.remove(entry)
                answered.append(Answered(asked["who"], asked["topic"], label.strip()))
                break
        return self.run(
            table,
            command_from_data(data["command"]),
            rolls=(*data["rolls"], *rolls),
            choices=rest,
            answered=answered,
            seed=data["seed"],
            roll_missing=bool(data["roll_rest"]) or roll_rest,
            choose_missing=bool(data["tactics_rest"]) or tactics_rest,
            expected=expected,
            given=given,
            by=by,
        )

    def _whose(self, table: TableRow, needed: InputNeededError) -> str | None:
        """Whose die or answer ``needed`` is: the question's combatant; for a die, the
        combatant its purpose names (``"Guard's wits challenge"``)."""
        if isinstance(needed, ChoiceNeededError):
            if needed.topic in self.fold(table).rules.system.game_masters_topics:
                return None  # the game master's own question (MST-2's circumstance)
            return needed.who
        if isinstance(needed, DieNeededError):
            return self.fold(table).state.whose_die(needed.purpose)
        return None

    @staticmethod
    def _named(table: TableRow, command: Command) -> Command:
        """A command that starts the fight, with the fight's name (the table's)."""
        if isinstance(command, Start | Run) and not command.name:
            return replace(command, name=table.name)
        return command
