"""The tables of one database, folded: each table's log read into its state once and
kept in memory (only the changes since are read again), under a lock of its own, with
checkpoints so that a process afresh reads only the changes since the last one. What
every other part of :class:`~affray.table.service.Tables` stands on."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from affray import registry
from affray.errors import AffrayError, TableError
from affray.events import Event
from affray.table import checkpoint as checkpoints
from affray.table.fold import Applied, Fold, Played
from affray.table.given import AFFRAY
from affray.table.model import Rules, TableState
from affray.table.store import Store, TableRow


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
    faces: tuple[dict[str, Any], ...] = ()
    """Every face it used, in order, with its die and who gave it (``{"face": 7, "die":
    "d10 for Spearman's shock", "by": "affray", "for": "gm"}``: :mod:`~affray.table.given`)."""

    @property
    def rolled(self) -> tuple[dict[str, Any], ...]:
        """The faces affray rolled (not the table)."""
        return tuple(face for face in self.faces if face["by"] == AFFRAY)

    called: Mapping[str, str] = field(default_factory=dict)
    """What each combatant the moved changes name by key was called last (to tell
    them: :func:`affray.table.view.describe`)."""


class Folds:
    """The tables of one database, safe to use from many threads: a table's fold is
    read and moved by one thread at a time (its lock), and another table is never
    kept waiting by it."""

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
        "command", "question", "rolled_for", "did", "faces"}`` (``who``: whose die or
        answer it waits for; ``rolls`` and ``answered``: the faces and answers it used so
        far; ``rolled_for``: what each face was for; ``did``: what they did, as the log
        tells it; ``faces``: each face so far with its die, who gave it and what it did,
        as a change logs them, :mod:`~affray.table.given`; ``moment``: every die of the
        moment it waits in, where that holds several, ``{"die", "face"}`` with a null
        face while not given; ``question``: the id an answer names), or None."""
        data = self.store.pending(table.id)
        if data is None:
            return None
        found = {key: data[key] for key in ("who", "needs", "rolls", "answered", "command")}
        found["rolled_for"] = data.get("rolled_for", [])  # kept since the faces were told
        found["did"] = data.get("did", [])  # kept since what they did was told
        found["faces"] = data.get("faces", [])  # kept since each face's did was told
        found["moment"] = data.get("moment", [])  # kept since a moment's dice were told
        found["question"] = data.get("question")  # None: kept by an older affray
        return found

    def cancel(self, table: TableRow) -> None:
        """Nothing waits any more (the command is dropped; nothing was applied)."""
        self.store.wait_on(table.id, self.store.version(table.id), None)
