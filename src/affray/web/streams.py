"""Server-sent events: the API's stream of a table's versions, and the pages' live
updates (every part of a page a change touches, in one message), within the
tracker's limits on open streams."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from affray.table import TableRow
from affray.web.text import MendedJSON
from affray.web.tracker import Tracker

STREAM_KEEPALIVE_S = 15.0
"""A live stream says "still here" this often when nothing changes."""
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


class CountedStream(StreamingResponse):
    """A live stream that says when it ends, however it ends (the client gone, the
    server stopping)."""

    def __init__(self, content: AsyncIterator[str], ended: Callable[[], None], **kw: Any):
        super().__init__(content, **kw)
        self.ended = ended

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.ended()


def opened(tracker: Tracker, table_id: str, events: AsyncIterator[str]) -> Response:
    """``events`` as a stream of the table, counted against the tracker's limit on open
    streams (a 503 past it)."""
    refusal = tracker.streams.start(table_id)
    if refusal is not None:
        return MendedJSON(
            {"error": refusal, "tip": "close another page of this tracker, or try again soon"},
            503,
            headers={"Retry-After": "10"},
        )
    return CountedStream(
        events,
        lambda: tracker.streams.end(table_id),
        media_type="text/event-stream",
        headers=STREAM_HEADERS,
    )


async def stream(
    tracker: Tracker, request: Request, row: TableRow, render: Callable[[], Awaitable[str]]
) -> Response:
    """A page's live updates: ``render``'s HTML as one ``update`` event at once, and
    again at each change of the table (or of the question it waits on)."""
    return opened(tracker, row.id, updates(tracker, request, row.id, render))


async def updates(
    tracker: Tracker, request: Request, table_id: str, render: Callable[[], Awaitable[str]]
) -> AsyncIterator[str]:
    generation = -1
    while not tracker.hub.stopped and not await request.is_disconnected():
        now = await tracker.hub.wait(table_id, generation, STREAM_KEEPALIVE_S)
        if now == generation:
            yield ": still here\n\n"
            continue
        generation = now
        html = await render()
        yield "event: update\n" + "".join(f"data: {line}\n" for line in html.splitlines()) + "\n"


__all__ = ["STREAM_HEADERS", "STREAM_KEEPALIVE_S", "CountedStream", "opened", "stream", "updates"]
