"""``affray day``: a party through a day of fights and rests (docs/design.md)."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

import click

from affray.cli.design.common import BUDGET_S, Where
from affray.cli.estimates import about, estimate_after
from affray.cli.options import json_option, seed_option
from affray.cli.output import ProgressBar, console, emit_json
from affray.cli.table.opening import open_tables
from affray.design.day import day_compiles_first, day_engine, load_day, simulate_days
from affray.errors import AffrayError
from affray.sheets import load_document
from affray.table.parties import Parties

if TYPE_CHECKING:
    from affray.design.day import Engine


@click.command("day")
@click.argument("day_file", metavar="DAY", type=click.Path(dir_okay=False, path_type=str))
@click.option(
    "-n",
    "count",
    type=click.IntRange(min=1, max=10**8),
    default=1_000,
    show_default=True,
    help="Days to simulate.",
)
@seed_option
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=256),
    default=None,
    help="Worker processes (default: one per CPU). Results do not depend on it.",
)
@click.option(
    "--db",
    default=None,
    metavar="PATH",
    help="The table database a saved party is read from (default: AFFRAY_DB, or tables.db "
    "in your data directory).",
)
@click.option(
    "--engine",
    type=click.Choice(["auto", "fast", "reference"]),
    default="auto",
    show_default=True,
    help="The fights' engine: auto takes the system's fast engine where it has one for a "
    "day, else the reference engine.",
)
@click.option(
    "--dask",
    metavar="local|ADDRESS",
    default=None,
    help="Play the days on Dask: 'local' starts a cluster here; tcp://HOST:PORT uses a "
    "running scheduler.",
)
@click.option(
    "--budget",
    type=click.FloatRange(min=0.1),
    default=BUDGET_S,
    show_default=True,
    metavar="SECONDS",
    help="Refuse a run that would take longer (estimated on a few days first).",
)
@json_option
def day_command(
    day_file: str,
    count: int,
    seed: int | None,
    workers: int | None,
    db: str | None,
    engine: str,
    dask: str | None,
    budget: float,
    as_json: bool,
) -> None:
    """A party through a DAY of fights and rests, simulated N times.

    DAY names the party (a saved party, or [[members]] with their sheets) and its
    steps: encounters (the party is each one's side named "party") and rests (days,
    with the system's healing options). Each fight starts from the wounds the last
    left. The chance the party gets through every fight, each fight's chance to be
    reached and won, each member's to be standing at the end, and the wounds carried
    into each fight.
    """
    where = Where(dask, workers, budget, "day")
    party = _saved_party(day_file, db)
    day = load_day(day_file, party)
    used = day_engine(day, cast("Engine", engine))
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    if used != "reference engine" and day_compiles_first(day):
        click.echo(f"compiling the {used} first: once per machine, about 20 s", err=True)

    def estimate(found: Any) -> None:
        seconds = getattr(found, "seconds", 0.0)
        if seconds > budget:
            raise AffrayError(
                f"this would take {about(seconds, count, 'day', found.workers, stops=False)}, "
                "past the "
                f"budget of {budget:,.1f} s",
                hint="fewer days (-n), more workers (--dask), or a larger --budget",
            )
        if not bar.showing and seconds > estimate_after():
            click.echo(about(seconds, count, "day", found.workers), err=True)

    bar = ProgressBar(count, "days", threshold=200)
    cluster = where.backend()() if dask is not None else None
    try:
        with bar as advance:
            odds = simulate_days(
                day,
                count,
                seed=seed,
                workers=where.count,
                progress=advance,
                estimate=estimate,
                engine=cast("Engine", engine),
                on=cluster,
            )
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    finally:
        if cluster is not None:
            cluster.close()
    found = odds.to_dict()
    if as_json:
        emit_json(found)
        return
    _say_day(found)


def _saved_party(day_file: str, db: str | None) -> Any:
    """The members of the saved party the day file names, or None."""
    data = load_document(day_file)
    name = data.get("party")
    if not isinstance(name, str):
        return None
    tables = open_tables(db, write=False)
    parties = Parties(tables)
    return parties.fold(parties.party(name)).state.members


def _say_day(found: Mapping[str, Any]) -> None:
    out = console()
    out.print(
        f"{found['n']:,} days (seed {found['seed']}, {found['engine']}): the party gets "
        f"through every fight {found['p_survive']:.1%} of them"
    )
    for step in found["steps"]:
        if step["kind"] == "rest":
            out.print(f"  {step['step']}. {step['name']}")
            continue
        out.print(
            f"  {step['step']}. {step['name']}: reached {step['p_reached']:.1%}, "
            f"won {step['p_won']:.1%}"
        )
        for member, values in step["carried"].items():
            shown = ", ".join(f"{k} {v:.2f}" for k, v in values.items() if v)
            if shown:
                out.print(f"       {member} carries into it (mean): {shown}")
    out.print("Standing at the end of the day:")
    for member, odds in found["members"].items():
        out.print(f"  {member}: {odds['p_standing']:.1%}")
