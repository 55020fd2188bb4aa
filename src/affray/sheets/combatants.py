"""Any combatant sheet: the ``system`` key picks the rule system that reads it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from affray import registry
from affray.errors import SheetError
from affray.quoting import show
from affray.sheets.documents import load_document

Sheet = Any
"""A sheet of any registered rule system (an MST-2 Fighter, a Midian Character, ...)."""


def load_sheet(path: str | Path) -> Sheet:
    """Load and validate a sheet file.

    Raises:
        SheetError: the file or any key is invalid; the message names both.
    """
    return sheet_from_data(load_document(path), str(path))


def sheet_from_data(data: Mapping[str, Any], where: str | None = None) -> Sheet:
    """Build a combatant sheet from parsed data, by the rule system its ``system`` names."""
    system = data.get("system")
    names = registry.systems()
    if not isinstance(system, str) or system not in names:
        raise SheetError(
            f"unknown system {show(system)}" if system is not None else "is required",
            path=where,
            key="system",
            hint="system is one of: " + ", ".join(f'"{n}"' for n in names),
        )
    return registry.system(system).sheet_from_data(data, where)


def load_system_sheet(path: str | Path, system: str) -> Sheet:
    """Load a sheet that must be of the rule system called ``system``.

    Raises:
        SheetError: the file is invalid, or a sheet of another system.
    """
    sheet = load_sheet(path)
    wanted = registry.system(system)
    if not wanted.owns(sheet):
        raise SheetError(
            f"is not {article(wanted.title)} {wanted.title} sheet",
            path=str(path),
            key="system",
            hint=f'system = "{wanted.name}"',
        )
    return sheet


def article(title: str) -> str:
    """ "an MST-2", "a Midian": by the sound, spelled-out letters included."""
    acronym = title.split("-")[0].isupper() and len(title.split("-")[0]) > 1
    return "an" if title[0] in "AEIOU" or (acronym and title[0] in "FHLMNRSX") else "a"
