"""The JSON API (docs/tracker.md): a table as its token's role sees it, a command,
the live stream of its versions, and its journal."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from affray.errors import (
    InputNeededError,
)
from affray.table import Done
from affray.table import journal as journals
from affray.table.view import describe
from affray.web.access import access
from affray.web.streams import STREAM_KEEPALIVE_S, opened
from affray.web.text import MendedJSON, MendedText, refuse_unencodable
from affray.web.tracker import Tracker, tracker_of

BODY_TIP = 'send {"expected_version": V, "command": {...}}'


async def table(request: Request) -> Response:
    tracker = tracker_of(request)
    row, role = await access(tracker, request, write=False)
    if role.is_gm:
        return MendedJSON(await tracker.call(tracker.for_gm, row))
    return MendedJSON(await tracker.call(tracker.for_players, row, role.me))


async def command(request: Request) -> Response:
    tracker = tracker_of(request)
    row, role = await access(tracker, request, write=False)
    if role.kind == "players":
        raise HTTPException(403, "the player token cannot change the table")
    try:
        body = json.loads(await request.body())
    except ValueError:  # also not UTF-8, and a number of over 4,300 digits
        return unprocessable("the body is not JSON (or a number in it has over 4,300 digits)")
    except RecursionError:
        return unprocessable("the body nests too deeply to read")
    refuse_unencodable(body, "body")
    if not isinstance(body, dict) or not isinstance(body.get("command"), dict):
        return unprocessable("the body needs a command")
    expected = body.get("expected_version")
    if isinstance(expected, bool) or not isinstance(expected, int):
        return unprocessable("expected_version must be the version you read", "GET the table first")
    if role.is_gm:
        done = await tracker.submit(row, tracker.execute, row, body["command"], expected)
        shown = await tracker.call(tracker.for_gm, row)
        return MendedJSON(done_json(done, shown))
    # a player's own link: its combatant's answer, or its own action
    assert role.me is not None
    acting = body["command"].get("verb") == "act"
    took = "acted" if acting else "answered"
    try:
        done = await tracker.submit(row, tracker.own, row, role.me, body["command"], expected)
    except InputNeededError:  # taken; the table waits on someone (maybe this player)
        asked = await tracker.call(tracker.asking, row, role)
        waiting = asked["waiting"]  # what it asks of this player now, if anything
        mine = None if waiting is None else {**waiting["needs"]}
        return MendedJSON({took: True, "waiting": True, "asks": mine}, 202)
    return MendedJSON({"version": done.version, took: True})


async def stream(request: Request) -> Response:
    tracker = tracker_of(request)
    row, _ = await access(tracker, request, write=False)
    return opened(tracker, row.id, changes(tracker, request, row.id))


async def log(request: Request) -> Response:
    tracker = tracker_of(request)
    row, _ = await access(tracker, request, write=True)
    form = request.query_params.get("format", "json")
    items = await tracker.call(tracker.log, row)
    if form == "markdown":
        return MendedText(journals.markdown(row, items), media_type="text/markdown")
    if form == "text":
        return MendedText(journals.text(row, items))
    return MendedJSON({"table": row.id, "changes": items})


async def changes(tracker: Tracker, request: Request, table_id: str) -> AsyncIterator[str]:
    """One ``change`` event per new version (the first at once), and a comment now and
    then to keep the connection open; ends when the client goes."""
    seen, generation = -1, -1
    while not tracker.hub.stopped and not await request.is_disconnected():
        now = await tracker.hub.wait(table_id, generation, STREAM_KEEPALIVE_S)
        version = tracker.hub.version(table_id)
        if now > generation and version > seen:
            seen = version
            yield f"event: change\ndata: {json.dumps({'version': version})}\n\n"
        elif now == generation:
            yield ": still here\n\n"
        generation = now


def unprocessable(message: str, tip: str = BODY_TIP) -> JSONResponse:
    return MendedJSON({"error": message, "tip": tip}, 422)


def done_json(done: Done, shown: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "version": done.version,
        "events": [event.to_dict() for event in done.events],
        "lines": list(done.lines),
        "moved": [
            {"version": a.version, "what": describe(a.command, done.called)} for a in done.moved
        ],
        "round": shown["round"],
        "turn": shown["turn"],
        "phase": shown["phase"],
        "winner": shown["winner"],
    }
