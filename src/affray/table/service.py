"""Tables: the store and the rules together — what the terminal verbs and the web
tracker call. Every write is one transaction on the store; every read folds the
log (in memory, a table's fold is kept and only new changes are read)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from affray import registry
from affray.dice.source import Purpose
from affray.encounter.questions import Answered
from affray.errors import (
    AffrayError,
    ChoiceNeededError,
    ConflictError,
    DieNeededError,
    InputNeededError,
    PendingError,
    QuestionConflictError,
    SheetError,
    TableError,
)
from affray.events import Event
from affray.narration.telling import narrate_text
from affray.table import checkpoint as checkpoints
from affray.table import roster
from affray.table.commands import (
    ALLOWED,
    Add,
    Command,
    Run,
    Start,
    command_data,
    command_from_data,
)
from affray.table.events import TABLE
from affray.table.fold import REDO, UNDO, Applied, Fold, Played, play
from affray.table.model import Rules, TableState
from affray.table.store import Store, TableRow


@dataclass(frozen=True, slots=True)
class Waiting:
    """A command stopped for a die or an answer, as the table keeps it until it goes
    on (:meth:`Tables.answer`) or another change drops it."""

    command: Command
    needed: InputNeededError
    roll_rest: bool
    tactics_rest: bool
    seed: int | None
    who: str | None

    def data(self, version: int) -> dict[str, Any]:
        """What is kept of it, with the id of its question at the table's ``version``
        (:func:`question_id`)."""
        found: dict[str, Any] = {
            "command": command_data(self.command),
            "rolls": list(self.needed.rolls),
            "rolled_for": list(self.needed.rolled_for),
            "did": list(self.needed.did),
            "rolled_at": list(self.needed.rolled_at),
            "answered": [[a.who, a.topic, a.label] for a in self.needed.answered],
            "roll_rest": self.roll_rest,
            "tactics_rest": self.tactics_rest,
            "seed": self.seed,
            "who": self.who,
            "needs": needs(self.needed),
        }
        found["question"] = found["needs"]["question"] = question_id(version, found)
        return found


def waiting_words(waiting: Mapping[str, Any], called: Mapping[str, str]) -> str:
    """What waits, in words: "Goblin 3: attack Knight waits for a d6 (Goblin 3's
    damage)"."""
    from affray.table.view import describe

    doing = describe(command_from_data(waiting["command"]), called)
    asked = waiting["needs"]
    if "die" in asked:
        die = asked["die"]
        return f"“{doing}” waits for a d{die['sides']} ({die['purpose']})"
    choice = asked["choice"]
    return f"“{doing}” waits for {choice['who']}'s answer: {choice['prompt']}"


def question_id(version: int, waiting: Mapping[str, Any]) -> str:
    """The id of the question a stopped command asks: the same for the same question
    (a page that asks again for it), another for any other (the next die, the same die
    after a change): a hash of the table's version, the faces and answers so far, and
    what is asked."""
    import hashlib
    import json

    parts = [version, waiting["rolls"], waiting["answered"], waiting["needs"], waiting["command"]]
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


def needs(needed: InputNeededError) -> dict[str, Any]:
    """What a stopped command needs: ``{"die": {"sides", "purpose", "given"}}`` (with
    ``about`` and ``template`` when its purpose names another combatant) or
    ``{"choice": {"who", "topic", "prompt", "options", "about", "template"}}``."""
    if isinstance(needed, DieNeededError):
        purpose = needed.purpose
        die = {"sides": needed.sides, "purpose": str(purpose), "given": needed.given}
        if isinstance(purpose, Purpose):  # it names another combatant: by its fields
            die |= {"about": purpose.about, "template": purpose.told("{about}")}
        return {"die": die}
    assert isinstance(needed, ChoiceNeededError)
    return {
        "choice": {
            "who": needed.who,
            "topic": needed.topic,
            "prompt": needed.prompt,
            "options": list(needed.options),
            "about": needed.about,
            "template": needed.template,
        }
    }


@dataclass(frozen=True, slots=True)
class Importing:
    """What importing an encounter file does: the adds, and the file's rules."""

    commands: list[Add]
    options: dict[str, Any]


RUN_SECONDS = 10.0
PHYSICAL_DICE = "physical_dice"
"""The table option that says affray rolls no die at all: every face is typed."""
"""How long one ``run --to-end`` may play before it stops (at a stretch's end) and logs
the turns played: a run again goes on."""


