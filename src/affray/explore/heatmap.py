"""The heatmap: A's chance of winning (an encounter's: its first side's) over the
first two axes, as a PNG; and the difference view, each cell minus a baseline.

Rows are the first axis, columns the second. More axes become small multiples, one
panel per combination of their values, wrapped so that the figure fits the report's
width where it can. One axis is drawn as a line with its 95 % intervals, not as a
heatmap one cell tall. The colour scale diverges from 50 % (an even fight, white)
to blue where A wins and red where B wins. The 50 % line is drawn only where an
axis is numeric (a line between "leather" and "chain mail" would mean nothing), and
under the cells' labels. Cells whose 95 % interval holds 50 % (they cannot be told
from an even fight) are hatched. Cells with no odds (an invalid sheet) are grey and
crossed.
"""

from __future__ import annotations

import io
import itertools
import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from affray.errors import AffrayError
from affray.explore.compute import Result
from affray.explore.encounter_sweep import AnySweep, EncounterSweep
from affray.explore.encounter_sweep import axis_title as member_axis_title
from affray.explore.grid import Cell
from affray.explore.sweep import Axis
from affray.explore.values import value_text

MAX_PANELS = 100
"""More panels than this make no readable picture; the report then says so."""
ANNOTATE_UP_TO = 16
"""Cells are labelled with their percentage when a panel is at most this wide and tall."""
TICKS_UP_TO = 40
"""An axis of more values than this labels every n-th of them (and sizes the panel as
if it had this many): a 1,000-value axis still makes a picture of a few inches."""
MAX_INCHES = 40.0
"""The picture's largest side, in inches (4,400 pixels at its 110 dots an inch)."""
DPI = 110
REPORT_INCHES = 10.4
"""The report's width (about 1,150 pixels at :data:`DPI`): small multiples wrap to
fit it, so that the report never shrinks their text."""
HATCH = "////"
NOISE_NOTE = "hatched: its 95 % interval holds 50 % (not told apart from an even fight)"


@dataclass(frozen=True, slots=True)
class Baseline:
    """The cells a difference view subtracts: those with ``axis``'s ``value``-th value
    (``--against a.armor=none``: every cell minus the cell with no armour and the
    same other values)."""

    axis: int
    value: int

    def text(self, sweep: AnySweep) -> str:
        """``a.armor=none``, as ``--against`` takes it."""
        axis = sweep.axes[self.axis]
        return f"{axis.column}={value_text(axis.values[self.value])}"

    def words(self, sweep: AnySweep) -> str:
        """``Knight's armour = none``, for titles."""
        axis = sweep.axes[self.axis]
        return f"{short_title(axis)} = {value_text(axis.values[self.value])}"


def baseline_of(sweep: AnySweep, text: str) -> Baseline:
    """The baseline ``--against AXIS=VALUE`` names: AXIS is an axis's column
    (``a.armor``) or its label, VALUE one of its values as the sweep writes it.

    Raises:
        AffrayError: no such axis or value (the message lists them).
    """
    name, sep, wanted = text.partition("=")
    name, wanted = name.strip(), wanted.strip()
    columns = ", ".join(axis.column for axis in sweep.axes)
    if not sep or not name or not wanted:
        raise AffrayError(
            f"--against takes AXIS=VALUE, not {text!r}",
            hint=f"e.g. --against {_example(sweep)} (axes: {columns})",
        )
    found = [
        number
        for number, axis in enumerate(sweep.axes)
        if name.casefold() in {axis.column.casefold(), (axis.label or "").casefold()}
    ]
    if not found:
        raise AffrayError(f"--against: the sweep has no axis {name!r}", hint=f"axes: {columns}")
    axis = sweep.axes[found[0]]
    labels = [value_text(value) for value in axis.values]
    for exact in (True, False):
        for place, label in enumerate(labels):
            if label == wanted if exact else label.casefold() == wanted.casefold():
                return Baseline(found[0], place)
    raise AffrayError(
        f"--against: {axis.column} has no value {wanted!r}",
        hint=f"its values: {', '.join(labels[:20])}" + (", …" if len(labels) > 20 else ""),
    )


def _example(sweep: AnySweep) -> str:
    axis = sweep.axes[-1] if len(sweep.axes) > 1 else sweep.axes[0]
    return f"{axis.column}={value_text(axis.values[0])}"


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


