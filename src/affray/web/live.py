"""Live updates: who is waiting for which table to change.

A write through the web wakes the waiters at once; a write from elsewhere (a
terminal, or another server, on the same database) is seen by a poll a few times a
second: of the database's ``PRAGMA data_version`` (one cheap statement, which moves
when any other connection commits), and only when it moved, of the watched tables'
versions. Each waiter gets the version it has not seen yet.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from affray.errors import AffrayError


class Hub:
    """Versions of the tables being watched, and the waiters for each."""

    def __init__(
        self,
        version_of: Callable[[str], int],
        poll_s: float = 0.2,
        *,
        outside: Callable[[], int] | None = None,
    ) -> None:
        self.version_of = version_of
        self.poll_s = poll_s
        self.outside = outside
        """The database's change counter (None: look at every watched table each poll)."""
        self._outside_seen: int | None = None
        self.versions: dict[str, int] = {}
        self.changed: dict[str, asyncio.Event] = {}
        self.watchers: dict[str, int] = {}
        self.stopped = False
        self._task: asyncio.Task[None] | None = None

    def stop(self) -> None:
        """The server is shutting down: every waiter returns now, and streams end."""
        self.stopped = True
        for event in self.changed.values():
            event.set()
        self.changed.clear()

    def seen(self, table_id: str, version: int) -> None:
        """A change made here: wake whoever waits for this table."""
        if version > self.versions.get(table_id, -1):
            self.versions[table_id] = version
            event = self.changed.pop(table_id, None)
            if event is not None:
                event.set()

    async def wait(self, table_id: str, after: int, timeout: float) -> int:
        """The table's version once it is past ``after`` (or as it is at ``timeout``)."""
        self._start()
        if table_id not in self.versions:
            self.versions[table_id] = await asyncio.to_thread(self.version_of, table_id)
        self.watchers[table_id] = self.watchers.get(table_id, 0) + 1
        try:
            if self.versions[table_id] <= after and not self.stopped:
                event = self.changed.setdefault(table_id, asyncio.Event())
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), timeout)
            return self.versions[table_id]
        finally:
            self.watchers[table_id] -= 1

    def _start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._poll())

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self.poll_s)
            watched = [t for t, n in self.watchers.items() if n > 0]
            if not watched:
                continue
            try:
                if self.outside is not None:
                    counter = await asyncio.to_thread(self.outside)
                    if counter == self._outside_seen:
                        continue
                    self._outside_seen = counter
                for table_id in watched:
                    version = await asyncio.to_thread(self.version_of, table_id)
                    self.seen(table_id, version)
            except AffrayError:  # the database refused a read: try again at the next poll
                self._outside_seen = None

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
