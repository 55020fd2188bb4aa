"""The heatmap: A's chance of winning (an encounter's: its first side's) over the
first two axes, as a PNG.

Rows are the first axis, columns the second (one axis: a single row). More axes
become small multiples, one panel per combination of their values. The colour
scale diverges from 50 % (an even fight, white) to blue where A wins and red where
B wins, and the 50 % line is drawn where the grid crosses it. Cells with no odds
(an invalid sheet) are grey and crossed.
"""

from __future__ import annotations

import io
import itertools
import math
import textwrap
from collections.abc import Sequence
from typing import Any

import numpy as np

from affray.explore.compute import Result
from affray.explore.encounter_sweep import AnySweep, EncounterSweep
from affray.explore.encounter_sweep import axis_title as member_axis_title
from affray.explore.grid import Cell
from affray.explore.sweep import Axis, value_text

MAX_PANELS = 100
"""More panels than this make no readable picture; the report then says so."""
ANNOTATE_UP_TO = 16
"""Cells are labelled with their percentage when a panel is at most this wide and tall."""
TICKS_UP_TO = 40
"""An axis of more values than this labels every n-th of them (and sizes the panel as
if it had this many): a 1,000-value axis still makes a picture of a few inches."""
MAX_INCHES = 40.0
"""The picture's largest side, in inches (4,400 pixels at its 110 dots an inch)."""


def panel_count(sweep: AnySweep) -> int:
    return math.prod(len(axis.values) for axis in sweep.axes[2:])


def chances(sweep: AnySweep, rows: Sequence[tuple[Cell, Result | None]]) -> np.ndarray:
    """A's (the first side's) chance of winning in an array of the grid's shape (NaN
    without odds)."""
    values = np.full(len(rows), np.nan)
    for cell, result in rows:
        if result is not None and result.p_first is not None:
            values[cell.index] = result.p_first
    return values.reshape([len(axis.values) for axis in sweep.axes])


def axis_title(sweep: AnySweep, axis: Axis) -> str:
    """``Knight's skill (a.skill)``: whose key, in the designer's words."""
    if isinstance(sweep, EncounterSweep):
        return member_axis_title(sweep, axis)
    if axis.label:
        return axis.label
    if axis.side == "both":
        return f"{axis.key} of both ({axis.column})"
    whose = sweep.a.name if axis.side == "a" else sweep.b.name
    return f"{whose}'s {axis.key} ({axis.column})"


