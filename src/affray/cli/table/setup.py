"""Setting a table up and keeping it: new, add (a sheet, a creature or a party), link
(a player's own link), end (the party members' state written back), list. A table's
file, imported or exported, is :mod:`affray.cli.table.exports`'s."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import click

from affray.cli.options import json_option
from affray.cli.output import console, emit_json, plain, print_lines
from affray.cli.table.opening import (
    db_option,
    expect_option,
    folder_is_there,
    open_table,
    open_tables,
    pairs_given,
)
from affray.cli.table.reports import events_json, lines_of
from affray.encounter import Targeting
from affray.errors import TableError
from affray.registry import spelled as registry_spelled
from affray.table import roster
from affray.table.commands import Add
from affray.table.parties import PREFIX, Parties
from affray.table.roster import MAX_AT_ONCE

if TYPE_CHECKING:
    from affray.table import TableRow, Tables
    from affray.table.commands import Command
    from affray.table.service import Done


@click.command("new")
@click.argument("name")
@click.option(
    "--system",
    "system",
    required=True,
    metavar="SYSTEM",
    callback=lambda _ctx, _param, value: registry_spelled(value),
    help="The rule system: mst2, midian, or one a plug-in adds (case forgiven).",
)
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="An encounter option of the system (as in an encounter file), e.g. order=shuffled.",
)
@db_option
@json_option
def new_command(
    name: str, system: str, options: Sequence[str], db: str | None, as_json: bool
) -> None:
    """Make a new table NAME playing SYSTEM; prints its id and tokens."""
    tables = open_tables(db)
    row = tables.new(name, system, pairs_given(options))
    if as_json:
        emit_json(
            {
                "table": row.id,
                "name": row.name,
                "system": row.system,
                "version": 0,
                "gm_token": row.gm_token,
                "player_token": row.player_token,
                "db": str(tables.store.path),
            }
        )
        return
    out = console()
    out.print(f"Table [bold]{row.id}[/bold] ({row.system}) in {tables.store.path}")
    out.print(f"game master token: {row.gm_token}")
    out.print(f"player token:      {row.player_token}")
    out.print(f"Next: affray table add {row.id} SHEET --side SIDE", style="dim")


@click.command("add")
@click.argument("table_ref", metavar="TABLE")
@click.argument("sheet")
@click.option("--side", default=None, help="Its side (default: a side of its own).")
@click.option("--as", "name", default=None, metavar="NAME", help="Its name at the table.")
@click.option(
    "--tactics",
    default="nearest",
    show_default=True,
    type=click.Choice([t.value for t in Targeting]),
    help="Who it goes for when no one chooses for it: the nearest foe, the weakest, the one "
    "its friends fight (focus), or any (random).",
)
@click.option(
    "--player", is_flag=True, help="A player's character (the player page shows its side)."
)
@click.option(
    "--hidden",
    is_flag=True,
    help="Hidden from the players from the start, in the same change (reveal shows it).",
)
@click.option(
    "--count",
    type=click.IntRange(1, MAX_AT_ONCE),
    default=1,
    show_default=True,
    metavar="N",
    help="How many of it, on one side (Goblin 1 … Goblin N), one change each.",
)
@expect_option
@db_option
@json_option
def add_command(
    table_ref: str,
    sheet: str,
    side: str | None,
    name: str | None,
    tactics: str,
    player: bool,
    hidden: bool,
    count: int,
    expect: int | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Add the combatant of SHEET (a sheet file or a bestiary name) to TABLE (or N of
    it with --count); or, with SHEET party:PARTY, every member of that party with the
    state it carries, on one side named after the party."""
    tables, row = open_table(db, table_ref)
    if sheet.startswith("party:"):
        _add_party(tables, row, sheet, side, name, tactics, hidden, expect, as_json)
        return
    if count > 1:
        _add_many(tables, row, sheet, count, side, name, tactics, player, hidden, expect, as_json)
        return
    command = tables.joining(row, sheet, side=side, name=name, tactics=tactics, player=player)
    command = replace(command, hidden=hidden)
    done = tables.run(row, command, expected=expect)
    if as_json:
        emit_json({"combatant": command.combatant, "version": done.version, **events_json(done)})
        return
    print_lines(lines_of(done))


