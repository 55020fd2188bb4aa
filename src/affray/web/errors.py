"""affray's errors as the web answers them: one table from an error's meaning to its
HTTP status, and the one handler that turns an error no route answered into that
response (as datasette's ``handle_exception`` does). No route catches an error of the
project only to say it; a route catches only what it answers otherwise (a player's
command taken and waiting is a 202, not an error)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal, TypeVar

from starlette.requests import Request
from starlette.responses import Response

from affray.errors import (
    AffrayError,
    ConflictError,
    DatabaseBusyError,
    InputNeededError,
    NotAllowedError,
    PendingError,
    QuestionConflictError,
)
from affray.table.waiting import needs
from affray.web.text import MendedJSON, MendedText

T = TypeVar("T")

STATUS: tuple[tuple[type[AffrayError], int], ...] = (
    (DatabaseBusyError, 503),  # busy: another affray writes; nothing was written
    (NotAllowedError, 403),  # not allowed: a player asked for what is not theirs now
    (ConflictError, 409),  # conflict: the table moved on since the version read
    (QuestionConflictError, 409),  # conflict: the question was answered or dropped
    (PendingError, 409),  # conflict: it would drop what waits
    (AffrayError, 422),  # bad input: what the rules or the format refuse
)
"""Each error's status by its meaning, the first that fits."""


def status(error: AffrayError) -> int:
    """The HTTP status of ``error`` (:data:`STATUS`)."""
    return next(code for kind, code in STATUS if isinstance(error, kind))


def body(error: AffrayError) -> dict[str, Any]:
    """``{"error", "tip"}``, and what each kind says besides: the version a conflict
    found, the question asked now, what a command waits for and every face it used so
    far (re-posted with the answer, they repeat those dice exactly)."""
    found: dict[str, Any] = {"error": error.message, "tip": error.hint}
    if isinstance(error, ConflictError):
        found["version"] = error.current
    elif isinstance(error, QuestionConflictError):
        found["question"] = error.current
    elif isinstance(error, PendingError):
        found["question"] = error.question
    elif isinstance(error, InputNeededError):
        found["needs"] = {**needs(error), "question": error.question}
        found["rolls"] = list(error.rolls)
    return found


Reader = Literal["gm", "player"]

WORDS: tuple[tuple[type[AffrayError], Callable[[AffrayError, Reader], str | None]], ...] = (
    (InputNeededError, lambda error, reader: None),  # taken; the table waits: the page asks
    (
        ConflictError,
        lambda error, reader: (
            f"The table changed (now version {getattr(error, 'current', '?')}); here it is again."
        ),
    ),
    (PendingError, lambda error, reader: f"{error.message}. Nothing was applied."),
    (
        QuestionConflictError,
        lambda error, reader: (
            "That question was answered already: nothing was applied; "
            "here is what the table asks now."
        ),
    ),
    (
        AffrayError,
        lambda error, reader: (
            error.message + (f" — {error.hint}" if error.hint and reader == "gm" else "")
        ),
    ),
)
"""What a page's panel says of each error, by its meaning, the first that fits: the
pages answer a refused form with the panel again and these words (a 200, so that the
page puts it in place), where the API answers :data:`STATUS`. A player reads a
refusal without its tip (a tip speaks to whoever runs the table; the refusal itself is
already told in the player's words: :func:`~affray.table.projection.refusal`)."""


async def attempt(change: Awaitable[T], reader: Reader = "gm") -> tuple[T | None, str | None]:
    """What a page asked for, and what it says of it: ``(value, None)`` when it was
    done; ``(None, None)`` when it waits for a die or an answer (the panel asks for
    it); else ``(None, why not)`` (:data:`WORDS`)."""
    try:
        return await change, None
    except AffrayError as error:
        return None, words(error, reader)


def words(error: AffrayError, reader: Reader = "gm") -> str | None:
    """What a page says of ``error`` to ``reader`` (:data:`WORDS`); None for a command
    taken that waits (the page asks for what it waits on)."""
    return next(said for kind, said in WORDS if isinstance(error, kind))(error, reader)


def refused(error: AffrayError) -> Response:
    """``error`` as the JSON API answers it."""
    code = status(error)
    headers = {"Retry-After": "2"} if code == 503 else None
    return MendedJSON(body(error), code, headers=headers)


async def on_affray_error(request: Request, error: Exception) -> Response:
    """The app's handler of affray's errors: JSON on the API, a line of text elsewhere."""
    assert isinstance(error, AffrayError)
    if request.url.path.startswith("/api/"):
        return refused(error)
    tip = f" — Tip: {error.hint}" if error.hint else ""
    return MendedText(f"{status(error)}: {error.message}{tip}", status(error))
