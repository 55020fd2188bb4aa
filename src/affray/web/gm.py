"""The game master's page (``/t/TABLE``): the board, the action panel (the actions of
whoever's turn it is, with their odds, and the die or question the table waits on),
the log, the odds of the fight; and the commands its forms send."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from affray.errors import AffrayError, ConflictError, InputNeededError
from affray.sheets import bestiary
from affray.table import TableRow
from affray.table.view import describe
from affray.web.access import access
from affray.web.forms import faces, read_form
from affray.web.tracker import Tracker, tracker_of
from affray.web.views import panel

INTERACTIVE = ("start", "act", "next")
"""The verbs the page plays step by step: they stop for each die and question (the
server keeps the command that waits), where the other verbs roll and answer by
themselves."""


async def page(request: Request) -> Response:
    tracker = tracker_of(request)
    row, _ = await access(tracker, request, write=True)
    shown = await tracker.call(tracker.for_gm, row)
    return tracker.page(
        "gm.html",
        table=row,
        token=row.gm_token,
        shown=shown,
        creatures=bestiary.names(row.system),
        sheet_files=await run_in_threadpool(tracker.shelf.listing, row.system),
    )


async def fragment(request: Request) -> Response:
    tracker = tracker_of(request)
    row, _ = await access(tracker, request, write=True)
    name = request.path_params["fragment"]
    if name == "board":
        shown = await tracker.call(tracker.for_gm, row)
        return tracker.page("_board.html", shown=shown, players=False)
    if name == "panel":
        return await panel_page(tracker, row)
    if name == "log":
        return tracker.page("_log.html", items=await tracker.call(tracker.log, row))
    if name == "odds":
        version = await tracker.call(tracker.tables.store.version, row.id)
        answer = tracker.odds.get(row.id, version, row.created)
        return tracker.page("_odds.html", answer=answer, table=row, version=version)
    raise HTTPException(404, f"no part {name!r}")


async def do(request: Request) -> Response:
    """A command from the game master's page; the panel comes back (asking for the
    next die or choice the rules need, if any: the server keeps the command that
    waits, with every face and answer it used so far)."""
    tracker = tracker_of(request)
    row, _ = await access(tracker, request, write=True)
    data = await read_form(request, uploads=True)
    typed = [r for r in str(data.get("rolls", "")).split(",") if r.strip()]
    data["rolls"] = ",".join(faces(data, tracker.dice, typed=typed))
    interactive = data.get("verb") in INTERACTIVE
    data.setdefault("roll_missing", "0" if interactive else "1")
    data.setdefault("choose_missing", "0" if interactive else "1")
    expected = str(data.get("expected_version", "")).strip()
    if data.get("verb") == "link":  # not a change of the fight: a player's link
        return await link(tracker, request, row, str(data.get("who", "")))
    if not expected:  # every form of the page sends it
        raise HTTPException(
            422,
            "expected_version is missing: the version of the table the form was filled "
            "in against — Tip: reload the page",
        )
    message: str | None = None
    lines: tuple[str, ...] = ()
    try:
        done = await tracker.call(
            tracker.execute, row, data, int(expected) if expected.isdigit() else None
        )
        tracker.hub.seen(row.id, done.version)
        word = "undone" if data.get("verb") == "undo" else "redone"
        lines = done.lines or tuple(f"{word}: {describe(m.command)}" for m in done.moved)
    except ConflictError as error:
        message = f"The table changed (now version {error.current}); here it is again."
    except InputNeededError:
        pass  # the table waits on it: the panel asks
    except AffrayError as error:
        message = f"{error.message}" + (f" — {error.hint}" if error.hint else "")
    return await panel_page(tracker, row, message=message, lines=lines)


async def link(tracker: Tracker, request: Request, row: TableRow, who: str) -> Response:
    """A player's own link for ``who``, said in the panel."""
    try:
        cid, token = await tracker.call(tracker.tables.link, row, who)
    except AffrayError as error:
        return await panel_page(tracker, row, message=error.message)
    url = f"{str(request.base_url).rstrip('/')}/p/{row.id}?token={token}"
    text = f"{cid}'s player's own link (any older one no longer works): {url}"
    return await panel_page(tracker, row, message=text)


async def panel_page(
    tracker: Tracker, row: TableRow, *, message: str | None = None, lines: tuple[str, ...] = ()
) -> Response:
    shown = await tracker.call(tracker.for_gm, row)
    actions: dict[str, Any] = await tracker.call(panel, tracker.tables, row)
    return tracker.page(
        "_panel.html",
        table=row,
        shown=shown,
        panel=actions,
        pending=shown["pending"],
        message=message,
        lines=lines,
    )
