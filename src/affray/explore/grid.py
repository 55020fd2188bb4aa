"""The cells of a sweep: every combination of the axes' values, each a pair of sheets
(or an encounter).

A cell's sheets are the base sheets with its values set (an encounter sweep's cell:
the encounter file's, with its members' counts and sheets set). A cell whose sheet the
rule system refuses is kept, with the validator's message, so that the results
show it rather than the run stopping. Each cell has a key (a digest of its two
sheets and how it is worked out) for the resume cache, and a seed of its own for
Monte Carlo, from the sweep's seed and its sheets: the same cell gets the same
result whoever computes it, whatever else is in the sweep.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from affray.errors import AffrayError, SheetError
from affray.explore.encounter_sweep import (
    AnySweep,
    EncounterSweep,
    cell_encounter,
    cell_start,
    resolved,
)
from affray.explore.fight_cell import FightJob
from affray.explore.sweep import Base, Engine, Method, Sweep
from affray.explore.values import canonical, one_line, value_text, with_value
from affray.sheets import sheet_from_data

CACHE_FORMAT = 1
"""Bumped when a cell's result would be worked out differently (keys change with it)."""


@dataclass(frozen=True, slots=True)
class Job:
    """What a worker needs to work out one cell: plain data, cheap to send."""

    key: str
    a: Mapping[str, Any]
    b: Mapping[str, Any]
    method: Method
    n: int
    seed: int
    engine: Engine


AnyJob = Job | FightJob
"""A duel's cell or an encounter's."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell: its place in the grid, its values, and its job or why it has none.

    Attributes:
        index: its place, the first axis varying slowest.
        values: one value per axis.
        job: the work, or None when a sheet is invalid.
        error: the validator's message for an invalid sheet, else None.
    """

    index: int
    values: tuple[Any, ...]
    job: AnyJob | None
    error: str | None = None

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(value_text(v) for v in self.values)


def cells(sweep: AnySweep) -> Iterator[Cell]:
    """Every cell of the sweep, in order (the first axis varying slowest)."""
    if isinstance(sweep, EncounterSweep):
        yield from _encounter_cells(sweep)
        return
    for index, values in enumerate(itertools.product(*(axis.values for axis in sweep.axes))):
        a, b = dict(sweep.a.data), dict(sweep.b.data)
        try:
            for axis, value in zip(sweep.axes, values, strict=True):
                if axis.side in ("a", "both"):
                    a = with_value(a, axis.key, value)
                if axis.side in ("b", "both"):
                    b = with_value(b, axis.key, value)
        except SheetError as clash:  # a value set a table to a name another key digs into
            yield Cell(index, values, None, one_line(clash))
            continue
        error = _problem(a, sweep.a, "a") or _problem(b, sweep.b, "b")
        if error is not None:
            yield Cell(index, values, None, error)
            continue
        key = cell_key(a, b, sweep)
        job = Job(key, a, b, sweep.method, sweep.n, cell_seed(sweep.seed, a, b), sweep.engine)
        yield Cell(index, values, job)


def _encounter_cells(sweep: EncounterSweep) -> Iterator[Cell]:
    """An encounter sweep's cells: each its encounter, built and checked here (a cell a
    value spoils keeps the validator's message), seeded and keyed by its encounter
    with every sheet written out."""
    for index, values in enumerate(itertools.product(*(axis.values for axis in sweep.axes))):
        try:
            data, sheets = cell_encounter(sweep, zip(sweep.axes, values, strict=True))
            start = cell_start(data, sheets, sweep)
            start.setup()
        except AffrayError as error:
            yield Cell(index, values, None, one_line(error))
            continue
        whole = resolved(data, sheets)
        key = _digest((CACHE_FORMAT, _version(), "encounter", whole, sweep.n, sweep.seed))
        seed = cell_seed(sweep.seed, whole)
        yield Cell(index, values, FightJob(key, start, sweep.sides, sweep.n, seed))


def _problem(data: Mapping[str, Any], base: Base, side: str) -> str | None:
    try:
        sheet_from_data(data, f"{side} ({base.name})")
    except SheetError as error:
        return one_line(error)
    return None


def cell_seed(seed: int, *sheets: Mapping[str, Any]) -> int:
    """A cell's Monte Carlo seed: from the sweep's seed and the cell's two sheets (or
    its encounter, every sheet written out), so ``affray duel A B -n N --seed SEED``
    (``affray fight ENC -n N --seed SEED``) repeats the cell exactly."""
    digest = hashlib.sha256(canonical(("seed", seed, *sheets)).encode()).digest()
    return int.from_bytes(digest[:4], "big")


@functools.cache
def _version() -> str:
    from importlib.metadata import version

    return version("affray")


def cell_key(a: Mapping[str, Any], b: Mapping[str, Any], sweep: Sweep) -> str:
    """The cell's key in the resume cache: its sheets and everything that sets its
    result (method, n, seed, engine), so a changed sweep never reuses a stale cell."""
    return cell_key_of(a, b, sweep.method, sweep.n, sweep.seed, sweep.engine)


def cell_key_of(
    a: Mapping[str, Any], b: Mapping[str, Any], method: str, n: int, seed: int, engine: str
) -> str:
    """A duel's key: its sheets, and how its odds are worked out."""
    return _digest((CACHE_FORMAT, _version(), a, b, method, n, seed, engine))


def _digest(parts: tuple[Any, ...]) -> str:
    return hashlib.sha256(canonical(parts).encode()).hexdigest()[:32]
