"""``affray table odds``: the fight from where the table stands. Of the table's verbs,
only this one runs the simulation's engines (numpy and the rest), so it has a module of
its own."""

from __future__ import annotations

import os
import secrets

import click

from affray.cli.estimates import announcer
from affray.cli.options import json_option, seed_option
from affray.cli.output import ProgressBar, emit_json, percent, table
from affray.cli.table.opening import db_option, open_table
from affray.encounter import Phase
from affray.quoting import possessive, wins
from affray.sim.fights import FightOdds
from affray.table.odds import default_fights, table_odds


@click.command("odds")
@click.argument("table_ref", metavar="TABLE")
@click.option(
    "-n",
    "count",
    type=click.IntRange(min=1, max=10**7),
    default=None,
    help="Simulate N fights from here, and as many after each action open now, even "
    "where exact odds are at hand (without -n: exact odds where the system has them, else "
    "20,000 fights on a fast engine, 1,000 on the reference engine).",
)
@seed_option
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=256),
    default=None,
    help="Worker processes; default: one per CPU. Results do not depend on it.",
)
@db_option
@json_option
def odds_command(
    table_ref: str,
    count: int | None,
    seed: int | None,
    workers: int | None,
    db: str | None,
    as_json: bool,
) -> None:
    """The fight from here: each side's chance to win from the table as it stands
    (wounds, distances, whose turn, what is left of the round), and, for whoever's
    turn it is, its side's chance after each action open to it (the others playing
    by their tactics)."""
    tables, row = open_table(db, table_ref, write=False)
    fold = tables.fold(row)
    state = fold.state
    turns = (
        len(fold.rules.ruleset.actions(state.encounter, state.current))
        if (state.phase(fold.rules) is Phase.TURN and state.current is not None)
        else 0
    )
    path = str(tables.store.path)
    tables.store.close()  # no open connection crosses the fork of the simulation's workers
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    simulate = count is not None  # -n asks for a simulation, exact odds or not
    if count is None:
        count = default_fights(fold.rules, state)
    progress = ProgressBar(count * (1 + turns), "fights", threshold=500)
    announce = announcer("fight", bar=progress.showing and not as_json)
    with progress as advance:
        found = table_odds(
            path,
            row.id,
            fold.rules,
            state,
            fold.version,
            n=count,
            seed=seed,
            workers=workers or os.cpu_count() or 1,
            progress=advance,
            estimate=announce,
            simulate=simulate,
        )
    if as_json:
        emit_json({**found.to_dict(), "version": fold.version})
        return
    odds = found.odds
    if isinstance(odds, FightOdds):
        table(
            f"{row.name}, round {state.round}: {odds.n:,} simulated fights from here "
            f"(seed {odds.seed}, {odds.engine}), about {found.more_rounds:.1f} more rounds",
            ("outcome", "share", "95% interval"),
            [
                *(
                    (
                        wins(side),
                        f"{odds.p_wins(side) * 100:.1f}%",
                        "{:.1f}% to {:.1f}%".format(*(p * 100 for p in odds.ci95(side))),
                    )
                    for side in odds.sides
                ),
                ("draw", f"{odds.p_draw * 100:.1f}%", ""),
            ],
        )
    else:
        table(
            f"{row.name}, round {state.round}: exact odds from here, about "
            f"{found.more_rounds:.1f} more rounds",
            ("outcome", "chance"),
            [
                *((wins(side), percent(p)) for side, p in found.wins.items()),
                ("draw", percent(found.draw)),
            ],
        )
    if found.actions:
        best = max(a.p_win for a in found.actions)
        digits = 1 if found.n is not None else 2
        table(
            f"{possessive(found.who or '')} move: {possessive(found.side or '')} chance to "
            "win after each",
            ("action", wins(found.side or ""), "fights", ""),
            [
                (
                    a.label,
                    f"{a.p_win * 100:.{digits}f}%",
                    "exact" if a.n is None else f"{a.n:,}" + (f" ({a.engine})" if a.engine else ""),
                    "best" if a.p_win == best else "",
                )
                for a in found.actions
            ],
        )
