"""The files of a sweep: results.csv's columns, the heatmap (small multiples past two
axes) and a report that stands alone."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import numpy as np
import pytest
from markupsafe import escape

from affray.explore import Cache, InProcess, load_sweep, run_sweep
from affray.explore.heatmap import chances, heatmap_png, panel_count
from affray.explore.report import findings, report_html
from affray.explore.rows import csv_text
from tests.explore.conftest import WriteSweep

THREE_AXES = """
title = "Sellsword <b>vs</b> & Ogre"
a = "sellsword.toml"
b = "ogre.toml"
[[axes]]
side = "a"
key = "skill"
range = [0, 4, 2]
[[axes]]
side = "b"
key = "armor"
values = ["none", "leather", "chain mail", "tin"]
[[axes]]
side = "a"
key = "evasion_bonus"
values = [0, 2]
"""


def picture(png: bytes) -> np.ndarray:
    import matplotlib.image

    image: np.ndarray = matplotlib.image.imread(io.BytesIO(png), format="png")
    return image


@pytest.fixture
def three_axes(write_sweep: WriteSweep) -> tuple[object, object]:
    sweep = load_sweep(write_sweep(THREE_AXES))
    outcome = run_sweep(sweep, Cache(sweep.path.parent / "out"), InProcess())
    return sweep, outcome


def test_results_csv_columns_and_rows(three_axes: tuple[object, object]) -> None:
    sweep, outcome = three_axes
    text = csv_text(sweep, outcome.rows)  # type: ignore[arg-type, attr-defined]
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == [
        "a.skill",
        "b.armor",
        "a.evasion_bonus",
        "p_a_wins",
        "p_b_wins",
        "p_draw",
        "mean_rounds",
        "method",
        "n",
        "ci95_low",
        "ci95_high",
        "seed",
        "engine",
        "note",
        "error",
    ]
    assert len(rows) == 1 + 3 * 4 * 2
    assert rows[1][:3] == ["0", "none", "0"] and rows[2][:3] == ["0", "none", "2"]
    for row in rows[1:]:
        if row[1] == "tin":
            assert row[3:7] == ["", "", "", ""] and "tin" in row[-1]
            continue
        p_a, p_b, p_draw = (float(x) for x in row[3:6])
        assert abs(p_a + p_b + p_draw - 1) < 1e-9
        assert row[7] == "exact" and row[8] == ""


def test_the_grid_of_chances_has_the_sweeps_shape(three_axes: tuple[object, object]) -> None:
    sweep, outcome = three_axes
    grid = chances(sweep, outcome.rows)  # type: ignore[arg-type, attr-defined]
    assert grid.shape == (3, 4, 2)
    assert np.isnan(grid[:, 3, :]).all() and not np.isnan(grid[:, :3, :]).any()
    # skill helps the sellsword, whatever the ogre wears
    assert (np.diff(grid[:, :3, :], axis=0) > 0).all()


def test_more_axes_become_small_multiples(three_axes: tuple[object, object]) -> None:
    sweep, outcome = three_axes
    assert panel_count(sweep) == 2  # type: ignore[arg-type]
    png = heatmap_png(sweep, outcome.rows)  # type: ignore[arg-type, attr-defined]
    assert png is not None
    wide = picture(png)
    two = load_sweep(sweep.path)  # type: ignore[attr-defined]
    from dataclasses import replace

    flat = replace(two, axes=two.axes[:2])
    flat_rows = run_sweep(flat, Cache(sweep.path.parent / "flat"), InProcess()).rows  # type: ignore[attr-defined]
    single = heatmap_png(flat, flat_rows)
    assert single is not None
    # two panels side by side: about twice as wide as one, as tall
    assert wide.shape[1] > 1.6 * picture(single).shape[1]


def test_the_heatmap_diverges_from_an_even_fight(write_sweep: WriteSweep) -> None:
    """Blue where A wins, red where B does: the colours of the cells' chances."""
    sweep = load_sweep(
        write_sweep(
            'a = "knight.json"\nb = "goblin.toml"\n[[axes]]\nside = "a"\nkey = "skill"\n'
            'values = [5]\n[[axes]]\nside = "b"\nkey = "skill"\nvalues = [0]\n'
        )
    )
    rows = run_sweep(sweep, Cache(sweep.path.parent / "o"), InProcess()).rows
    assert rows[0][1] is not None and rows[0][1].p_a_wins is not None
    assert rows[0][1].p_a_wins > 0.9
    png = heatmap_png(sweep, rows)
    assert png is not None
    image = picture(png)[..., :3]
    blue = (image[..., 2] > 0.35) & (image[..., 0] < 0.2)
    red = (image[..., 0] > 0.6) & (image[..., 2] < 0.25)
    assert blue.sum() > 20 * red.sum() // 10 + 2000  # the cell, and the top of the colour bar


