"""A sweep file: two base sheets, the axes to vary, and how to work out each cell.

```toml
a = "knight.json"          # sheet paths relative to the sweep file, or bestiary names
b = "ogre.toml"
method = "exact"           # or "monte-carlo" (n = 100000, seed = 1)
[[axes]]
side = "a"                 # "a", "b" or "both"
key = "skill"              # any sheet key; dotted for a key of an inline table
values = [0, 1, 2, 3]      # or: range = [0, 10] (inclusive), range = [0, 10, 2]
```

Loading reads and checks the whole file and both base sheets; every mistake is a
:class:`~affray.errors.SheetError` naming the sweep file and the key. A value that
makes a cell's sheet invalid is not a mistake of the sweep file: that cell is
reported with the sheet's own message (:mod:`affray.explore.grid`). A sweep file
that names ``encounter`` instead of ``a`` and ``b`` sweeps a whole encounter
(:mod:`affray.explore.encounter_sweep`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, Protocol

from pydantic import AfterValidator, Field, StringConstraints

from affray import registry
from affray.duels import method_for
from affray.errors import AffrayError, SheetError
from affray.explore.values import canonical, one_line, value_text, with_value
from affray.quoting import quoted
from affray.sheets import bestiary, sheet_from_data
from affray.sheets.combatants import (
    AmbiguousReferenceError,
    Reference,
    UnknownReferenceError,
    resolve_reference,
)
from affray.sheets.validation import Strict, plain_name, validate


class AxisFields(Protocol):
    """What an ``[[axes]]`` table gives, of a duel's sweep or an encounter's."""

    @property
    def side(self) -> str: ...
    @property
    def key(self) -> str: ...
    @property
    def values(self) -> Sequence[Any] | None: ...
    @property
    def range(self) -> Sequence[int | float] | None: ...
    @property
    def label(self) -> str | None: ...


MAX_CELLS = 100_000
"""The most cells one sweep may have (a 1,000-cell grid is already a big picture)."""
MAX_VALUES = 1_000
"""The most values one axis may take."""
MAX_AXES = 6

Side = Literal["a", "b", "both"]
Method = Literal["exact", "monte-carlo"]
Engine = Literal["fast", "reference"]

_KEY = r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$"
Scalar = int | float | str | bool


Key = Annotated[str, StringConstraints(min_length=1, max_length=100, pattern=_KEY)]
Values = Annotated[list[Scalar | dict[str, Any]] | None, Field(min_length=1, max_length=MAX_VALUES)]
Range = Annotated[list[int | float] | None, Field(min_length=2, max_length=3)]
Label = Annotated[str, Field(min_length=1, max_length=80), AfterValidator(plain_name)] | None


class AxisTable(Strict):
    """One ``[[axes]]`` table of a sweep file."""

    DOCS: ClassVar[str] = "docs/explorer.md"
    PLACE: ClassVar[str | None] = "axis"

    side: Side
    key: Key
    values: Values = None
    range: Range = None
    label: Label = None


class SweepTable(Strict):
    """The keys of a sweep file."""

    DOCS: ClassVar[str] = "docs/explorer.md"

    a: str = Field(min_length=1, max_length=500)
    b: str = Field(min_length=1, max_length=500)
    system: str | None = Field(default=None, min_length=1, max_length=40)
    title: (
        Annotated[str, Field(min_length=1, max_length=200), AfterValidator(plain_name)] | None
    ) = None
    method: Method | None = None
    n: int = Field(default=100_000, ge=1, le=10**9)
    seed: int = Field(default=1, ge=0, le=2**63 - 1)
    engine: Engine = "fast"
    axes: list[AxisTable] = Field(min_length=1, max_length=MAX_AXES)


@dataclass(frozen=True, slots=True)
class Axis:
    """One axis of a sweep: the key it sets on a side's sheet, and its values.

    Attributes:
        side: ``a``, ``b`` or ``both``; in an encounter sweep, a side's name.
        member: in an encounter sweep, which member of the side (1-based), else None.
    """

    side: str
    key: str
    values: tuple[Any, ...]
    label: str | None = None
    member: int | None = None

    @property
    def column(self) -> str:
        """Its column in results.csv: ``SIDE.KEY`` (``a.skill``), or in an encounter
        sweep ``SIDE[MEMBER].KEY`` (``Goblins[1].count``)."""
        return column(self.side, self.member, self.key)


def column(side: str, member: int | None, key: str) -> str:
    return f"{side}.{key}" if member is None else f"{side}[{member}].{key}"


@dataclass(frozen=True, slots=True)
class Base:
    """A base sheet: its parsed data, where it came from, and its text for the report."""

    data: Mapping[str, Any]
    source: str
    text: str
    name: str


@dataclass(frozen=True, slots=True)
class Sweep:
    """A checked sweep file.

    Attributes:
        path: the sweep file.
        text: its text, for the report.
        a, b: the base sheets.
        system: the name of their rule system.
        method: ``exact`` or ``monte-carlo`` (exact where the system has it, when the
            file does not say).
        n, seed, engine: the Monte Carlo settings (each cell seeded from ``seed``).
        axes: the axes, the first varying slowest.
        title: the report's title.
    """

    path: Path
    text: str
    a: Base
    b: Base
    system: str
    method: Method
    n: int
    seed: int
    engine: Engine
    axes: tuple[Axis, ...]
    title: str

    @property
    def cell_count(self) -> int:
        return math.prod(len(axis.values) for axis in self.axes)

    @property
    def first(self) -> str:
        """Whose chance of winning the heatmap shows: A's."""
        return self.a.name

    @property
    def each(self) -> str:
        """How each cell is worked out, for people: ``exact odds``, ``1,000 duels a cell``."""
        return "exact odds" if self.method == "exact" else f"{self.n:,} duels a cell"


