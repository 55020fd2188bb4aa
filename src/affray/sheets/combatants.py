"""Any combatant sheet: dispatch on the ``system`` key."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from affray.errors import SheetError
from affray.rules.midian.character import Character
from affray.rules.mst2.fighter import Fighter
from affray.sheets.documents import load_document
from affray.sheets.midian import MidianSheet, midian_character
from affray.sheets.mst2 import Mst2Sheet, mst2_fighter
from affray.sheets.validation import short, validate

Sheet = Fighter | Character
SYSTEMS: dict[str, type[BaseModel]] = {"mst2": Mst2Sheet, "midian": MidianSheet}


def load_sheet(path: str | Path) -> Sheet:
    """Load and validate a sheet file.

    Raises:
        SheetError: the file or any key is invalid; the message names both.
    """
    return sheet_from_data(load_document(path), str(path))


def sheet_from_data(data: Mapping[str, Any], where: str | None = None) -> Sheet:
    """Build a combatant (an MST-2 Fighter or a Midian Character) from parsed sheet data."""
    system = data.get("system")
    if not isinstance(system, str) or system not in SYSTEMS:
        raise SheetError(
            f"unknown system {short.repr(system)}" if system is not None else "is required",
            path=where,
            key="system",
            hint='system is one of: "mst2", "midian"',
        )
    if system == "midian":
        return midian_character(validate(MidianSheet, data, where), where)
    return mst2_fighter(validate(Mst2Sheet, data, where), where)