def test_the_report_stands_alone(three_axes: tuple[object, object]) -> None:
    sweep, outcome = three_axes
    png = heatmap_png(sweep, outcome.rows)  # type: ignore[arg-type, attr-defined]
    page = report_html(sweep, outcome.rows, png, seconds=1.5, backend="this process")  # type: ignore[arg-type, attr-defined]
    assert page.startswith("<!doctype html>")
    # nothing from elsewhere: no scripts, no stylesheets or pictures by address
    assert "<script" not in page.lower() and "<link" not in page.lower()
    assert not re.search(r"""(src|href)=["'](https?:)?//""", page)
    assert 'src="data:image/png;base64,' in page
    # the title is text, not markup
    assert "Sellsword &lt;b&gt;vs&lt;/b&gt; &amp; Ogre" in page and "<b>vs</b>" not in page
    # the table, the invalid cells and why, both sheets and the sweep file
    assert page.count("<tr>") == 1 + 24  # the header row, then one a cell
    # the six cells of one reason, once: the reason, then the cells
    assert page.count("key &#39;armor&#39;") == 1
    assert page.count("b.armor = tin") == 6
    for text in (sweep.a.text, sweep.b.text, sweep.text):  # type: ignore[attr-defined]
        assert str(escape(text)).strip() in page


def test_findings_say_where_a_does_best_and_worst(three_axes: tuple[object, object]) -> None:
    sweep, outcome = three_axes
    lines = findings(sweep, outcome.rows)  # type: ignore[arg-type, attr-defined]
    grid = chances(sweep, outcome.rows)  # type: ignore[arg-type, attr-defined]
    best = f"{np.nanmax(grid) * 100:.1f}%"
    worst = f"{np.nanmin(grid) * 100:.1f}%"
    assert lines[0].startswith("Sellsword does best at a.skill = 4, ") and best in lines[0]
    assert lines[1].startswith("Sellsword does worst at a.skill = 0, ") and worst in lines[1]
    assert any("6 cells have an invalid sheet" in line for line in lines)


def test_the_files_are_written_whole(write_sweep: WriteSweep, tmp_path: Path) -> None:
    from tests.helpers import run_json

    sweep = write_sweep(THREE_AXES)
    out = tmp_path / "out"
    run_json("explore", str(sweep), "--out", str(out), "--workers", "1")
    assert sorted(p.name for p in out.iterdir()) == [
        "cells-cache.jsonl",
        "heatmap.png",
        "report.html",
        "results.csv",
    ]
    assert picture((out / "heatmap.png").read_bytes()).ndim == 3


FORMULAS = """
a = "sellsword.toml"
b = "ogre.toml"
[[axes]]
side = "b"
key = "name"
values = ['=HYPERLINK("https://evil.example","click")', "+1+1", "@SUM(A1)", "-2+3", "Ogre"]
[[axes]]
side = "a"
key = "skill"
values = [0, 2]
[[axes]]
side = "a"
key = "evasion_bonus"
values = [-1, 0]
"""


def test_results_csv_has_no_formula_in_a_text_cell(write_sweep: WriteSweep, tmp_path: Path) -> None:
    """Issue 26, item 11: a text cell a spreadsheet would run (=, +, -, @, tab, CR at
    its start) gets a single quote before it (OWASP); numbers stay numbers."""
    from tests.helpers import run_json

    sweep = write_sweep(FORMULAS)
    out = tmp_path / "out"
    run_json("explore", str(sweep), "--out", str(out), "--workers", "1")
    with (out / "results.csv").open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 20
    names = {row["b.name"] for row in rows}
    assert names == {
        '\'=HYPERLINK("https://evil.example","click")',
        "'+1+1",
        "'@SUM(A1)",
        "'-2+3",
        "Ogre",
    }
    assert {row["a.evasion_bonus"] for row in rows} == {"-1", "0"}
    for row in rows:
        for value in row.values():
            assert not value.startswith(("=", "+", "@", "\t", "\r"))
            assert not value.startswith("-") or re.fullmatch(r"-\d+(\.\d+)?", value)
        assert 0.0 <= float(row["p_a_wins"]) <= 1.0


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "+1"),
        ("-2", "-2"),
        ("-0.5", "-0.5"),
        ("1e-05", "1e-05"),
        ("-2+3", "'-2+3"),
        ("@x", "'@x"),
        ("\tx", "'\tx"),
        ("\r=x", "'\r=x"),
        ("a=b", "a=b"),
        ("", ""),
    ],
)
def test_a_cell_is_made_inert_only_when_it_is_text(value: str, written: str) -> None:
    from affray.explore.outputs import inert

    assert inert(value) == written