def intervals(
    sweep: AnySweep, rows: Sequence[tuple[Cell, Result | None]]
) -> tuple[np.ndarray, np.ndarray]:
    """The 95 % interval of each cell's chance, as two arrays of the grid's shape (NaN
    where the cell has none: exact odds, or no odds)."""
    low, high = np.full(len(rows), np.nan), np.full(len(rows), np.nan)
    for cell, result in rows:
        if result is not None and result.p_first is not None and result.ci95_low is not None:
            low[cell.index] = result.ci95_low
            high[cell.index] = result.ci95_high if result.ci95_high is not None else np.nan
    shape = [len(axis.values) for axis in sweep.axes]
    return low.reshape(shape), high.reshape(shape)


def even_cells(sweep: AnySweep, rows: Sequence[tuple[Cell, Result | None]]) -> list[Cell]:
    """The cells that cannot be told from an even fight: their 95 % interval holds 50 %
    (exact cells have no interval, and are never among them)."""
    return [
        cell
        for cell, result in rows
        if result is not None
        and result.p_first is not None
        and result.ci95_low is not None
        and result.ci95_high is not None
        and result.ci95_low <= 0.5 <= result.ci95_high
    ]


@dataclass(frozen=True, slots=True)
class Shown:
    """What a figure shows, in arrays of the grid's shape.

    Attributes:
        values: A's chance, or (a difference view) its difference from the baseline.
        low, high: their 95 % interval (NaN where there is none).
        centre: 0.5 (an even fight) or 0 (no difference): the colour scale's white.
        baseline: the difference view's baseline, else None.
    """

    values: np.ndarray
    low: np.ndarray
    high: np.ndarray
    centre: float
    baseline: Baseline | None = None

    @property
    def noise(self) -> np.ndarray:
        """Cells whose interval holds the centre (cannot be told from it)."""
        with np.errstate(invalid="ignore"):
            held = (self.low <= self.centre) & (self.centre <= self.high)
        if self.baseline is not None:
            held &= ~self.base_cells
        return np.asarray(held)

    @property
    def base_cells(self) -> np.ndarray:
        mask = np.zeros(self.values.shape, dtype=bool)
        if self.baseline is not None:
            index: list[Any] = [slice(None)] * self.values.ndim
            index[self.baseline.axis] = self.baseline.value
            mask[tuple(index)] = True
        return mask


def to_draw(
    sweep: AnySweep,
    rows: Sequence[tuple[Cell, Result | None]],
    baseline: Baseline | None = None,
) -> Shown:
    """The chances (or their differences from ``baseline``) and their intervals.

    A difference's interval is about ``d ± sqrt(h² + h₀²)``, from the half-widths of
    the two cells' own intervals (exact cells: none, so 0)."""
    values = chances(sweep, rows)
    low, high = intervals(sweep, rows)
    if baseline is None:
        return Shown(values, low, high, 0.5)
    half = np.where(np.isfinite(low), (high - low) / 2, 0.0)
    base = np.take(values, [baseline.value], axis=baseline.axis)
    base_half = np.take(half, [baseline.value], axis=baseline.axis)
    differences = values - base
    spread = np.sqrt(half**2 + base_half**2)
    sampled = spread > 0
    return Shown(
        differences,
        np.where(sampled, differences - spread, np.nan),
        np.where(sampled, differences + spread, np.nan),
        0.0,
        baseline,
    )


def axis_title(sweep: AnySweep, axis: Axis) -> str:
    """``Knight's skill (a.skill)``: whose key, in the designer's words (the axis's
    ``label`` where the sweep gives one)."""
    if isinstance(sweep, EncounterSweep):
        return member_axis_title(sweep, axis)
    if axis.label:
        return axis.label
    if axis.side == "both":
        return f"{axis.key} of both ({axis.column})"
    whose = sweep.a.name if axis.side == "a" else sweep.b.name
    return f"{whose}'s {axis.key} ({axis.column})"


def short_title(axis: Axis) -> str:
    """An axis in a caption or a sentence: its ``label``, else its column."""
    return axis.label or axis.column


def is_numeric(axis: Axis) -> bool:
    """Numbers in order: a line between two values means something (between 2 and 4
    lies 3; between leather and chain mail, nothing)."""
    values = axis.values
    if len(values) < 2:
        return False
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return False
    steps = np.diff(np.array(values, dtype=float))
    return bool((steps > 0).all() or (steps < 0).all())


