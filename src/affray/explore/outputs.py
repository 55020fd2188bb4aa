"""Writing a finished sweep's files: results.csv, heatmap.png and report.html.

Each file is written whole to a temporary name and then renamed, so an
interrupted write never leaves half a file where a finished one was.
"""

from __future__ import annotations

import os
from pathlib import Path

from affray.errors import AffrayError
from affray.explore.encounter_sweep import AnySweep
from affray.explore.heatmap import heatmap_png
from affray.explore.report import report_html
from affray.explore.run import Outcome
from affray.explore.table import csv_text

RESULTS = "results.csv"
HEATMAP = "heatmap.png"
REPORT = "report.html"


def write_outputs(sweep: AnySweep, outcome: Outcome, out: Path) -> list[Path]:
    """Write the sweep's files into ``out`` (made if need be); the paths written, in order."""
    prepare(out)
    written = [_write(out / RESULTS, csv_text(sweep, outcome.rows).encode("utf-8"))]
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
