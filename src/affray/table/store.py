"""Where tables live: an SQLite database (WAL), one row per change.

Each change is one transaction. A writer opens it with ``BEGIN IMMEDIATE`` (one
writer at a time, others wait), reads the changes it has not seen, checks the
version it expects, appends its change and commits; ``synchronous=FULL`` makes a
committed change survive the process being killed, or the machine losing power.
The schema is versioned (``PRAGMA user_version``), checked without a lock on open
and migrated (under the write lock) only when it is behind.

A store opened to read (``readonly=True``: ``table show``, ``log``, ``list``, …)
changes nothing on disk: a missing file is an empty database (no file and no folder
is made), an older schema is migrated in memory, and a read never waits for the
write lock. Anything that is not an affray database is refused before anything is
done to it. Text read back is repaired (:func:`repaired`), so that a log written
before the table refused such text still shows and replays.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from affray.errors import ConflictError, TableError
from affray.quoting import unprintable

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE tables (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            system TEXT NOT NULL,
            options TEXT NOT NULL,
            gm_token TEXT NOT NULL,
            player_token TEXT NOT NULL,
            created TEXT NOT NULL
        )""",
        """CREATE TABLE changes (
            table_id TEXT NOT NULL REFERENCES tables(id),
            version INTEGER NOT NULL,
            verb TEXT NOT NULL,
            payload TEXT NOT NULL,
            created TEXT NOT NULL,
            PRIMARY KEY (table_id, version)
        )""",
    ),
    (
        """CREATE TABLE pending (
            table_id TEXT PRIMARY KEY REFERENCES tables(id),
            version INTEGER NOT NULL,
            payload TEXT NOT NULL
        )""",
    ),
    (
        "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "ALTER TABLE tables ADD COLUMN archived INTEGER NOT NULL DEFAULT 0",
    ),
    (
        """CREATE TABLE links (
            table_id TEXT NOT NULL REFERENCES tables(id),
            who TEXT NOT NULL,
            token TEXT NOT NULL UNIQUE,
            created TEXT NOT NULL,
            PRIMARY KEY (table_id, who)
        )""",
    ),
    (
        """CREATE TABLE parties (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            system TEXT NOT NULL,
            created TEXT NOT NULL
        )""",
        """CREATE TABLE party_changes (
            party_id TEXT NOT NULL REFERENCES parties(id),
            version INTEGER NOT NULL,
            verb TEXT NOT NULL,
            payload TEXT NOT NULL,
            created TEXT NOT NULL,
            PRIMARY KEY (party_id, version)
        )""",
    ),
)
"""Schema migrations, in order; ``user_version`` is how many have run."""

BUSY_TIMEOUT_S = 30.0
"""How long a write waits for another writer to finish before it gives up."""
ANNOUNCE_AFTER_S = 0.5
"""A write that has waited this long for the lock says so (``waiting``)."""
POLL_S = 0.05
"""How often a waiting write tries the lock again (SQLite's own wait is kept this
short, because Ctrl-C cannot stop it: the wait is in Python, between tries)."""
HEADER = b"SQLite format 3\x00"