def heatmap_png(sweep: AnySweep, rows: Sequence[tuple[Cell, Result | None]]) -> bytes | None:
    """The heatmap as PNG bytes, or None when it would have more than
    :data:`MAX_PANELS` panels, or matplotlib (the ``plot`` extra) is not installed."""
    from affray.extras import installed

    if not installed("matplotlib"):
        return None
    figure = heatmap_figure(sweep, rows)
    return None if figure is None else _png(figure)


def difference_png(
    sweep: AnySweep, rows: Sequence[tuple[Cell, Result | None]], baseline: Baseline
) -> bytes | None:
    """The difference view as PNG bytes: each cell's chance minus the baseline's (None
    without matplotlib, as :func:`heatmap_png`)."""
    from affray.extras import installed

    if not installed("matplotlib"):
        return None
    figure = heatmap_figure(sweep, rows, baseline)
    return None if figure is None else _png(figure)


def heatmap_figure(
    sweep: AnySweep,
    rows: Sequence[tuple[Cell, Result | None]],
    baseline: Baseline | None = None,
) -> Any:
    """The matplotlib figure of :func:`heatmap_png` (or, with ``baseline``,
    :func:`difference_png`); None past :data:`MAX_PANELS` panels. The caller closes it."""
    if panel_count(sweep) > MAX_PANELS:
        return None
    picture = to_draw(sweep, rows, baseline)
    if len(sweep.axes) == 1:
        return _line_figure(sweep, picture)
    return _panels_figure(sweep, picture)


def figure_title(sweep: AnySweep, baseline: Baseline | None = None) -> str:
    if baseline is None:
        return f"{sweep.title} — chance {sweep.first} wins ({sweep.each})"
    return (
        f"{sweep.title} — {sweep.first}'s chance to win, in points above or below "
        f"{baseline.words(sweep)} ({sweep.each})"
    )


def _png(figure: Any) -> bytes:
    from affray.plots import pyplot

    out = io.BytesIO()
    try:
        figure.savefig(out, format="png", dpi=DPI)
    finally:
        pyplot().close(figure)
    return out.getvalue()