@dataclass(frozen=True, slots=True)
class Done:
    """A change made: the table's new version, and what it did."""

    table: TableRow
    version: int
    state: TableState
    events: tuple[Event, ...] = ()
    lines: tuple[str, ...] = ()
    moved: tuple[Applied, ...] = ()
    """For an undo or a redo: the changes taken back or brought back."""
    unused_choices: tuple[str, ...] = ()
    note: str | None = None
    """Something the person who asked should know (the rules an import could not set, a
    run stopped short)."""
    rolled: tuple[tuple[int, str], ...] = ()
    """The faces affray rolled (not the table), each with its die (``d10 for
    Spearman's shock``), in order."""
    called: Mapping[str, str] = field(default_factory=dict)
    """What each combatant the moved changes name by key was called last (to tell
    them: :func:`affray.table.view.describe`)."""


PLAY_TRIES = 3
"""How many times a command is played on the table as it is, outside the write lock,
when another process keeps changing the table meanwhile (the last try is played
inside the write lock, so that it cannot be overtaken)."""


class Tables:
    """The tables of one database, safe to use from many threads: a table's fold is
    read and moved by one thread at a time (its lock), and another table is never
    kept waiting by it; a command is played outside the database's write lock, which
    is held only to check the version and append the change."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._folds: dict[str, Fold] = {}
        self._born: dict[str, str] = {}
        """When each folded table was made (a table deleted and made again under the
        same id is another table)."""
        self._checkpointed: dict[str, int] = {}
        """The version of each table's checkpoint, as last read or written here."""
        self._locks: dict[str, threading.RLock] = {}
        self._locks_lock = threading.Lock()

    def lock(self, table_id: str) -> threading.RLock:
        """The lock of one table's fold (held while it is read or moved)."""
        with self._locks_lock:
            found = self._locks.get(table_id)
            if found is None:
                found = self._locks[table_id] = threading.RLock()
            return found

    def new(self, name: str, system: str, options: Mapping[str, Any] | None = None) -> TableRow:
        """A new, empty table playing ``system`` (with its encounter options).

        Raises:
            AffrayError: no such system, or an option it does not take.
        """
        name = " ".join(name.split())
        if not name or len(name) > 80 or not name.isprintable():
            raise TableError(
                "a table's name is 1 to 80 characters of plain text", hint='e.g. "Goblin ambush"'
            )
        if system not in registry.systems():
            raise TableError(
                f"unknown rule system {system!r}",
                hint="--system is one of: " + ", ".join(registry.systems()),
            )
        options = {**registry.system(system).table_defaults, **(options or {})}
        try:
            Rules.of(system, options)
        except AffrayError as error:
            raise TableError(f"option {error.message}", hint=error.hint) from None
        return self.store.create(name, system, options)

    def table(self, ref: str) -> TableRow:
        return self.store.table(ref)

    def forget(self, table_id: str) -> None:
        """Drop what is kept in memory of a table (it was deleted)."""
        with self.lock(table_id):
            self._folds.pop(table_id, None)

    def fold(self, table: TableRow) -> Fold:
        """The table's log folded up to its latest change (only the changes since
        the last fold are read)."""
        with self.lock(table.id):
            fold = self._folds.get(table.id)
            if self._born.get(table.id) != table.created:  # deleted, and the id made again
                fold = None
            if fold is None or dict(fold.rules.options) != dict(table.options):
                rules = Rules.of(table.system, table.options)
                fold = self._from_checkpoint(table, rules) or Fold(rules)
            try:
                for change in self.store.iter_changes(table.id, after=fold.version):
                    fold.feed(change.version, change.verb, change.payload)
            except Exception:
                self._folds.pop(table.id, None)
                raise
            self._folds[table.id] = fold
            self._born[table.id] = table.created
            return fold

    def _from_checkpoint(self, table: TableRow, rules: Rules) -> Fold | None:
        """The table's fold as its checkpoint left it, if it has one this affray can
        use (then only the changes since are read)."""
        kept = self.store.checkpoint(table.id)
        if kept is None:
            return None
        version, stamp, blob = kept
        self._checkpointed[table.id] = version
        if stamp != checkpoints.STAMP or version > self.store.version(table.id):
            return None
        return checkpoints.load(blob, rules)

    def checkpoint(self, table: TableRow, *, force: bool = False) -> None:
        """Keep a checkpoint of the table's fold when it is due (or ``force``), so that
        a process afresh reads only the changes since (a database opened to read only
        keeps none)."""
        if self.store.readonly:
            return
        with self.lock(table.id):
            fold = self.fold(table)
            if table.id not in self._checkpointed:
                kept = self.store.checkpoint(table.id)
                self._checkpointed[table.id] = kept[0] if kept is not None else 0
            last = self._checkpointed[table.id]
            if fold.version <= last or not (force or checkpoints.due(fold.version, last)):
                return
            self._checkpointed[table.id] = fold.version  # tried: not again at once
            try:
                blob = checkpoints.dump(fold)
            except Exception:  # a plug-in's state that cannot be pickled: no checkpoint
                return
        with contextlib.suppress(AffrayError):  # a busy database: the next one will do
            self.store.keep_checkpoint(table.id, fold.version, checkpoints.STAMP, blob)

    def joining(
        self,
        table: TableRow,
        sheet: str,
        *,
        side: str | None = None,
        name: str | None = None,
        tactics: str = "nearest",
        player: bool = False,
    ) -> Add:
        """The command that adds the combatant of ``sheet`` (a .toml/.json file, or a
        bestiary name of the table's system, ``mst2:ogre`` too) as ``name`` (its
        sheet's name, numbered if taken) on ``side`` (its own, by default): the rules
        of :mod:`affray.table.roster`.

        Raises:
            SheetError: the file or the sheet is invalid, or a creature of another
                system.
            TableError: there is no such file or creature; a bad name.
        """
        found = roster.sheet(table.system, sheet)
        return self.joining_data(
            table, found.data, found.source, side=side, name=name, tactics=tactics, player=player
        )

    def joining_data(
        self,
        table: TableRow,
        data: Mapping[str, Any],
        source: str,
        *,
        side: str | None = None,
        name: str | None = None,
        tactics: str = "nearest",
        player: bool = False,
    ) -> Add:
        """:meth:`joining` for a sheet's data already read (an uploaded sheet)."""
        newcomer = roster.Newcomer.of(data, source, name)
        return newcomer.add(self._ids(table), side=side, tactics=tactics, player=player)

    def joining_many(
        self,
        table: TableRow,
        data: Mapping[str, Any],
        source: str,
        count: int,
        *,
        side: str | None = None,
        name: str | None = None,
        tactics: str = "nearest",
        player: bool = False,
    ) -> list[Add]:
        """``count`` combatants of one sheet's data at once (Goblin 1 … Goblin N), on
        one side."""
        newcomer = roster.Newcomer.of(data, source, name)
        return newcomer.adds(self._ids(table), count, side=side, tactics=tactics, player=player)

    def importing(
        self, table: TableRow, data: Mapping[str, Any], where: str, base: Path | None
    ) -> Importing:
        """The commands that add every member of an encounter file (its sides, counts,
        names and tactics; sheet files relative to ``base``, or only bestiary names
        when there is no ``base``, as for an uploaded file), and the file's rules (its
        options, each side's keys, its round cap) as table options.

        Raises:
            SheetError: the file is invalid or of another system; a member's sheet is.
        """
        from affray.sheets.encounters import roster as encounter_roster

        found = encounter_roster(data, where)
        if found.system != table.system:
            raise SheetError(
                f"is a {found.system} encounter, but this table plays {table.system}",
                path=where,
                key="system",
            )
        commands = roster.members(
            found.members, table.system, where, base, self._ids(table), self._tactics_keys(table)
        )
        options: dict[str, Any] = {**found.options, "max_rounds": found.max_rounds}
        if found.sides:
            options["sides"] = {side: dict(keys) for side, keys in found.sides.items()}
        return Importing(commands, options)

    def _ids(self, table: TableRow) -> list[str]:
        """The ids of the combatants at the table now."""
        return [c.id for c in self.fold(table).state.encounter.combatants]

    @staticmethod
    def _tactics_keys(table: TableRow) -> frozenset[str]:
        return registry.system(table.system).tactics_keys

    def run_all(
        self,
        table: TableRow,
        commands: Sequence[Command],
        expected: int | None = None,
        *,
        options: Mapping[str, Any] | None = None,
    ) -> list[Done]:
        """Several commands that roll nothing (an import's adds), each a change of its
        own (so each can be undone), all in one transaction: all or none.

        ``options`` (an encounter file's rules) become the table's if it has no change
        yet; otherwise the table keeps its own, and the first Done's note says so.

        Raises:
            ConflictError: ``expected`` is not the table's version (nothing applied).
            AffrayError: an option the system does not take (nothing applied).
        """
        note = None
        if options is not None:  # the table's defaults and what it allows the players stay
            kept = {k: v for k, v in table.options.items() if k in ALLOWED}
            options = {**registry.system(table.system).table_defaults, **kept, **options}
        # the write lock is taken first, the fold's inside it (never the reverse)
        with self.store.writing(table.id, expected) as writer:
            fold = self.fold(table)
            if options is not None and dict(options) != dict(table.options):
                if fold.version == 0:
                    try:
                        rules = Rules.of(table.system, options)
                    except AffrayError as error:
                        raise TableError(f"option {error.message}", hint=error.hint) from None
                    writer.set_options(options)
                    table = replace(table, options=dict(options))
                    fold = Fold(rules)
                    with self.lock(table.id):
                        self._folds[table.id] = fold
                else:
                    note = (
                        "the table keeps its own rules (it has changes already); the "
                        "encounter's are: " + ", ".join(f"{k} = {v}" for k, v in options.items())
                    )
            state = fold.state
            played: list[tuple[Played, tuple[str, ...]]] = []
            for command in commands:
                one = play(fold.rules, state, command)
                state = one.state
                told = fold.rules.system.narration
                played.append((one, tuple(narrate_text(one.events, told, TABLE))))
            versions = [
                writer.append(one.command.verb, {**one.payload(), "lines": list(lines)})
                for one, lines in played
            ]
        dones: list[Done] = []
        for version, (one, lines) in zip(versions, played, strict=True):
            self._pushed(table, fold, version - 1, version, one)
            dones.append(Done(table, version, one.state, one.events, lines))
        if note is not None and dones:
            dones[0] = replace(dones[0], note=note)
        self.checkpoint(table)
        return dones

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
        rolled_before: Sequence[int] = (),
        beside: bool = False,
        owner: str | None = None,
    ) -> Done:
        """Play ``command`` on the table as it stands and log it: it is played outside
        the write lock, which is taken only to check that the table has not moved on
        and to append the change, in one transaction (played again if it had moved on;
        :func:`~affray.table.fold.play` says what answers it).

        ``owner``: ``rolls`` and ``choices`` are a player's, for the dice and questions
        of their combatant alone (:func:`~affray.table.fold.play`).

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
            if rolled_before:
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
                        rolled_before=rolled_before,
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
            tuple((played.inputs.faces[at], what) for at, what in played.inputs.rolled),
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
                rolled_before=data.get("rolled_at", ()),
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

    def _at(self, table: TableRow) -> tuple[Fold, int, TableState]:
        """The table's fold, its version and its state, read together."""
        with self.lock(table.id):
            fold = self.fold(table)
            return fold, fold.version, fold.state

    def _pushed(self, table: TableRow, fold: Fold, base: int, version: int, played: Played) -> None:
        """A change just committed at ``version``, played on the fold at ``base``, into
        the fold kept in memory (unless a read has fed it from the log meanwhile)."""
        with self.lock(table.id):
            if fold.version == base and self._folds.get(table.id) is fold:
                fold.push(version, played.command, played.inputs, played.state)

    def waiting(self, table: TableRow) -> dict[str, Any] | None:
        """The command the table waits on, as ``{"who", "needs", "rolls", "answered",
        "command", "question", "rolled_for", "did"}`` (``who``: whose die or answer it
        waits for; ``rolls`` and ``answered``: the faces and answers it used so far;
        ``rolled_for``: what each face was for; ``did``: what they did, as the log
        tells it; ``question``: the id an answer names), or None."""
        data = self.store.pending(table.id)
        if data is None:
            return None
        found = {key: data[key] for key in ("who", "needs", "rolls", "answered", "command")}
        found["rolled_for"] = data.get("rolled_for", [])  # kept since the faces were told
        found["did"] = data.get("did", [])  # kept since what they did was told
        found["question"] = data.get("question")  # None: kept by an older affray
        return found

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
    ) -> Done:
        """Go on with the command the table waits on: the faces it used so far, then
        ``rolls``; the answer to the question it stopped on (the entry of ``choices``
        of that topic), then the rest of ``choices`` for later questions. With
        ``roll_rest`` the dice after these are rolled, and with ``tactics_rest`` the
        combatants' tactics answer what is left, for the rest of the command. If it
        stops again, it waits again.

        ``question``: the id of the question this answers (as the table gave it); if
        the table asks another now, nothing is applied. ``rolled_one``: the last of
        ``rolls`` is a face affray rolled for the one who answers (a page's "roll it").

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
        rolled_before = list(data.get("rolled_at", []))
        if rolled_one and rolls:  # the last of them, rolled after any typed beside it
            rolled_before.append(len(data["rolls"]) + len(rolls) - 1)
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
            rolled_before=rolled_before,
        )

    def link(self, table: TableRow, who: str) -> tuple[str, str]:
        """A player's own link for the combatant ``who``: its id and the link's token
        (a new one revokes the old).

        Raises:
            RulesError: no combatant is called that.
        """
        state = self.fold(table).state
        cid = state.resolve(who)
        serial = state.serials[cid]
        # a link of an older affray's, by the serial alone, is revoked with it
        return cid, self.store.link(table.id, self._keys(table)[cid], revoke=(f"#{serial}",))

    def linked(self, token: str) -> tuple[str, str | None] | None:
        """The table and the combatant (its id now, or None if it has left the table)
        whose player's link this token is, if it is one."""
        found = self.store.linked(token)
        if found is None:
            return None
        table_id, serial = found
        return table_id, self._who(table_id, serial)

    def linked_ids(self, table: TableRow) -> list[str]:
        """The combatants who have a player's link now."""
        held = set(self.store.links(table.id))
        serials = self.fold(table).state.serials
        return [
            cid
            for cid, key in self._keys(table).items()
            if key in held or f"#{serials[cid]}" in held
        ]

    def link_tokens(self, table: TableRow) -> dict[str, str]:
        """Each combatant with a player's link now, and its link's token."""
        held = self.store.links(table.id)
        serials = self.fold(table).state.serials
        found = {}
        for cid, key in self._keys(table).items():
            token = held.get(key) or held.get(f"#{serials[cid]}")
            if token is not None:
                found[cid] = token
        return found

    def _who(self, table_id: str, key: str) -> str | None:
        """The combatant at the table now whose link ``key`` is, if it is still there.

        A link names its combatant for good: by its serial and the version of the change
        that added it (``#SERIAL@VERSION``), so that a combatant added after an undo,
        which may be given the same serial, is never another link's. A link an older
        affray made (``#SERIAL``) names the serial alone."""
        table = self.table(table_id)
        if "@" in key:
            return next((cid for cid, k in self._keys(table).items() if k == key), None)
        serials = self.fold(table).state.serials
        return next((cid for cid, n in serials.items() if f"#{n}" == key), None)

    def _keys(self, table: TableRow) -> dict[str, str]:
        """Each combatant's link key: ``#SERIAL@VERSION``, VERSION the change that
        added it (never given again: a version is never reused)."""
        with self.lock(table.id):
            fold = self.fold(table)
            added: dict[int, int] = {}
            for applied in fold.done:
                if isinstance(applied.command, Add):
                    added[applied.state.serials[applied.command.combatant]] = applied.version
            serials = fold.state.serials
        return {cid: f"#{n}@{added.get(n, 0)}" for cid, n in serials.items()}

    def cancel(self, table: TableRow) -> None:
        """Nothing waits any more (the command is dropped; nothing was applied)."""
        self.store.wait_on(table.id, self.store.version(table.id), None)

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

    def undo(self, table: TableRow, steps: int = 1, expected: int | None = None) -> Done:
        """Take back the last ``steps`` changes in effect (turns and initiative too)."""
        return self._move(table, UNDO, steps, expected)

    def redo(self, table: TableRow, steps: int = 1, expected: int | None = None) -> Done:
        """Bring back the last ``steps`` changes undone (before any new change)."""
        return self._move(table, REDO, steps, expected)

    def _move(self, table: TableRow, verb: str, steps: int, expected: int | None) -> Done:
        # the write lock first, the fold's inside it (never the reverse)
        with self.store.writing(table.id, expected) as writer:
            fold = self.fold(table)
            moved = fold.check_undo(steps) if verb == UNDO else fold.check_redo(steps)
            payload = {
                "steps": steps,
                "versions": [applied.version for applied in moved],
                "commands": [command_data(applied.command) for applied in moved],
            }
            version = writer.append(verb, payload)
            base = fold.version
        with self.lock(table.id):
            if fold.version == base and self._folds.get(table.id) is fold:
                if verb == UNDO:
                    fold.undo(version, steps)
                else:
                    fold.redo(version, steps)
            else:  # fed from the log meanwhile
                fold = self.fold(table)
        self.checkpoint(table)
        return Done(table, version, fold.state, moved=tuple(moved), called=fold.called())