def heatmap_png(sweep: AnySweep, rows: Sequence[tuple[Cell, Result | None]]) -> bytes | None:
    """The heatmap as PNG bytes, or None when it would have more than
    :data:`MAX_PANELS` panels."""
    panels = panel_count(sweep)
    if panels > MAX_PANELS:
        return None
    from affray.plots import pyplot

    plt = pyplot()
    from matplotlib.colors import Normalize

    grid = chances(sweep, rows)
    if grid.ndim == 1:
        grid = grid[np.newaxis, :]
    height, width = grid.shape[0], grid.shape[1]
    panel_grid = grid.reshape(height, width, panels)
    columns = _columns(sweep, panels)
    lines = math.ceil(panels / columns)
    cell_w = max(3.2, 0.55 * min(width, TICKS_UP_TO) + 1.6)
    cell_h = max(2.4, 0.42 * min(height, TICKS_UP_TO) + 1.4)
    scale = min(1.0, MAX_INCHES / (cell_w * columns + 1.2), MAX_INCHES / (cell_h * lines + 0.9))
    figure, axes = plt.subplots(
        lines,
        columns,
        figsize=((cell_w * columns + 1.2) * scale, (cell_h * lines + 0.9) * scale),
        squeeze=False,
        constrained_layout=True,
    )
    cmap = plt.get_cmap("RdBu").with_extremes(bad="#d9d9d9")
    norm = Normalize(vmin=0.0, vmax=1.0)
    extra = sweep.axes[2:]
    captions = list(itertools.product(*(axis.values for axis in extra))) or [()]
    image = None
    for number, caption in enumerate(captions):
        ax = axes[number // columns][number % columns]
        values = panel_grid[:, :, number]
        image = ax.imshow(
            np.ma.masked_invalid(values), cmap=cmap, norm=norm, aspect="auto", origin="lower"
        )
        _ticks(ax, sweep, width, height)
        _contour(ax, values)
        if width <= ANNOTATE_UP_TO and height <= ANNOTATE_UP_TO:
            _annotate(ax, values)
        if extra:
            ax.set_title(
                ", ".join(
                    f"{a.column} = {value_text(v)}" for a, v in zip(extra, caption, strict=True)
                ),
                fontsize=9,
            )
    for number in range(len(captions), lines * columns):
        axes[number // columns][number % columns].set_visible(False)
    assert image is not None
    bar = figure.colorbar(image, ax=axes, shrink=0.85, format=_percent_formatter())
    bar.set_label(f"chance {sweep.first} wins")
    title = f"{sweep.title} — chance {sweep.first} wins ({sweep.each})"
    wide = figure.get_figwidth() * 10.5  # characters of the title's font an inch holds
    figure.suptitle(textwrap.fill(title, width=max(30, int(wide))))
    out = io.BytesIO()
    try:
        figure.savefig(out, format="png", dpi=110)
    finally:
        plt.close(figure)
    return out.getvalue()


def _columns(sweep: AnySweep, panels: int) -> int:
    """Panels a line: a third axis in one line (up to 6 values, else wrapped squarely);
    a third and a fourth as a grid, the third down and the fourth across; more, wrapped
    squarely in the grid's order."""
    extra = sweep.axes[2:]
    if len(extra) == 2:
        return len(extra[1].values)
    if len(extra) == 1 and panels <= 6:
        return panels
    return min(panels, max(1, math.ceil(math.sqrt(panels))))


def _ticks(ax: Any, sweep: AnySweep, width: int, height: int) -> None:
    first = sweep.axes[0]
    across = sweep.axes[1] if len(sweep.axes) > 1 else first
    if len(sweep.axes) == 1:
        ax.set_yticks([])
    else:
        rows = _every(height)
        ax.set_yticks(rows, [value_text(first.values[i]) for i in rows], fontsize=8)
        ax.set_ylabel(axis_title(sweep, first), fontsize=9)
    places = _every(width)
    labels = [value_text(across.values[i]) for i in places]
    turn = 35 if sum(len(t) for t in labels) > 6 * len(places) else 0
    ax.set_xticks(places, labels, fontsize=8, rotation=turn, ha="right" if turn else "center")
    ax.set_xlabel(axis_title(sweep, across), fontsize=9)


def _every(count: int) -> list[int]:
    """The places of the labels on an axis of ``count`` values: all of them, or every
    n-th of them past :data:`TICKS_UP_TO`."""
    step = max(1, math.ceil(count / TICKS_UP_TO))
    return list(range(0, count, step))


def _contour(ax: Any, values: np.ndarray) -> None:
    """The 50 % line, where the panel has odds on both sides of it."""
    finite = values[np.isfinite(values)]
    if values.shape[0] < 2 or values.shape[1] < 2 or finite.size == 0:
        return
    if not (finite.min() < 0.5 < finite.max()):
        return
    ax.contour(
        np.ma.masked_invalid(values),
        levels=[0.5],
        colors="black",
        linewidths=1.6,
        linestyles="dashed",
    )


def _annotate(ax: Any, values: np.ndarray) -> None:
    for (row, column), value in np.ndenumerate(values):
        if math.isnan(value):
            ax.text(column, row, "×", ha="center", va="center", fontsize=9, color="#555555")
            continue
        dark = abs(value - 0.5) > 0.3
        ax.text(
            column,
            row,
            _short_percent(value),
            ha="center",
            va="center",
            fontsize=7,
            color="white" if dark else "black",
        )


def _short_percent(value: float) -> str:
    shown = value * 100
    if 0 < shown < 1:
        return "<1%"
    if 99 < shown < 100:
        return ">99%"
    return f"{shown:.0f}%"


def _percent_formatter() -> Any:
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(xmax=1.0)
