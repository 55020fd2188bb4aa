"""The explorer's pictures fit for a design doc (issue 28, item 5): whole titles, the
50 % line only along numeric axes, a decimal where cells are close, noise marked and
never called the best or the worst, the difference view, one axis as a line, small
multiples that fit the report, the axes' labels everywhere, one time said."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from affray.errors import AffrayError
from affray.explore import Cache, InProcess, load_sweep, run_sweep
from affray.explore.compute import Result
from affray.explore.encounter_sweep import AnySweep
from affray.explore.grid import Cell
from affray.explore.heatmap import (
    REPORT_INCHES,
    baseline_of,
    difference_png,
    even_cells,
    even_segments,
    heatmap_figure,
    is_numeric,
    short_percent,
)
from affray.explore.report import findings, report_html
from affray.plots import pyplot
from tests.explore.conftest import WriteSweep
from tests.explore.test_outputs import picture
from tests.helpers import run

Rows = list[tuple[Cell, Result | None]]

KNIGHT = """
title = "Knight vs Ogre"
a = "knight.json"
b = "ogre.toml"
[[axes]]
side = "a"
key = "skill"
values = [0, 1, 2]
label = "Knight's skill"
[[axes]]
side = "a"
key = "armor"
values = ["none", "leather", "chain mail"]
label = "Knight's armour"
"""


def swept(write_sweep: WriteSweep, text: str) -> tuple[AnySweep, Rows]:
    sweep = load_sweep(write_sweep(text))
    outcome = run_sweep(sweep, Cache(sweep.path.parent / "out"), InProcess())
    return sweep, outcome.rows


def simulated(rows: Rows, chances: Sequence[tuple[float, float, float]]) -> Rows:
    """The rows with made-up Monte Carlo chances and intervals, cell by cell."""
    changed: Rows = []
    for (cell, result), (p, low, high) in zip(rows, chances, strict=True):
        assert result is not None
        changed.append(
            (
                cell,
                replace(
                    result,
                    p_a_wins=p,
                    p_b_wins=1 - p,
                    p_draw=0.0,
                    method="monte-carlo",
                    n=20_000,
                    ci95_low=low,
                    ci95_high=high,
                ),
            )
        )
    return changed


def texts(figure: Any) -> list[str]:
    return [t.get_text() for ax in figure.axes for t in ax.texts]


def dashed_marks(figure: Any) -> tuple[int, int]:
    """(contour sets, straight dashed segments) drawn in the figure's panels."""
    from matplotlib.collections import LineCollection
    from matplotlib.contour import ContourSet

    contours = segments = 0
    for ax in figure.axes:
        for collection in ax.collections:
            if isinstance(collection, ContourSet):
                contours += 1
            elif isinstance(collection, LineCollection):
                segments += len(collection.get_segments())
    return contours, segments


@pytest.fixture
def knight(write_sweep: WriteSweep) -> tuple[AnySweep, Rows]:
    return swept(write_sweep, KNIGHT)


@pytest.mark.parametrize("axes", [1, 2])
def test_a_long_title_is_whole_inside_the_figure(write_sweep: WriteSweep, axes: int) -> None:
    title = "Guard vs Brawler: " + "a very long title that keeps going " * 4 + "end"
    text = KNIGHT.replace('title = "Knight vs Ogre"', f'title = "{title}"')
    if axes == 1:
        text = text[: text.index("[[axes]]", text.index("[[axes]]") + 1)]
    sweep, rows = swept(write_sweep, text)
    figure = heatmap_figure(sweep, rows)
    try:
        figure.canvas.draw()
        shown = figure._suptitle
        assert " ".join(shown.get_text().split()) == " ".join(
            f"{title} — chance Knight wins (exact odds)".split()
        )
        box = shown.get_window_extent(figure.canvas.get_renderer())
        assert box.x0 >= 0 and box.x1 <= figure.bbox.width
        assert box.y0 >= 0 and box.y1 <= figure.bbox.height
    finally:
        pyplot().close(figure)


def test_the_50_line_runs_only_along_a_numeric_axis(knight: tuple[AnySweep, Rows]) -> None:
    """Skill is a number, armour a category: a short mark in each armour's column where
    skill crosses 50 %, never a contour joining leather to chain mail."""
    sweep, rows = knight
    assert is_numeric(sweep.axes[0]) and not is_numeric(sweep.axes[1])
    figure = heatmap_figure(sweep, rows)
    try:
        contours, segments = dashed_marks(figure)
    finally:
        pyplot().close(figure)
    assert contours == 0 and segments == 3  # the knight crosses 50 % in each column


