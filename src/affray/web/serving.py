"""The tracker served: uvicorn within the tracker's limits, ending its live streams
when it stops."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.applications import Starlette

from affray.web.limits import loop_errors, protocol
from affray.web.tracker import Tracker

GRACE_S = 1
"""How long a stopping server lets a request finish (a write waiting for another's lock
gives up at once; a committed change was committed before it was answered)."""


def server(app: Starlette, host: str, port: int) -> Any:
    """A uvicorn server for the tracker that ends its live streams when it stops (an
    open stream would otherwise hold the shutdown up)."""
    import uvicorn

    tracker: Tracker = app.state.tracker
    limits = tracker.limits

    class TrackerServer(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            asyncio.get_running_loop().set_exception_handler(loop_errors(tracker.refusals))
            await super().startup(sockets)

        async def shutdown(self, sockets: Any = None) -> None:
            tracker.hub.stop()
            tracker.tables.store.database.stopping = True  # a write waiting gives up
            await super().shutdown(sockets)

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=GRACE_S,
        timeout_keep_alive=limits.keep_alive_s,
        http=protocol(limits, tracker.refusals),
    )
    return TrackerServer(config)


def serve_forever(app: Starlette, host: str, port: int) -> None:  # pragma: no cover - the CLI's
    asyncio.run(server(app, host, port).serve())
