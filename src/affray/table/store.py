"""Where tables live: rows of an SQLite database (:mod:`affray.table.db`), one row
per change.

Each change is one transaction: a writer takes the write lock (``BEGIN IMMEDIATE``:
one writer at a time, others wait), checks the version it expects, appends its
change and commits; ``synchronous=FULL`` makes a committed change survive the process
being killed, or the machine losing power. Reads go through each thread's own
connection and never wait for a writer; :meth:`Store.reading` holds several reads in
one snapshot. Text read back is repaired (:mod:`affray.table.payloads`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import secrets
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from affray.errors import ConflictError, TableError
from affray.table.db import BUSY_TIMEOUT_S, Database, default_path
from affray.table.payloads import checked, repaired

CHECKPOINT_WAIT_S = 0.5
"""How long a checkpoint waits for another writer's lock (then it is not written)."""

__all__ = ["ChangeRow", "Store", "TableRow", "Writer", "default_path"]


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    name: str
    system: str
    options: Mapping[str, Any]
    gm_token: str
    player_token: str
    created: str
    archived: bool = False


COLUMNS = "id, name, system, options, gm_token, player_token, created, archived"
"""The columns of a table's row, in :class:`TableRow`'s order."""


@dataclass(frozen=True, slots=True)
class ChangeRow:
    version: int
    verb: str
    payload: Mapping[str, Any]
    created: str


