"""``affray explore SWEEP.toml``: a duel's (or an encounter's) odds over a grid of stats
(docs/explorer.md)."""

from __future__ import annotations

import os
import sys
import time
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING

import click

from affray.cli.estimates import about, estimate_after
from affray.cli.options import json_option
from affray.cli.output import ProgressBar, emit_json, table
from affray.errors import AffrayError
from affray.explore import Cache, EncounterSweep, backend, load_sweep, run_sweep, write_outputs
from affray.explore.backends import WorkerLostError, check_address
from affray.explore.heatmap import baseline_of, chances, difference_png, short_title
from affray.explore.outputs import HEATMAP, REPORT, _write, prepare
from affray.explore.report import report_html
from affray.explore.run import reasons
from affray.explore.values import value_text
from affray.extras import installed

if TYPE_CHECKING:
    from affray.explore import AnySweep, Outcome
    from affray.explore.heatmap import Baseline


@click.command("explore")
@click.argument("sweep_file", metavar="SWEEP", type=click.Path(dir_okay=False, path_type=str))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=str),
    default=None,
    help="Folder for results.csv, heatmap.png and report.html "
    "(default: SWEEP's name + '-results', here).",
)
@click.option(
    "--dask",
    metavar="local|ADDRESS",
    default=None,
    help="Work on Dask: 'local' starts a cluster on this machine; tcp://HOST:PORT uses a "
    "running scheduler (dask scheduler / dask worker).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=256),
    default=None,
    help="Worker processes on this machine (default: one per CPU); with --dask local, "
    "the cluster's workers. Results do not depend on it.",
)
@click.option("--fresh", is_flag=True, help="Forget the cells kept from an earlier run.")
@click.option(
    "--against",
    metavar="AXIS=VALUE",
    default=None,
    help="Also draw difference.png: each cell's chance minus that of the cell with this "
    "value of this axis (its column or label), e.g. --against a.armor=none.",
)
@click.option("--open", "open_report", is_flag=True, help="Open report.html in a browser.")
@json_option
def explore_command(
    sweep_file: str,
    out: str | None,
    dask: str | None,
    workers: int | None,
    fresh: bool,
    against: str | None,
    open_report: bool,
    as_json: bool,
) -> None:
    """Odds of a duel over a grid of stats: results.csv, heatmap.png, report.html.

    SWEEP names two base sheets and the axes to vary (any sheet key of either side);
    each cell is worked out exactly where the system can, else simulated with its
    own seed. Or SWEEP names an encounter file, and its axes a side's member (its
    count, or a key of its sheet); each cell's fights are simulated. Cells done are
    kept next to the output: an interrupted sweep, run again, works out only the
    rest. --against draws each cell minus a baseline row, column or panel.
    """
    began = time.perf_counter()
    if dask is not None:
        check_address(dask)
        if dask != "local" and workers is not None:
            raise click.UsageError(
                "--workers sets the workers of this machine or of --dask local; a running "
                "scheduler has its own"
            )
    if out is not None and not out.strip():
        raise click.UsageError("--out needs a folder name")
    sweep = load_sweep(sweep_file)
    baseline = baseline_of(sweep, against) if against is not None else None
    if not installed("matplotlib"):
        click.echo(
            "note: no heatmap.png: matplotlib is not installed (pip install 'affray[plot]'); "
            "results.csv and report.html are written all the same",
            err=True,
        )
    folder = Path(out) if out is not None else Path(f"{Path(sweep_file).stem}-results")
    prepare(folder)
    cache = Cache(folder)
    if fresh:
        cache.clear()

    def announce(seconds: float, cells: int, sharing: int) -> None:
        if not bar.showing and seconds > estimate_after():
            line = about(seconds, cells, "cell", sharing)
            click.echo(f"{line}, and the cells done are kept", err=True)

    def kept() -> str:
        again = " (without --fresh)" if fresh else ""
        return (
            f"{len(cache):,} cells are kept in {cache.path}; run the same command "
            f"again{again} to go on"
        )

    bar = ProgressBar(sweep.cell_count, "cells", threshold=1)
    count = workers if workers is not None else (os.cpu_count() or 1)
    try:
        with bar as advance:
            outcome = run_sweep(
                sweep,
                cache,
                lambda: backend(dask, count),
                progress=advance,
                announce=announce,
                workers=count if dask in (None, "local") else None,
            )
    except KeyboardInterrupt:
        click.echo(f"interrupted: {kept()}", err=True)
        sys.exit(130)
    except WorkerLostError as lost:
        raise AffrayError(f"{lost.message}: {kept()}", hint=lost.hint) from None
    files = write_outputs(sweep, outcome, folder)
    if baseline is not None:
        files += _difference(sweep, outcome, folder, baseline)
    seconds = time.perf_counter() - began
    _problems(outcome)
    if as_json:
        emit_json(
            {
                "cells": len(outcome.rows),
                "out": str(folder),
                "seconds": seconds,
                "computed": outcome.computed,
                "cached": outcome.cached,
                "invalid": outcome.invalid,
                "files": [str(f) for f in files],
            }
        )
    else:
        _summary(sweep, outcome, files, seconds)
    if open_report:
        webbrowser.open((folder / "report.html").resolve().as_uri())
    if not any(result is not None and result.p_first is not None for _, result in outcome.rows):
        raise AffrayError(
            "no cell of the sweep has odds (see why above, and in the report)",
            hint="change the axes' values, or the base sheets",
        )


