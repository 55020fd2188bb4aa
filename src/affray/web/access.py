"""Who a request is: the table of its path and the role its token gives there.

Tokens: ``Authorization: Bearer TOKEN`` or ``?token=TOKEN``. No token, or one no
table has, is 401; the player token on a write is 403; another table's token is the
404 of a table that is not there (so that no token tells which tables exist). The
game master's page sends its token in a header (never a cookie), so a page on
another site cannot write through the game master's browser.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from starlette.exceptions import HTTPException
from starlette.requests import Request

from affray.errors import AffrayError
from affray.table import TableRow
from affray.web.roles import GAME_MASTER, PLAYERS, Role, player
from affray.web.text import in_error

if TYPE_CHECKING:
    from affray.web.tracker import Tracker


def token(request: Request) -> str | None:
    """The request's token: its Bearer header, else ``?token=``."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return request.query_params.get("token") or None


async def access(tracker: Tracker, request: Request, *, write: bool) -> tuple[TableRow, Role]:
    """The table of the request's path, and the role its token gives there (a player's
    own link reads as the players do; whether it may answer is for the route to say).

    Raises:
        HTTPException: 401 (no token, or no table's), 403 (the player token on a
            write), 404 (no such table, or another table's token: the same).
    """
    given = token(request)
    if not given:
        raise HTTPException(401, "a token is needed: Authorization: Bearer TOKEN")
    table_id = request.path_params["table"]
    row, owner = await tracker.call(_lookup, tracker, table_id, given)
    linked = await tracker.call(tracker.tables.linked, given)
    if owner is None and linked is None:  # the same for a table that is not there
        raise HTTPException(401, "no table has that token")
    if row is None:
        raise HTTPException(404, f"no table {in_error(table_id)}")
    if secrets.compare_digest(given, row.gm_token):
        return row, GAME_MASTER
    if secrets.compare_digest(given, row.player_token):
        if write:
            raise HTTPException(403, "the player token cannot change the table")
        return row, PLAYERS
    if linked is not None and linked[0] == row.id:
        if linked[1] is None:
            raise HTTPException(403, "this link's combatant has left the table")
        if write:
            raise HTTPException(403, "a player's link can only answer its own dice and questions")
        return row, player(linked[1])
    raise HTTPException(404, f"no table {in_error(table_id)}")


def _lookup(tracker: Tracker, table_id: str, given: str) -> tuple[TableRow | None, str | None]:
    try:
        row = tracker.tables.store.table(table_id)
    except AffrayError:
        row = None
    if row is not None and row.id != table_id:
        row = None  # ids only, on the web
    return row, tracker.tables.store.token_owner(given)


async def check_home_key(tracker: Tracker, request: Request) -> str:
    """The home page's key, from ``?key=`` or the Bearer header (read off the event
    loop, like every use of the tables).

    Raises:
        HTTPException: 401 with none, 403 with a wrong one.
    """
    given = request.query_params.get("key") or token(request)
    if not given:
        raise HTTPException(401, "the home page needs its key: /?key=KEY (affray serve prints it)")
    if not secrets.compare_digest(given, await tracker.call(tracker.tables.store.home_key)):
        raise HTTPException(403, "that is not this tracker's key")
    return given
