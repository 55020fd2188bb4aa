"""Where tables live: an SQLite database (WAL), one row per change.

Each change is one transaction. A writer opens it with ``BEGIN IMMEDIATE`` (one
writer at a time, others wait), reads the changes it has not seen, checks the
version it expects, appends its change and commits; ``synchronous=FULL`` makes a
committed change survive the process being killed, or the machine losing power.
The schema is versioned (``PRAGMA user_version``) and migrated on open.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from affray.errors import ConflictError, TableError

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

    Raises:
        TableError: the file is not an affray database, or one a newer affray made.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as error:
            raise TableError(
                f"{self.path}: cannot use it as a table database ({error})",
                hint="give another file with --db (or AFFRAY_DB)",
            ) from None
        except OSError as error:
            raise TableError(
                f"{self.path}: {error.strerror or error}",
                hint="give a writable file with --db (or AFFRAY_DB)",
            ) from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _migrate(self) -> None:
        with self._transaction():
            (done,) = self.db.execute("PRAGMA user_version").fetchone()
            if done > len(MIGRATIONS):
                raise TableError(
                    f"{self.path} was made by a newer affray (schema {done})",
                    hint="upgrade affray to open it",
                )
            for number, statements in enumerate(MIGRATIONS[done:], start=done + 1):
                for statement in statements:
                    self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version = {number}")

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

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
        return [ChangeRow(v, verb, json.loads(payload), at) for v, verb, payload, at in rows]

    def pending(self, table_id: str) -> Mapping[str, Any] | None:
        """The command the table is waiting on (for a die or an answer), if one waits
        at the table's current version (any change since drops it)."""
        row = self.db.execute(
            "SELECT version, payload FROM pending WHERE table_id = ?", (table_id,)
        ).fetchone()
        if row is None or row[0] != self.version(table_id):
            return None
        payload: Mapping[str, Any] = json.loads(row[1])
        return payload

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
        return PartyRow(*found)

    def parties(self) -> list[tuple[PartyRow, int]]:
        """Every party, oldest first, with its version."""
        rows = self.store.db.execute(
            "SELECT id, name, system, created, (SELECT coalesce(max(version), 0) "
            "FROM party_changes c WHERE c.party_id = parties.id) FROM parties "
            "ORDER BY created, id"
        ).fetchall()
        return [(PartyRow(*row[:4]), int(row[4])) for row in rows]

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
        return [ChangeRow(v, verb, json.loads(payload), at) for v, verb, payload, at in rows]

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
    tid, name, system, options, gm, player, created, archived = row
    return TableRow(tid, name, system, json.loads(options), gm, player, created, bool(archived))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
