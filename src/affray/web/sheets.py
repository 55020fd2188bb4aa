"""The sheets the web may read: the bestiary of a table's system, and the sheet files
in the folders the game master names when starting the tracker (``affray serve
--sheets DIR``). Nothing else on the server is read, and whatever is asked for
outside them (a file that is there, one that is not, a folder) gets the same answer.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from affray.errors import AffrayError, TableError
from affray.sheets import bestiary
from affray.sheets.combatants import SUFFIXES, UnknownReferenceError, resolve_reference, served_file
from affray.sheets.documents import load_document
from affray.web.text import in_error


@dataclass(frozen=True, slots=True)
class Shelf:
    """The folders of sheet files the tracker serves (none: the bestiary only)."""

    folders: tuple[Path, ...] = ()

    @classmethod
    def of(cls, folders: Iterable[str | Path]) -> Shelf:
        """The shelf of ``folders`` (each made absolute, its links followed).

        Raises:
            TableError: one is not a folder.
        """
        found = []
        for folder in folders:
            path = Path(folder).expanduser().resolve()
            if not path.is_dir():
                raise TableError(
                    f"--sheets {folder}: not a folder", hint="name a folder of sheet files"
                )
            found.append(path)
        return cls(tuple(found))

    def sheet(self, system: str, reference: str) -> tuple[dict[str, Any], str]:
        """The sheet data and source of ``reference``: a bestiary name of ``system``
        (``mst2:ogre`` too, at an MST-2 table), or a .toml/.json file in one of the
        folders (relative to it, or a full path inside it).

        Raises:
            TableError: it is neither (the same words for a file that exists elsewhere
                and one that does not).
            SheetError: the file in a folder is not a valid document; a ``system:name``
                of another system.
        """
        try:
            found = resolve_reference(reference, system, strict=True, within=self.folders)
        except UnknownReferenceError:
            raise self.refusal(system, reference) from None
        return dict(found.data), found.source

    def listing(self, system: str, most: int = 200) -> list[str]:
        """The sheet files of ``system`` in the folders, as the page offers them (each
        relative to its folder; encounter and sweep files left out; the first
        ``most`` files looked at in each folder)."""
        found: dict[str, None] = {}
        for folder in self.folders:
            files = (p for p in sorted(folder.rglob("*")) if p.suffix.lower() in SUFFIXES)
            for path in itertools.islice(files, most):
                if self.file(str(path)) is not None and _is_sheet(path, system):
                    found[path.relative_to(folder).as_posix()] = None
        return list(found)

    def file(self, reference: str) -> Path | None:
        """The file of ``reference`` in one of the folders, if there is one."""
        return served_file(reference, self.folders)

    def refusal(self, system: str, reference: str) -> TableError:
        """What the web says of a sheet it will not read."""

        where = (
            "sheet files from the folders `affray serve --sheets` named: "
            + ", ".join(str(f) for f in self.folders)
            if self.folders
            else "no sheet files (start the tracker with `affray serve --sheets DIR` to "
            "add from a folder of them, or upload a sheet)"
        )
        names = ", ".join(bestiary.names(system)) or "none"
        return TableError(
            f"no {system} bestiary creature or served sheet file called {in_error(reference)}",
            hint=f"the web takes {system} bestiary names ({names}) and {where}",
        )


_SEEN: dict[tuple[Path, int], tuple[str, bool]] = {}
"""What each file looked at for the listing is (its system, and whether it is a
sheet), by its modification time: the page is not slowed by reading them again."""


def _is_sheet(path: Path, system: str) -> bool:
    try:
        key = (path, path.stat().st_mtime_ns)
    except OSError:
        return False
    if key not in _SEEN:
        try:
            data = load_document(path)
            what = (str(data.get("system", "")), "name" in data and "sides" not in data)
        except AffrayError:
            what = ("", False)
        _SEEN[key] = what
    found, sheet = _SEEN[key]
    return sheet and found == system
