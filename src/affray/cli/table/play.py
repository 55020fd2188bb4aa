"""Playing a table: start, act, next, run (left to the tactics), undo, redo, and the
odds of the fight from where it stands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from affray.cli.options import json_option, seed_option
from affray.cli.output import emit_json
from affray.cli.table.group import table
from affray.cli.table.opening import (
    db_option,
    dice_options,
    expect_option,
    open_table,
)
from affray.cli.table.reports import (
    report,
    report_moved,
)
from affray.quoting import possessive, wins
from affray.table.submission import Submission, submit

if TYPE_CHECKING:
    pass


@table.command("start")
@click.argument("table_ref", metavar="TABLE")
@dice_options
@expect_option
@db_option
@json_option
def start_command(table_ref: str, db: str | None, as_json: bool, **given: Any) -> None:
    """Start round 1 (rolling initiative, where the system has it)."""
    from affray.table import Start

    play_verb(table_ref, db, as_json, Start(), **given)


@table.command("act")
@click.argument("table_ref", metavar="TABLE")
@click.argument("actor")
@click.argument("action")
@click.argument("target", required=False)
@dice_options
@expect_option
@db_option
@json_option
def act_command(
    table_ref: str,
    actor: str,
    action: str,
    target: str | None,
    db: str | None,
    as_json: bool,
    **given: Any,
) -> None:
    """ACTOR, whose turn it is, takes ACTION (at TARGET): attack, shoot, flee, hold, ..."""
    from affray.table import Act

    play_verb(table_ref, db, as_json, Act(actor, action, target), **given)


@table.command("next")
@click.argument("table_ref", metavar="TABLE")
@dice_options
@expect_option
@db_option
@json_option
def next_command(table_ref: str, db: str | None, as_json: bool, **given: Any) -> None:
    """End the current turn (the combatant passes); after the last turn of a round,
    end the round and start the next (its initiative rolls in --rolls)."""
    from affray.table import Next

    play_verb(table_ref, db, as_json, Next(), **given)


@table.command("hazard")
@click.argument("table_ref", metavar="TABLE")
@click.argument("who")
@click.argument("kind")
@click.argument("pairs", nargs=-1, metavar="[KEY=VALUE...]")
@dice_options
@expect_option
@db_option
@json_option
def hazard_command(
    table_ref: str,
    who: str,
    kind: str,
    pairs: Sequence[str],
    db: str | None,
    as_json: bool,
    **given: Any,
) -> None:
    """The game master brings a hazard of the table's system on WHO: KIND and its
    KEY=VALUE, e.g. fall feet=30, or a fire that burns at the end of every round until
    put out, where the system has one (`table hazards TABLE` lists the system's
    hazards and their keys). Its dice come from --rolls, as an action's do; `undo`
    takes it back."""
    from affray.cli.table.opening import pairs_given
    from affray.table.commands import Hazard

    values = pairs_given(pairs, flag="KEY=VALUE", example="feet=30") if pairs else {}
    play_verb(table_ref, db, as_json, Hazard(who, kind, values), **given)


@table.command("hazards")
@click.argument("table_ref", metavar="TABLE")
@db_option
@json_option
def hazards_command(table_ref: str, db: str | None, as_json: bool) -> None:
    """The hazards the table's system lets the game master bring on a combatant, with
    the keys each takes."""
    from affray import registry

    _, row = open_table(db, table_ref, write=False)
    system = registry.system(row.system)
    found = [{"kind": h.name, "keys": list(h.keys), "words": h.words} for h in system.hazards]
    if as_json:
        emit_json({"system": system.name, "hazards": found})
        return
    if not found:
        click.echo(f"{system.title} has no hazards to bring on a combatant")
        return
    for hazard in found:
        keys = " ".join(f"{k}=…" for k in hazard["keys"])
        click.echo(f"{hazard['kind']} {keys}".rstrip() + f": {hazard['words']}")


@table.command("run")
@click.argument("table_ref", metavar="TABLE")
@click.option(
    "--turns",
    type=click.IntRange(min=1, max=100_000),
    default=None,
    help="How many turns the tactics take (default 1).",
)
@click.option("--to-end", is_flag=True, help="Every turn until the fight ends.")
@seed_option
@expect_option
@db_option
@json_option
def run_command(
    table_ref: str,
    turns: int | None,
    to_end: bool,
    seed: int | None,
    expect: int | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Leave the next turn (or --turns N, or --to-end) to the combatants' tactics,
    rolling seeded dice; round 1 starts first if the fight has not started. After
    `table import` on a new table, `run --to-end --seed S` tells the same fight as
    `affray fight ENCOUNTER --seed S`. Undo takes it back like any change."""
    from affray.errors import AffrayError
    from affray.table import Run

    if to_end and turns is not None:
        raise AffrayError("--turns and --to-end ask two things", hint="give one of them")
    command = Run(turns or 1, to_end)
    play_verb(
        table_ref,
        db,
        as_json,
        command,
        rolls=None,
        no_roll=False,
        choices=(),
        seed=seed,
        expect=expect,
    )


@table.command("odds")
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
    import os
    import secrets

    from affray.cli.estimates import announcer
    from affray.cli.output import ProgressBar, percent, table
    from affray.encounter import Phase
    from affray.sim.fights import FightOdds
    from affray.table.odds import default_fights, table_odds

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


@table.command("undo")
@click.argument("table_ref", metavar="TABLE")
@click.option("--steps", type=click.IntRange(min=1), default=1, show_default=True)
@expect_option
@db_option
@json_option
def undo_command(
    table_ref: str, steps: int, expect: int | None, db: str | None, as_json: bool
) -> None:
    """Take back the last STEPS changes (turns and initiative included)."""
    tables, row = open_table(db, table_ref)
    done = submit(tables, row, Submission("undo", steps=steps, expected=expect))
    report_moved(tables, row, done, "undone", as_json)


@table.command("redo")
@click.argument("table_ref", metavar="TABLE")
@click.option("--steps", type=click.IntRange(min=1), default=1, show_default=True)
@expect_option
@db_option
@json_option
def redo_command(
    table_ref: str, steps: int, expect: int | None, db: str | None, as_json: bool
) -> None:
    """Bring back the last STEPS changes undone (until a new change is made)."""
    tables, row = open_table(db, table_ref)
    done = submit(tables, row, Submission("redo", steps=steps, expected=expect))
    report_moved(tables, row, done, "redone", as_json)


def play_verb(
    table_ref: str,
    db: str | None,
    as_json: bool,
    command: Any,
    *,
    rolls: str | None,
    no_roll: bool,
    choices: Sequence[str],
    seed: int | None,
    expect: int | None,
) -> None:
    from affray.dice import parse_faces

    faces = parse_faces(rolls) if rolls is not None else ()
    tables, row = open_table(db, table_ref)
    asked = Submission(
        command.verb,
        command,
        rolls=faces,
        choices=tuple(choices),
        seed=seed,
        roll_missing=not no_roll,
        expected=expect,
    )
    done = submit(tables, row, asked)
    if done.unused_choices:
        click.echo("note: no question asked for: " + ", ".join(done.unused_choices), err=True)
    if done.note:
        click.echo(f"note: {done.note}", err=True)
    report(tables, row, done, as_json)
