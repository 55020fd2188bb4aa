"""Any combatant sheet: the ``system`` key picks the rule system that reads it; and
the one rule that turns a sheet reference (a file, a bestiary name, ``mst2:knight``)
into a sheet's data, for the terminal, the tables and the web alike."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from affray import registry
from affray.errors import SheetError
from affray.quoting import as_written
from affray.sheets.documents import load_document
from affray.sheets.kinds import check_kind

Sheet = Any
"""A sheet of any registered rule system (an MST-2 Fighter, a Midian Character, ...)."""

SUFFIXES = (".toml", ".json")
"""How a sheet file's name ends: a reference ending so is a file, never a creature."""


@dataclass(frozen=True, slots=True)
class Reference:
    """A sheet reference resolved (:func:`resolve_reference`).

    Attributes:
        data: the sheet's document as read, not yet validated as a sheet.
        source: what names it in a log or an error: the file (as given; as found,
            in a served folder), or ``bestiary ogre`` / ``bestiary mst2:ogre``.
        from_file: it is a sheet file (else a bestiary creature).
        system: the rule system whose bestiary has it (None: a file).
        text: a creature's sheet as written (None: a file, which has it itself).
        path: the file (None: a creature).
    """

    data: Mapping[str, Any]
    source: str
    from_file: bool
    system: str | None = None
    text: str | None = None
    path: Path | None = None

    def sheet(self) -> Sheet:
        """The sheet it is, validated (by the system its data names).

        Raises:
            SheetError: the data is not a valid sheet.
        """
        return sheet_from_data(self.data, self.source)


class UnknownReferenceError(SheetError):
    """No sheet file or bestiary creature is called that (a table and the web say so
    in their own words)."""


class ForeignReferenceError(SheetError):
    """A ``system:name`` of another system than the one wanted (a table's)."""


class AmbiguousReferenceError(SheetError):
    """A bestiary name in several systems' bestiaries, and nothing says which."""

    owners: tuple[str, ...] = ()
    """The systems whose bestiaries have it, in their listed order."""


def names_a_file(reference: str | Path, *, anywhere: bool = True) -> bool:
    """Whether ``reference`` names a sheet file rather than a bestiary creature: a
    :class:`~pathlib.Path`, a name ending in .toml/.json, or, where any file may be
    read (``anywhere``: the terminal, not the web), something that is there (a file
    without a sheet's ending is then refused for its type, not looked up)."""
    if isinstance(reference, Path) or str(reference).lower().endswith(SUFFIXES):
        return True
    return anywhere and Path(reference).exists()


def resolve_reference(
    reference: str | Path,
    system: str | None = None,
    *,
    strict: bool = False,
    within: Sequence[Path] | None = None,
    base: Path | None = None,
    anywhere: bool = True,
) -> Reference:
    """The sheet data that ``reference`` names: a sheet file (:func:`names_a_file`),
    or a bestiary name (``ogre``; plural and case forgiven) of ``system`` if given,
    else of the one system that has it; ``mst2:knight`` says the system.

    Args:
        strict: ``system`` is the only one the reference may be of (a table's): a
            ``midian:knight`` of another system is refused, and the source names the
            creature as given (the table says the system). Otherwise a
            ``system:name`` picks its own system, and the source is ``bestiary
            SYSTEM:NAME``.
        within: only files inside these folders are read (the web's served
            folders; a file elsewhere is unknown, whether it is there or not); None:
            any file.
        base: the folder file references are relative to (an encounter's or a
            sweep's); then only a .toml/.json ending makes a reference a file.
        anywhere: a reference that is not a .toml/.json name is still a file if one
            is there (a sheet typed at the terminal); without it (an encounter's
            member, the web), only the ending says so.

    Raises:
        UnknownReferenceError: no such creature (or, ``within`` folders, no such file).
        AmbiguousReferenceError: a name in several systems' bestiaries (no ``system``).
        SheetError: the file is invalid; a ``system:name`` of another system than a
            ``strict`` one.
    """
    given = str(reference)
    if names_a_file(reference, anywhere=anywhere and within is None and base is None):
        if base is not None:
            relative = base / reference
            return Reference(load_document(relative), str(relative), True, path=relative)
        if within is None:
            return Reference(load_document(reference), given, True, path=Path(reference))
        served = served_file(given, within)
        if served is None:
            raise UnknownReferenceError(f"no served sheet file called {as_written(given)}")
        return Reference(load_document(served), str(served), True, path=served)
    return _creature(given, system, strict)


def served_file(reference: str, folders: Sequence[Path]) -> Path | None:
    """The .toml/.json file of ``reference`` inside one of ``folders`` (relative to
    it, or a full path inside it; links followed), if there is one."""
    return next(_served(reference, folders), None)


def _served(reference: str, folders: Sequence[Path]) -> Iterator[Path]:
    if not reference.lower().endswith(SUFFIXES) or "\x00" in reference:
        return
    given = Path(reference).expanduser()
    for folder in folders:
        candidate = given if given.is_absolute() else folder / given
        try:
            path = candidate.resolve()
        except (OSError, RuntimeError):
            continue
        if path.is_relative_to(folder) and path.is_file():
            yield path