def check_axes(axes: Sequence[Axis], where: str) -> None:
    """Refuse too many cells, and axes that overlap."""
    cells = math.prod(len(axis.values) for axis in axes)
    if cells > MAX_CELLS:
        raise SheetError(
            f"the axes make {cells:,} cells; the limit is {MAX_CELLS:,}",
            path=where,
            key="axes",
            hint="sweep fewer values, or split the sweep into several files",
        )
    _no_overlap(axes, where)


def _no_overlap(axes: Sequence[Axis], where: str) -> None:
    """Refuse two axes that set one key of one sheet, or a key and a key inside it (the
    later would silently undo the earlier)."""
    for number, axis in enumerate(axes):
        for other in axes[:number]:
            sides = {axis.side, other.side}
            shared = "both" in sides or (len(sides) == 1 and axis.member == other.member)
            nested = (
                axis.key == other.key
                or axis.key.startswith(other.key + ".")
                or other.key.startswith(axis.key + ".")
            )
            if shared and nested:
                raise SheetError(
                    f"two axes set the same key: {other.column} and {axis.column}",
                    path=where,
                    key="axes",
                    hint="give each key one axis, with all its values (an axis over a "
                    "table and one over a key inside it overlap too)",
                )


def _article(title: str) -> str:
    from affray.sheets.combatants import article

    return f"{article(title)} {title}"


def axis_of(table: AxisFields, number: int, where: str, member: int | None = None) -> Axis:
    """The axis of an ``[[axes]]`` table (the ``number``-th), its values checked."""
    at = f"axis {number} ({column(table.side, member, table.key)})"
    if (table.values is None) == (table.range is None):
        raise SheetError(
            "give either values or range",
            path=where,
            at=at,
            hint="values = [0, 1, 2] lists them; range = [0, 10] or [0, 10, 2] counts them "
            "(both ends included)",
        )
    if table.values is not None:
        values: tuple[Any, ...] = tuple(table.values)
    else:
        assert table.range is not None
        values = _range(table.range, where, at)
    forms = [canonical(v) for v in values]
    doubles = sorted(
        {value_text(v) for v, f in zip(values, forms, strict=True) if forms.count(f) > 1}
    )
    if doubles:
        raise SheetError(
            f"a value is listed twice: {', '.join(doubles)}",
            path=where,
            at=at,
            hint="list each value once",
        )
    labels = [value_text(v) for v in values]
    alike = sorted({label for label in labels if labels.count(label) > 1})
    if alike:  # two tables of one name: results.csv could not tell them apart
        raise SheetError(
            f"two values are both called {', '.join(alike)}",
            path=where,
            at=at,
            hint="give each inline table a name of its own",
        )
    return Axis(table.side, table.key, values, table.label, member)


def _range(bounds: Sequence[int | float], where: str, at: str) -> tuple[Any, ...]:
    start, stop = bounds[0], bounds[1]
    step = bounds[2] if len(bounds) == 3 else 1
    tip = "range = [FIRST, LAST] or [FIRST, LAST, STEP]: both ends included, STEP above 0"
    if not all(math.isfinite(x) for x in (start, stop, step)) or step <= 0 or stop < start:
        raise SheetError(f"range {list(bounds)} counts no values", path=where, at=at, hint=tip)
    steps = (stop - start) / step
    if not math.isfinite(steps) or steps >= MAX_VALUES:
        raise SheetError(
            f"range {list(bounds)} has more than {MAX_VALUES:,} values, the limit",
            path=where,
            at=at,
            hint="take a larger step",
        )
    count = math.floor(steps + 1e-9) + 1
    if all(isinstance(x, int) for x in (start, stop, step)):
        return tuple(int(start) + i * int(step) for i in range(count))
    # floats: round away the drift of repeated addition (0.1 + 0.2 ...)
    return tuple(round(start + i * step, 10) for i in range(count))


