"""The tracker's caps and timeouts (docs/table.md, "Limits"): what one visitor, with
or without a token, can hold of the server.

- A connection must send a whole request's headers within ``header_timeout_s`` of
  opening (or of its first byte after the last answer), and a request's body must
  arrive within ``body_timeout_s``; one idle between requests is closed after
  ``keep_alive_s`` (uvicorn's own ``timeout_keep_alive``). So idle or slow sockets
  cannot pile up.
- At most ``max_connections`` connections at once (kept under the process's file
  limit), ``max_connections_per_address`` of them from one address; one more is
  answered 503 and closed at once, before it costs anything.
- A body is at most ``max_body_bytes``: a larger one is refused (413) as soon as its
  ``Content-Length`` says so, or while it is read, never read whole first.
- At most ``max_streams`` live streams (server-sent events) at once, and
  ``max_streams_per_table`` of one table; one more is a 503 with ``Retry-After``.

Each kind of refusal is logged once as one line, then at most once a minute with how
many more there were (:class:`Refusals`): never a traceback each.

uvicorn has ``timeout_keep_alive`` and ``limit_concurrency``, but no timeout for a
connection that never finishes its request, and ``limit_concurrency`` only answers
a request once it has arrived (idle sockets still hold their file descriptors) and
logs each one; hence :func:`protocol`, uvicorn's own h11 protocol with these caps.
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import h11
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

LOG = logging.getLogger("uvicorn.error")


def _file_limit() -> int:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


@dataclass(frozen=True, slots=True)
class Limits:
    """Every cap and timeout of one tracker (the defaults are ``affray serve``'s)."""

    header_timeout_s: float = 10.0
    body_timeout_s: float = 30.0
    keep_alive_s: int = 5
    max_connections: int = 1000
    max_connections_per_address: int = 200
    max_body_bytes: int = 1 << 20
    max_streams: int = 500
    max_streams_per_table: int = 100

    @property
    def connections(self) -> int:
        """``max_connections``, kept well under the process's limit of open files (a
        server out of file descriptors can accept no one, the game master included)."""
        return max(16, min(self.max_connections, _file_limit() - 100))


class Refusals:
    """One log line per kind of refusal: the first at once, then at most one every
    ``every_s`` seconds saying how many more there were."""

    def __init__(self, every_s: float = 60.0, clock: Callable[[], float] = time.monotonic):
        self.every_s = every_s
        self.clock = clock
        self.counts: dict[str, int] = {}
        self._unsaid: dict[str, int] = {}
        self._said: dict[str, float] = {}

    def note(self, kind: str, line: str) -> None:
        """One refusal of ``kind``; ``line`` says what and why, once."""
        self.counts[kind] = self.counts.get(kind, 0) + 1
        now = self.clock()
        last = self._said.get(kind)
        if last is None:
            LOG.warning("refused: %s (said once a minute at most)", line)
            self._said[kind] = now
        elif now - last >= self.every_s:
            more = self._unsaid.pop(kind, 0) + 1
            LOG.warning("refused %d more in %.0f s: %s", more, now - last, line)
            self._said[kind] = now
        else:
            self._unsaid[kind] = self._unsaid.get(kind, 0) + 1


def _plain_answer(status: int, reason: str, text: str) -> bytes:
    body = (text + "\n").encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\nretry-after: 10\r\n\r\n"
    )
    return head.encode() + body