def _add_many(
    tables: Tables,
    row: TableRow,
    sheet: str,
    count: int,
    side: str | None,
    name: str | None,
    tactics: str,
    player: bool,
    hidden: bool,
    expect: int | None,
    as_json: bool,
) -> None:
    found = roster.sheet(row.system, sheet)
    commands = tables.joining_many(
        row, found.data, found.source, count, side=side, name=name, tactics=tactics, player=player
    )
    commands = [replace(c, hidden=hidden) for c in commands]
    _report_many(tables.run_all(row, commands, expect), commands, as_json)


def _report_many(dones: list[Done], commands: Sequence[Command], as_json: bool) -> None:
    if as_json:
        emit_json(
            {
                "combatants": [c.combatant for c in commands if isinstance(c, Add)],
                "version": dones[-1].version,
                "events": [e.to_dict() for d in dones for e in d.events],
            }
        )
        return
    print_lines([line for done in dones for line in lines_of(done)])


def _add_party(
    tables: Tables,
    row: TableRow,
    sheet: str,
    side: str | None,
    name: str | None,
    tactics: str,
    hidden: bool,
    expect: int | None,
    as_json: bool,
) -> None:
    if side is not None or name is not None:
        raise TableError(
            "a party comes to the table on its own side, each member with its own name",
            hint=f"leave out --side and --as with {sheet}",
        )
    commands = Parties(tables).joining(row, sheet[len(PREFIX) :], tactics=tactics)
    commands = [replace(c, hidden=True) if hidden and isinstance(c, Add) else c for c in commands]
    _report_many(tables.run_all(row, commands, expect), commands, as_json)


@click.command("end")
@click.argument("table_ref", metavar="TABLE")
@db_option
@json_option
def end_command(table_ref: str, db: str | None, as_json: bool) -> None:
    """Write the state of TABLE's party members back to their parties (one change of
    each party; `affray party undo PARTY` takes it back)."""
    tables, row = open_table(db, table_ref)
    dones = Parties(tables).end(row)
    if as_json:
        emit_json(
            {
                "table": row.id,
                "parties": [
                    {
                        "party": d.party.id,
                        "version": d.version,
                        "members": list(d.members),
                        "not_written_back": list(d.left),
                    }
                    for d in dones
                ],
            }
        )
        return
    for done in dones:
        for line in done.lines:
            click.echo(line)
        click.echo(f"{done.party.id} is at version {done.version}.")


@click.command("link")
@click.argument("table_ref", metavar="TABLE")
@click.argument("who")
@click.option(
    "--base",
    default=None,
    help="Where `affray serve` answers, for the link (default: where the last `affray "
    "serve` on this database said it answers, else http://127.0.0.1:8000).",
)
@db_option
@json_option
def link_command(table_ref: str, who: str, base: str | None, db: str | None, as_json: bool) -> None:
    """A link for WHO's player: the player page, plus a form to answer the dice and
    questions the rules put to WHO (and to play WHO's turns, when the game master
    allows it). A new link revokes the old one."""
    tables, row = open_table(db, table_ref)
    cid, token = tables.link(row, who)
    base = base or tables.store.setting("served_at") or "http://127.0.0.1:8000"
    url = f"{base.rstrip('/')}/p/{row.id}?token={token}"
    if as_json:
        emit_json({"url": url, "token": token, "combatant": cid})
        return
    click.echo(f"{cid}'s player: {url}")


@click.command("list")
@db_option
@json_option
def list_command(db: str | None, as_json: bool) -> None:
    """The tables in the database."""
    folder_is_there(db)
    tables = open_tables(db, write=False)
    found = tables.store.tables()
    if as_json:
        emit_json(
            {
                "tables": [
                    {
                        "table": row.id,
                        "name": row.name,
                        "system": row.system,
                        "version": version,
                        "created": row.created,
                    }
                    for row, version in found
                ]
            }
        )
        return
    if not found:
        click.echo(plain(f"No tables in {tables.store.path}."))
        return
    for row, version in found:
        click.echo(plain(f"{row.id:<24} {row.system:<7} version {version:<5} {row.name}"))
