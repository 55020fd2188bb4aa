"""Live updates: who is waiting for which table to change.

A table's *stamp* is its version and the command it waits on (a die or an answer:
that changes without a new version). Every change of a stamp is a new *generation*
of the table, and wakes whoever waits for one. A write through the web touches the
stamp at once; a write from elsewhere (a terminal, or another server, on the same
database) is seen by a poll a few times a second: of the database's ``PRAGMA
data_version`` (one cheap statement, which moves when any other connection
commits), and only when it moved, of the watched tables' stamps.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from affray.errors import AffrayError

Stamp = tuple[int, str]
"""A table's version, and a mark of the command it waits on ("" when none waits)."""


class Hub:
    """The stamps of the tables being watched, their generations, and the waiters."""

    def __init__(
        self,
        stamp_of: Callable[[str], Stamp],
        poll_s: float = 0.2,
        *,
        outside: Callable[[], int] | None = None,
    ) -> None:
        self.stamp_of = stamp_of
        self.poll_s = poll_s
        self.outside = outside
        """The database's change counter (None: look at every watched table each poll)."""
        self._outside_seen: int | None = None
        self.stamps: dict[str, Stamp] = {}
        self.generations: dict[str, int] = {}
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

    def version(self, table_id: str) -> int:
        """The table's version, as last seen."""
        return self.stamps.get(table_id, (-1, ""))[0]

    def touch(self, table_id: str, stamp: Stamp) -> None:
        """The table's stamp as it is now: a new generation if it moved (a version
        never goes back), and whoever waits for this table wakes."""
        known = self.stamps.get(table_id)
        if known == stamp or (known is not None and stamp[0] < known[0]):
            return
        self.stamps[table_id] = stamp
        self.generations[table_id] = self.generations.get(table_id, 0) + 1
        event = self.changed.pop(table_id, None)
        if event is not None:
            event.set()

    async def look(self, table_id: str) -> None:
        """Read the table's stamp now (after a change made here) and touch it."""
        self.touch(table_id, await asyncio.to_thread(self.stamp_of, table_id))

    async def wait(self, table_id: str, after: int, timeout: float) -> int:
        """The table's generation once it is past ``after`` (or as it is at
        ``timeout``); the first call for a table reads its stamp."""
        self._start()
        if table_id not in self.stamps:
            await self.look(table_id)
        self.watchers[table_id] = self.watchers.get(table_id, 0) + 1
        try:
            if self.generations.get(table_id, 0) <= after and not self.stopped:
                event = self.changed.setdefault(table_id, asyncio.Event())
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), timeout)
            return self.generations.get(table_id, 0)
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
                    await self.look(table_id)
            except AffrayError:  # the database refused a read: try again at the next poll
                self._outside_seen = None

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
