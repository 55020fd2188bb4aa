"""``affray sensitivity``: which key matters most (docs/design.md)."""

from __future__ import annotations

from typing import Any

import click

from affray.cli.design.common import Where, method_words, odds_options, say_notes
from affray.cli.estimates import wrote
from affray.cli.options import json_option
from affray.cli.output import console, emit_json
from affray.design.duels import Settings, pair, settings
from affray.design.encounters import sensitivity_count, sensitivity_encounter
from affray.design.plots import tornado
from affray.design.sensitivity import count as duels_in
from affray.design.sensitivity import sensitivity
from affray.explore.encounter_sweep import ENCOUNTER_N
from affray.plots import check_plot_path
from affray.quoting import possessive


@click.command("sensitivity")
@click.argument("a", type=click.Path(dir_okay=False, path_type=str))
@click.argument("b", type=click.Path(dir_okay=False, path_type=str), required=False)
@click.option(
    "--for",
    "side",
    default=None,
    metavar="SIDE",
    help="Of an encounter (A alone): the side whose chance to win is weighed.",
)
@odds_options
@click.option(
    "--plot",
    metavar="PNG",
    default=None,
    help="Draw a tornado chart: each key's two moves, the one that matters most on top.",
)
@json_option
def sensitivity_command(
    a: str,
    b: str | None,
    side: str | None,
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
    """Which key of sheets A and B matters most to A's chance to win; or, of the
    encounter file A, which member's count or key matters most to a side's (--for).

    Each key of each sheet moves one step down and one up (skill ±1, armour one row,
    a die one size, hit dice one die, the next weapon of the table; in an encounter,
    each member's count too); the chance at each, the keys that move it most first.
    """
    if exact and count is not None:
        raise click.UsageError("choose one of --exact and -n N")
    if plot is not None:
        check_plot_path(plot)
    if b is None:
        found = _encounter_sensitivity(a, side, count, seed, dask, workers, budget)
    else:
        if side is not None:
            raise click.UsageError("--for names a side of an encounter: give A alone")
        first, second = pair(a, b)
        how = settings(first.system, exact, count, seed, engine)
        where = Where(dask, workers, budget, "duel")
        with where.progress(duels_in(first, second)) as advance:
            found = sensitivity(
                first,
                second,
                how,
                backend=where.backend(),
                progress=advance,
                announce=where.announce,
            )
    if plot is not None:
        tornado(found, plot)
    if as_json:
        emit_json(found.to_dict())
    else:
        _say_sensitivity(found)
    if plot is not None:
        wrote(plot, as_json)


def _encounter_sensitivity(
    path: str,
    side: str | None,
    count: int | None,
    seed: int | None,
    dask: str | None,
    workers: int | None,
    budget: float,
) -> Any:
    if side is None:
        raise click.UsageError("--for SIDE names the side whose chance is weighed")
    asked = Settings(
        "exact" if count is None else "monte-carlo",
        count or ENCOUNTER_N,
        1 if seed is None else seed,
    )
    where = Where(dask, workers, budget, "encounter")
    with where.progress(sensitivity_count(path, asked)) as advance:
        return sensitivity_encounter(
            path,
            side,
            asked,
            backend=where.backend(),
            progress=advance,
            announce=where.announce,
        )


def _say_sensitivity(found: Any) -> None:
    out = console()
    base = found.base.p
    moved = [m for row in found.rows for m in (row.down, row.up) if m is not None]
    chances = [found.base, *(m.chance for m in moved)]
    how = method_words(chances)
    out.print(f"{possessive(found.a)} chance to win against {found.b}: {base:.2%} ({how})")
    out.print(f"{'sheet':<14} {'key':<22} {'now':>14}  {'one down':>24}  {'one up':>24}")
    for row in found.rows:
        whose = row.member or (found.a if row.side == "a" else found.b)
        cells = []
        for move in (row.down, row.up):
            if move is None:
                cells.append("-")
            elif move.chance.p is None:
                cells.append(f"{move.value}: invalid")
            else:
                cells.append(f"{move.value}: {move.chance.p:.1%} ({move.chance.p - base:+.1%})")
        out.print(f"{whose[:14]:<14} {row.key:<22} {row.now!s:>14}  {cells[0]:>24}  {cells[1]:>24}")
    say_notes(chances, ["as it is", *(f"{m.value}" for m in moved)])