DIFFERENCE = "difference.png"


def _difference(sweep: AnySweep, outcome: Outcome, folder: Path, baseline: Baseline) -> list[Path]:
    """difference.png, and the report again with it (write_outputs knows no baseline)."""
    picture = difference_png(sweep, outcome.rows, baseline)
    written = []
    if picture is not None:
        written.append(_write(folder / DIFFERENCE, picture))
    heatmap = folder / HEATMAP
    page = report_html(
        sweep,
        outcome.rows,
        heatmap.read_bytes() if heatmap.is_file() else None,
        seconds=outcome.seconds,
        backend=outcome.backend,
        cached=outcome.cached,
        against=baseline,
        difference=picture,
    )
    _write(folder / REPORT, page.encode("utf-8"))
    return written


def _problems(outcome: Outcome) -> None:
    """Each distinct reason cells have no odds, once, on stderr, with how many."""
    why = reasons(outcome.rows)
    for number, (message, cells) in enumerate(why):
        if number == 5:
            click.echo(f"… and {len(why) - 5} more reasons (the report lists them)", err=True)
            break
        count = len(cells)
        click.echo(f"{count:,} cell{'' if count == 1 else 's'} with no odds: {message}", err=True)


def _summary(sweep: AnySweep, outcome: Outcome, files: list[Path], seconds: float) -> None:
    invalid = "an invalid encounter" if isinstance(sweep, EncounterSweep) else "an invalid sheet"
    click.echo(  # the report says the same time: the cells', measured once
        f"{sweep.title}: {len(outcome.rows):,} cells ({sweep.each}) in {outcome.seconds:.1f} s "
        f"on {outcome.backend}: {outcome.computed:,} worked out, {outcome.cached:,} kept "
        f"from before, {outcome.invalid:,} with {invalid}; {seconds:.1f} s in all, with "
        "the files"
    )
    if len(sweep.axes) <= 2:
        grid = chances(sweep, outcome.rows)
        first = sweep.axes[0]
        if len(sweep.axes) == 1:
            grid = grid.reshape(1, -1)
            across, downs = first, [""]
        else:
            across, downs = sweep.axes[1], [value_text(v) for v in first.values]
        if len(across.values) <= 12 and len(downs) <= 40:
            two = len(sweep.axes) == 2
            table(
                f"Chance {sweep.first} wins"
                + (
                    f" (rows: {short_title(first)}; columns: {short_title(across)})"
                    if two
                    else f" ({short_title(first)})"
                ),
                (short_title(first) if two else "", *(value_text(v) for v in across.values)),
                [
                    (down, *("—" if v != v else f"{v * 100:.1f}%" for v in line))
                    for down, line in zip(downs, grid, strict=True)
                ],
            )
    for file in files:
        click.echo(f"wrote {file}")