def _base(reference: str, side: str, file: Path, where: str, system: str | None) -> Base:
    """A base sheet: a file relative to the sweep file, or a bestiary name."""
    try:
        found = resolve_reference(reference, system, base=file.parent)
        sheet = found.sheet()
    except UnknownReferenceError:
        systems = [system] if system is not None else registry.systems()
        known = sorted({n for name in systems for n in bestiary.names(name)})
        raise SheetError(
            f"no sheet file or bestiary creature called {quoted(reference)}",
            path=where,
            key=side,
            hint="give a .toml/.json path relative to the sweep file, or one of: "
            + ", ".join(known),
        ) from None
    except AmbiguousReferenceError as error:
        raise SheetError(
            f"{quoted(reference)} is in the bestiary of " + " and ".join(error.owners),
            path=where,
            key=side,
            hint=f'say which with system = "{error.owners[0]}"',
        ) from None
    except SheetError as error:
        raise SheetError(error.message, path=where, key=side, hint=error.hint) from None
    return as_base(found, reference, sheet.name)


def as_base(found: Reference, reference: str, name: str) -> Base:
    """A resolved sheet reference as the explorer keeps it: its data, a label (the
    file, or ``catalog NAME``, as results and the resume cache have always named it),
    its text (what the cache keys on) and its name."""
    if found.path is not None:
        return Base(found.data, str(found.path), found.path.read_text("utf-8"), name)
    label = f"catalog {reference}"
    return Base(found.data, label, found.text or "", name)


def check_key(axis: Axis, base: Base, where: str) -> None:
    """Refuse an axis whose key the sheet does not have, or none of whose values the
    base sheet takes (every cell would be invalid); a cell some values spoil is only
    reported."""
    at = f"axis {axis.column}"
    first: SheetError | None = None
    for value in axis.values:
        try:
            sheet_from_data(with_value(base.data, axis.key, value), f"{base.name}'s sheet")
        except SheetError as error:
            if error.key is not None and error.unknown:
                raise SheetError(
                    f"{base.name}'s sheet has no key {quoted(axis.key)}",
                    path=where,
                    at=at,
                    hint=error.hint,
                ) from None
            first = first or error
            continue
        return
    assert first is not None
    raise SheetError(
        f"no value of this axis makes a valid sheet; with {value_text(axis.values[0])}: "
        + one_line(first),
        path=where,
        at=at,
        hint="change the values, or the base sheet (docs/sheets.md lists every key)",
    )


def load_duel_sweep(file: Path, data: Mapping[str, Any]) -> Sweep:
    """A duel's sweep file, read (``data``) and checked with its base sheets.

    Raises:
        SheetError: a key of it or a base sheet is invalid; the message names the file
            and the key, the tip how to fix it.
    """
    where = str(file)
    table = validate(SweepTable, data, where)
    axes = tuple(axis_of(axis, number, where) for number, axis in enumerate(table.axes, 1))
    check_axes(axes, where)
    if table.system is not None and table.system not in registry.systems():
        raise SheetError(
            f"unknown system {quoted(table.system)}",
            path=where,
            key="system",
            hint="system is one of: " + ", ".join(f'"{n}"' for n in registry.systems()),
        )
    a = _base(table.a, "a", file, where, table.system)
    b = _base(table.b, "b", file, where, table.system)
    system = registry.system_of(sheet_from_data(a.data, a.source))
    if not system.owns(sheet_from_data(b.data, b.source)):
        raise SheetError(
            f"a is {_article(system.title)} sheet but b is not",
            path=where,
            key="b",
            hint="a duel needs two sheets of one rule system",
        )
    if table.system is not None and table.system != system.name:
        raise SheetError(
            f'the sheets are {system.name} sheets, not "{table.system}"',
            path=where,
            key="system",
            hint=f'system = "{system.name}", or leave it out',
        )
    try:
        method: Method = method_for(system, table.method)
    except AffrayError as error:
        raise SheetError(
            error.message, path=where, key="method", hint='method = "monte-carlo" (with n and seed)'
        ) from None
    for axis in axes:
        check_key(axis, a if axis.side != "b" else b, where)
        if axis.side == "both":
            check_key(axis, b, where)
    return Sweep(
        path=file,
        text=file.read_text("utf-8"),
        a=a,
        b=b,
        system=system.name,
        method=method,
        n=table.n,
        seed=table.seed,
        engine=table.engine,
        axes=axes,
        title=table.title or f"{a.name} vs {b.name}",
    )
