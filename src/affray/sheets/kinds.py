"""What kind of file a document is, by its keys: a character sheet, an encounter, an
exploration or a day of fights. A command given the wrong kind says which it was given
and which it takes, before its keys are checked (a sheet given to ``fight`` is "a
character sheet, not an encounter file", not "key 'sides' is required")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeAlias

from affray.errors import SheetError

Kind: TypeAlias = Literal["sheet", "encounter", "exploration", "day"]

WORDS: dict[Kind, tuple[str, str]] = {
    "sheet": ("a character sheet", "docs/sheets.md"),
    "encounter": ("an encounter file", "docs/encounters.md"),
    "exploration": ("an exploration", "docs/explorer.md"),
    "day": ("a day of fights", "docs/design.md"),
}
"""Each kind in words, and the page that describes it."""

TAKES: dict[Kind, str] = {
    "sheet": "a sheet fights in `affray duel SHEET SHEET` or in an encounter file's sides",
    "encounter": "an encounter is fought by `affray fight ENCOUNTER` and brought to a table by "
    "`affray table import`",
    "exploration": "an exploration is run by `affray explore EXPLORATION`",
    "day": "a day of fights is run by `affray day DAY`",
}
"""Where each kind is used, for the tip."""


def kind_of(data: Mapping[str, Any]) -> Kind | None:
    """The kind of file ``data`` is, by the keys only that kind has: an encounter's
    ``sides``; a day's ``steps``; an exploration's ``a`` and ``b`` (or an encounter
    sweep's ``encounter`` and ``axes``); a sheet's ``system`` with none of those.
    None: it says too little to tell."""
    keys = set(data)
    if "steps" in keys:
        return "day"
    if "sides" in keys:
        return "encounter"
    if {"a", "b"} <= keys or {"axes", "encounter"} <= keys or "axes" in keys:
        return "exploration"
    if "system" in keys:
        return "sheet"
    return None


def check_kind(data: Mapping[str, Any], wanted: Kind, where: str | None) -> None:
    """Nothing, if ``data`` may be a file of kind ``wanted``.

    Raises:
        SheetError: it is plainly a file of another kind (which, and where that one is
            used).
    """
    found = kind_of(data)
    if found is None or found == wanted:
        return
    was, _ = WORDS[found]
    want, page = WORDS[wanted]
    raise SheetError(
        f"this is {was}, not {want}",
        path=where,
        hint=f"{TAKES[found]}; {want} is described in {page}",
    )
