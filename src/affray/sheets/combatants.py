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


def load_sheet(path: str | Path, system: str | None = None) -> Sheet:
    """Load and validate a sheet: a ``.toml``/``.json`` file, or a bestiary name
    (``ogre``, ``3 goblins`` is not one: a single creature), of ``system`` if given,
    else of the one system that has it (``mst2:knight`` says which).

    Raises:
        SheetError: the file or any key is invalid (the message names both); no file
            or creature of that name; a name in several systems' bestiaries.
    """
    reference = str(path)
    if isinstance(path, Path) or reference.lower().endswith((".toml", ".json")):
        return sheet_from_data(load_document(path), reference)
    if Path(reference).exists():  # a file without a sheet's suffix: say so
        return sheet_from_data(load_document(path), reference)
    return bestiary_sheet(reference, system)


def load_pair(a: str | Path, b: str | Path) -> tuple[Sheet, Sheet]:
    """Two sheets that fight each other, files or bestiary names: a name in several
    systems' bestiaries is read in the system of the other sheet (``duel knight ogre``).

    Raises:
        SheetError: as :func:`load_sheet`.
    """
    try:
        first = load_sheet(a)
    except SheetError as ambiguous:
        if " is in the bestiary of " not in ambiguous.message:
            raise
        second = load_sheet(b)
        return load_sheet(a, registry.system_of(second).name), second
    if isinstance(b, Path) or str(b).lower().endswith((".toml", ".json")):
        return first, load_sheet(b)
    return first, load_sheet(b, registry.system_of(first).name)


def bestiary_sheet(name: str, system: str | None = None) -> Sheet:
    """The bestiary's creature called ``name`` (``mst2:knight``: of that system).

    Raises:
        SheetError: no such creature; one in several systems' bestiaries.
    """
    from affray.sheets import bestiary
    from affray.sheets.documents import parse_document

    prefix, _, rest = name.partition(":")
    if rest and prefix in registry.systems():
        system, name = prefix, rest
    systems = [system] if system is not None else list(registry.systems())
    found = [(s, text) for s in systems if (text := bestiary.text(s, name)) is not None]
    if not found:
        known = sorted({n for s in systems for n in bestiary.names(s)})
        raise SheetError(
            f"no sheet file or bestiary creature called {show(name)}",
            hint="give a .toml/.json sheet file, or a bestiary name: " + ", ".join(known),
        )
    if len(found) > 1:
        raise SheetError(
            f"{show(name)} is in the bestiary of {' and '.join(s for s, _ in found)}",
            hint="say which: " + " or ".join(f"{s}:{name}" for s, _ in found),
        )
    owner, text = found[0]
    label = f"bestiary {owner}:{name}"
    return sheet_from_data(parse_document(text, "toml", label), label)


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
    sheet = load_sheet(path, system)
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
