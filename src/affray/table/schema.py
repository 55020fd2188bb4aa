"""The table database's schema: its migrations in order (``PRAGMA user_version`` is
how many have run), and the check that a database is affray's, of which version."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from affray.errors import TableError

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
    (
        """CREATE TABLE checkpoints (
            table_id TEXT PRIMARY KEY REFERENCES tables(id),
            version INTEGER NOT NULL,
            stamp TEXT NOT NULL,
            fold BLOB NOT NULL
        )""",
    ),
)
"""Schema migrations, in order; ``user_version`` is how many have run."""


def run_migrations(db: sqlite3.Connection, done: int, upto: int = len(MIGRATIONS)) -> None:
    """The migrations after ``done``, up to ``upto``."""
    for number, statements in enumerate(MIGRATIONS[done:upto], start=done + 1):
        for statement in statements:
            db.execute(statement)
        db.execute(f"PRAGMA user_version = {number}")


@cache
def _expected(version: int) -> dict[str, frozenset[str]]:
    """The tables and columns of affray's schema at ``version``."""
    db = sqlite3.connect(":memory:")
    try:
        run_migrations(db, 0, version)
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


def schema_of(db: sqlite3.Connection, path: Path) -> int:
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