def test_even_segments_across_categories_and_numbers() -> None:
    import numpy as np

    values = np.array([[0.4, 0.45], [0.6, 0.55]])  # rows numeric, columns categories
    marks = even_segments(values, (True, False))
    assert marks == [("h", 0.5, 0.0), ("h", pytest.approx(0.5), 1.0)]
    assert even_segments(values, (False, False)) == []
    assert even_segments(values.T, (False, True)) == [
        ("v", 0.5, 0.0),
        ("v", pytest.approx(0.5), 1.0),
    ]


def test_no_50_line_between_two_category_axes(write_sweep: WriteSweep) -> None:
    text = KNIGHT.replace(
        'key = "skill"\nvalues = [0, 1, 2]', 'key = "shield"\nvalues = [true, false]'
    )
    sweep, rows = swept(write_sweep, text)
    figure = heatmap_figure(sweep, rows)
    try:
        assert dashed_marks(figure) == (0, 0)
    finally:
        pyplot().close(figure)


def test_two_numeric_axes_get_a_contour(write_sweep: WriteSweep) -> None:
    text = KNIGHT.replace(
        'side = "a"\nkey = "armor"\nvalues = ["none", "leather", "chain mail"]',
        'side = "b"\nkey = "skill"\nvalues = [2, 4, 6]',
    )
    sweep, rows = swept(write_sweep, text)
    figure = heatmap_figure(sweep, rows)
    try:
        assert dashed_marks(figure)[0] == 1
    finally:
        pyplot().close(figure)


def test_close_cells_get_a_decimal(knight: tuple[AnySweep, Rows]) -> None:
    """Leather and chain mail are 0.1 to 0.4 points apart: whole percentages would hide it."""
    sweep, rows = knight
    figure = heatmap_figure(sweep, rows)
    try:
        labels = texts(figure)
    finally:
        pyplot().close(figure)
    assert all(re.fullmatch(r"\d+\.\d%", label) for label in labels), labels
    assert short_percent(0.874) == "87%" and short_percent(0.874, True) == "87.4%"
    assert short_percent(0.0004, True) == "<0.1%" and short_percent(0.9996, True) == ">99.9%"


def test_cells_far_apart_keep_whole_percentages(write_sweep: WriteSweep) -> None:
    text = KNIGHT.replace("values = [0, 1, 2]", "values = [0, 4]").replace(
        'values = ["none", "leather", "chain mail"]', 'values = ["none", "plate mail"]'
    )
    sweep, rows = swept(write_sweep, text)
    figure = heatmap_figure(sweep, rows)
    try:
        assert all(re.fullmatch(r"\d+%", label) for label in texts(figure))
    finally:
        pyplot().close(figure)


NOISY = [
    (0.499, 0.492, 0.506),  # cannot be told from 50 %, nor from the next
    (0.501, 0.494, 0.508),
    (0.700, 0.694, 0.706),
    (0.520, 0.513, 0.527),
    (0.600, 0.593, 0.607),
    (0.800, 0.794, 0.806),
    (0.650, 0.643, 0.657),
    (0.750, 0.744, 0.756),
    (0.900, 0.896, 0.904),
]


def test_noise_is_hatched_and_listed(knight: tuple[AnySweep, Rows]) -> None:
    from matplotlib.patches import Rectangle

    sweep, rows = knight
    noisy = simulated(rows, NOISY)
    assert [cell.labels for cell in even_cells(sweep, noisy)] == [("0", "none"), ("0", "leather")]
    figure = heatmap_figure(sweep, noisy)
    try:
        hatched = [
            patch
            for ax in figure.axes
            for patch in ax.patches
            if isinstance(patch, Rectangle) and patch.get_hatch()
        ]
        legend = [t.get_text() for t in figure.legends[0].get_texts()]
    finally:
        pyplot().close(figure)
    assert len(hatched) == 2
    assert any("95 % interval holds 50 %" in line for line in legend)
    lines = findings(sweep, noisy)
    said = " ".join(lines)
    assert "2 cells cannot be told from an even fight by 20,000 duels a cell" in said
    assert "Knight's skill = 0, Knight's armour = none (49.9%)" in said


def test_a_cell_inside_the_noise_is_not_called_the_worst(knight: tuple[AnySweep, Rows]) -> None:
    sweep, rows = knight
    lines = findings(sweep, simulated(rows, NOISY))
    worst = next(line for line in lines if "worst" in line)
    assert worst.startswith("Knight does worst at one of 2 cells within each other's 95 %")
    assert "(49.9%)" in worst and "(50.1%)" in worst
    best = next(line for line in lines if "best" in line)
    assert (
        best
        == "Knight does best at Knight's skill = 2, Knight's armour = chain mail: 90.0% to win."
    )


def test_exact_cells_are_never_noise(knight: tuple[AnySweep, Rows]) -> None:
    sweep, rows = knight
    assert even_cells(sweep, rows) == []
    assert not any("cannot be told" in line for line in findings(sweep, rows))


