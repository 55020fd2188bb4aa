"""Writing a finished sweep's files: results.csv, heatmap.png and report.html.

Each file is written whole to a temporary name and then renamed, so an
interrupted write never leaves half a file where a finished one was.

A text cell of results.csv that a spreadsheet would read as a formula (it starts
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return: a name such as
``=HYPERLINK(…)``) is written with a single quote before it, as OWASP's advice on
CSV injection says; numbers (``-2``, ``0.25``, ``1e-05``) are written as they are.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Sequence
from pathlib import Path

from affray.errors import AffrayError
from affray.explore.compute import Result
from affray.explore.encounter_sweep import AnySweep
from affray.explore.grid import Cell
from affray.explore.heatmap import heatmap_png
from affray.explore.report import report_html
from affray.explore.rows import header, row
from affray.explore.run import Outcome

RESULTS = "results.csv"
HEATMAP = "heatmap.png"
REPORT = "report.html"


def write_outputs(sweep: AnySweep, outcome: Outcome, out: Path) -> list[Path]:
    """Write the sweep's files into ``out`` (made if need be); the paths written, in order."""
    prepare(out)
    written = [_write(out / RESULTS, results_csv(sweep, outcome.rows).encode("utf-8"))]
    png = heatmap_png(sweep, outcome.rows)
    if png is not None:
        written.append(_write(out / HEATMAP, png))
    else:
        (out / HEATMAP).unlink(missing_ok=True)  # an old one would not match the results
    page = report_html(
        sweep,
        outcome.rows,
        png,
        seconds=outcome.seconds,
        backend=outcome.backend,
        cached=outcome.cached,
    )
    written.append(_write(out / REPORT, page.encode("utf-8")))
    return written


def results_csv(sweep: AnySweep, rows: Sequence[tuple[Cell, Result | None]]) -> str:
    """results.csv, whole (:func:`affray.explore.rows.csv_text`), with every text cell
    that a spreadsheet would run as a formula made text (:func:`inert`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([inert(cell) for cell in header(sweep)])
    for cell, result in rows:
        writer.writerow([inert(value) for value in row(sweep, cell, result)])
    return out.getvalue()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection")."""
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def inert(value: str) -> str:
    """A cell's text, a single quote before it if it is text that starts like a
    formula (``=HYPERLINK(…)``, ``+1+1``, ``@SUM(A1)``, ``-2+3``); a number
    (``-2``, ``1e-05``) as it is."""
    if value.startswith(FORMULA_STARTS) and _NUMBER.fullmatch(value) is None:
        return "'" + value
    return value


def prepare(out: Path) -> None:
    """Make the output folder, or say plainly why it cannot be."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise AffrayError(
            f"cannot make the output folder {out}: {error.strerror}",
            hint="choose another folder with --out DIR",
        ) from None
    if not os.access(out, os.W_OK):
        raise AffrayError(f"cannot write into {out}", hint="choose another folder with --out DIR")


def _write(path: Path, data: bytes) -> Path:
    part = path.with_name(path.name + ".part")
    try:
        part.write_bytes(data)
        os.replace(part, path)
    except OSError as error:
        raise AffrayError(
            f"cannot write {path}: {error.strerror}", hint="choose another folder with --out DIR"
        ) from None
    return path
