"""The player page (``/p/TABLE``): the board as the players see it, and, with a
player's own link, what the table asks of that player's combatant."""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from affray.errors import AffrayError, InputNeededError, QuestionConflictError
from affray.table import TableRow
from affray.web.access import access, token
from affray.web.forms import faces, read_form
from affray.web.roles import Role
from affray.web.streams import stream
from affray.web.tracker import Tracker, tracker_of


async def page(request: Request) -> Response:
    tracker = tracker_of(request)
    row, role = await access(tracker, request, write=False)
    found = await tracker.call(context, tracker, row, role)
    return tracker.page("player.html", **found, token=token(request))


def context(tracker: Tracker, row: TableRow, role: Role) -> dict[str, Any]:
    """What the player page shows of the table now: the board as the players see it,
    and what the table asks of this link's combatant."""
    generation = tracker.generation(row.id)  # before the table is read: it is at least as new
    with tracker.tables.store.reading():  # one moment of the table, for every part
        shown = tracker.for_players(row, role.me)
        asking = tracker.asking(row, role)
    status = {
        "setup": "Setting up.",
        "turn": f"Round {shown['round']}: {shown['turn']}'s turn."
        if shown["turn"]
        else f"Round {shown['round']}.",
        "round over": f"Round {shown['round']} is over.",
        "over": "The fight is over.",
    }[shown["phase"]]
    asked = asking["waiting"]
    if asked is not None:
        status += f" {role.me}, the table asks you something."
    return {
        **asking,
        "shown": shown,
        "players": True,
        "message": None,
        "announce": status,
        "generation": generation,
    }


async def live(request: Request) -> Response:
    """The page's live updates: one message for each change of the table (or of what
    it asks), the board and this link's question in it."""
    tracker = tracker_of(request)
    row, role = await access(tracker, request, write=False)

    async def render() -> str:
        found = await tracker.call(context, tracker, row, role)
        return tracker.render("_live.html", **found)

    return await stream(tracker, request, row, render)


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
        try:
            await tracker.call(tracker.answer_as, row, role.me, data, None)
        finally:  # a change, or a command that waits now: live pages hear of it
            await tracker.hub.look(row.id)
    except InputNeededError:
        pass  # answered; the command asks more of someone
    except QuestionConflictError:
        message = "That was answered already: nothing was applied. Here is what is asked now."
    except AffrayError as error:
        message = error.message
    found = await tracker.call(context, tracker, row, role)
    answered = tracker.page("_ask.html", **{**found, "message": message})
    answered.headers["X-Affray-Generation"] = found["generation"]
    return answered
