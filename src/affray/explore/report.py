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
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from jinja2 import Environment, PackageLoader, select_autoescape

from affray.answers import MAX_ROUNDS
from affray.explore.compute import Result
from affray.explore.encounter_sweep import AnySweep, EncounterSweep
from affray.explore.grid import Cell
from affray.explore.heatmap import (
    MAX_PANELS,
    Baseline,
    axis_title,
    even_cells,
    short_title,
)
from affray.explore.run import reasons

MAX_TABLE_ROWS = 5_000
"""Rows shown in the report's table; results.csv always has them all."""


MAX_NAMED = 4
"""Cells named in one finding (the rest are counted)."""


@dataclass(frozen=True, slots=True)
class _Scored:
    cell: Cell
    p: float
    low: float | None
    high: float | None
    n: int | None = None

    def holds(self, p: float) -> bool:
        """Whether ``p`` lies in this cell's 95 % interval (an exact cell's is its value)."""
        if self.low is None or self.high is None:
            return p == self.p
        return self.low <= p <= self.high


def findings(sweep: AnySweep, rows: Sequence[tuple[Cell, Result | None]]) -> list[str]:
    """What the grid says, in a few sentences: A's (the first side's) best and worst
    cells (or the cells that tie for them, within each other's 95 % intervals), the
    cells nearest an even fight, those that cannot be told from one, and how many
    cells have no odds."""
    scored = [
        _Scored(cell, result.p_first, result.ci95_low, result.ci95_high, result.n)
        for cell, result in rows
        if result is not None and result.p_first is not None
    ]
    lines: list[str] = []
    a = sweep.first
    encounter = isinstance(sweep, EncounterSweep)
    if scored:
        best = max(scored, key=lambda item: item.p)
        worst = min(scored, key=lambda item: item.p)
        lines.append(_extreme(sweep, scored, best, "best"))
        lines.append(_extreme(sweep, scored, worst, "worst"))
        fair = [item for item in scored if abs(item.p - 0.5) <= 0.1]
        fair.sort(key=lambda item: abs(item.p - 0.5))
        even = f"{a} winning half the fights" if encounter else "an even fight"
        if fair:
            near = "; ".join(f"{_where(sweep, item.cell)} ({_pct(item.p)})" for item in fair[:3])
            lines.append(f"Nearest {even}: {near}.")
        else:
            lines.append(f"No cell is within 10 points of {even}.")
        noisy = [item for item in scored if item.low is not None and item.holds(0.5)]
        if noisy:
            counts = {item.n for item in noisy}
            things = "fights" if encounter else "duels"
            by = f"{counts.pop():,} {things} a cell" if len(counts) == 1 else f"their {things}"
            lines.append(
                f"{_cells(len(noisy))} cannot be told from {even} by {by} (the 95 % "
                "interval holds 50 %; marked on the picture): " + _named(sweep, noisy) + "."
            )
        favoured = sum(1 for item in scored if item.p > 0.5)
        if isinstance(sweep, EncounterSweep):
            lines.append(
                f"{a} wins more than half the fights in {favoured:,} of {len(scored):,} cells."
            )
        else:
            lines.append(
                f"{a} is favoured in {favoured:,} of {len(scored):,} cells, {sweep.b.name} in "
                f"{sum(1 for item in scored if item.p < 0.5):,}."
            )
    invalid = sum(1 for cell, _ in rows if cell.error is not None)
    refused = sum(1 for _, result in rows if result is not None and result.error is not None)
    if invalid:
        what = "an invalid encounter" if encounter else "an invalid sheet"
        lines.append(f"{invalid:,} cells have {what} (listed below).")
    if refused:
        lines.append(f"{refused:,} cells could not be worked out (listed below).")
    return lines


def _extreme(sweep: AnySweep, scored: Sequence[_Scored], top: _Scored, word: str) -> str:
    """``Knight does best at …``; or, where other cells' intervals hold the top cell's
    chance (or its interval holds theirs), the cells that tie for it: simulation cannot
    say which of them is the best (a 49.9 % inside the interval of a 50.1 %)."""
    a = sweep.first
    tied = [top] + [
        item for item in scored if item is not top and (item.holds(top.p) or top.holds(item.p))
    ]
    if len(tied) == 1:
        return f"{a} does {word} at {_where(sweep, top.cell)}: {_pct(top.p)} to win."
    tied.sort(key=lambda item: -item.p if word == "best" else item.p)
    return (
        f"{a} does {word} at one of {len(tied):,} cells within each other's 95 % "
        f"intervals (no one of them is the {word}): {_named(sweep, tied)}."
    )


def _named(sweep: AnySweep, items: Sequence[_Scored]) -> str:
    named = "; ".join(f"{_where(sweep, item.cell)} ({_pct(item.p)})" for item in items[:MAX_NAMED])
    more = len(items) - MAX_NAMED
    return named + (f"; and {more:,} more" if more > 0 else "")


def _cells(count: int) -> str:
    return "1 cell" if count == 1 else f"{count:,} cells"


MAX_PROBLEM_CELLS = 12
"""Cells named under each reason for having no odds (the rest are counted)."""


def _grouped(rows: Sequence[tuple[Cell, Result | None]]) -> list[tuple[str, list[Cell], int]]:
    """Each reason cells have no odds, the first few cells it applies to, and how
    many there are in all; the commonest first."""
    return [(why, cells[:MAX_PROBLEM_CELLS], len(cells)) for why, cells in reasons(rows)]


def _where(sweep: AnySweep, cell: Cell) -> str:
    """``Knight's skill = 2, a.armor = plate mail``: each axis by its label (else its
    column) and the cell's value."""
    return ", ".join(
        f"{short_title(axis)} = {label}"
        for axis, label in zip(sweep.axes, cell.labels, strict=True)
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
    against: Baseline | None = None,
    difference: bytes | None = None,
) -> str:
    """The whole page (``cached``: how many cells an earlier run had worked out;
    ``against`` and ``difference``: the difference view's baseline and picture).

    ``seconds`` is the time the cells took, as the command line says it."""
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
        difference=base64.b64encode(difference).decode("ascii") if difference else None,
        against=shlex.quote(against.text(sweep)) if against is not None else None,
        against_words=against.words(sweep) if against is not None else None,
        line=len(sweep.axes) == 1,
        hatched=bool(even_cells(sweep, rows)),
        max_panels=MAX_PANELS,
        seconds=seconds,
        backend=backend,
        cached=cached,
        system_title=system(sweep.system).title,
        who_first=system(sweep.system).who_first.format(a=sweep.a.name)
        if not isinstance(sweep, EncounterSweep)
        else "",
        max_rounds=MAX_ROUNDS,
        made=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        version=version("affray"),
    )
