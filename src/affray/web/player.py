"""The player page (``/p/TABLE``): the board as the players see it, and, with a
player's own link, what the table asks of that player's combatant."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from affray.errors import AffrayError, InputNeededError
from affray.web.access import access, token
from affray.web.forms import faces, read_form
from affray.web.tracker import tracker_of


async def page(request: Request) -> Response:
    tracker = tracker_of(request)
    row, role = await access(tracker, request, write=False)
    shown = await tracker.call(tracker.for_players, row, role.me)
    return tracker.page("player.html", table=row, token=token(request), shown=shown, who=role.me)


async def board(request: Request) -> Response:
    tracker = tracker_of(request)
    row, role = await access(tracker, request, write=False)
    shown = await tracker.call(tracker.for_players, row, role.me)
    return tracker.page("_board.html", shown=shown, players=True)


async def ask(request: Request) -> Response:
    """What the table asks of this link's combatant now (nothing, a die, a choice)."""
    tracker = tracker_of(request)
    row, role = await access(tracker, request, write=False)
    return tracker.page("_ask.html", **await tracker.call(tracker.asking, row, role), message=None)


async def answer(request: Request) -> Response:
    tracker = tracker_of(request)
    row, role = await access(tracker, request, write=False)
    if role.me is None:
        raise HTTPException(403, "only a player's own link answers here")
    data = await read_form(request)
    data["verb"] = "answer"
    data["rolls"] = ",".join(faces(data, tracker.dice))
    message = None
    try:
        done = await tracker.call(tracker.answer_as, row, role.me, data, None)
        tracker.hub.seen(row.id, done.version)
    except InputNeededError:
        pass  # answered; the command asks more of someone
    except AffrayError as error:
        message = error.message
    context = await tracker.call(tracker.asking, row, role)
    return tracker.page("_ask.html", **context, message=message)
