"""report.html: one self-contained page a designer can mail.

It holds the heatmap (inline, as a data URL), what the grid says in a few lines,
the table of every cell, the cells with no odds and why, both base sheets (an
encounter sweep's: the encounter file and its members' sheets) and the sweep file.
No script, no stylesheet or picture from elsewhere: it opens the same from a mail,
offline.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Sequence
from datetime import UTC, datetime

from jinja2 import Environment, PackageLoader, select_autoescape

from affray.explore.compute import Result
from affray.explore.encounter_sweep import AnySweep, EncounterSweep
from affray.explore.grid import Cell
from affray.explore.heatmap import MAX_PANELS, axis_title
from affray.explore.run import reasons

MAX_TABLE_ROWS = 5_000
"""Rows shown in the report's table; results.csv always has them all."""


def findings(sweep: AnySweep, rows: Sequence[tuple[Cell, Result | None]]) -> list[str]:
    """What the grid says, in a few sentences: A's (the first side's) best and worst
    cells, the cells nearest an even fight, and how many cells have no odds."""
    scored = [
        (cell, result.p_first)
        for cell, result in rows
        if result is not None and result.p_first is not None
    ]
    lines: list[str] = []
    a = sweep.first
    encounter = isinstance(sweep, EncounterSweep)
    if scored:
        best = max(scored, key=lambda item: item[1])
        worst = min(scored, key=lambda item: item[1])
        lines.append(f"{a} does best at {_where(sweep, best[0])}: {_pct(best[1])} to win.")
        lines.append(f"{a} does worst at {_where(sweep, worst[0])}: {_pct(worst[1])} to win.")
        fair = [item for item in scored if abs(item[1] - 0.5) <= 0.1]
        fair.sort(key=lambda item: abs(item[1] - 0.5))
        even = f"{a} winning half the fights" if encounter else "an even fight"
        if fair:
            near = "; ".join(f"{_where(sweep, cell)} ({_pct(p)})" for cell, p in fair[:3])
            lines.append(f"Nearest {even}: {near}.")
        else:
            lines.append(f"No cell is within 10 points of {even}.")
        favoured = sum(1 for _, p in scored if p > 0.5)
        if isinstance(sweep, EncounterSweep):
            lines.append(
                f"{a} wins more than half the fights in {favoured:,} of {len(scored):,} cells."
            )
        else:
            lines.append(
                f"{a} is favoured in {favoured:,} of {len(scored):,} cells, {sweep.b.name} in "
                f"{sum(1 for _, p in scored if p < 0.5):,}."
            )
    invalid = sum(1 for cell, _ in rows if cell.error is not None)
    refused = sum(1 for _, result in rows if result is not None and result.error is not None)
    if invalid:
        what = "an invalid encounter" if encounter else "an invalid sheet"
        lines.append(f"{invalid:,} cells have {what} (listed below).")
    if refused:
        lines.append(f"{refused:,} cells could not be worked out (listed below).")
    return lines


MAX_PROBLEM_CELLS = 12
"""Cells named under each reason for having no odds (the rest are counted)."""


def _grouped(rows: Sequence[tuple[Cell, Result | None]]) -> list[tuple[str, list[Cell], int]]:
    """Each reason cells have no odds, the first few cells it applies to, and how
    many there are in all; the commonest first."""
    return [(why, cells[:MAX_PROBLEM_CELLS], len(cells)) for why, cells in reasons(rows)]


def _where(sweep: AnySweep, cell: Cell) -> str:
    return ", ".join(
        f"{axis.column} = {label}" for axis, label in zip(sweep.axes, cell.labels, strict=True)
    )


def _pct(value: float | None) -> str:
    if value is None or math.isnan(value):
        return ""
    return f"{value * 100:.1f}%"


def _shade(value: float | None) -> str:
    """A cell's background: the heatmap's colours, faded so the text reads."""
    if value is None:
        return "#eeeeee"
    red, blue = (0xD6, 0x60, 0x4D), (0x43, 0x93, 0xC3)
    far = min(1.0, abs(value - 0.5) * 2) * 0.6
    tone = blue if value > 0.5 else red
    mixed = [round(255 + (c - 255) * far) for c in tone]
    return "#{:02x}{:02x}{:02x}".format(*mixed)


def report_html(
    sweep: AnySweep,
    rows: Sequence[tuple[Cell, Result | None]],
    png: bytes | None,
    *,
    seconds: float,
    backend: str,
    cached: int = 0,
) -> str:
    """The whole page (``cached``: how many cells an earlier run had worked out)."""
    from importlib.metadata import version

    from affray.registry import system

    pages = Environment(
        loader=PackageLoader("affray.explore", "templates"),
        autoescape=select_autoescape(["html"]),
    )
    pages.filters["pct"] = _pct
    pages.filters["shade"] = _shade
    shown = list(rows[:MAX_TABLE_ROWS])
    problems = _grouped(rows)
    notes = sorted({result.note for _, result in rows if result is not None and result.note})
    return pages.get_template("report.html").render(
        sweep=sweep,
        encounter=isinstance(sweep, EncounterSweep),
        whose=sweep.sides if isinstance(sweep, EncounterSweep) else (sweep.a.name, sweep.b.name),
        axis_titles=[axis_title(sweep, axis) for axis in sweep.axes],
        rows=shown,
        total=len(rows),
        more=len(rows) - len(shown),
        problems=problems,
        where=lambda cell: _where(sweep, cell),
        notes=notes,
        findings=findings(sweep, rows),
        image=base64.b64encode(png).decode("ascii") if png is not None else None,
        max_panels=MAX_PANELS,
        seconds=seconds,
        backend=backend,
        cached=cached,
        system_title=system(sweep.system).title,
        made=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        version=version("affray"),
    )
