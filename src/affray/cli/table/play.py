"""Playing a table: start, act, next, run (left to the tactics), a hazard, undo and
redo (the odds from where it stands are `table odds`, :mod:`affray.cli.table.odds`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from affray import registry
from affray.cli.options import json_option, seed_option
from affray.cli.output import emit_json
from affray.cli.table.opening import (
    db_option,
    dice_options,
    expect_option,
    open_table,
    pairs_given,
)
from affray.cli.table.reports import report, report_moved
from affray.dice import parse_faces
from affray.errors import AffrayError
from affray.table import Act, Next, Run, Start
from affray.table.commands import Hazard
from affray.table.submission import Submission, submit


@click.command("start")
@click.argument("table_ref", metavar="TABLE")
@dice_options
@expect_option
@db_option
@json_option
def start_command(table_ref: str, db: str | None, as_json: bool, **given: Any) -> None:
    """Start round 1 (rolling initiative, where the system has it)."""
    play_verb(table_ref, db, as_json, Start(), **given)


@click.command("act")
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
    play_verb(table_ref, db, as_json, Act(actor, action, target), **given)


@click.command("next")
@click.argument("table_ref", metavar="TABLE")
@dice_options
@expect_option
@db_option
@json_option
def next_command(table_ref: str, db: str | None, as_json: bool, **given: Any) -> None:
    """End the current turn (the combatant passes); after the last turn of a round,
    end the round and start the next (its initiative rolls in --rolls)."""
    play_verb(table_ref, db, as_json, Next(), **given)


@click.command("hazard")
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
    values = pairs_given(pairs, flag="KEY=VALUE", example="feet=30") if pairs else {}
    play_verb(table_ref, db, as_json, Hazard(who, kind, values), **given)


@click.command("hazards")
@click.argument("table_ref", metavar="TABLE")
@db_option
@json_option
def hazards_command(table_ref: str, db: str | None, as_json: bool) -> None:
    """The hazards the table's system lets the game master bring on a combatant, with
    the keys each takes."""
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


@click.command("run")
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
    if to_end and turns is not None:
        raise AffrayError("--turns and --to-end ask two things", hint="give one of them")
    command = Run(turns or 1, to_end)
    play_verb(
        table_ref,
        db,
        as_json,
        command,
        rolls=None,
        roll_rest=False,
        no_roll=False,
        choices=(),
        seed=seed,
        expect=expect,
    )


@click.command("undo")
@click.argument("table_ref", metavar="TABLE")
@click.argument("typed", nargs=-1, metavar="")
@click.option("--steps", type=click.IntRange(min=1), default=1, show_default=True)
@expect_option
@db_option
@json_option
def undo_command(
    table_ref: str,
    typed: tuple[str, ...],
    steps: int,
    expect: int | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Take back the last STEPS changes (turns and initiative included)."""
    steps_typed("undo", table_ref, typed)
    tables, row = open_table(db, table_ref)
    done = submit(tables, row, Submission("undo", steps=steps, expected=expect))
    report_moved(tables, row, done, "undone", as_json)


@click.command("redo")
@click.argument("table_ref", metavar="TABLE")
@click.argument("typed", nargs=-1, metavar="")
@click.option("--steps", type=click.IntRange(min=1), default=1, show_default=True)
@expect_option
@db_option
@json_option
def redo_command(
    table_ref: str,
    typed: tuple[str, ...],
    steps: int,
    expect: int | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Bring back the last STEPS changes undone (until a new change is made)."""
    steps_typed("redo", table_ref, typed)
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
    roll_rest: bool,
    no_roll: bool,
    choices: Sequence[str],
    seed: int | None,
    expect: int | None,
) -> None:
    faces = parse_faces(rolls) if rolls is not None else ()
    tables, row = open_table(db, table_ref)
    asked = Submission(
        command.verb,
        command,
        rolls=faces,
        choices=tuple(choices),
        seed=seed,
        roll_missing=not no_roll,
        roll_rest=roll_rest,
        expected=expect,
    )
    done = submit(tables, row, asked)
    if done.unused_choices:
        click.echo("note: no question asked for: " + ", ".join(done.unused_choices), err=True)
    if done.note:
        click.echo(f"note: {done.note}", err=True)
    report(tables, row, done, as_json)


def steps_typed(verb: str, table_ref: str, typed: tuple[str, ...]) -> None:
    """Nothing, when nothing follows TABLE; else a usage error that says how to give the
    steps (``table undo ford 3``: ``--steps 3``)."""
    if not typed:
        return
    steps = typed[0] if len(typed) == 1 and typed[0].isdigit() else "N"
    raise click.UsageError(
        f"{verb} takes one TABLE, then --steps: affray table {verb} {table_ref} --steps {steps}"
    )
