"""Any combatant sheet: the ``system`` key picks the rule system that reads it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from affray import registry
from affray.errors import SheetError
from affray.sheets.documents import load_document
from affray.sheets.validation import short

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
            f"unknown system {short.repr(system)}" if system is not None else "is required",
            path=where,
            key="system",
            hint="system is one of: " + ", ".join(f'"{n}"' for n in names),
        )
    return registry.system(system).sheet_from_data(data, where)
