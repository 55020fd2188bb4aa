"""The results as a table: the rows of results.csv (columns in SPEC.md, then ours).

One row per cell in grid order: one column per axis named ``SIDE.KEY``, then
``p_a_wins, p_b_wins, p_draw, mean_rounds, method, n``, then ``ci95_low,
ci95_high`` (Monte Carlo's 95 % interval for A winning), ``seed`` (which repeats a
simulated cell with ``affray duel A B -n N --seed SEED``), ``engine``, ``note``
and ``error`` (why a cell has no odds: the validator's message for its sheet).
Floats are written in full (Python's shortest exact form), so two runs compare
byte for byte.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from affray.explore.compute import Result
from affray.explore.grid import Cell
from affray.explore.sweep import Sweep

RESULT_COLUMNS = ("p_a_wins", "p_b_wins", "p_draw", "mean_rounds", "method", "n")
EXTRA_COLUMNS = ("ci95_low", "ci95_high", "seed", "engine", "note", "error")


def header(sweep: Sweep) -> list[str]:
    return [axis.column for axis in sweep.axes] + list(RESULT_COLUMNS + EXTRA_COLUMNS)


def row(sweep: Sweep, cell: Cell, result: Result | None) -> list[str]:
    """One cell's row of text."""
    values = list(cell.labels)
    if result is None:
        return [*values, "", "", "", "", sweep.method, "", "", "", "", "", "", cell.error or ""]
    return [
        *values,
        _number(result.p_a_wins),
        _number(result.p_b_wins),
        _number(result.p_draw),
        _number(result.mean_rounds),
        result.method,
        _number(result.n),
        _number(result.ci95_low),
        _number(result.ci95_high),
        _number(result.seed),
        result.engine or "",
        result.note or "",
        result.error or "",
    ]


def _number(value: float | int | None) -> str:
    return "" if value is None else repr(value)


def csv_text(sweep: Sweep, rows: Sequence[tuple[Cell, Result | None]]) -> str:
    """results.csv, whole."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header(sweep))
    for cell, result in rows:
        writer.writerow(row(sweep, cell, result))
    return out.getvalue()
