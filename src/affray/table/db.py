"""The table database as one process uses it: one :class:`Database` per path.

Any number of processes (``affray serve``, the terminal's ``affray table …``) share
one file safely because only SQLite ever opens it. POSIX advisory locks belong to the
process, and closing *any* descriptor of the file drops them all (SQLite's "How To
Corrupt An SQLite Database File", 2.2): a second process would then delete the WAL
the first still writes to. So nothing here opens the file outside SQLite; whether it
is an SQLite file at all, and affray's, is asked of SQLite itself.

In a process:

* reads go through a connection of the reading thread's own (WAL: a read never
  waits for a writer), and :meth:`Database.reading` holds several statements in one
  snapshot;
* writes go through one writer connection, one thread at a time, each a
  ``BEGIN IMMEDIATE`` transaction retried while another process holds the write lock
  (in Python, between tries, so Ctrl-C stops it), with ``synchronous=FULL``;
* :meth:`Database.data_version` changes when another connection (another process
  among them) commits: a cheap poll of outside changes.

A database opened to read (``readonly=True``) changes nothing on disk: a missing file
reads as an empty database, an older schema is migrated in a copy in memory.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import quote

from affray.errors import DatabaseBusyError, DatabaseError, TableError
from affray.table.schema import MIGRATIONS, run_migrations, schema_of

BUSY_TIMEOUT_S = 30.0
"""How long a write waits for another writer to finish before it gives up."""
ANNOUNCE_AFTER_S = 0.5
"""A write that has waited this long for the lock says so (``waiting``)."""
POLL_S = 0.05
"""How often a waiting write tries the lock again (SQLite's own wait is kept this
short, because Ctrl-C cannot stop it: the wait is in Python, between tries)."""


def default_path() -> Path:
    """``AFFRAY_DB``, or ``tables.db`` in the user's data directory."""
    if env := os.environ.get("AFFRAY_DB"):
        return Path(env)
    from platformdirs import user_data_path

    return user_data_path("affray") / "tables.db"


def chosen_path(db: str | Path | None) -> tuple[Path, bool]:
    """The database a command uses (``--db``, else ``AFFRAY_DB``, else the default),
    and whether its folder may be made: only the default data folder is made; a
    folder the user named must be there."""
    if db is not None:
        return Path(db), False
    return default_path(), "AFFRAY_DB" not in os.environ or not os.environ["AFFRAY_DB"]