def _creature(reference: str, system: str | None, strict: bool) -> Reference:
    """The bestiary creature ``reference`` names (:func:`resolve_reference`)."""
    from affray.sheets import bestiary
    from affray.sheets.documents import parse_document

    name = reference
    prefix, _, rest = reference.partition(":")
    if rest and prefix in registry.systems():
        if strict and system is not None and prefix != system:
            title = registry.system(system).title
            raise ForeignReferenceError(
                f"{as_written(reference)} is from the {prefix} bestiary, but "
                f"{article(title)} {title} sheet is wanted",
                hint=f"give a {system} bestiary name ("
                + (", ".join(bestiary.names(system)) or "none")
                + f"), or a .toml/.json {system} sheet file",
            )
        system, name = prefix, rest
    systems = [system] if system is not None else list(registry.systems())
    found = [(s, text) for s in systems if (text := bestiary.text(s, name)) is not None]
    if not found:
        known = sorted({n for s in systems for n in bestiary.names(s)})
        raise UnknownReferenceError(
            f"no sheet file or bestiary creature called {as_written(name)}",
            hint="give a .toml/.json sheet file, or a bestiary name: " + ", ".join(known),
        )
    if len(found) > 1:
        ambiguous = AmbiguousReferenceError(
            f"{as_written(name)} is in the bestiary of {' and '.join(s for s, _ in found)}",
            hint="say which: " + " or ".join(f"{s}:{name}" for s, _ in found),
        )
        ambiguous.owners = tuple(s for s, _ in found)
        raise ambiguous
    owner, text = found[0]
    label = f"bestiary {reference}" if strict else f"bestiary {owner}:{name}"
    return Reference(parse_document(text, "toml", label), label, False, owner, text)


def load_sheet(path: str | Path, system: str | None = None) -> Sheet:
    """Load and validate a sheet: a ``.toml``/``.json`` file, or a bestiary name
    (``ogre``, ``3 goblins`` is not one: a single creature), of ``system`` if given,
    else of the one system that has it (``mst2:knight`` says which).

    Raises:
        SheetError: the file or any key is invalid (the message names both); no file
            or creature of that name; a name in several systems' bestiaries.
    """
    return resolve_reference(path, system).sheet()


def load_pair(a: str | Path, b: str | Path) -> tuple[Sheet, Sheet]:
    """Two sheets that fight each other, files or bestiary names: a name in several
    systems' bestiaries is read in the system of the other sheet (``duel knight ogre``).

    Raises:
        SheetError: as :func:`load_sheet`.
    """
    try:
        first = load_sheet(a)
    except AmbiguousReferenceError:
        second = load_sheet(b)
        return load_sheet(a, registry.system_of(second).name), second
    if names_a_file(b, anywhere=False):
        return first, load_sheet(b)
    return first, load_sheet(b, registry.system_of(first).name)


def bestiary_sheet(name: str, system: str | None = None) -> Sheet:
    """The bestiary's creature called ``name`` (``mst2:knight``: of that system).

    Raises:
        SheetError: no such creature; one in several systems' bestiaries.
    """
    return _creature(name, system, strict=False).sheet()


def sheet_from_data(data: Mapping[str, Any], where: str | None = None) -> Sheet:
    """Build a combatant sheet from parsed data, by the rule system its ``system`` names."""
    check_kind(data, "sheet", where)
    system = data.get("system")
    names = registry.systems()
    if not isinstance(system, str) or system not in names:
        raise SheetError(
            f"unknown system {as_written(system)}" if system is not None else "is required",
            path=where,
            key="system",
            hint="system is one of: " + ", ".join(f'"{n}"' for n in names),
        )
    return registry.system(system).read_sheet(data, where=where)


def load_system_sheet(path: str | Path, system: str) -> Sheet:
    """Load a sheet that must be of the rule system called ``system``.

    Raises:
        SheetError: the file is invalid, or a sheet of another system.
    """
    sheet = load_sheet(path, system)
    wanted = registry.system(system)
    if not wanted.owns(sheet):
        other = registry.system_of(sheet)
        raise SheetError(
            f"is {article(other.title)} {other.title} sheet, not {article(wanted.title)} "
            f"{wanted.title} one",
            path=str(path),
            key="system",
            hint=f"{other.title} sheets go with affray's {other.name} commands "
            f"(`affray {other.name} --help`); {article(wanted.title)} {wanted.title} sheet says "
            f'system = "{wanted.name}" and has its keys (docs/sheets.md)',
        )
    return sheet


def article(title: str) -> str:
    """ "an MST-2", "a Midian": by the sound, spelled-out letters included."""
    acronym = title.split("-")[0].isupper() and len(title.split("-")[0]) > 1
    return "an" if title[0] in "AEIOU" or (acronym and title[0] in "FHLMNRSX") else "a"