def _panels_figure(sweep: AnySweep, picture: Shown) -> Any:
    from affray.plots import pyplot

    plt = pyplot()
    grid = picture.values
    height, width = grid.shape[0], grid.shape[1]
    panels = panel_count(sweep)
    flat = {
        name: array.reshape(height, width, panels)
        for name, array in (
            ("values", grid),
            ("noise", picture.noise),
            ("base", picture.base_cells),
            ("low", picture.low),
            ("high", picture.high),
        )
    }
    cell_w = max(3.2, 0.55 * min(width, TICKS_UP_TO) + 1.6)
    cell_h = max(2.4, 0.42 * min(height, TICKS_UP_TO) + 1.4)
    columns = _columns(sweep, panels, cell_w)
    lines = math.ceil(panels / columns)
    extra_h = 0.9 + 0.3 * bool(flat["noise"].any())
    scale = min(1.0, MAX_INCHES / (cell_w * columns + 1.3), MAX_INCHES / (cell_h * lines + extra_h))
    figure, axes = plt.subplots(
        lines,
        columns,
        figsize=((cell_w * columns + 1.3) * scale, (cell_h * lines + extra_h) * scale),
        squeeze=False,
        layout="constrained",
    )
    cmap, norm, formatter = _scale(picture)
    extra = sweep.axes[2:]
    captions = list(itertools.product(*(axis.values for axis in extra))) or [()]
    decimals = picture.baseline is not None or _needs_decimal(grid)
    numeric = (is_numeric(sweep.axes[0]), is_numeric(sweep.axes[1]))
    drawn = {"line": False, "noise": False, "ties": False}
    image = None
    for number, caption in enumerate(captions):
        ax = axes[number // columns][number % columns]
        values = flat["values"][:, :, number]
        image = ax.imshow(
            np.ma.masked_invalid(values), cmap=cmap, norm=norm, aspect="auto", origin="lower"
        )
        _ticks(ax, sweep, width, height, cell_w * scale)
        if picture.baseline is None:
            drawn["line"] |= _even_line(ax, values, numeric, picture.centre)
        drawn["noise"] |= _hatch(ax, flat["noise"][:, :, number])
        drawn["ties"] |= _ties(ax, flat["low"][:, :, number], flat["high"][:, :, number])
        _outline(ax, flat["base"][:, :, number])
        if width <= ANNOTATE_UP_TO and height <= ANNOTATE_UP_TO:
            _annotate(ax, values, flat["base"][:, :, number], cmap, norm, decimals, picture)
        if extra:
            words = ", ".join(
                f"{short_title(a)} = {value_text(v)}" for a, v in zip(extra, caption, strict=True)
            )
            ax.set_title(_wrapped(words, cell_w * scale, 9), fontsize=9)
    for number in range(len(captions), lines * columns):
        axes[number // columns][number % columns].set_visible(False)
    assert image is not None
    bar = figure.colorbar(image, ax=axes, shrink=0.85, format=formatter)
    bar.set_label(_bar_label(sweep, picture))
    _legend(figure, drawn, picture)
    _fit_title(figure, figure_title(sweep, picture.baseline))
    return figure


def _line_figure(sweep: AnySweep, picture: Shown) -> Any:
    """One axis: the chance (or difference) against the axis's values, each point with
    its 95 % interval; hollow where the interval holds 50 % (or the baseline)."""
    from affray.plots import pyplot

    plt = pyplot()
    axis = sweep.axes[0]
    values, low, high = picture.values, picture.low, picture.high
    count = len(values)
    numeric = is_numeric(axis)
    xs = np.array(axis.values, dtype=float) if numeric else np.arange(count, dtype=float)
    width = min(REPORT_INCHES, max(5.5, 0.45 * min(count, TICKS_UP_TO) + 3.0))
    figure, ax = plt.subplots(figsize=(width, 4.2), layout="constrained")
    centre = picture.centre
    ax.axhline(centre, color="#888888", linestyle="dashed", linewidth=1.2, zorder=1)
    finite = np.isfinite(values)
    sampled = finite & np.isfinite(low)
    if sampled.any():
        ax.errorbar(
            xs[sampled],
            values[sampled],
            # a Wilson bound at 0 or 1 can pass the value by a rounding error
            yerr=np.maximum(
                np.vstack([values[sampled] - low[sampled], high[sampled] - values[sampled]]), 0.0
            ),
            fmt="none",
            ecolor="#2166ac",
            elinewidth=1.2,
            capsize=4,
            zorder=2,
        )
    if numeric:  # between two armours lies nothing: a line only joins numbers
        ax.plot(xs[finite], values[finite], color="#2166ac", linewidth=1.6, zorder=2)
    noise = picture.noise & finite
    solid = finite & ~noise
    ax.plot(xs[solid], values[solid], "o", color="#2166ac", markersize=6, zorder=3)
    if noise.any():
        ax.plot(
            xs[noise],
            values[noise],
            "o",
            markerfacecolor="white",
            markeredgecolor="#2166ac",
            markersize=7,
            zorder=3,
            label=_noise_words(picture),
        )
    if picture.baseline is not None:
        ax.plot(
            xs[picture.base_cells & finite],
            values[picture.base_cells & finite],
            "s",
            color="black",
            markersize=6,
            zorder=4,
            label="the baseline",
        )
    if count <= ANNOTATE_UP_TO:
        decimals = picture.baseline is not None or _needs_decimal(values)
        for x, value, is_base in zip(
            xs[finite], values[finite], picture.base_cells[finite], strict=True
        ):
            if is_base:
                continue
            ax.annotate(
                _label(float(value), decimals, picture),
                (x, value),
                textcoords="offset points",
                xytext=(0, 8),
                ha="center",
                fontsize=8,
            )
    for x in xs[~finite]:
        ax.annotate(
            "× no odds",
            (x, 0.02),
            xycoords=("data", "axes fraction"),
            ha="center",
            fontsize=8,
            color="#555555",
        )
    top = np.nanmax(np.where(np.isfinite(high), high, values)) if finite.any() else centre + 0.1
    bottom = np.nanmin(np.where(np.isfinite(low), low, values)) if finite.any() else centre - 0.1
    top, bottom = max(top, centre), min(bottom, centre)
    pad = max(0.02, (top - bottom) * 0.12)
    if picture.baseline is None:
        ax.set_ylim(max(0.0, bottom - pad), min(1.0, top + pad))
    else:
        ax.set_ylim(bottom - pad, top + pad)
    if picture.baseline is None:
        from matplotlib.ticker import PercentFormatter

        span = ax.get_ylim()[1] - ax.get_ylim()[0]
        ax.yaxis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=0 if span > 0.05 else 1))
    else:
        ax.yaxis.set_major_formatter(_scale(picture)[2])
    ax.set_ylabel(_wrapped(_bar_label(sweep, picture), 3.6, 9), fontsize=9)
    places = _every(count)
    if numeric:
        from matplotlib.ticker import FixedLocator

        if count <= TICKS_UP_TO:
            ax.xaxis.set_major_locator(FixedLocator(xs.tolist()))
        ax.xaxis.set_major_formatter(_value_formatter())
    else:
        labels = [value_text(axis.values[i]) for i in places]
        turn = 35 if sum(len(t) for t in labels) > 6 * len(places) else 0
        ax.set_xticks(places, labels, rotation=turn, ha="right" if turn else "center")
    ax.tick_params(labelsize=8)
    ax.set_xlabel(_wrapped(axis_title(sweep, axis), width - 1.0, 9), fontsize=9)
    ax.grid(axis="y", color="#eeeeee", zorder=0)
    span = float(xs.max() - xs.min()) if count > 1 else 1.0
    ax.set_xlim(
        xs.min() - 0.08 * span - 0.3 * (not numeric), xs.max() + 0.08 * span + 0.3 * (not numeric)
    )
    if noise.any() or picture.baseline is not None:
        ax.legend(fontsize=8, loc="best")
    _fit_title(figure, figure_title(sweep, picture.baseline))
    return figure