def default_path() -> Path:
    """``AFFRAY_DB``, or ``tables.db`` in the user's data directory."""
    if env := os.environ.get("AFFRAY_DB"):
        return Path(env)
    from platformdirs import user_data_path

    return user_data_path("affray") / "tables.db"


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
    """An open table database.

    Args:
        path: the database file.
        readonly: open it to read only: nothing is made or changed on disk (a missing
            file reads as an empty database); writing through it is refused.
        waiting: hears, once, what a write waits for, when it has waited
            :data:`ANNOUNCE_AFTER_S` for another writer's lock.
        busy_timeout: how long a write waits for that lock before it gives up
            (default :data:`BUSY_TIMEOUT_S`).

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
    ) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self.waiting = waiting
        self.busy_timeout = BUSY_TIMEOUT_S if busy_timeout is None else busy_timeout
        try:
            self.db = self._open_to_read() if readonly else self._open_to_write()
        except sqlite3.Error as error:
            raise _plain(self.path, error, "it cannot be opened") from None
        except OSError as error:
            raise TableError(
                f"{self.path}: {error.strerror or error}",
                hint="give a writable file with --db (or AFFRAY_DB)",
            ) from None

    def _open_to_write(self) -> sqlite3.Connection:
        _refuse_foreign_file(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = _connect(str(self.path))
        self.db = db
        try:
            behind = _schema(db, self.path) < len(MIGRATIONS)  # read without a lock
            if _journal(db) != "wal":
                self._retrying(lambda: db.execute("PRAGMA journal_mode=WAL"))
            if behind:
                self._migrate()
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            db.close()
            raise
        return db

    def _open_to_read(self) -> sqlite3.Connection:
        if not self.path.exists():
            return _empty()
        _refuse_foreign_file(self.path)
        if self.path.stat().st_size == 0:
            return _empty()
        db = None
        for mode in ("rw", "ro", "ro&immutable=1"):  # the last two: a read-only disk
            try:
                db = _connect(f"file:{quote(str(self.path))}?mode={mode}", uri=True)
                done = _schema(db, self.path)
                break
            except sqlite3.OperationalError as error:
                if db is not None:
                    db.close()
                    db = None
                if _code(error) not in ("SQLITE_CANTOPEN", "SQLITE_READONLY"):
                    raise
        if db is None:
            raise TableError(
                f"{self.path}: cannot open it to read", hint="check the file's permissions"
            )
        if done < len(MIGRATIONS):  # an older affray's: read it through a migrated copy
            copy = _connect(":memory:")
            db.backup(copy)
            db.close()
            _run_migrations(copy, done)
            db = copy
        db.execute("PRAGMA query_only=ON")
        return db

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _migrate(self) -> None:
        with self._transaction():
            _run_migrations(self.db, _schema(self.db, self.path))

    def _retrying(self, attempt: Callable[[], object]) -> None:
        """``attempt`` until it does not find the database locked by another writer:
        waiting in Python between tries (so Ctrl-C stops it at once), saying once what
        it waits for, and giving up after :attr:`busy_timeout` seconds."""
        started = time.monotonic()
        said = False
        while True:
            try:
                attempt()
                return
            except sqlite3.OperationalError as error:
                if _code(error) not in ("SQLITE_BUSY", "SQLITE_LOCKED"):
                    raise
            waited = time.monotonic() - started
            if waited >= self.busy_timeout:
                raise TableError(
                    f"{self.path} is busy: another affray has been writing to it for "
                    f"{waited:.0f} s; nothing was changed",
                    hint="try again when it is done (is a command or `affray serve` stuck?)",
                )
            if not said and waited >= ANNOUNCE_AFTER_S and self.waiting is not None:
                said = True
                self.waiting(f"waiting for another affray writing to {self.path}… (Ctrl-C to stop)")
            time.sleep(POLL_S)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction: it commits when the block ends; if the block or the
        commit fails, nothing of it is written. SQLite's errors (a full disk, a
        read-only file) leave as :class:`TableError` in plain words."""
        if self.readonly:
            raise TableError(f"{self.path} was opened to read only", hint="this is a bug in affray")
        try:
            self._retrying(lambda: self.db.execute("BEGIN IMMEDIATE"))
        except sqlite3.Error as error:
            raise _plain(self.path, error) from None
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException as error:
            if self.db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self.db.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error):
                raise _plain(self.path, error) from None
            raise

    # -- tables -------------------------------------------------------------------------

    def create(self, name: str, system: str, options: Mapping[str, Any]) -> TableRow:
        """A new table with a short id made from ``name`` and fresh tokens."""
        base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "table"
        with self._transaction():
            taken = {row[0] for row in self.db.execute("SELECT id FROM tables")}
            table_id, n = base, 1
            while table_id in taken:
                n += 1
                table_id = f"{base}-{n}"
            row = TableRow(
                table_id,
                name,
                system,
                dict(options),
                secrets.token_urlsafe(18),
                secrets.token_urlsafe(18),
                _now(),
            )
            self.db.execute(
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
        """The table with id ``ref`` (or, failing that, the one called ``ref``).

        Raises:
            TableError: there is none.
        """
        found = self.db.execute(f"SELECT {COLUMNS} FROM tables WHERE id = ?", (ref,)).fetchone()
        if found is None:
            named = self.db.execute(
                f"SELECT {COLUMNS} FROM tables WHERE lower(name) = lower(?)", (ref,)
            ).fetchall()
            found = named[0] if len(named) == 1 else None
        if found is None:
            ids = [row[0] for row in self.db.execute("SELECT id FROM tables ORDER BY created")]
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
        """When the table last changed (its creation if it never did)."""
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
        with self._transaction():
            found = self.db.execute("SELECT value FROM settings WHERE key = 'home_key'").fetchone()
            if found is not None:
                return str(found[0])
            key = secrets.token_urlsafe(18)
            self.db.execute("INSERT INTO settings VALUES ('home_key', ?)", (key,))
            return key

    def link(self, table_id: str, who: str) -> str:
        """A new token of ``who``'s player's own link (the old one, if any, no longer
        works)."""
        token = secrets.token_urlsafe(18)
        with self._transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO links VALUES (?, ?, ?, ?)", (table_id, who, token, _now())
            )
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
        with self._transaction():
            self.db.execute(
                "UPDATE tables SET archived = ? WHERE id = ?", (int(archived), table_id)
            )

    def delete(self, table_id: str) -> None:
        """A table and its whole log gone for good."""
        with self._transaction():
            for statement in (
                "DELETE FROM links WHERE table_id = ?",
                "DELETE FROM pending WHERE table_id = ?",
                "DELETE FROM changes WHERE table_id = ?",
                "DELETE FROM tables WHERE id = ?",
            ):
                self.db.execute(statement, (table_id,))

    # -- changes ------------------------------------------------------------------------

    def version(self, table_id: str) -> int:
        (version,) = self.db.execute(
            "SELECT coalesce(max(version), 0) FROM changes WHERE table_id = ?", (table_id,)
        ).fetchone()
        return int(version)

    def changes(self, table_id: str, after: int = 0) -> list[ChangeRow]:
        """The changes of a table after version ``after``, in order."""
        rows = self.db.execute(
            "SELECT version, verb, payload, created FROM changes "
            "WHERE table_id = ? AND version > ? ORDER BY version",
            (table_id, after),
        ).fetchall()
        return [
            ChangeRow(v, verb, _payload(self.path, table_id, v, verb, payload), at)
            for v, verb, payload, at in rows
        ]

    def pending(self, table_id: str) -> Mapping[str, Any] | None:
        """The command the table is waiting on (for a die or an answer), if one waits
        at the table's current version (any change since drops it)."""
        row = self.db.execute(
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
        with self._transaction():
            if payload is None:
                self.db.execute("DELETE FROM pending WHERE table_id = ?", (table_id,))
            else:
                self.db.execute(
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
        with self._transaction():
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
        with self._transaction():
            _refuse_taken(self.db, "tables", "table", table_id, name)
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
            self.db.execute(
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
            self.db.executemany(
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

    def append(self, verb: str, payload: Mapping[str, Any]) -> int:
        self.version += 1
        self.store.db.execute(
            "INSERT INTO changes VALUES (?, ?, ?, ?, ?)",
            (self.table_id, self.version, verb, json.dumps(payload), _now()),
        )
        return self.version


@dataclass(frozen=True, slots=True)
class PartyRow:
    id: str
    name: str
    system: str
    created: str


class PartyStore:
    """The parties of a table database: one row each, and a log of changes, each
    change one transaction (as a table's)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, name: str, system: str) -> PartyRow:
        """A new party with a short id made from ``name``."""
        base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "party"
        db = self.store.db
        with self.store._transaction():
            taken = {row[0] for row in db.execute("SELECT id FROM parties")}
            party_id, n = base, 1
            while party_id in taken:
                n += 1
                party_id = f"{base}-{n}"
            row = PartyRow(party_id, name, system, _now())
            db.execute(
                "INSERT INTO parties VALUES (?, ?, ?, ?)", (row.id, name, system, row.created)
            )
        return row

    def party(self, ref: str) -> PartyRow:
        """The party with id ``ref`` (or, failing that, the one called ``ref``).

        Raises:
            TableError: there is none.
        """
        db = self.store.db
        found = db.execute("SELECT * FROM parties WHERE id = ?", (ref,)).fetchone()
        if found is None:
            named = db.execute(
                "SELECT * FROM parties WHERE lower(name) = lower(?)", (ref,)
            ).fetchall()
            found = named[0] if len(named) == 1 else None
        if found is None:
            ids = [row[0] for row in db.execute("SELECT id FROM parties ORDER BY created, id")]
            raise TableError(
                f"no party {ref!r} in {self.store.path}",
                hint=("parties here: " + ", ".join(ids))
                if ids
                else "make one with `affray party new NAME --system mst2`",
            )
        return PartyRow(*repaired(tuple(found)))

    def parties(self) -> list[tuple[PartyRow, int]]:
        """Every party, oldest first, with its version."""
        rows = self.store.db.execute(
            "SELECT id, name, system, created, (SELECT coalesce(max(version), 0) "
            "FROM party_changes c WHERE c.party_id = parties.id) FROM parties "
            "ORDER BY created, id"
        ).fetchall()
        return [(PartyRow(*repaired(tuple(row[:4]))), int(row[4])) for row in rows]

    def version(self, party_id: str) -> int:
        (version,) = self.store.db.execute(
            "SELECT coalesce(max(version), 0) FROM party_changes WHERE party_id = ?", (party_id,)
        ).fetchone()
        return int(version)

    def changes(self, party_id: str) -> list[ChangeRow]:
        """The changes of a party, in order."""
        rows = self.store.db.execute(
            "SELECT version, verb, payload, created FROM party_changes "
            "WHERE party_id = ? ORDER BY version",
            (party_id,),
        ).fetchall()
        return [
            ChangeRow(v, verb, _payload(self.store.path, party_id, v, verb, payload, "party"), at)
            for v, verb, payload, at in rows
        ]

    @contextmanager
    def writing(self, party_id: str) -> Iterator[PartyWriter]:
        """One change of a party, as one transaction (rolled back if the block raises)."""
        with self.store._transaction():
            yield PartyWriter(self.store, party_id, self.version(party_id))

    def restore(
        self, *, party_id: str, name: str, system: str, created: str, changes: Sequence[ChangeRow]
    ) -> PartyRow:
        """A party brought from elsewhere (an export): its row and its whole log as
        they were (times included), as one transaction.

        Raises:
            TableError: a party here has this id or this name (nothing is written).
        """
        db = self.store.db
        with self.store._transaction():
            _refuse_taken(db, "parties", "party", party_id, name)
            db.execute("INSERT INTO parties VALUES (?, ?, ?, ?)", (party_id, name, system, created))
            db.executemany(
                "INSERT INTO party_changes VALUES (?, ?, ?, ?, ?)",
                [(party_id, c.version, c.verb, json.dumps(c.payload), c.created) for c in changes],
            )
        return PartyRow(party_id, name, system, created)


@dataclass(slots=True)
class PartyWriter:
    store: Store
    party_id: str
    version: int

    def append(self, verb: str, payload: Mapping[str, Any]) -> int:
        self.version += 1
        self.store.db.execute(
            "INSERT INTO party_changes VALUES (?, ?, ?, ?, ?)",
            (self.party_id, self.version, verb, json.dumps(payload), _now()),
        )
        return self.version


def slug(name: str, fallback: str) -> str:
    """The id a table or a party called ``name`` is given (before any number that
    tells it from one of the same name)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or fallback


def _refuse_taken(db: sqlite3.Connection, rows: str, what: str, ref: str, name: str) -> None:
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


def repaired(value: Any) -> Any:
    """``value`` (read back from the database) with every text made fit to show and
    write: a code point no encoding can write (a lone surrogate) becomes U+FFFD, a
    control or format character (an escape, a bell, a line break, a direction
    override) its escape (``\\u001b``, ``\\n``). The same text is always repaired
    the same way, so a log replays as it did. Dictionary keys too."""
    if isinstance(value, str):
        if value.isprintable():
            return value
        return "".join(_repaired_char(char) for char in value)
    if isinstance(value, dict):
        return {repaired(key): repaired(item) for key, item in value.items()}
    if isinstance(value, list):
        return [repaired(item) for item in value]
    if isinstance(value, tuple):
        return tuple(repaired(item) for item in value)
    return value


_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _repaired_char(char: str) -> str:
    if "\ud800" <= char <= "\udfff":
        return "\ufffd"
    if unprintable(char):
        return _ESCAPES.get(char) or f"\\u{ord(char):04x}"
    return char


def _payload(
    path: Path, owner: str, version: int, verb: str, raw: Any, what: str = "table"
) -> dict[str, Any]:
    """A change's payload, repaired; one that is not what affray writes is refused in
    plain words (the log cannot be folded past it)."""
    try:
        payload = json.loads(raw)
    except (TypeError, ValueError):
        payload = None
    problem = None
    if not isinstance(payload, dict):
        problem = "it is not a JSON object"
    elif what == "table" and verb in ("undo", "redo"):
        steps = payload.get("steps")
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
            problem = "its steps are not a whole number of at least 1"
    elif what == "table":
        command = payload.get("command")
        if not isinstance(command, dict) or command.get("verb") != verb:
            problem = f"it holds no {verb} command"
        elif not all(
            isinstance(face, int) and not isinstance(face, bool)
            for face in _listed(payload, "faces")
        ):
            problem = "its dice faces are not whole numbers"
        elif not all(
            isinstance(answer, list)
            and len(answer) == 3
            and all(isinstance(part, str) for part in answer)
            for answer in _listed(payload, "answers")
        ):
            problem = "its answers are not [who, topic, answer] lists"
        elif not isinstance(payload.get("era", 1), int) or not all(
            isinstance(line, str) for line in _listed(payload, "lines")
        ):
            problem = "its era or its lines are damaged"
    if problem is not None:
        raise TableError(
            f"{path}: change {version} of {what} {owner!r} is damaged ({problem}); "
            "the log cannot be read past it",
            hint="restore the database from a backup (or an export)",
        )
    fixed: dict[str, Any] = repaired(payload)
    return fixed


def _listed(payload: Mapping[str, Any], key: str) -> list[Any]:
    """``payload[key]``, a list (a missing key: empty); a damaged one lists a value
    that no check passes."""
    value = payload.get(key, [])
    return value if isinstance(value, list) else [None]


def _connect(target: str, *, uri: bool = False) -> sqlite3.Connection:
    """A connection whose own busy wait is short: longer waits are Python's
    (:meth:`Store._retrying`), which Ctrl-C can stop."""
    return sqlite3.connect(
        target, timeout=POLL_S, isolation_level=None, check_same_thread=False, uri=uri
    )


def _empty() -> sqlite3.Connection:
    """A database in memory: what a missing (or empty) file reads as."""
    db = _connect(":memory:")
    _run_migrations(db, 0)
    return db


def _run_migrations(db: sqlite3.Connection, done: int, upto: int = len(MIGRATIONS)) -> None:
    """The migrations after ``done``, up to ``upto``."""
    for number, statements in enumerate(MIGRATIONS[done:upto], start=done + 1):
        for statement in statements:
            db.execute(statement)
        db.execute(f"PRAGMA user_version = {number}")


def _journal(db: sqlite3.Connection) -> str:
    (mode,) = db.execute("PRAGMA journal_mode").fetchone()
    return str(mode).lower()


def _refuse_foreign_file(path: Path) -> None:
    """Refuse a file that is not an SQLite database at all (an empty one is new)."""
    try:
        with path.open("rb") as file:
            start = file.read(len(HEADER))
    except FileNotFoundError:
        return
    except IsADirectoryError:
        raise TableError(
            f"{path} is a folder, not a table database",
            hint="give a file with --db (or AFFRAY_DB), e.g. tables.db in that folder",
        ) from None
    if start and start != HEADER:
        raise TableError(
            f"{path}: cannot use it as a table database (it is not an SQLite file); "
            "it was left as it is",
            hint="give an affray database with --db (or AFFRAY_DB), or a new file name",
        )


@cache
def _expected(version: int) -> dict[str, frozenset[str]]:
    """The tables and columns of affray's schema at ``version``."""
    db = _connect(":memory:")
    try:
        _run_migrations(db, 0, version)
        return _tables_of(db)
    finally:
        db.close()


def _tables_of(db: sqlite3.Connection) -> dict[str, frozenset[str]]:
    names = [
        str(row[0])
        for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    return {
        name: frozenset(str(column[1]) for column in db.execute(f'PRAGMA table_info("{name}")'))
        for name in names
    }


def _schema(db: sqlite3.Connection, path: Path) -> int:
    """The affray schema version of ``db`` (0: an empty database), read without a
    lock.

    Raises:
        TableError: it is not an affray database, or a newer affray's.
    """
    (done,) = db.execute("PRAGMA user_version").fetchone()
    found = _tables_of(db)
    if done == 0 and not found:
        return 0
    if done > len(MIGRATIONS) and _matches(found, _expected(1)):
        raise TableError(
            f"{path} was made by a newer affray (schema {done})",
            hint="upgrade affray to open it",
        )
    if not 1 <= done <= len(MIGRATIONS) or not _matches(found, _expected(done)):
        raise TableError(
            f"{path}: cannot use it as a table database (an SQLite database, but not "
            f"affray's: schema {done}); it was left as it is",
            hint="give an affray database with --db (or AFFRAY_DB), or a new file name",
        )
    return int(done)


def _matches(found: Mapping[str, frozenset[str]], expected: Mapping[str, frozenset[str]]) -> bool:
    return all(name in found and columns <= found[name] for name, columns in expected.items())


def _code(error: sqlite3.Error) -> str:
    """SQLite's name of the error (``SQLITE_FULL``), without its extended part."""
    name = str(getattr(error, "sqlite_errorname", "") or "")
    return "_".join(name.split("_")[:2])


def _plain(path: Path, error: sqlite3.Error, doing: str = "nothing was written") -> TableError:
    """An SQLite error in plain words, with what to do."""
    code = _code(error)
    if code == "SQLITE_FULL":
        return TableError(
            f"{path}: the disk is full; {doing}",
            hint="free some space on the disk that holds it, then do it again",
        )
    if code == "SQLITE_READONLY":
        return TableError(
            f"{path} cannot be written (a read-only file or disk); {doing}",
            hint="give a writable file with --db (or AFFRAY_DB)",
        )
    if code in ("SQLITE_BUSY", "SQLITE_LOCKED"):
        return TableError(
            f"{path} is busy: another affray is writing to it; {doing}",
            hint="try again when it is done",
        )
    if code in ("SQLITE_CORRUPT", "SQLITE_NOTADB"):
        return TableError(
            f"{path} is damaged or not a database ({error}); {doing}",
            hint="restore it from a backup, or give another file with --db (or AFFRAY_DB)",
        )
    if code in ("SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_PERM"):
        return TableError(
            f"{path}: the disk refused it ({error}); {doing}",
            hint="check the disk and the file's permissions, or give another file with --db",
        )
    return TableError(
        f"{path}: the database refused it ({error}); {doing}",
        hint="give another file with --db (or AFFRAY_DB)",
    )


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
