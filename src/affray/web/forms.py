"""The pages' forms, read at the edge: every field checked before anything is done
with it, and a die the page asks affray to roll rolled by the tracker's dice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request

from affray.dice import Dice
from affray.errors import AffrayError
from affray.web.text import in_error, refuse_unencodable

FORM_NUMBERS = {
    "expected_version": 10**15,
    "roll_die": 1000,
    "steps": 10_000,
    "turns": 10_000,
    "days": 365,
    "seed": 2**64 - 1,
}
"""The whole numbers a page's form may carry, each with its largest value."""

UPLOADS = (("sheet_file", "sheet_text"), ("encounter_file", "encounter_text"))
"""The files a form may carry, and the field their text goes into."""

UPLOAD_BYTES = 100_001
"""The most of an uploaded file read (the command refuses longer texts by their own
limits)."""


async def read_form(request: Request, *, uploads: bool = False) -> dict[str, Any]:
    """A form's text fields (``choose`` as a list), and, with ``uploads``, the text of
    its files; checked (:func:`check_form`).

    Raises:
        HTTPException: 422, for a field the pages never send.
    """
    async with request.form() as form:  # an uploaded file is closed at its end
        data: dict[str, Any] = {k: v for k, v in form.items() if isinstance(v, str)}
        data["choose"] = [str(v) for v in form.getlist("choose") if v]
        if uploads:
            for field, key in UPLOADS:
                upload = form.get(field)
                if upload is not None and not isinstance(upload, str):
                    data[key] = (await upload.read(UPLOAD_BYTES)).decode("utf-8", "replace")
    check_form(data)
    return data


def check_form(data: Mapping[str, Any]) -> None:
    """Refuse a form the pages never send: text UTF-8 cannot carry, or a number
    field that is not a plain whole number (``²``, 5,000 digits).

    Raises:
        HTTPException: 422, saying which field and what it takes.
    """
    try:
        refuse_unencodable(dict(data), "form")
    except AffrayError as error:
        raise HTTPException(422, f"{error.message} — Tip: {error.hint}") from None
    for key, top in FORM_NUMBERS.items():
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            continue
        digits = value.strip()
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 20 and int(digits) <= top):
            raise HTTPException(
                422,
                f"{key} must be a whole number from 0 to {top:,}, not {in_error(value)} — "
                f"Tip: digits 0-9 only, e.g. {key}=1",
            )


def rolled_here(data: Mapping[str, Any]) -> bool:
    """Whether the form asks the page to roll its die ("roll it for me")."""
    return str(data.get("roll_die", "")).strip().isdigit()


def faces(data: Mapping[str, Any], dice: Dice, *, typed: list[str] | None = None) -> list[str]:
    """The faces a form gives: ``typed`` (faces given before), then the face typed in
    the form, or, for "roll it for me" (``roll_die``: its sides; it wins over a face
    typed beside it), a face rolled by ``dice`` (the tracker's: no die is rolled
    outside a dice source)."""
    found = list(typed or [])
    sides = str(data.get("roll_die", "")).strip()
    face = str(data.get("face", "")).strip()
    if sides.isdigit():
        found.append(str(dice.roll(max(2, int(sides)), "a die rolled for the page").face))
    elif face:
        found.append(face)
    return found