def _value_formatter() -> Any:
    from matplotlib.ticker import FuncFormatter

    def text(x: float, _: int) -> str:
        return f"{x:g}"

    return FuncFormatter(text)


def _scale(picture: Shown) -> tuple[Any, Any, Any]:
    """The colour map, its normalisation and the colour bar's tick labels: 0–100 %
    around 50 %, or (a difference view) points around 0, symmetric."""
    from affray.plots import pyplot

    cmap = pyplot().get_cmap("RdBu").with_extremes(bad="#d9d9d9")
    if picture.baseline is None:
        from matplotlib.colors import Normalize
        from matplotlib.ticker import PercentFormatter

        return cmap, Normalize(vmin=0.0, vmax=1.0), PercentFormatter(xmax=1.0)
    from matplotlib.colors import Normalize
    from matplotlib.ticker import FuncFormatter

    finite = picture.values[np.isfinite(picture.values)]
    largest = float(np.abs(finite).max()) if finite.size else 0.0
    reach = max(0.01, math.ceil(largest * 100 / 5) * 5 / 100 if largest > 0.05 else largest)

    def points(x: float, _: int) -> str:
        return f"{x * 100:+.0f} pts" if abs(x) >= 0.005 else "0"

    return cmap, Normalize(vmin=-reach, vmax=reach), FuncFormatter(points)


def _bar_label(sweep: AnySweep, picture: Shown) -> str:
    if picture.baseline is None:
        return f"chance {sweep.first} wins"
    return f"{sweep.first}'s chance: points from the baseline"


def _noise_words(picture: Shown) -> str:
    if picture.baseline is None:
        return "its 95 % interval holds 50 % (not told apart from an even fight)"
    return "its 95 % interval holds 0 (not told apart from the baseline)"


