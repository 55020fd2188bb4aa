"""A sweep over a whole encounter: ``encounter = "file.toml"`` instead of ``a`` and ``b``.

```toml
encounter = "../encounters/ogre.toml"   # an encounter file, relative to the sweep file
n = 2000                                # fights a cell (always simulated), seed = 1
[[axes]]
side = "Ogre"          # a side's name in the encounter file
member = 1             # which entry of that side's members list (1-based; default 1)
key = "count"          # count, or any key of that member's sheet (dotted for tables)
range = [1, 4]
```

Loading reads and checks the sweep file, the encounter file and every member's
sheet; every mistake is a :class:`~affray.errors.SheetError` naming the sweep file
and the key. A cell's encounter (:func:`cell_encounter`) is the file's, with every
member written as a table and every member's sheet given by its data (the sheet a
key was set on under a name of its own), so a cell needs no file to be fought.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from pydantic import Field

from affray import registry
from affray.errors import AffrayError, SheetError
from affray.explore.fight_cell import EncounterCell
from affray.explore.sweep import (
    MAX_AXES,
    Axis,
    Base,
    Key,
    Label,
    Method,
    Range,
    Sweep,
    Values,
    as_base,
    axis_of,
    check_axes,
    check_key,
)
from affray.explore.values import canonical, one_line, value_text, with_value
from affray.quoting import quoted
from affray.sheets import encounters, load_document
from affray.sheets.combatants import resolve_reference
from affray.sheets.encounters import (
    MAX_COMBATANTS,
    EncounterSetup,
    MemberTable,
    encounter_from_data,
)
from affray.sheets.validation import Strict, validate

COUNT = "count"
"""The axis key that sets how many of a member there are (every other key is a sheet's)."""


ENCOUNTER_N = 2_000
"""Fights a cell when the sweep does not say: a whole fight costs milliseconds, a duel's
fast engines microseconds (their sweeps default to 100,000)."""


class EncounterAxisTable(Strict):
    """One ``[[axes]]`` table of an encounter sweep."""

    DOCS: ClassVar[str] = "docs/explorer.md"
    PLACE: ClassVar[str | None] = "axis"

    side: str = Field(min_length=1, max_length=80)
    member: int = Field(default=1, ge=1, le=MAX_COMBATANTS)
    key: Key
    values: Values = None
    range: Range = None
    label: Label = None


class EncounterSweepTable(Strict):
    """The keys of an encounter sweep file."""

    DOCS: ClassVar[str] = "docs/explorer.md"

    encounter: str = Field(min_length=1, max_length=500)
    title: Label = None
    method: Method | None = None
    n: int = Field(default=ENCOUNTER_N, ge=1, le=10**9)
    seed: int = Field(default=1, ge=0, le=2**63 - 1)
    axes: list[EncounterAxisTable] = Field(min_length=1, max_length=MAX_AXES)


@dataclass(frozen=True, slots=True)
class Member:
    """One entry of a side's ``members`` list.

    Attributes:
        side: the side's name.
        number: its place in the side's list (1-based, as axes count).
        place: where it is in the file's data: the side's index and its own (0-based).
        table: the entry as a table (``{sheet = ..., count = ...}`` and its other keys).
        sheet: its sheet: data, source and text.
        label: what it is called (its ``name``, else its sheet's).
    """

    side: str
    number: int
    place: tuple[int, int]
    table: Mapping[str, Any]
    sheet: Base
    label: str


@dataclass(frozen=True, slots=True)
class EncounterSweep:
    """A checked encounter sweep.

    Attributes:
        path, text: the sweep file and its text (for the report).
        encounter: the encounter file: its data, path, text and name.
        where: the encounter file as the sweep names it (cells' messages start with it).
        base: the encounter file's folder.
        system: its rule system.
        sides: its sides' names, in the file's order.
        members: every entry of every side's members list, in the file's order.
        max_rounds: its round cap (a fight still going then is a draw).
        method: always ``monte-carlo``.
        n, seed: fights a cell, and the sweep's seed (each cell seeded from it).
        axes: the axes, the first varying slowest.
        title: the report's title.
    """

    path: Path
    text: str
    encounter: Base
    where: str
    base: Path
    system: str
    sides: tuple[str, ...]
    members: tuple[Member, ...]
    max_rounds: int
    method: Method
    n: int
    seed: int
    axes: tuple[Axis, ...]
    title: str

    @property
    def cell_count(self) -> int:
        return math.prod(len(axis.values) for axis in self.axes)

    @property
    def first(self) -> str:
        """Whose chance of winning the heatmap shows: the first side's."""
        return self.sides[0]

    @property
    def each(self) -> str:
        return f"{self.n:,} fights a cell"

    def member(self, side: str, number: int) -> Member:
        return next(m for m in self.members if (m.side, m.number) == (side, number))

    @property
    def sheets(self) -> tuple[Base, ...]:
        """Each member's sheet once, in the file's order (for the report)."""
        seen: dict[str, Base] = {}
        for member in self.members:
            seen.setdefault(member.sheet.source, member.sheet)
        return tuple(seen.values())


AnySweep = Sweep | EncounterSweep


def load_encounter_sweep(
    file: Path, data: Mapping[str, Any], *, text: str | None = None
) -> EncounterSweep:
    """Check an encounter sweep (``data``, read from ``file``; ``text``: its text, when
    there is no such file), its encounter file and every member's sheet.

    Raises:
        SheetError: the sweep file, a key of it or the encounter file is invalid; the
            message names the sweep file and the key.
    """
    where = str(file)
    for duel in ("a", "b"):
        if duel in data:
            raise SheetError(
                "a sweep names either an encounter or two sheets a and b, not both",
                path=where,
                key=duel,
                hint="leave out a and b: the encounter file names every combatant",
            )
    table = validate(EncounterSweepTable, data, where)
    axes = tuple(
        axis_of(axis, number, where, axis.member) for number, axis in enumerate(table.axes, 1)
    )
    check_axes(axes, where)
    if table.method == "exact":
        raise SheetError(
            "an encounter sweep has no exact odds: each cell's fights are simulated",
            path=where,
            key="method",
            hint='method = "monte-carlo" (with n and seed), or leave method out',
        )
    path = file.parent / table.encounter
    try:
        found = load_document(path)
        setup = encounter_from_data(
            found, str(path), base=path.resolve().parent, default_name=path.stem
        )
    except SheetError as error:
        raise SheetError(error.message, path=where, key="encounter", hint=error.hint) from None
    encounter = Base(found, str(path), path.read_text("utf-8"), setup.name)
    spec = validate(encounters.EncounterFile, found, str(path))
    folder = path.resolve().parent
    members = tuple(
        _member(entry, side.name, s, m, folder, setup.system, str(path))
        for s, side in enumerate(spec.sides)
        for m, entry in enumerate(side.members)
    )
    sweep = EncounterSweep(
        path=file,
        text=file.read_text("utf-8") if text is None else text,
        encounter=encounter,
        where=table.encounter,
        base=folder,
        system=setup.system.name,
        sides=tuple(side.name for side in spec.sides),
        members=members,
        max_rounds=setup.max_rounds,
        method="monte-carlo",
        n=table.n,
        seed=table.seed,
        axes=axes,
        title=table.title or setup.name,
    )
    for number, axis in enumerate(axes, 1):
        _check_axis(sweep, axis, number, where)
    return sweep


def _member(
    entry: str | MemberTable,
    side: str,
    s: int,
    m: int,
    folder: Path,
    system: registry.AnySystem,
    where: str,
) -> Member:
    """A member of the (checked) encounter file, as a table, with its sheet's data."""
    place = f"side {s + 1} ({quoted(side)}), member {m + 1}"
    if isinstance(entry, MemberTable):
        table = entry.model_dump(exclude_none=True)
    else:
        table = encounters._member_from_text(entry, where, place).model_dump(exclude_none=True)
    sheet = _sheet(table["sheet"], folder, system.name)
    label = table.get("name") or sheet.name
    return Member(side, m + 1, (s, m), table, sheet, label)


def _sheet(reference: str, folder: Path, system: str) -> Base:
    """A member's sheet as the encounter file names it: a file relative to it, or the
    bestiary's (both read before, by the encounter's own check)."""
    found = resolve_reference(reference, system, strict=True, base=folder)
    return as_base(found, reference, found.sheet().name)


def _check_axis(sweep: EncounterSweep, axis: Axis, number: int, where: str) -> None:
    """Refuse an axis over a side or member the encounter does not have, a key the
    member's sheet does not have, or values none of which makes a valid encounter."""
    at = f"axis {number} ({axis.column})"
    if axis.side not in sweep.sides:
        raise SheetError(
            f"the encounter has no side called {quoted(axis.side)}",
            path=where,
            key="side",
            at=f"{at}, key 'side'",
            hint="side is one of: " + ", ".join(quoted(side) for side in sweep.sides),
        )
    assert axis.member is not None
    listed = [m for m in sweep.members if m.side == axis.side]
    if axis.member > len(listed):
        entries = "one member" if len(listed) == 1 else f"{len(listed)} members"
        raise SheetError(
            f"side {quoted(axis.side)} lists {entries}, so it has no member {axis.member}",
            path=where,
            key="member",
            at=f"{at}, key 'member'",
            hint="member counts the entries of the side's members list from 1: "
            + ", ".join(f"{m.number} ({m.label})" for m in listed),
        )
    member = sweep.member(axis.side, axis.member)
    if axis.key != COUNT:
        check_key(axis, member.sheet, where)
        return
    first: AffrayError | None = None
    for value in axis.values:
        try:
            cell_setup(sweep, [(axis, value)])
        except AffrayError as error:
            first = first or error
            continue
        return
    assert first is not None
    raise SheetError(
        f"no value of this axis makes a valid encounter; with {value_text(axis.values[0])}: "
        + one_line(first),
        path=where,
        at=at,
        hint=f"a count is a whole number from 1; an encounter has at most {MAX_COMBATANTS} "
        "combatants",
    )


def cell_encounter(
    sweep: EncounterSweep, settings: Iterable[tuple[Axis, Any]]
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """A cell's encounter data, and the data of the sheets it names: the file's, with
    each axis's value set. Every member is a table naming its sheet by a reference
    whose data is in the sheets; a sheet a key was set on is named for it
    (``knight.json with skill = 3``), so that a message about it says so.

    Raises:
        SheetError: a dotted key digs into a value that is not a table.
    """
    settings = list(settings)
    data = copy.deepcopy(dict(sweep.encounter.data))
    if not data.get("name"):
        data["name"] = sweep.encounter.name  # the file's name, as `affray fight` calls it
    sheets: dict[str, dict[str, Any]] = {}
    for member in sweep.members:
        entry = copy.deepcopy(dict(member.table))
        sheet = dict(member.sheet.data)
        changed = []
        for axis, value in settings:
            if (axis.side, axis.member) != (member.side, member.number):
                continue
            if axis.key == COUNT:
                entry[COUNT] = copy.deepcopy(value)
            else:
                sheet = with_value(sheet, axis.key, value)
                changed.append(f"{axis.key} = {value_text(value)}")
        reference = str(entry["sheet"])
        if changed:
            reference = f"{reference} with {', '.join(changed)}"
            if reference in sheets and sheets[reference] != sheet:  # alike names, other values
                reference += f" (side {member.place[0] + 1}, member {member.number})"
        sheets[reference] = sheet
        entry["sheet"] = reference
        s, m = member.place
        data["sides"][s]["members"][m] = entry
    return data, sheets


def cell_setup(
    sweep: EncounterSweep, settings: Iterable[tuple[Axis, Any]]
) -> EncounterSetup[Any, Any]:
    """A cell's encounter, built and checked as a fight builds it.

    Raises:
        AffrayError: a value makes the encounter, or a member's sheet, invalid.
    """
    return cell_start(*cell_encounter(sweep, settings), sweep).setup()


def cell_start(
    data: Mapping[str, Any], sheets: Mapping[str, Mapping[str, Any]], sweep: EncounterSweep
) -> EncounterCell:
    """The fights of a cell's encounter (see :func:`cell_encounter`)."""
    return EncounterCell(canonical(data), canonical(sheets), str(sweep.base), sweep.where)


def resolved(data: Mapping[str, Any], sheets: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """A cell's encounter with each member's sheet written out in full: what sets its
    fights, whatever the files are called (its seed and its key in the cache)."""
    whole = copy.deepcopy(dict(data))
    for side in whole["sides"]:
        side["members"] = [{**entry, "sheet": sheets[entry["sheet"]]} for entry in side["members"]]
    return whole


def axis_title(sweep: EncounterSweep, axis: Axis) -> str:
    """``Goblin count (Goblins[1].count)``, ``Knight's skill (Party[2].skill)``."""
    if axis.label:
        return axis.label
    assert axis.member is not None
    label = sweep.member(axis.side, axis.member).label
    if axis.key == COUNT:
        return f"{label} count ({axis.column})"
    return f"{label}'s {axis.key} ({axis.column})"
