"""A party's file: ``affray party export`` writes a party with its whole log as one
JSON document, ``affray party import`` reads one back as a new party
(docs/exchange.md)."""

from __future__ import annotations

import click
from rich.text import Text

from affray.cli.exchange_commands import STDIO, out_option, read_export, write_export
from affray.cli.options import json_option
from affray.cli.output import console, emit_json
from affray.cli.party.verbs import open_parties
from affray.cli.table.opening import db_option
from affray.table import exchange


@click.command("export")
@click.argument("party_ref", metavar="PARTY")
@out_option
@db_option
@json_option
def export_command(party_ref: str, out: str | None, db: str | None, as_json: bool) -> None:
    """PARTY as one JSON document (docs/exchange.md): its whole log and its members'
    sheets and state, to import on another machine (`affray party import FILE`) or to
    read with another tool. With --json and -o: a line saying what was written."""
    parties = open_parties(db, write=False)
    row = parties.party(party_ref)
    changes = parties.store.changes(row.id)
    text = exchange.dumps(exchange.party_document(row, changes))
    write_export(text, out)
    if out is None or out == STDIO:
        return
    version = changes[-1].version if changes else 0
    if as_json:
        emit_json({"party": row.id, "version": version, "out": out, "bytes": len(text)})
        return
    click.echo(f"{row.id} (version {version}) written to {out}")


@click.command("import")
@click.argument("source", metavar="FILE")
@click.option(
    "--as",
    "name",
    default=None,
    metavar="NAME",
    help="The new party's name (its id is made from it).",
)
@db_option
@json_option
def import_command(source: str, name: str | None, db: str | None, as_json: bool) -> None:
    """A party that `affray party export` wrote (FILE, or - for stdin), with its whole
    log, under its own name or --as NAME; it never takes the place of a party that is
    here (docs/exchange.md)."""
    text, where = read_export(source)
    imported = exchange.read_party(text, where)
    if name is not None:
        imported = exchange.renamed(imported, name)
    parties = open_parties(db)
    row = parties.store.restore(
        party_id=imported.id,
        name=imported.name,
        system=imported.system,
        created=imported.created,
        changes=imported.changes,
    )
    if as_json:
        emit_json(
            {"party": row.id, "name": row.name, "system": row.system, "version": imported.version}
        )
        return
    out = console()
    out.print(
        Text.assemble(
            "Party ",
            (row.id, "bold"),
            f" ({row.system}, version {imported.version}) imported into {parties.store.store.path}",
        )
    )
    out.print(Text(f"Next: affray party show {row.id}", style="dim"))