def _legend(figure: Any, drawn: dict[str, bool], picture: Shown) -> None:
    """One line under the panels saying what the dashed line and the hatching mean."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Any] = []
    if drawn["line"]:
        handles.append(
            Line2D([], [], color="black", linestyle="dashed", linewidth=1.6, label="the 50 % line")
        )
    if drawn["noise"]:
        handles.append(
            Patch(
                facecolor="white",
                edgecolor="#555555",
                hatch=HATCH,
                linewidth=0.5,
                label="hatched: " + _noise_words(picture),
            )
        )
    if drawn.get("ties"):
        handles.append(
            Line2D([], [], linestyle="none", label=TIE_NOTE)  # the words begin with the mark
        )
    if picture.baseline is not None:
        handles.append(
            Patch(facecolor="white", edgecolor="black", linewidth=1.5, label="the baseline")
        )
    if handles:  # side by side while they fit the figure's width, else one a line
        words = sum(len(h.get_label()) for h in handles)
        wide = figure.get_figwidth() * 13  # about the characters of 8-point text an inch
        across = len(handles) if words <= wide else 1
        figure.legend(handles=handles, loc="outside lower center", ncols=across, fontsize=8)


def _fit_title(figure: Any, title: str) -> None:
    from affray.plots import fit_title

    fit_title(figure, title)


def _wrapped(text: str, inches: float, points: float) -> str:
    """``text`` wrapped to about ``inches`` at a font of ``points``."""
    per_inch = 72 / (points * 0.6)
    return textwrap.fill(text, width=max(12, int(inches * per_inch)))


def _columns(sweep: AnySweep, panels: int, cell_w: float) -> int:
    """Panels a line: a third axis in one line (up to 6 values, else wrapped squarely);
    a third and a fourth as a grid, the third down and the fourth across; more, wrapped
    squarely in the grid's order. Then as many as fit the report's width (each panel's
    caption names all its values, so wrapping loses nothing)."""
    extra = sweep.axes[2:]
    if len(extra) == 2:
        wanted = len(extra[1].values)
    elif len(extra) == 1 and panels <= 6:
        wanted = panels
    else:
        wanted = min(panels, max(1, math.ceil(math.sqrt(panels))))
    fits = max(1, int((REPORT_INCHES - 1.3) // cell_w))
    return max(1, min(wanted, fits))


def _ticks(ax: Any, sweep: AnySweep, width: int, height: int, inches: float) -> None:
    first, across = sweep.axes[0], sweep.axes[1]
    rows = _every(height)
    ax.set_yticks(rows, [value_text(first.values[i]) for i in rows], fontsize=8)
    ax.set_ylabel(_wrapped(axis_title(sweep, first), max(1.8, inches * 0.6), 9), fontsize=9)
    places = _every(width)
    labels = [value_text(across.values[i]) for i in places]
    turn = 35 if sum(len(t) for t in labels) > 6 * len(places) else 0
    ax.set_xticks(places, labels, fontsize=8, rotation=turn, ha="right" if turn else "center")
    ax.set_xlabel(_wrapped(axis_title(sweep, across), inches - 0.6, 9), fontsize=9)


def _every(count: int) -> list[int]:
    """The places of the labels on an axis of ``count`` values: all of them, or every
    n-th of them past :data:`TICKS_UP_TO`."""
    step = max(1, math.ceil(count / TICKS_UP_TO))
    return list(range(0, count, step))


def even_segments(
    values: np.ndarray, numeric: tuple[bool, bool], level: float = 0.5
) -> list[tuple[str, float, float]]:
    """Where a panel crosses ``level`` along a numeric axis that a category axis
    crosses: ``("h", y, x)`` a short level line at row position ``y`` in column ``x``
    (rows numeric), ``("v", x, y)`` one at column position ``x`` in row ``y``. Both
    numeric: none (a contour joins them); both categories: none."""
    rows_numeric, columns_numeric = numeric
    if rows_numeric == columns_numeric:
        return []
    along = values if rows_numeric else values.T
    kind = "h" if rows_numeric else "v"
    found: list[tuple[str, float, float]] = []
    for place in range(along.shape[1]):
        line = along[:, place]
        for i in range(len(line) - 1):
            here, there = line[i], line[i + 1]
            if not (np.isfinite(here) and np.isfinite(there)):
                continue
            if (here - level) * (there - level) < 0:
                found.append((kind, i + (level - here) / (there - here), float(place)))
    return found


def _even_line(ax: Any, values: np.ndarray, numeric: tuple[bool, bool], level: float) -> bool:
    """The 50 % line: a contour where both axes are numeric and the panel has odds on
    both sides of it; a short dashed mark in each column (row) where only the other
    axis is numeric; nothing across two category axes. Whether anything was drawn."""
    finite = values[np.isfinite(values)]
    if finite.size == 0 or not (finite.min() < level < finite.max()):
        return False
    style = {"colors": "black", "linewidths": 1.6, "linestyles": "dashed", "zorder": 2}
    if all(numeric):
        if values.shape[0] < 2 or values.shape[1] < 2:
            return False
        ax.contour(np.ma.masked_invalid(values), levels=[level], **style)
        return True
    segments = even_segments(values, numeric, level)
    for kind, at, place in segments:
        draw = ax.hlines if kind == "h" else ax.vlines
        draw(at, place - 0.48, place + 0.48, **style)
    return bool(segments)


def _hatch(ax: Any, noise: np.ndarray) -> bool:
    from matplotlib.patches import Rectangle

    for (row, column), marked in np.ndenumerate(noise):
        if marked:
            ax.add_patch(
                Rectangle(
                    (column - 0.5, row - 0.5),
                    1,
                    1,
                    fill=False,
                    hatch=HATCH,
                    edgecolor=(0.2, 0.2, 0.2, 0.45),
                    linewidth=0,
                    zorder=1.5,
                )
            )
    return bool(noise.any())


TIE_NOTE = "≈ between two cells: their 95 % intervals overlap (not told apart)"


def tied_neighbours(low: np.ndarray, high: np.ndarray) -> list[tuple[float, float]]:
    """Where two side-by-side cells of a panel cannot be told apart (their intervals
    overlap; exact cells have none): the middle of their shared edge, (column, row)."""
    edges: list[tuple[float, float]] = []
    rows, columns = low.shape
    for row in range(rows):
        for column in range(columns):
            for other_row, other_column in ((row, column + 1), (row + 1, column)):
                if other_row >= rows or other_column >= columns:
                    continue
                a_low, a_high = low[row, column], high[row, column]
                b_low, b_high = low[other_row, other_column], high[other_row, other_column]
                if np.isnan([a_low, a_high, b_low, b_high]).any():
                    continue
                if a_low <= b_high and b_low <= a_high:
                    edges.append(((column + other_column) / 2, (row + other_row) / 2))
    return edges


def _ties(ax: Any, low: np.ndarray, high: np.ndarray) -> bool:
    """A small ≈ on each edge between two cells that cannot be told apart."""
    edges = tied_neighbours(low, high)
    for x, y in edges:
        ax.text(
            x, y, "≈", ha="center", va="center", fontsize=8, color="#333333", zorder=3.5,
            bbox={"boxstyle": "round,pad=0.05", "facecolor": "white", "edgecolor": "none"},
        )  # fmt: skip
    return bool(edges)


def _outline(ax: Any, base: np.ndarray) -> None:
    from matplotlib.patches import Rectangle

    for (row, column), marked in np.ndenumerate(base):
        if marked:
            ax.add_patch(
                Rectangle(
                    (column - 0.47, row - 0.47),
                    0.94,
                    0.94,
                    fill=False,
                    edgecolor="black",
                    linewidth=1.5,
                    zorder=2.5,
                )
            )


def _annotate(
    ax: Any,
    values: np.ndarray,
    base: np.ndarray,
    cmap: Any,
    norm: Any,
    decimals: bool,
    picture: Shown,
) -> None:
    """Each cell's number, on a patch of the cell's own colour, so that neither the
    50 % line nor the hatching runs through it."""
    for (row, column), value in np.ndenumerate(values):
        if math.isnan(value):
            ax.text(column, row, "×", ha="center", va="center", fontsize=9, color="#555555")
            continue
        shade = cmap(norm(value))
        dark = abs(float(norm(value)) - 0.5) > 0.3
        ax.text(
            column,
            row,
            "base" if base[row, column] else _label(float(value), decimals, picture),
            ha="center",
            va="center",
            fontsize=7,
            color="white" if dark else "black",
            zorder=3,
            bbox={"boxstyle": "square,pad=0.15", "facecolor": shade, "edgecolor": "none"},
        )


def _needs_decimal(values: np.ndarray) -> bool:
    """Whether neighbouring cells (along any axis) differ by less than a point, so that
    whole percentages would hide the difference (87 % against 88 %)."""
    for dimension in range(values.ndim):
        if values.shape[dimension] < 2:
            continue
        steps = np.abs(np.diff(values, axis=dimension))
        steps = steps[np.isfinite(steps)]
        if steps.size and steps.min() < 0.01:
            return True
    return False


def _label(value: float, decimals: bool, picture: Shown) -> str:
    if picture.baseline is not None:
        return f"{value * 100:+.1f}"
    return short_percent(value, decimals)


def short_percent(value: float, decimals: bool = False) -> str:
    """A cell's label: ``87%`` or ``87.4%``; never 0 % or 100 % for a chance that is
    neither."""
    shown_value = value * 100
    least = 0.1 if decimals else 1
    if 0 < shown_value < least:
        return f"<{least:g}%"
    if 100 - least < shown_value < 100:
        return f">{100 - least:g}%"
    return f"{shown_value:.1f}%" if decimals else f"{shown_value:.0f}%"
