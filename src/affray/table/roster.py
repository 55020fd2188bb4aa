"""Who joins a table, and under what name: the sheet a joining combatant reads, and
the name and id it gets. One rule per question:

- :func:`sheet`: a sheet reference (a file, a bestiary name of the table's system,
  ``mst2:ogre``) → the sheet's data and source, in a table's words;
- :func:`given_name`: a name asked for (``--as``) is plain text;
- :func:`name_of`: the name a combatant gets: the one asked for, else its sheet's;
- :func:`newcomer_id`: the id of one joining: its name; its sheet's name, when a
  combatant at the table has it already, numbered (:func:`numbered`);
- :func:`numbered`: what a duplicate joining alone is called: Goblin 2, Goblin 3;
- :func:`group_ids`: the ids of an encounter's members joining together: numbered as
  a fight numbers them (Goblin 1, Goblin 2), primed past the names taken.

Ids compare without case. Nothing here reads the table, or anything but the sheets
a reference names (:func:`affray.sheets.combatants.resolve_reference`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from affray.errors import SheetError, TableError
from affray.sheets.combatants import (
    Reference,
    UnknownReferenceError,
    names_a_file,
    resolve_reference,
    sheet_from_data,
)
from affray.sheets.encounters import RosterEntry, unique_ids
from affray.sheets.validation import plain_name
from affray.table.commands import Add


def sheet(system: str, reference: str, *, anywhere: bool = True) -> Reference:
    """The sheet ``reference`` names at a table of ``system``: a .toml/.json file (or,
    ``anywhere``, typed at the terminal, any file that is there), or a creature of the
    system's bestiary (``ogre``, ``goblins``, ``mst2:ogre``).

    Raises:
        TableError: no such file or creature.
        SheetError: the file is invalid; ``midian:knight`` at a table of another system.
    """
    from affray.sheets import bestiary

    try:
        return resolve_reference(reference, system, strict=True, anywhere=anywhere)
    except UnknownReferenceError:
        raise TableError(
            f"no sheet file or {system} bestiary creature called {reference!r}",
            hint="give a .toml/.json sheet, or one of: " + ", ".join(bestiary.names(system)),
        ) from None


def given_name(name: str | None) -> str | None:
    """The name asked for (``--as``) as plain text (spaces run together), or None.

    Raises:
        TableError: it has a control character, or is blank.
    """
    if name is None:
        return None
    try:
        return plain_name(name)
    except ValueError as error:
        raise TableError(f"--as: the name {error}") from None


def name_of(given: str | None, data: Mapping[str, Any], source: str) -> str:
    """The name a combatant gets: the one asked for, else the name on its sheet
    (read only then).

    Raises:
        SheetError: no name is asked for and the sheet is invalid.
    """
    return given or sheet_from_data(data, source).name


def numbered(name: str, taken: Collection[str]) -> str:
    """What a combatant joining alone is called if ``name`` is taken: ``name 2``,
    ``name 3``, ..., the first that is not; ``name`` itself if it is free."""
    lower = _lower(taken)
    if name.lower() not in lower:
        return name
    n = 2
    while f"{name} {n}".lower() in lower:
        n += 1
    return f"{name} {n}"


def newcomer_id(name: str, asked: bool, taken: Collection[str]) -> str:
    """The id of one combatant joining: its name, numbered if taken, unless the name
    was asked for (a clash is then the rules' to refuse, not renumbered)."""
    return name if asked else numbered(name, taken)


def group_ids(labels: Sequence[str], taken: Collection[str]) -> list[str]:
    """The ids of combatants joining together under these names (an encounter's
    members, ``count`` copies each): numbered as a fight numbers them (Goblin 1,
    Goblin 2), and primed (Goblin 1') past the ids taken."""
    return unique_ids(list(labels), set(_lower(taken)))


@dataclass(frozen=True, slots=True)
class Newcomer:
    """One combatant about to join a table: its sheet's data and source, the name it
    gets (:func:`name_of`), and whether that name was asked for."""

    data: Mapping[str, Any]
    source: str
    name: str
    asked: bool = False

    @classmethod
    def of(cls, data: Mapping[str, Any], source: str, name: str | None = None) -> Newcomer:
        """The combatant of the sheet ``data`` read from ``source``, called ``name``
        (None: its sheet's).

        Raises:
            SheetError: the sheet is invalid (said before a bad name).
            TableError: the name is not plain text.
        """
        sheet = sheet_from_data(data, source)
        given = given_name(name)
        return cls(dict(data), source, given or sheet.name, given is not None)

    def add(
        self,
        taken: Collection[str],
        *,
        side: str | None = None,
        tactics: str = "nearest",
        player: bool = False,
    ) -> Add:
        """The command that adds it to a table whose combatants have the ids ``taken``:
        its id by :func:`newcomer_id`, on ``side`` (its own, by default)."""
        cid = newcomer_id(self.name, self.asked, taken)
        return Add(cid, side or cid, self.source, dict(self.data), tactics, player)

    def adds(
        self,
        taken: Collection[str],
        count: int,
        *,
        side: str | None = None,
        tactics: str = "nearest",
        player: bool = False,
    ) -> list[Add]:
        """``count`` of it at once ("Goblin 1", "Goblin 2", ... as an encounter file's
        counts are named), all on ``side`` (by default one of their own, named after
        them).

        Raises:
            TableError: ``count`` is not 1 to :data:`MAX_AT_ONCE`.
        """
        if not 1 <= count <= MAX_AT_ONCE:
            raise TableError(
                f"add 1 to {MAX_AT_ONCE} at once, not {count}", hint="count is how many"
            )
        if count == 1:
            return [self.add(taken, side=side, tactics=tactics, player=player)]
        ids = group_ids([self.name] * count, taken)
        together = side or self.name
        return [Add(cid, together, self.source, dict(self.data), tactics, player) for cid in ids]


MAX_AT_ONCE = 20
"""The most combatants of one sheet added at once."""


def members(
    entries: Iterable[RosterEntry],
    system: str,
    where: str,
    base: Path | None,
    taken: Collection[str],
    tactics_keys: Collection[str],
) -> list[Add]:
    """The commands that add an encounter file's members (``entries``, its roster) to
    a table of ``system`` whose combatants have the ids ``taken``: ``count`` each, on
    its side, with its tactics and the system's tactics keys among its keys. Sheet
    files are relative to ``base``; with no ``base`` (an uploaded file) a member may
    only be a bestiary name.

    Raises:
        SheetError: a member is a sheet file and there is no ``base``; a member's
            sheet is invalid (:func:`sheet`).
        TableError: no such file or creature.
    """
    joining: list[tuple[str, Reference, dict[str, Any], RosterEntry]] = []
    for member in entries:
        reference = member.sheet
        if names_a_file(reference, anywhere=False):
            if base is None:
                raise SheetError(
                    f"member {reference!r} is a sheet file, which an uploaded encounter "
                    "cannot reach",
                    path=where,
                    hint="use bestiary names, or import it from the terminal "
                    "(`affray table import TABLE FILE`)",
                )
            reference = str(base / reference)
        found = sheet(system, reference, anywhere=False)  # as `affray fight` reads it
        data = dict(found.data)
        label = name_of(member.name, data, found.source)
        joining.extend((label, found, data, member) for _ in range(member.count))
    ids = group_ids([label for label, _, _, _ in joining], taken)
    return [
        Add(
            cid,
            member.side,
            found.source,
            data,
            member.tactics,
            False,
            {k: v for k, v in member.keys.items() if k in tactics_keys},
        )
        for cid, (_, found, data, member) in zip(ids, joining, strict=True)
    ]


def _lower(ids: Iterable[str]) -> frozenset[str]:
    return frozenset(cid.lower() for cid in ids)