def test_one_axis_is_a_line_with_its_intervals(write_sweep: WriteSweep) -> None:
    text = KNIGHT[: KNIGHT.index("[[axes]]", KNIGHT.index("[[axes]]") + 1)]
    sweep, rows = swept(write_sweep, text)
    noisy = simulated(rows, NOISY[:3])
    figure = heatmap_figure(sweep, noisy)
    try:
        (ax,) = figure.axes
        assert not ax.images  # no heatmap one cell tall
        assert ax.lines and ax.containers  # the line, and the error bars of the intervals
        assert ax.get_xlabel() == "Knight's skill"
        hollow = [line for line in ax.lines if line.get_markerfacecolor() == "white"]
        assert len(hollow) == 1 and len(hollow[0].get_xdata()) == 2
    finally:
        pyplot().close(figure)


def test_small_multiples_fit_the_report(write_sweep: WriteSweep) -> None:
    """Three panels of 3 x 3 used to sit in one line, shrunk by the report until their
    text could not be read: they wrap to the report's width instead."""
    text = (
        KNIGHT
        + '[[axes]]\nside = "b"\nkey = "skill"\nvalues = [0, 1, 2]\nlabel = "Ogre\'s skill"\n'
    )
    sweep, rows = swept(write_sweep, text)
    figure = heatmap_figure(sweep, rows)
    try:
        width = figure.get_figwidth()
        captions = [ax.get_title() for ax in figure.axes if ax.get_title()]
    finally:
        pyplot().close(figure)
    assert width <= REPORT_INCHES
    assert captions == ["Ogre's skill = 0", "Ogre's skill = 1", "Ogre's skill = 2"]


def test_the_difference_view(knight: tuple[AnySweep, Rows]) -> None:
    sweep, rows = knight
    baseline = baseline_of(sweep, "a.armor=none")
    assert (baseline.axis, baseline.value) == (1, 0)
    assert baseline_of(sweep, "Knight's armour=None") == baseline  # the label, any case
    png = difference_png(sweep, rows, baseline)
    assert png is not None and picture(png).ndim == 3
    figure = heatmap_figure(sweep, rows, baseline)
    try:
        labels = texts(figure)
        title = figure._suptitle.get_text()
    finally:
        pyplot().close(figure)
    assert labels.count("base") == 3
    assert all(re.fullmatch(r"[+-]\d+\.\d", label) for label in labels if label != "base")
    assert "points above or below Knight's armour = none" in " ".join(title.split())
    for wrong in ("a.armor", "a.nothing=none", "a.armor=tin"):
        with pytest.raises(AffrayError):
            baseline_of(sweep, wrong)


def test_the_report_uses_the_labels(knight: tuple[AnySweep, Rows]) -> None:
    sweep, rows = knight
    page = report_html(sweep, rows, None, seconds=1.25, backend="this process")
    assert "Knight&#39;s armour<br><small>a.armor</small>" in page
    assert "the cells took 1.2 s on this process" in page


def test_the_cli_says_one_time_and_draws_against_a_baseline(
    write_sweep: WriteSweep, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    sweep = write_sweep(KNIGHT)
    result = run(
        "explore", str(sweep), "--out", str(out), "--workers", "1", "--against", "a.armor=none"
    )
    assert result.exit_code == 0, result.output
    said = re.search(r"9 cells \(exact odds\) in (\d+\.\d) s", result.stdout)
    assert said is not None
    page = (out / "report.html").read_text()
    assert f"the cells took {said[1]} s" in page
    assert "Against Knight&#39;s armour = none" in page and "--against a.armor=none" in page
    assert (out / "difference.png").is_file()
    assert f"wrote {out / 'difference.png'}" in result.stdout
    assert "Chance Knight wins (rows: Knight's skill; columns: Knight's armour)" in result.stdout
    wrong = run("explore", str(sweep), "--out", str(out), "--against", "a.armor=tin")
    assert wrong.exit_code == 2 and "a.armor has no value 'tin'" in wrong.stderr


def test_neighbours_that_cannot_be_told_apart_are_marked(knight: tuple[AnySweep, Rows]) -> None:
    """Two side-by-side cells whose intervals overlap get a ≈ on their shared edge (the
    first two cells of NOISY), and a line of the legend says what it means; exact cells
    are never marked."""
    sweep, rows = knight
    for chances, marks in ((simulated(rows, NOISY), 1), (rows, 0)):
        figure = heatmap_figure(sweep, chances)
        try:
            drawn = [t for ax in figure.axes for t in ax.texts if t.get_text() == "≈"]
            legend = [t.get_text() for lg in figure.legends for t in lg.get_texts()]
        finally:
            pyplot().close(figure)
        assert len(drawn) == marks
        assert any("intervals overlap" in line for line in legend) == bool(marks)
