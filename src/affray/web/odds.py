"""The fight from here, worked out away from the web: never on the event loop, never
under the tables' lock.

Each table's odds are simulated in a worker process of their own, which folds the
table's log itself (from the database: only the table's id and version cross over)
and stops as soon as the table moves on. The page gets the last answer there is at
once, with the version it is of and how many fights it rests on, and asks again
while a newer one is being worked out.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from affray.table.odds import TableOdds

FIGHTS = 20_000
"""At most this many simulated ends of the fight..."""
BUDGET_S = 1.5
"""...or as many as this many seconds allow."""


@dataclass(frozen=True, slots=True)
class Answer:
    """The odds of the fight at ``version`` (None: no fight to have odds of), and
    whether newer ones are being worked out."""

    odds: TableOdds | None
    version: int | None
    working: bool


class OddsKeeper:
    """The latest fight odds of each table, and the work on newer ones."""

    def __init__(self, db: str | Path) -> None:
        self.db = str(db)
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._done: dict[str, tuple[int, TableOdds | None]] = {}
        self._running: dict[str, tuple[int, Future[tuple[bool, TableOdds | None]]]] = {}

    def get(self, table_id: str, version: int, born: str = "") -> Answer:
        """What is known of the odds at ``version`` now; work on them starts if it has
        not (and work on an older version is left to stop by itself). ``born``: when the
        table was made (a table deleted and made again under its id is another)."""
        key = f"{table_id} {born}"
        with self._lock:
            done = self._done.get(key)
            if done is not None and done[0] == version:
                return Answer(done[1], version, False)
            running = self._running.get(key)
            if running is None or running[0] != version:
                future = self._submit(table_id, version)
                self._running[key] = (version, future)
                future.add_done_callback(lambda f: self._finished(key, version, f))
            if done is None:
                return Answer(None, None, True)
            return Answer(done[1], done[0], True)

    def _finished(
        self, table_id: str, version: int, future: Future[tuple[bool, TableOdds | None]]
    ) -> None:
        with self._lock:
            if self._running.get(table_id, (None,))[0] == version:
                del self._running[table_id]
            if future.cancelled():
                return
            if future.exception() is not None:  # said no more: the page stops asking
                self._done[table_id] = (version, None)
                return
            kept, odds = future.result()
            current = self._done.get(table_id)
            if kept and (current is None or current[0] <= version):
                self._done[table_id] = (version, odds)

    def _submit(self, table_id: str, version: int) -> Future[tuple[bool, TableOdds | None]]:
        """Work for the worker process (spawned, not forked: the server runs threads;
        so a script that serves the tracker needs the ``if __name__ == "__main__":``
        guard that every spawning Python program needs)."""
        for _ in range(2):  # a worker that died (killed, out of memory) is replaced
            if self._pool is None:
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(1, mp_context=context, initializer=_quiet)
            try:
                return self._pool.submit(_work, self.db, table_id, version)
            except BrokenProcessPool:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
        raise RuntimeError("the odds worker cannot be started")

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def _quiet() -> None:
    """The worker leaves Ctrl-C to the server (which stops it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


_TABLES: dict[str, object] = {}


def _work(db: str, table_id: str, version: int) -> tuple[bool, TableOdds | None]:
    """In the worker: the odds of the table at ``version``, from its log (None: no fight
    to have odds of); False first when the table has moved on meanwhile."""
    from affray.table import Store, Tables
    from affray.table.odds import quick_odds

    tables = _TABLES.get(db)
    if not isinstance(tables, Tables):
        tables = _TABLES[db] = Tables(Store(db))
    row = tables.table(table_id)
    fold = tables.fold(row)
    if fold.version != version:
        return False, None
    odds = quick_odds(
        fold.rules,
        fold.state,
        name=row.name,
        n=FIGHTS,
        seed=version,
        budget_s=BUDGET_S,
        stop=lambda: tables.store.version(table_id) != version,
    )
    return tables.store.version(table_id) == version, odds