class Database:
    """One database file as this process uses it (use :meth:`open`: one per path).

    Args:
        path: the file.
        readonly: nothing is made or changed on disk; writing is refused.
        make_folder: make the file's folder if it is missing (the default data
            folder); otherwise a missing folder is an error naming it.
    """

    _open: ClassVar[weakref.WeakValueDictionary[tuple[str, bool], Database]] = (
        weakref.WeakValueDictionary()
    )
    """The databases open in this process (one that no one holds any more is closed as
    it is collected, its connections with it)."""
    _registry_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, path: Path, *, readonly: bool, make_folder: bool = False) -> None:
        self.path = path
        self.readonly = readonly
        self.users = 0
        self._local = threading.local()
        self._connections: weakref.WeakSet[sqlite3.Connection] = weakref.WeakSet()
        """Every connection open (a thread's reader is held by the thread alone, and
        closed when the thread ends)."""
        self._connections_lock = threading.Lock()
        self._spare: list[sqlite3.Connection] = []
        """Readers no thread holds now (lent again before a new one is opened)."""
        self._write_lock = threading.RLock()
        self._memory: sqlite3.Connection | None = None
        """For a read-only database that has no file, or an older schema: its copy
        in memory, the one connection (used under :attr:`_memory_lock`)."""
        self._memory_lock = threading.RLock()
        self._writer: sqlite3.Connection | None = None
        self.stopping = False
        """The process is stopping: a write waiting for another's lock gives up now."""
        self._data_version: sqlite3.Connection | None = None
        try:
            if readonly:
                self._open_to_read()
            else:
                self._open_to_write(make_folder)
        except BaseException:
            self._close_all()
            raise

    # -- one per process and path -------------------------------------------------------

    @classmethod
    def open(
        cls, path: str | Path, *, readonly: bool = False, make_folder: bool = False
    ) -> Database:
        """The process's :class:`Database` of ``path`` (opened now if it is not open):
        every user of one file in a process shares its connections. :meth:`close`
        once per :meth:`open`.

        Raises:
            TableError: the file is not an affray database, a newer affray's, a
                folder, or cannot be opened (:class:`DatabaseError`).
        """
        where = Path(path)
        key = (_key(where), readonly)
        with cls._registry_lock:
            found = cls._open.get(key)
            if found is None:
                found = cls._open[key] = cls(where, readonly=readonly, make_folder=make_folder)
            elif found._memory is None:
                found._checked(found.connection())  # a newer affray may have migrated it
            found.users += 1
            return found

    def close(self) -> None:
        """This user is done with it; the last one closes its connections."""
        with self._registry_lock:
            self.users -= 1
            if self.users > 0:
                return
            key = (_key(self.path), self.readonly)
            if self._open.get(key) is self:
                del self._open[key]
        self._close_all()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _close_all(self) -> None:
        with self._connections_lock:
            connections, self._connections = list(self._connections), weakref.WeakSet()
            self._spare.clear()
        self._local = threading.local()
        for connection in connections:
            with contextlib.suppress(sqlite3.Error):
                connection.close()

    # -- opening -------------------------------------------------------------------------

    def _open_to_write(self, make_folder: bool) -> None:
        _refuse_folder(self.path)
        if not self.path.parent.exists():
            if not make_folder:
                raise TableError(
                    f"{self.path}: the folder {self.path.parent} does not exist",
                    hint="make the folder first, or give another file with --db (or AFFRAY_DB)",
                )
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise TableError(
                    f"{self.path.parent}: cannot make the folder ({error.strerror or error})",
                    hint="give a writable file with --db (or AFFRAY_DB)",
                ) from None
        writer = self._connect(str(self.path))
        self._writer = writer
        done = self._checked(writer)
        if _journal(writer) != "wal":
            self._retrying(lambda: writer.execute("PRAGMA journal_mode=WAL"))
        writer.execute("PRAGMA synchronous=FULL")
        writer.execute("PRAGMA foreign_keys=ON")
        if done < len(MIGRATIONS):
            with self.writing() as db:
                run_migrations(db, schema_of(db, self.path))

    def _open_to_read(self) -> None:
        _refuse_folder(self.path)
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            size = 0
        except OSError as error:
            raise TableError(
                f"{self.path}: {error.strerror or error}", hint="check the file and its folder"
            ) from None
        if size == 0:  # no file (or an empty one): an empty database, nothing made
            self._memory = self._connect(":memory:")
            run_migrations(self._memory, 0)
            return
        first = self._reader()
        done = self._checked(first)
        if done < len(MIGRATIONS):  # an older affray's: read it through a migrated copy
            copy = self._connect(":memory:")
            with self._snapshot(first):
                first.backup(copy)
            run_migrations(copy, done)
            self._memory = copy

    def _checked(self, connection: sqlite3.Connection) -> int:
        """The schema version, asked of SQLite (which refuses a file that is not a
        database without changing it)."""
        try:
            return schema_of(connection, self.path)
        except DatabaseError as error:
            if error.code == "SQLITE_NOTADB":
                raise TableError(
                    f"{self.path}: cannot use it as a table database (it is not an SQLite "
                    "file); it was left as it is",
                    hint="give an affray database with --db (or AFFRAY_DB), or a new file name",
                ) from None
            raise DatabaseError(
                error.message.replace("nothing was written", "it cannot be opened"),
                hint=error.hint,
            ) from None

    def _connect(self, target: str, *, uri: bool = False) -> _Connection:
        try:
            connection = _sqlite(target, uri=uri)
        except sqlite3.Error as error:
            raise plain(self.path, error, "it cannot be opened") from None
        connection.path = self.path
        with self._connections_lock:
            self._connections.add(connection)
        return connection

    def _reader(self) -> sqlite3.Connection:
        """This thread's own connection to read through: lent from the database's
        spare readers while the thread lives (and given back when it ends, so that
        threads coming and going do not open connection after connection)."""
        lease: _Lease | None = getattr(self._local, "reader", None)
        if lease is not None:
            return lease.connection
        with self._connections_lock:
            spare = self._spare.pop() if self._spare else None
        if spare is None:
            target = f"file:{quote(str(self.path))}?mode={'ro' if self._readonly_disk() else 'rw'}"
            spare = self._connect(target, uri=True)
            spare.execute("PRAGMA query_only=ON")
        self._local.reader = _Lease(spare, self._spare)
        return spare

    def _readonly_disk(self) -> bool:
        return self.readonly and not os.access(self.path, os.W_OK)

    # -- using it ------------------------------------------------------------------------

    def connection(self) -> sqlite3.Connection:
        """The connection this thread uses now: the writer's inside :meth:`writing`,
        else its own reader."""
        if self._memory is not None:
            return self._memory
        if getattr(self._local, "writing", 0) and self._writer is not None:
            return self._writer
        return self._reader()

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """Several reads in one snapshot (the database as one moment left it)."""
        if self._memory is not None:
            with self._memory_lock:
                yield self._memory
            return
        connection = self.connection()
        if connection.in_transaction:  # inside a write, or a snapshot already
            yield connection
            return
        with self._snapshot(connection):
            yield connection

    @contextmanager
    def _snapshot(self, connection: sqlite3.Connection) -> Iterator[None]:
        connection.execute("BEGIN")
        connection.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        try:
            yield
        finally:
            with contextlib.suppress(sqlite3.Error, DatabaseError):
                connection.execute("COMMIT")

    @contextmanager
    def writing(
        self,
        *,
        busy_timeout: float = BUSY_TIMEOUT_S,
        waiting: Callable[[str], None] | None = None,
    ) -> Iterator[sqlite3.Connection]:
        """One write transaction through the writer connection: it commits when the
        block ends; if the block or the commit fails, nothing of it is written. One
        thread of this process writes at a time; another process's write lock is
        waited for up to ``busy_timeout`` (``waiting`` hears once that it waits).
        Nested, it is the one transaction.

        Raises:
            TableError: opened to read only.
            DatabaseBusyError: another writer held the lock past ``busy_timeout``.
            DatabaseError: SQLite refused the write (a full disk, a read-only file).
        """
        writer = self._writer
        if self.readonly or writer is None:
            raise TableError(f"{self.path} was opened to read only", hint="this is a bug in affray")
        with self._write_lock:
            depth = getattr(self._local, "writing", 0)
            if depth:
                self._local.writing = depth + 1
                try:
                    yield writer
                finally:
                    self._local.writing = depth
                return
            self._retrying(lambda: writer.execute("BEGIN IMMEDIATE"), busy_timeout, waiting)
            self._local.writing = 1
            try:
                yield writer
                writer.execute("COMMIT")
            except BaseException:
                if writer.in_transaction:
                    with contextlib.suppress(sqlite3.Error, DatabaseError):
                        writer.execute("ROLLBACK")
                raise
            finally:
                self._local.writing = 0

    def data_version(self) -> int:
        """A number that changes when another connection (another process too)
        commits a change to the file: ``PRAGMA data_version`` of a connection kept for
        this alone (a connection's own commits do not change its number)."""
        if self._memory is not None:
            return 0
        with self._memory_lock:
            if self._data_version is None:
                self._data_version = self._connect(str(self.path))
            (number,) = self._data_version.execute("PRAGMA data_version").fetchone()
        return int(number)

    def _retrying(
        self,
        attempt: Callable[[], object],
        busy_timeout: float = BUSY_TIMEOUT_S,
        waiting: Callable[[str], None] | None = None,
    ) -> None:
        """``attempt`` until it does not find the database locked by another writer:
        waiting in Python between tries (so Ctrl-C stops it at once), saying once what
        it waits for, and giving up after ``busy_timeout`` seconds."""
        started = time.monotonic()
        said = False
        while True:
            try:
                attempt()
                return
            except DatabaseBusyError:
                pass
            waited = time.monotonic() - started
            if self.stopping:
                raise DatabaseBusyError(
                    f"{self.path} is busy, and this affray is stopping; nothing was changed",
                    hint="try again when the server is back",
                )
            if waited >= busy_timeout:
                raise DatabaseBusyError(
                    f"{self.path} is busy: another affray has been writing to it for "
                    f"{waited:.0f} s; nothing was changed",
                    hint="try again when it is done (is a command or `affray serve` stuck?)",
                )
            if not said and waited >= ANNOUNCE_AFTER_S and waiting is not None:
                said = True
                waiting(f"waiting for another affray writing to {self.path}… (Ctrl-C to stop)")
            time.sleep(POLL_S)


