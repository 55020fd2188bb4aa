"""``affray frontier``: which options of one key are never worth taking
(docs/design.md)."""

from __future__ import annotations

from typing import Any

import click

from affray.cli.design.common import Where, odds_options
from affray.cli.estimates import wrote
from affray.cli.options import json_option
from affray.cli.output import console, emit_json
from affray.design.duels import load, pair, settings
from affray.design.frontier import frontier, rungs
from affray.design.plots import frontier_chart
from affray.plots import check_plot_path


@click.command("frontier")
@click.argument("sheet", type=click.Path(dir_okay=False, path_type=str))
@click.option(
    "--vary",
    required=True,
    metavar="KEY",
    help="The key whose options to weigh: weapon, armor, grip, shield, weapon.damage …",
)
@click.option(
    "--against",
    "opponents",
    required=True,
    multiple=True,
    metavar="B",
    help="An opponent (give several: --against ogre --against orc).",
)
@click.option(
    "--values", default=None, metavar="V,V,…", help="The options to weigh (default: every one)."
)
@odds_options
@click.option(
    "--plot",
    metavar="PNG",
    default=None,
    help="Draw each option at its mean and worst chance, the frontier named.",
)
@json_option
def frontier_command(
    sheet: str,
    vary: str,
    opponents: tuple[str, ...],
    values: str | None,
    exact: bool,
    count: int | None,
    seed: int | None,
    engine: str,
    dask: str | None,
    workers: int | None,
    budget: float,
    plot: str | None,
    as_json: bool,
) -> None:
    """Every option of one key of SHEET against each opponent: its mean and worst
    chance to win, and which options another beats against every opponent (never
    worth taking)."""
    if exact and count is not None:
        raise click.UsageError("choose one of --exact and -n N")
    if plot is not None:
        check_plot_path(plot)
    mine = load(sheet, "a")
    others = [pair(sheet, opponent)[1] for opponent in opponents]
    how = settings(mine.system, exact, count, seed, engine)
    listed = [v for v in values.split(",") if v.strip()] if values is not None else None
    total = len(rungs(mine, vary, listed)) * len(others)
    where = Where(dask, workers, budget, "duel")
    with where.progress(total) as advance:
        found = frontier(
            mine,
            vary,
            others,
            how,
            values=listed,
            backend=where.backend(),
            progress=advance,
            announce=where.announce,
        )
    if plot is not None:
        frontier_chart(found, plot)
    if as_json:
        emit_json(found.to_dict())
    else:
        _say_frontier(found)
    if plot is not None:
        wrote(plot, as_json)


def _say_frontier(found: Any) -> None:
    out = console()
    how = "exact" if found.method == "exact" else "simulated"
    out.print(f"{found.sheet}: each {found.vary} against {', '.join(found.opponents)} ({how})")
    heads = "".join(f"{name[:12]:>13}" for name in found.opponents)
    out.print(f"{found.vary:<26}{heads}{'mean':>9}{'worst':>9}")
    for option in found.options:
        cells = "".join(
            f"{'invalid' if c.p is None else f'{c.p:.1%}':>13}" for c in option.against.values()
        )
        mean = "-" if option.mean is None else f"{option.mean:.1%}"
        worst = "-" if option.worst is None else f"{option.worst:.1%}"
        beaten = (
            "  dominated by " + ", ".join(str(v) for v in option.dominated_by)
            if option.dominated_by
            else ""
        )
        out.print(f"{option.value!s:<26}{cells}{mean:>9}{worst:>9}{beaten}")
