"""The web tracker's ASGI app: its routes by page (:mod:`~affray.web.api`, the JSON
API; :mod:`~affray.web.gm`, the game master's page; :mod:`~affray.web.player`, the
player page; :mod:`~affray.web.home`, the home page), its middleware (the body's
limits, security headers), its errors, and the assets served from the package.
Who may do what is :mod:`~affray.web.access`; what it holds, :mod:`~affray.web.tracker`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Iterable
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from affray.errors import AffrayError
from affray.web import api, gm, home, player
from affray.web.errors import on_affray_error
from affray.web.limits import BodyLimit, Limits
from affray.web.middleware import QuietStop, SecurityHeaders
from affray.web.serving import serve_forever, server
from affray.web.sheets import Shelf
from affray.web.text import MendedJSON, MendedText
from affray.web.tracker import Tracker

__all__ = ["create_app", "serve_forever", "server"]


def create_app(
    db: str | Path,
    *,
    poll_s: float = 0.2,
    limits: Limits | None = None,
    sheets: Iterable[str | Path] = (),
    make_folder: bool = False,
) -> Starlette:
    """The web tracker over the table database ``db``, within ``limits`` (its caps and
    timeouts; ``affray serve``'s by default), adding combatants from the bestiary and
    from the sheet files in the folders ``sheets`` (and nowhere else on the server).

    Raises:
        TableError: one of ``sheets`` is not a folder.
    """
    tracker = Tracker(db, poll_s, limits or Limits(), Shelf.of(sheets), make_folder=make_folder)
    # a malformed upload is refused in words (a 400); its parser's own account of why
    # is not for the server's terminal
    logging.getLogger("python_multipart.multipart").setLevel(logging.ERROR)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await tracker.hub.close()
        tracker.odds.close()

    app = Starlette(
        routes=[
            Route("/", home.home),
            Route("/home/list", home.home_list),
            Route("/home/do", home.home_change, methods=["POST"]),
            Route("/api/tables/{table}", api.table),
            Route("/api/tables/{table}/commands", api.command, methods=["POST"]),
            Route("/api/tables/{table}/stream", api.stream),
            Route("/api/tables/{table}/log", api.log),
            Route("/t/{table}", gm.page),
            Route("/t/{table}/part/{fragment}", gm.fragment),
            Route("/t/{table}/do", gm.do, methods=["POST"]),
            Route("/t/{table}/roll", gm.roll, methods=["POST"]),
            Route("/t/{table}/live", gm.live),
            Route("/p/{table}", player.page),
            Route("/p/{table}/board", player.board),
            Route("/p/{table}/ask", player.ask),
            Route("/p/{table}/answer", player.answer, methods=["POST"]),
            Route("/p/{table}/act", player.act, methods=["POST"]),
            Route("/p/{table}/part/odds", player.odds),
            Route("/p/{table}/live", player.live),
            Mount("/static", StaticFiles(packages=[("affray.web", "static")]), name="static"),
        ],
        middleware=[
            Middleware(QuietStop, stopping=lambda: tracker.hub.stopped),
            Middleware(SecurityHeaders),
            Middleware(BodyLimit, limits=tracker.limits, refusals=tracker.refusals),
        ],
        exception_handlers={HTTPException: on_error, AffrayError: on_affray_error},
        lifespan=lifespan,
    )
    app.state.tracker = tracker
    return app


async def on_error(request: Request, error: Exception) -> Response:
    """An HTTP error: JSON (``{"error", "tip"}``) on the API, plain text elsewhere."""
    assert isinstance(error, HTTPException)
    # a body cut off (too large, too slow), or one refused unread (no token, no such
    # table), is not waited for: the connection closes, so that requests that promise
    # bodies they never send cannot hold the server's connections
    promised = request.headers.get("content-length", "0") not in ("", "0") or (
        "transfer-encoding" in request.headers
    )
    closing = error.status_code in (408, 413) or promised
    headers = {"Connection": "close"} if closing else None
    if request.url.path.startswith("/api/"):
        said, _, tip = str(error.detail).partition(" — Tip: ")
        body = {"error": said, **({"tip": tip} if tip else {})}
        return MendedJSON(body, error.status_code, headers=headers)
    return MendedText(f"{error.status_code}: {error.detail}", error.status_code, headers)