def _sqlite(target: str, *, uri: bool) -> _Connection:
    """SQLite's own connection (its busy wait kept short: longer waits are Python's,
    which Ctrl-C can stop)."""
    return sqlite3.connect(
        target,
        timeout=POLL_S,
        isolation_level=None,
        check_same_thread=False,
        uri=uri,
        factory=_Connection,
    )


class _Lease:
    """A reader lent to a thread: given back to the spare ones when the thread ends
    (its thread-local values are let go then)."""

    def __init__(self, connection: sqlite3.Connection, spare: list[sqlite3.Connection]) -> None:
        self.connection = connection
        self.spare = spare

    def __del__(self) -> None:
        with contextlib.suppress(sqlite3.Error):  # closed with its database: let go
            if not self.connection.in_transaction:
                self.spare.append(self.connection)


class _Connection(sqlite3.Connection):
    """A connection whose errors leave as the project's (:func:`plain`): SQLite's
    errors are put in words once, here, where the store meets SQLite."""

    path: Path = Path()

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        try:
            return super().execute(sql, parameters)
        except sqlite3.Error as error:
            raise plain(self.path, error) from None

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        try:
            return super().executemany(sql, parameters)
        except sqlite3.Error as error:
            raise plain(self.path, error) from None


def _forget_inherited() -> None:
    """In a forked child: the parent's databases are the parent's (a connection must not
    cross a fork); the child opens its own, and never closes the parent's."""
    Database._open = weakref.WeakValueDictionary()
    Database._registry_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_inherited)