class Store:
    """The tables of a database.

    Args:
        path: the database file.
        readonly: open it to read only: nothing is made or changed on disk (a missing
            file reads as an empty database); writing through it is refused.
        waiting: hears, once, what a write waits for, when it has waited a moment for
            another writer's lock.
        busy_timeout: how long a write waits for that lock before it gives up
            (default :data:`~affray.table.db.BUSY_TIMEOUT_S`).
        make_folder: make the file's folder if it is missing (for the default data
            folder; a folder the user named must be there).

    Raises:
        TableError: the file is not an affray database, or one a newer affray made,
            or it cannot be opened.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        readonly: bool = False,
        waiting: Callable[[str], None] | None = None,
        busy_timeout: float | None = None,
        make_folder: bool = False,
    ) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self.waiting = waiting
        self.busy_timeout = BUSY_TIMEOUT_S if busy_timeout is None else busy_timeout
        self.database = Database.open(self.path, readonly=readonly, make_folder=make_folder)
        self._closed = False

    @property
    def db(self) -> sqlite3.Connection:
        """The connection this thread reads (or, in a transaction, writes) through."""
        return self.database.connection()

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.database.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def transaction(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """One write transaction (:meth:`~affray.table.db.Database.writing`), waiting
        for another writer as this store was told to."""
        return self.database.writing(busy_timeout=self.busy_timeout, waiting=self.waiting)

    def reading(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """Several reads in one snapshot."""
        return self.database.reading()

    # -- tables -------------------------------------------------------------------------

    def create(self, name: str, system: str, options: Mapping[str, Any]) -> TableRow:
        """A new table with a short id made from ``name`` and fresh tokens.

        Raises:
            TableError: a table here has that name already (case and spacing forgiven):
                nothing is made (a name finds a table, so two alike would be a trap).
        """
        with self.transaction() as db:
            found = db.execute(
                "SELECT id, name FROM tables WHERE lower(name) = lower(?)", (name,)
            ).fetchone()
            if found is not None:
                raise TableError(
                    f"there is a table called {found[1]!r} here already (id {found[0]}); "
                    "nothing was made",
                    hint=f"give the new table another name, or go on with that one "
                    f"(affray table show {found[0]})",
                )
            taken = {row[0] for row in db.execute("SELECT id FROM tables")}
            row = TableRow(
                unused_id(name, "table", taken),
                name,
                system,
                dict(options),
                secrets.token_urlsafe(18),
                secrets.token_urlsafe(18),
                now(),
            )
            db.execute(
                f"INSERT INTO tables ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
                (
                    row.id,
                    row.name,
                    row.system,
                    json.dumps(row.options),
                    row.gm_token,
                    row.player_token,
                    row.created,
                ),
            )
        return row

    def table(self, ref: str) -> TableRow:
        """The table with id ``ref`` (case forgiven), or, failing that, the one called
        ``ref`` (case and spacing forgiven).

        Raises:
            TableError: there is none.
        """
        with self.reading() as db:
            found = db.execute(f"SELECT {COLUMNS} FROM tables WHERE id = ?", (ref,)).fetchone()
            if found is None:
                found = _one(
                    db.execute(f"SELECT {COLUMNS} FROM tables WHERE lower(id) = lower(?)", (ref,))
                )
            if found is None:
                found = _one(
                    db.execute(
                        f"SELECT {COLUMNS} FROM tables WHERE lower(name) = lower(?)",
                        (" ".join(ref.split()),),
                    )
                )
            if found is None:
                ids = [row[0] for row in db.execute("SELECT id FROM tables ORDER BY created")]
                raise TableError(
                    f"no table {ref!r} in {self.path}",
                    hint=("tables here: " + ", ".join(ids))
                    if ids
                    else "make one with `affray table new NAME --system mst2`",
                )
        return _table_row(found)

    def token_owner(self, token: str) -> str | None:
        """The id of the table whose game master or player token this is, if any."""
        found = self.db.execute(
            "SELECT id FROM tables WHERE gm_token = ? OR player_token = ?", (token, token)
        ).fetchone()
        return None if found is None else str(found[0])

    def tables(self) -> list[tuple[TableRow, int]]:
        """Every table, oldest first, with its version."""
        rows = self.db.execute(
            f"SELECT {COLUMNS}, (SELECT coalesce(max(version), 0) FROM changes c "
            "WHERE c.table_id = tables.id) FROM tables ORDER BY created, id"
        ).fetchall()
        return [(_table_row(row[:8]), row[8]) for row in rows]

    def last_change(self, table_id: str) -> str | None:
        """When the table last changed (None if it never did)."""
        found = self.db.execute(
            "SELECT max(created) FROM changes WHERE table_id = ?", (table_id,)
        ).fetchone()
        return None if found is None else found[0]

    def home_key(self) -> str:
        """The key of the tracker's home page, made with the database's first need of
        it and kept in it (read without a write lock once it is made)."""
        found = self.db.execute("SELECT value FROM settings WHERE key = 'home_key'").fetchone()
        if found is not None:
            return str(found[0])
        with self.transaction() as db:
            found = db.execute("SELECT value FROM settings WHERE key = 'home_key'").fetchone()
            if found is not None:
                return str(found[0])
            key = secrets.token_urlsafe(18)
            db.execute("INSERT INTO settings VALUES ('home_key', ?)", (key,))
            return key

    def setting(self, key: str) -> str | None:
        """A value kept with the database (the address ``affray serve`` answers at)."""
        found = self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if found is None else str(found[0])

    def set_setting(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, value))

    def link(self, table_id: str, who: str, *, revoke: Sequence[str] = ()) -> str:
        """A new token of ``who``'s player's own link (the old one, if any, no longer
        works; nor do the links of the keys ``revoke``)."""
        token = secrets.token_urlsafe(18)
        with self.transaction() as db:
            for key in (who, *revoke):
                db.execute("DELETE FROM links WHERE table_id = ? AND who = ?", (table_id, key))
            db.execute("INSERT INTO links VALUES (?, ?, ?, ?)", (table_id, who, token, now()))
        return token

    def linked(self, token: str) -> tuple[str, str] | None:
        """The table and the combatant whose player link this token is, if any."""
        found = self.db.execute(
            "SELECT table_id, who FROM links WHERE token = ?", (token,)
        ).fetchone()
        return None if found is None else (str(found[0]), str(found[1]))

    def links(self, table_id: str) -> dict[str, str]:
        """Each linked combatant's token."""
        rows = self.db.execute("SELECT who, token FROM links WHERE table_id = ?", (table_id,))
        return {str(who): str(token) for who, token in rows}

    def archive(self, table_id: str, archived: bool) -> None:
        """Put a table away from the home page's list, or bring it back."""
        with self.transaction() as db:
            db.execute("UPDATE tables SET archived = ? WHERE id = ?", (int(archived), table_id))

    def delete(self, table_id: str) -> None:
        """A table and its whole log gone for good."""
        with self.transaction() as db:
            for statement in (
                "DELETE FROM checkpoints WHERE table_id = ?",
                "DELETE FROM links WHERE table_id = ?",
                "DELETE FROM pending WHERE table_id = ?",
                "DELETE FROM changes WHERE table_id = ?",
                "DELETE FROM tables WHERE id = ?",
            ):
                db.execute(statement, (table_id,))

    # -- changes ------------------------------------------------------------------------

    def version(self, table_id: str) -> int:
        (version,) = self.db.execute(
            "SELECT coalesce(max(version), 0) FROM changes WHERE table_id = ?", (table_id,)
        ).fetchone()
        return int(version)

    def changes(self, table_id: str, after: int = 0) -> list[ChangeRow]:
        """The changes of a table after version ``after``, in order."""
        return list(self.iter_changes(table_id, after))

    def iter_changes(self, table_id: str, after: int = 0) -> Iterator[ChangeRow]:
        """:meth:`changes`, one at a time (a long log is never all in memory)."""
        cursor = self.db.execute(
            "SELECT version, verb, payload, created FROM changes "
            "WHERE table_id = ? AND version > ? ORDER BY version",
            (table_id, after),
        )
        for v, verb, payload, at in cursor:
            yield ChangeRow(v, verb, checked(self.path, table_id, v, verb, payload), at)

    def checkpoint(self, table_id: str) -> tuple[int, str, bytes] | None:
        """The table's checkpoint (:mod:`affray.table.checkpoint`): its version, its
        stamp and its bytes, if it has one."""
        found = self.db.execute(
            "SELECT version, stamp, fold FROM checkpoints WHERE table_id = ?", (table_id,)
        ).fetchone()
        if found is None or not isinstance(found[2], bytes):
            return None
        return int(found[0]), str(found[1]), found[2]

    def keep_checkpoint(self, table_id: str, version: int, stamp: str, fold: bytes) -> None:
        """Keep a checkpoint of the table at ``version`` (unless one as far on is kept
        already, or the table has been deleted meanwhile). It is a cache: a write
        that would wait long for another writer's lock is not made.

        Raises:
            DatabaseBusyError: another writer holds the lock.
        """
        with self.database.writing(busy_timeout=CHECKPOINT_WAIT_S) as db:
            db.execute(
                "INSERT INTO checkpoints SELECT ?, ?, ?, ? WHERE EXISTS "
                "(SELECT 1 FROM tables WHERE id = ?) "
                "ON CONFLICT (table_id) DO UPDATE SET version = excluded.version, "
                "stamp = excluded.stamp, fold = excluded.fold WHERE excluded.version > version",
                (table_id, version, stamp, fold, table_id),
            )

    def stamp(self, table_id: str) -> tuple[int, str]:
        """The table's version and a mark of the command it waits on ("" when none
        does): what a live page watches, read in one statement."""
        version, waiting, payload = self.db.execute(
            "SELECT (SELECT coalesce(max(version), 0) FROM changes WHERE table_id = ?), "
            "p.version, p.payload FROM (SELECT 1) LEFT JOIN pending p ON p.table_id = ?",
            (table_id, table_id),
        ).fetchone()
        if waiting is None or waiting != version:
            return int(version), ""
        return int(version), hashlib.blake2b(str(payload).encode(), digest_size=8).hexdigest()

    def pending(self, table_id: str) -> Mapping[str, Any] | None:
        """The command the table is waiting on (for a die or an answer), if one waits
        at the table's current version (any change since drops it)."""
        with self.reading() as db:
            row = db.execute(
                "SELECT version, payload FROM pending WHERE table_id = ?", (table_id,)
            ).fetchone()
            if row is None or row[0] != self.version(table_id):
                return None
        try:
            payload = repaired(json.loads(row[1]))
        except ValueError:
            return None  # a damaged waiting command: nothing waits
        return payload if isinstance(payload, dict) else None

    def wait_on(self, table_id: str, version: int, payload: Mapping[str, Any] | None) -> None:
        """Keep ``payload`` as the command waiting at ``version`` (None: none waits)."""
        with self.transaction() as db:
            if payload is None:
                db.execute("DELETE FROM pending WHERE table_id = ?", (table_id,))
            else:
                db.execute(
                    "INSERT OR REPLACE INTO pending VALUES (?, ?, ?)",
                    (table_id, version, json.dumps(payload)),
                )

    @contextmanager
    def writing(self, table_id: str, expected: int | None = None) -> Iterator[Writer]:
        """One change, as one transaction: the block reads what it needs through the
        :class:`Writer` and appends the change; it commits when the block ends, and
        rolls back (nothing changed) if the block raises.

        Raises:
            ConflictError: ``expected`` is given and is not the table's version.
        """
        with self.transaction():
            current = self.version(table_id)
            if expected is not None and expected != current:
                raise ConflictError(expected, current)
            yield Writer(self, table_id, current)

    def restore(
        self,
        *,
        table_id: str,
        name: str,
        system: str,
        options: Mapping[str, Any],
        created: str,
        archived: bool,
        changes: Sequence[ChangeRow],
    ) -> TableRow:
        """A table brought from elsewhere (an export): its row and its whole log as
        they were (times included), with fresh tokens, as one transaction.

        Raises:
            TableError: a table here has this id or this name (nothing is written).
        """
        with self.transaction() as db:
            refuse_taken(db, "tables", "table", table_id, name)
            row = TableRow(
                table_id,
                name,
                system,
                dict(options),
                secrets.token_urlsafe(18),
                secrets.token_urlsafe(18),
                created,
                archived,
            )
            db.execute(
                f"INSERT INTO tables ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.id,
                    row.name,
                    row.system,
                    json.dumps(row.options),
                    row.gm_token,
                    row.player_token,
                    row.created,
                    int(archived),
                ),
            )
            db.executemany(
                "INSERT INTO changes VALUES (?, ?, ?, ?, ?)",
                [(table_id, c.version, c.verb, json.dumps(c.payload), c.created) for c in changes],
            )
        return row


