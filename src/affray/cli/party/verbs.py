"""A party's verbs but its file's: new, add, show, list, rest, undo (a party's file,
exported or imported, is :mod:`affray.cli.party.exports`')."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click
from rich.text import Text

from affray import registry
from affray.cli.options import dice_source, json_option, rolls_option, seed_option, warn_unused
from affray.cli.output import console, emit_json, plain
from affray.cli.table.opening import db_option, folder_is_there, open_tables
from affray.registry import spelled as registry_spelled
from affray.table import party_rules
from affray.table.parties import Parties

if TYPE_CHECKING:
    from affray.table.parties import PartyDone
    from affray.table.party_rules import PartyState
    from affray.table.party_store import PartyRow


def open_parties(db: str | None, *, write: bool = True) -> Parties:
    """The parties of ``--db``; a verb that only reads opens it with ``write=False``
    (nothing made or changed on disk)."""
    return Parties(open_tables(db, write=write))


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
@db_option
@json_option
def new_command(name: str, system: str, db: str | None, as_json: bool) -> None:
    """Make a new, empty party NAME playing SYSTEM."""
    parties = open_parties(db)
    row = parties.new(name, system)
    if as_json:
        emit_json({"party": row.id, "name": row.name, "system": row.system, "version": 0})
        return
    out = console()
    out.print(
        Text.assemble("Party ", (row.id, "bold"), f" ({row.system}) in {parties.store.store.path}")
    )
    out.print(Text(f"Next: affray party add {row.id} SHEET", style="dim"))


@click.command("add")
@click.argument("party_ref", metavar="PARTY")
@click.argument("sheet")
@click.option("--as", "name", default=None, metavar="NAME", help="Its name in the party.")
@db_option
@json_option
def add_command(
    party_ref: str, sheet: str, name: str | None, db: str | None, as_json: bool
) -> None:
    """Add the character of SHEET (a sheet file or a bestiary name) to PARTY, fresh."""
    parties = open_parties(db)
    done = parties.add(parties.party(party_ref), sheet, name)
    if as_json:
        emit_json(
            {"party": done.party.id, "member": done.state.members[-1].id, "version": done.version}
        )
        return
    _echo(done)


@click.command("show")
@click.argument("party_ref", metavar="PARTY")
@db_option
@json_option
def show_command(party_ref: str, db: str | None, as_json: bool) -> None:
    """Every member of PARTY and the state it carries."""
    parties = open_parties(db, write=False)
    row = parties.party(party_ref)
    folded = parties.fold(row)
    data = _show_data(row, folded.version, folded.state)
    if as_json:
        emit_json(data)
        return
    out = console()
    out.print(
        Text.assemble(
            (plain(row.name), "bold"), plain(f" ({row.id}, {row.system}, version {folded.version})")
        )
    )
    if not data["members"]:
        out.print(Text(f"No members yet. Next: affray party add {row.id} SHEET", style="dim"))
    for member in data["members"]:
        state = ", ".join(f"{k}={v}" for k, v in member["state"].items())
        out.print(Text(plain(f"  {member['id']:<20} {state}")))


@click.command("list")
@db_option
@json_option
def list_command(db: str | None, as_json: bool) -> None:
    """The parties in the database."""
    folder_is_there(db)
    parties = open_parties(db, write=False)
    found = parties.store.parties()
    if as_json:
        emit_json(
            {
                "parties": [
                    {
                        "party": row.id,
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
    out = console()
    if not found:
        out.print(Text(f"No parties in {parties.store.store.path}."))
        return
    for row, version in found:
        out.print(Text(plain(f"{row.id:<24} {row.system:<7} version {version:<5} {row.name}")))


@click.command("rest")
@click.argument("party_ref", metavar="PARTY")
@click.option("--days", type=int, required=True, metavar="N", help="Days of rest (1 to 365).")
@click.option(
    "--setting",
    type=click.Choice(["low", "high"]),
    default=None,
    help="The healing setting, for a system whose days of rest take one: low (fantasy, "
    "as written; the default) or high.",
)
@rolls_option
@seed_option
@db_option
@json_option
def rest_command(
    party_ref: str,
    days: int,
    setting: str | None,
    rolls: str | None,
    seed: int | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Every member of PARTY after N days of rest, by its system's healing rules."""
    parties = open_parties(db)
    row = parties.party(party_ref)
    dice = dice_source(rolls, seed)
    options: dict[str, object] = {} if setting is None else {"setting": setting}
    done = parties.rest(row, days, dice, options)
    warn_unused(dice)
    if as_json:
        emit_json({**_show_data(row, done.version, done.state), "lines": list(done.lines)})
        return
    _echo(done)


@click.command("undo")
@click.argument("party_ref", metavar="PARTY")
@db_option
@json_option
def undo_command(party_ref: str, db: str | None, as_json: bool) -> None:
    """Take back PARTY's last change (a member added, a rest, a table's end)."""
    parties = open_parties(db)
    done = parties.undo(parties.party(party_ref))
    if as_json:
        emit_json({**_show_data(done.party, done.version, done.state), "lines": list(done.lines)})
        return
    _echo(done)


# -- helpers ----------------------------------------------------------------------------


def _show_data(row: PartyRow, version: int, state: PartyState) -> dict[str, Any]:
    system = registry.system(row.system)
    ruleset = system.duel_ruleset()
    return {
        "party": row.id,
        "name": row.name,
        "system": row.system,
        "version": version,
        "members": [
            {
                "id": member.id,
                "source": member.source,
                "values": dict(member.values),
                "state": party_rules.carried(
                    system, ruleset, party_rules.solo(system, ruleset, member), member.id
                ),
            }
            for member in state.members
        ],
    }


def _echo(done: PartyDone) -> None:
    for line in done.lines:
        click.echo(plain(line))
    click.echo(plain(f"{done.party.id} is at version {done.version}."))