def protocol(limits: Limits, refusals: Refusals) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the caps and timeouts of ``limits``.

    A connection over a cap takes the place of the oldest idle one (waiting for a
    request, or between two; of the same address, for the address's cap), so idle
    sockets cannot keep anyone out; with none idle it is answered 503 and closed. One
    that does not send a whole request's headers in time is answered 408 and closed.
    """
    cap = limits.connections
    idle: dict[Guarded, None] = {}  # oldest first

    class Guarded(H11Protocol):
        header_timer: asyncio.TimerHandle | None = None
        address = ""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.address = self.client[0] if self.client else ""
            live = [c for c in self.connections if not c.transport.is_closing()]
            if len(live) > cap and not self._evict(None):
                refusals.note("connections", f"over the cap of {cap:,} connections at once")
                self._refuse(503, "Service Unavailable", "the tracker is full: try again soon")
                return
            mine = sum(1 for c in live if isinstance(c, Guarded) and c.address == self.address)
            if mine > limits.max_connections_per_address and not self._evict(self.address):
                refusals.note(
                    "address",
                    f"over the cap of {limits.max_connections_per_address:,} connections "
                    f"from one address ({self.address})",
                )
                self._refuse(503, "Service Unavailable", "too many connections from here")
                return
            idle[self] = None
            self._arm()

        def data_received(self, data: bytes) -> None:
            if self.conn.their_state is h11.IDLE:
                self._arm()
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:  # a whole request's headers came
                self._disarm()
                idle.pop(self, None)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                idle[self] = None  # kept alive for the next request: idle again

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            idle.pop(self, None)
            super().connection_lost(exc)

        def _evict(self, address: str | None) -> bool:
            """Close the oldest idle connection (of ``address``, if given) to make room
            for this one; False if there is none."""
            for other in idle:
                waiting = other.cycle is None or other.cycle.response_complete
                if other is self or not waiting or other.conn.their_state is not h11.IDLE:
                    continue
                if address is None or other.address == address:
                    refusals.note(
                        "idle", "the oldest idle connection closed to make room for a new one"
                    )
                    other._refuse(503, "Service Unavailable", "closed to make room: try again")
                    return True
            return False

        def _arm(self) -> None:
            if self.header_timer is None and not self.transport.is_closing():
                self.header_timer = self.loop.call_later(limits.header_timeout_s, self._late)

        def _disarm(self) -> None:
            if self.header_timer is not None:
                self.header_timer.cancel()
                self.header_timer = None

        def _late(self) -> None:
            self.header_timer = None
            if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
                return
            refusals.note(
                "slow",
                f"a connection sent no whole request in {limits.header_timeout_s:g} s",
            )
            self._refuse(
                408, "Request Timeout", f"send a whole request within {limits.header_timeout_s:g} s"
            )

        def _refuse(self, status: int, reason: str, text: str) -> None:
            self._disarm()
            self._unset_keepalive_if_required()
            idle.pop(self, None)
            if not self.transport.is_closing():
                self.transport.write(_plain_answer(status, reason, text))
                self.transport.close()

    return Guarded


class BodyLimit:
    """Bodies of at most ``limits.max_body_bytes``, arriving within
    ``limits.body_timeout_s``: a larger one is a 413 when its ``Content-Length``
    says so, before a byte of it is read, or as soon as the bytes read pass the cap;
    a slower one is a 408. What has been read is all that is held."""

    def __init__(self, app: ASGIApp, limits: Limits, refusals: Refusals) -> None:
        self.app = app
        self.limits = limits
        self.refusals = refusals

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cap = self.limits.max_body_bytes
        too_large = f"a body is at most {cap:,} bytes"
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > cap):
            self.refusals.note("body", too_large)
            await _answer(scope, send, 413, too_large, _BODY_TIP)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.limits.body_timeout_s
        read = 0
        whole = False

        async def limited() -> Message:
            nonlocal read, whole
            if whole:  # the body is in: what is left is waiting for a disconnect
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                self.refusals.note(
                    "slow body", f"a body took over {self.limits.body_timeout_s:g} s to arrive"
                )
                raise HTTPException(
                    408, f"the body took over {self.limits.body_timeout_s:g} s to arrive"
                ) from None
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                whole = not message.get("more_body", False)
                if read > cap:
                    self.refusals.note("body", too_large)
                    raise HTTPException(413, f"{too_large} — Tip: {_BODY_TIP}")
            else:
                whole = True
            return message

        await self.app(scope, limited, send)


_BODY_TIP = (
    "a command, a sheet or an encounter file fits in far less (each at most 100,000 characters)"
)


async def _answer(scope: Scope, send: Send, status: int, message: str, tip: str) -> None:
    """A refusal sent before the app is asked: JSON under /api/, text elsewhere."""
    if str(scope.get("path", "")).startswith("/api/"):
        body = json.dumps({"error": message, "tip": tip}).encode()
        kind = b"application/json"
    else:
        body = f"{status}: {message} — Tip: {tip}".encode()
        kind = b"text/plain; charset=utf-8"
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
    headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def loop_errors(refusals: Refusals) -> Callable[[asyncio.AbstractEventLoop, dict[str, Any]], None]:
    """An event loop's exception handler that says "out of file descriptors" in one
    line (asyncio would print a traceback for every connection it could not accept),
    and leaves every other error to asyncio's own handler."""

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if isinstance(error, OSError) and error.errno in (errno.EMFILE, errno.ENFILE):
            refusals.note("files", "out of file descriptors: a connection could not be accepted")
            return
        loop.default_exception_handler(context)

    return handle


class Streams:
    """The live streams open now, by table, under the caps of ``limits``."""

    def __init__(self, limits: Limits, refusals: Refusals) -> None:
        self.limits = limits
        self.refusals = refusals
        self.open: dict[str, int] = {}

    @property
    def total(self) -> int:
        return sum(self.open.values())

    def start(self, table_id: str) -> str | None:
        """Count one more stream of ``table_id``; or, over a cap, the refusal (and
        nothing counted)."""
        if self.total >= self.limits.max_streams:
            refusal = f"the tracker has {self.limits.max_streams:,} live streams open, its most"
            self.refusals.note("streams", refusal)
            return refusal
        if self.open.get(table_id, 0) >= self.limits.max_streams_per_table:
            refusal = (
                f"this table has {self.limits.max_streams_per_table:,} live streams open, its most"
            )
            self.refusals.note("table streams", f"{refusal} ({table_id})")
            return refusal
        self.open[table_id] = self.open.get(table_id, 0) + 1
        return None

    def end(self, table_id: str) -> None:
        left = self.open.get(table_id, 0) - 1
        if left > 0:
            self.open[table_id] = left
        else:
            self.open.pop(table_id, None)
