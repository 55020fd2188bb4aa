"""A table's file: ``affray table export`` writes a table with its whole log as one
JSON document, ``affray table import`` reads one back as a new table, or adds the
combatants of an encounter file to a table (docs/exchange.md)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.text import Text

from affray.cli.exchange_commands import (
    STDIO,
    looks_like_export,
    out_option,
    read_export,
    write_export,
)
from affray.cli.options import json_option
from affray.cli.output import console, emit_json, print_lines
from affray.cli.table.opening import db_option, open_table, open_tables
from affray.cli.table.reports import registry_system
from affray.errors import TableError
from affray.narration import narrate
from affray.sheets.documents import load_document
from affray.table import exchange
from affray.table.events import TABLE


@click.command("import")
@click.argument("table_ref", metavar="TABLE|EXPORT")
@click.argument("encounter", type=click.Path(dir_okay=False, path_type=str), required=False)
@click.option(
    "--as",
    "name",
    default=None,
    metavar="NAME",
    help="With EXPORT: the new table's name (its id is made from it).",
)
@db_option
@json_option
def import_command(
    table_ref: str, encounter: str | None, name: str | None, db: str | None, as_json: bool
) -> None:
    """TABLE ENCOUNTER: add everyone in an ENCOUNTER file to TABLE (its sides, counts,
    names and tactics). EXPORT alone: a table that `affray table export` wrote (a
    file, or - for stdin), as a new table with its whole log, under its own name or
    --as NAME; it never takes the place of a table that is here (docs/exchange.md)."""
    if encounter is None:
        _import_export(table_ref, name, db, as_json)
        return
    if name is not None:
        raise TableError(
            "--as names a table imported from an export; an encounter's members keep "
            "their own names",
            hint=f"leave out --as, or import an export alone: affray table import FILE --as {name}",
        )
    if looks_like_export(encounter):
        raise TableError(
            f"{encounter} is an affray export, not an encounter file",
            hint=f"an export is a table of its own: affray table import {encounter} [--as NAME]",
        )
    tables, row = open_table(db, table_ref)
    path = Path(encounter)
    importing = tables.importing(row, load_document(path), encounter, path.resolve().parent)
    commands = importing.commands
    dones = tables.run_all(row, commands, options=importing.options)
    if dones and dones[0].note:
        click.echo(f"note: {dones[0].note}", err=True)
    if as_json:
        emit_json(
            {
                "combatants": [c.combatant for c in commands],
                "version": dones[-1].version if dones else tables.fold(row).version,
            }
        )
        return
    told = registry_system(row.system).narration
    print_lines(narrate([e for done in dones for e in done.events], told, TABLE))


def _import_export(source: str, name: str | None, db: str | None, as_json: bool) -> None:
    text, where = read_export(source)
    imported = exchange.read_table(text, where)
    if name is not None:
        imported = exchange.renamed(imported, name)
    tables = open_tables(db)
    row = tables.store.restore(
        table_id=imported.id,
        name=imported.name,
        system=imported.system,
        options=imported.options,
        created=imported.created,
        archived=imported.archived,
        changes=imported.changes,
    )
    tables.checkpoint(row, force=True)  # a long log: later verbs read only what follows
    if as_json:
        emit_json(
            {
                "table": row.id,
                "name": row.name,
                "system": row.system,
                "version": imported.version,
                "gm_token": row.gm_token,
                "player_token": row.player_token,
                "db": str(tables.store.path),
            }
        )
        return
    out = console()
    out.print(
        Text.assemble(
            "Table ",
            (row.id, "bold"),
            f" ({row.system}, version {imported.version}) imported into {tables.store.path}",
        )
    )
    out.print(Text(f"game master token: {row.gm_token}"))
    out.print(Text(f"player token:      {row.player_token}"))
    out.print(Text(f"Next: affray table show {row.id}", style="dim"))


@click.command("export")
@click.argument("table_ref", metavar="TABLE")
@out_option
@db_option
@json_option
def export_command(table_ref: str, out: str | None, db: str | None, as_json: bool) -> None:
    """TABLE as one JSON document (docs/exchange.md): its rules, its whole log (every
    change with its dice and answers), its combatants' sheets and its state, to import
    on another machine (`affray table import FILE`) or to read with another tool. With
    --json and -o: a line saying what was written."""
    tables, row = open_table(db, table_ref, write=False)
    changes = tables.store.changes(row.id)
    text = exchange.dumps(exchange.table_document(row, changes))
    write_export(text, out)
    if out is None or out == STDIO:
        return
    version = changes[-1].version if changes else 0
    if as_json:
        emit_json({"table": row.id, "version": version, "out": out, "bytes": len(text)})
        return
    click.echo(f"{row.id} (version {version}) written to {out}")