@dataclass(slots=True)
class Writer:
    store: Store
    table_id: str
    version: int

    def set_options(self, options: Mapping[str, Any]) -> None:
        """The table's rules from now on (only for a table with no change yet: its log
        replays with the options it has)."""
        self.store.db.execute(
            "UPDATE tables SET options = ? WHERE id = ?", (json.dumps(dict(options)), self.table_id)
        )

    def wait_on(self, payload: Mapping[str, Any]) -> None:
        """Keep ``payload`` as the command waiting at the version written last (in the
        same transaction as the change)."""
        self.store.db.execute(
            "INSERT OR REPLACE INTO pending VALUES (?, ?, ?)",
            (self.table_id, self.version, json.dumps(payload)),
        )

    def append(self, verb: str, payload: Mapping[str, Any]) -> int:
        self.version += 1
        self.store.db.execute(
            "INSERT INTO changes VALUES (?, ?, ?, ?, ?)",
            (self.table_id, self.version, verb, json.dumps(payload), now()),
        )
        return self.version


def slug(name: str, fallback: str) -> str:
    """The id a table or a party called ``name`` is given (before any number that
    tells it from one of the same name)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or fallback


def unused_id(name: str, fallback: str, taken: Iterable[str]) -> str:
    """``name``'s :func:`slug`, numbered (``-2``, ``-3``, …) past the ids ``taken``."""
    base, used = slug(name, fallback), set(taken)
    found, n = base, 1
    while found in used:
        n += 1
        found = f"{base}-{n}"
    return found