def _key(path: Path) -> str:
    return os.path.realpath(path)


def _refuse_folder(path: Path) -> None:
    if path.is_dir():  # a stat: no descriptor of the file is opened
        raise TableError(
            f"{path} is a folder, not a table database",
            hint="give a file with --db (or AFFRAY_DB), e.g. tables.db in that folder",
        )


def _journal(db: sqlite3.Connection) -> str:
    (mode,) = db.execute("PRAGMA journal_mode").fetchone()
    return str(mode).lower()


def _code(error: sqlite3.Error) -> str:
    """SQLite's name of the error (``SQLITE_FULL``), without its extended part."""
    name = str(getattr(error, "sqlite_errorname", "") or "")
    return "_".join(name.split("_")[:2])


def plain(path: Path, error: sqlite3.Error, doing: str = "nothing was written") -> DatabaseError:
    """An SQLite error in plain words, with what to do: where the store meets SQLite,
    its errors become the project's (:class:`DatabaseBusyError` for a lock held too
    long, :class:`DatabaseError` for the rest)."""
    code = _code(error)
    found = _words(path, code, error, doing)
    found.code = code
    return found


def _words(path: Path, code: str, error: sqlite3.Error, doing: str) -> DatabaseError:
    if code in ("SQLITE_BUSY", "SQLITE_LOCKED"):
        return DatabaseBusyError(
            f"{path} is busy: another affray is writing to it; {doing}",
            hint="try again when it is done",
        )
    if code == "SQLITE_FULL":
        return DatabaseError(
            f"{path}: the disk is full; {doing}",
            hint="free some space on the disk that holds it, then do it again",
        )
    if code == "SQLITE_READONLY":
        return DatabaseError(
            f"{path} cannot be written (a read-only file or disk); {doing}",
            hint="give a writable file with --db (or AFFRAY_DB)",
        )
    if code in ("SQLITE_CORRUPT", "SQLITE_NOTADB"):
        return DatabaseError(
            f"{path} is damaged or not a database ({error}); {doing}",
            hint="restore it from a backup, or give another file with --db (or AFFRAY_DB)",
        )
    if code in ("SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_PERM"):
        return DatabaseError(
            f"{path}: the disk refused it ({error}); {doing}",
            hint="check the disk and the file's permissions, or give another file with --db",
        )
    return DatabaseError(
        f"{path}: the database refused it ({error}); {doing}",
        hint="give another file with --db (or AFFRAY_DB)",
    )
