"""The results, row by row: the rows of results.csv (columns in docs/explorer.md).

One row per cell in grid order: one column per axis named ``SIDE.KEY`` (an
encounter sweep's: ``SIDE[MEMBER].KEY``), then ``p_a_wins, p_b_wins, p_draw,
mean_rounds, method, n`` (an encounter sweep's: ``p_wins:SIDE`` for each side in the
file's order, then ``p_draw, mean_rounds, method, n``), then ``ci95_low, ci95_high``
(Monte Carlo's 95 % interval for A, or the first side, winning), ``seed`` (which
repeats a simulated cell with ``affray duel A B -n N --seed SEED``, or ``affray
fight ENC -n N --seed SEED``), ``engine``, ``note`` and ``error`` (why a cell has no
odds: the validator's message for its sheet). Floats are written in full (Python's
shortest exact form), so two runs compare byte for byte.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from affray.explore.compute import Result
from affray.explore.encounter_sweep import AnySweep, EncounterSweep
from affray.explore.grid import Cell

RESULT_COLUMNS = ("p_a_wins", "p_b_wins", "p_draw", "mean_rounds", "method", "n")
EXTRA_COLUMNS = ("ci95_low", "ci95_high", "seed", "engine", "note", "error")


def chance_columns(sweep: AnySweep) -> list[str]:
    """The columns of who wins: ``p_a_wins, p_b_wins``, or ``p_wins:SIDE`` for each side."""
    if isinstance(sweep, EncounterSweep):
        return [f"p_wins:{side}" for side in sweep.sides]
    return list(RESULT_COLUMNS[:2])


def header(sweep: AnySweep) -> list[str]:
    return (
        [axis.column for axis in sweep.axes]
        + chance_columns(sweep)
        + list(RESULT_COLUMNS[2:] + EXTRA_COLUMNS)
    )


def row(sweep: AnySweep, cell: Cell, result: Result | None) -> list[str]:
    """One cell's row of text."""
    values = list(cell.labels)
    wins = len(chance_columns(sweep))
    if result is None:
        return [*values, *[""] * (wins + 2), sweep.method, *[""] * 6, cell.error or ""]
    chances: tuple[float | None, ...] = (result.p_a_wins, result.p_b_wins)
    if result.p_wins is not None:
        chances = result.p_wins
    if len(chances) != wins:  # an encounter's cell that has no odds (the rules refused it)
        chances = (None,) * wins
    return [
        *values,
        *(_number(chance) for chance in chances),
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


def csv_text(sweep: AnySweep, rows: Sequence[tuple[Cell, Result | None]]) -> str:
    """results.csv, whole."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header(sweep))
    for cell, result in rows:
        writer.writerow(row(sweep, cell, result))
    return out.getvalue()