def refuse_taken(db: sqlite3.Connection, rows: str, what: str, ref: str, name: str) -> None:
    """Refuse an id or a name (case forgiven) that one of ``rows`` has already: an
    import never takes the place of what is there."""
    found = db.execute(
        f"SELECT id, name FROM {rows} WHERE id = ? OR lower(name) = lower(?)", (ref, name)
    ).fetchone()
    if found is not None:
        taken = f"id {ref!r}" if found[0] == ref else f"name {found[1]!r}"
        raise TableError(
            f"there is a {what} with the {taken} here already; nothing was imported",
            hint="import it under another name with --as NEW",
        )


def _one(cursor: sqlite3.Cursor) -> Any:
    """The one row of ``cursor``, or None for none or several."""
    rows = cursor.fetchmany(2)
    return rows[0] if len(rows) == 1 else None


def _table_row(row: tuple[Any, ...]) -> TableRow:
    tid, name, system, options, gm, player, created, archived = repaired(tuple(row))
    try:
        loaded = json.loads(options)
    except (TypeError, ValueError):
        loaded = None
    if not isinstance(loaded, dict):
        raise TableError(
            f"the options of table {tid!r} are damaged (not a JSON object)",
            hint="restore the database from a backup",
        )
    return TableRow(tid, name, system, repaired(loaded), gm, player, created, bool(archived))


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
