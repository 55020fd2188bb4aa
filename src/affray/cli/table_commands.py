"""``affray table …``: a tracked fight at a real table (SPEC.md, "The table").

Thin: options → :class:`affray.table.Tables` → output. Every verb takes ``--db``
(default: the user's data directory, or ``AFFRAY_DB``) and ``--json``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from affray.cli.options import json_option, seed_option
from affray.cli.output import console, emit_json, plain, plain_lines, print_lines

if TYPE_CHECKING:
    from affray.table import Done, TableRow, Tables

F = TypeVar("F", bound=Callable[..., Any])

db_option = click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=str),
    default=None,
    metavar="PATH",
    help="The table database (default: AFFRAY_DB, or tables.db in your data directory).",
)
expect_option = click.option(
    "--expect",
    type=click.IntRange(min=0),
    default=None,
    metavar="VERSION",
    help="Refuse (and change nothing) unless the table is at this version.",
)


def dice_options(function: F) -> F:
    """``--rolls``, ``--no-roll``, ``--choose`` and ``--seed``: what answers the rules."""
    for option in reversed(
        (
            click.option(
                "--rolls",
                metavar="R,R,...",
                default=None,
                help="Faces rolled at the table, in the order the rules roll them; "
                "dice after them are rolled for you.",
            ),
            click.option(
                "--no-roll",
                is_flag=True,
                help="Roll nothing for me: stop and say which die comes next.",
            ),
            click.option(
                "--choose",
                "choices",
                multiple=True,
                metavar="[WHO:]TOPIC=CHOICE",
                help="Answer a question of the rules: TOPIC=CHOICE answers every question "
                "of that topic (defence=dodge), WHO:TOPIC=CHOICE only WHO's "
                "(Bram:stance=defensive); the rest go to the combatants' tactics.",
            ),
            seed_option,
        )
    ):
        function = option(function)
    return function


def _tables(db: str | None, *, write: bool = True) -> Tables:
    """The tables of ``--db`` (or the default database). A verb that only reads opens
    it with ``write=False``: it makes and changes nothing on disk, and never waits for
    another writer. A write that waits for one says so on stderr."""
    from affray.table import Store, Tables
    from affray.table.db import chosen_path

    path, make_folder = chosen_path(db)
    store = Store(path, readonly=not write, waiting=_say_waiting, make_folder=make_folder and write)
    context = click.get_current_context(silent=True)
    if context is not None:  # closed with the command (its connections with it)
        context.call_on_close(store.close)
    return Tables(store)


def _say_waiting(message: str) -> None:
    click.echo(plain(message), err=True)


@click.group("table")
def table() -> None:
    """A tracked fight: people choose and roll, affray keeps the rules and the log.

    \b
    affray table new "Goblin ambush" --system mst2
    affray table add goblin-ambush examples/mst2/knight.json --side heroes
    affray table add goblin-ambush ogre --side monsters
    affray table start goblin-ambush
    affray table act goblin-ambush Knight attack Ogre --rolls 14,5,2,6
    affray table undo goblin-ambush
    """


@table.command("new")
@click.argument("name")
@click.option(
    "--system",
    "system",
    required=True,
    metavar="SYSTEM",
    help="The rule system: mst2, midian, or one a plug-in adds.",
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
    tables = _tables(db)
    row = tables.new(name, system, _options(options))
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


@table.command("add")
@click.argument("table_ref", metavar="TABLE")
@click.argument("sheet")
@click.option("--side", default=None, help="Its side (default: a side of its own).")
@click.option("--as", "name", default=None, metavar="NAME", help="Its name at the table.")
@click.option(
    "--tactics",
    default="nearest",
    show_default=True,
    help="Who it goes for when no one chooses for it (nearest, weakest, strongest, random).",
)
@click.option(
    "--player", is_flag=True, help="A player's character (the player page shows its side)."
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
    expect: int | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Add the combatant of SHEET (a sheet file or a bestiary name) to TABLE; or,
    with SHEET party:PARTY, every member of that party with the state it carries, on
    one side named after the party."""
    tables = _tables(db)
    row = tables.table(table_ref)
    if sheet.startswith("party:"):
        _add_party(tables, row, sheet, side, name, tactics, expect, as_json)
        return
    command = tables.joining(row, sheet, side=side, name=name, tactics=tactics, player=player)
    done = tables.run(row, command, expected=expect)
    if as_json:
        emit_json({"combatant": command.combatant, "version": done.version, **_events(done)})
        return
    print_lines(_lines(done))


def _add_party(
    tables: Tables,
    row: TableRow,
    sheet: str,
    side: str | None,
    name: str | None,
    tactics: str,
    expect: int | None,
    as_json: bool,
) -> None:
    from affray.errors import TableError
    from affray.table.commands import Add
    from affray.table.parties import PREFIX, Parties

    if side is not None or name is not None:
        raise TableError(
            "a party comes to the table on its own side, each member with its own name",
            hint=f"leave out --side and --as with {sheet}",
        )
    commands = Parties(tables).joining(row, sheet[len(PREFIX) :], tactics=tactics)
    dones = tables.run_all(row, commands, expect)
    if as_json:
        emit_json(
            {
                "combatants": [c.combatant for c in commands if isinstance(c, Add)],
                "version": dones[-1].version,
                "events": [e.to_dict() for d in dones for e in d.events],
            }
        )
        return
    print_lines([line for done in dones for line in _lines(done)])


@table.command("end")
@click.argument("table_ref", metavar="TABLE")
@db_option
@json_option
def end_command(table_ref: str, db: str | None, as_json: bool) -> None:
    """Write the state of TABLE's party members back to their parties (one change of
    each party; `affray party undo PARTY` takes it back)."""
    from affray.table.parties import Parties

    tables = _tables(db)
    row = tables.table(table_ref)
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


@table.command("import")
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
    from pathlib import Path

    from affray.errors import TableError
    from affray.sheets.documents import load_document

    if encounter is None:
        _import_export(table_ref, name, db, as_json)
        return
    if name is not None:
        raise TableError(
            "--as names a table imported from an export; an encounter's members keep "
            "their own names",
            hint=f"leave out --as, or import an export alone: affray table import FILE --as {name}",
        )
    from affray.cli.exchange_commands import looks_like_export

    if looks_like_export(encounter):
        raise TableError(
            f"{encounter} is an affray export, not an encounter file",
            hint=f"an export is a table of its own: affray table import {encounter} [--as NAME]",
        )
    tables = _tables(db)
    row = tables.table(table_ref)
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
    from affray.narration import narrate
    from affray.table.events import TABLE

    told = registry_system(row.system).narration
    print_lines(narrate([e for done in dones for e in done.events], told, TABLE))


def _import_export(source: str, name: str | None, db: str | None, as_json: bool) -> None:
    from affray.cli.exchange_commands import read_export
    from affray.table import exchange

    text, where = read_export(source)
    imported = exchange.read_table(text, where)
    if name is not None:
        imported = exchange.renamed(imported, name)
    tables = _tables(db)
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
    from rich.text import Text

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


@table.command("export")
@click.argument("table_ref", metavar="TABLE")
@click.option(
    "-o",
    "--out",
    "out",
    type=click.Path(dir_okay=False, path_type=str),
    default=None,
    metavar="FILE",
    help="Write it to FILE (default: stdout).",
)
@db_option
@json_option
def export_command(table_ref: str, out: str | None, db: str | None, as_json: bool) -> None:
    """TABLE as one JSON document (docs/exchange.md): its rules, its whole log (every
    change with its dice and answers), its combatants' sheets and its state, to import
    on another machine (`affray table import FILE`) or to read with another tool. With
    --json and -o: a line saying what was written."""
    from affray.cli.exchange_commands import STDIO, write_export
    from affray.table import exchange

    tables = _tables(db, write=False)
    row = tables.table(table_ref)
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


@table.command("start")
@click.argument("table_ref", metavar="TABLE")
@dice_options
@expect_option
@db_option
@json_option
def start_command(table_ref: str, db: str | None, as_json: bool, **given: Any) -> None:
    """Start round 1 (rolling initiative, where the system has it)."""
    from affray.table import Start

    _play(table_ref, db, as_json, Start(), **given)


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

    _play(table_ref, db, as_json, Act(actor, action, target), **given)


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

    _play(table_ref, db, as_json, Next(), **given)


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
    _play(
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
    help="Simulated fights from here, and as many after each action open now (where "
    "the odds are not exact); default 20,000 on a fast engine, 1,000 on the reference "
    "engine.",
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
    from affray.cli.output import ProgressBar, table
    from affray.encounter import Phase
    from affray.sim.fights import FightOdds
    from affray.table.odds import default_fights, table_odds

    tables = _tables(db, write=False)
    row = tables.table(table_ref)
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
    if count is None:
        count = default_fights(fold.rules, state)
    progress = ProgressBar(count * (1 + turns), "fights", threshold=500)
    announce = announcer("fight") if as_json or not progress.showing else None
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
                        f"{side} wins",
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
                *((f"{side} wins", f"{p * 100:.2f}%") for side, p in found.wins.items()),
                ("draw", f"{found.draw * 100:.2f}%"),
            ],
        )
    if found.actions:
        best = max(a.p_win for a in found.actions)
        digits = 1 if found.n is not None else 2
        table(
            f"{found.who}'s move: {found.side}'s chance to win after each",
            ("action", f"{found.side} wins", ""),
            [
                (a.label, f"{a.p_win * 100:.{digits}f}%", "best" if a.p_win == best else "")
                for a in found.actions
            ],
        )


@table.command("set")
@click.argument("table_ref", metavar="TABLE")
@click.argument("who")
@click.argument("pairs", nargs=-1, required=True, metavar="KEY=VALUE...")
@expect_option
@db_option
@json_option
def set_command(
    table_ref: str,
    who: str,
    pairs: Sequence[str],
    expect: int | None,
    db: str | None,
    as_json: bool,
) -> None:
    """The game master's fiat: set WHO's state, KEY any key of `table show`'s state
    (e.g. wounds=2) or condition (one of the table's system's conditions, e.g.
    condition=out: a word it does not take is refused with the list)."""
    from affray.table.commands import Set

    values = _options(pairs, flag="KEY=VALUE", example="wounds=2")
    _simple(table_ref, db, as_json, Set(who, values), expect)


@table.command("remove")
@click.argument("table_ref", metavar="TABLE")
@click.argument("who")
@expect_option
@db_option
@json_option
def remove_command(
    table_ref: str, who: str, expect: int | None, db: str | None, as_json: bool
) -> None:
    """WHO leaves the table (its turns, engagements and conditions too)."""
    from affray.table.commands import Remove

    _simple(table_ref, db, as_json, Remove(who), expect)


@table.command("rename")
@click.argument("table_ref", metavar="TABLE")
@click.argument("who")
@click.argument("name")
@expect_option
@db_option
@json_option
def rename_command(
    table_ref: str, who: str, name: str, expect: int | None, db: str | None, as_json: bool
) -> None:
    """WHO is called NAME from now on."""
    from affray.table.commands import Rename

    _simple(table_ref, db, as_json, Rename(who, name), expect)


@table.command("hide")
@click.argument("table_ref", metavar="TABLE")
@click.argument("who")
@expect_option
@db_option
@json_option
def hide_command(
    table_ref: str, who: str, expect: int | None, db: str | None, as_json: bool
) -> None:
    """Hide WHO from the players (it fights on, for the game master)."""
    from affray.table.commands import Hide

    _simple(table_ref, db, as_json, Hide(who), expect)


@table.command("reveal")
@click.argument("table_ref", metavar="TABLE")
@click.argument("who")
@expect_option
@db_option
@json_option
def reveal_command(
    table_ref: str, who: str, expect: int | None, db: str | None, as_json: bool
) -> None:
    """Show WHO to the players again."""
    from affray.table.commands import Reveal

    _simple(table_ref, db, as_json, Reveal(who), expect)


@table.command("move")
@click.argument("table_ref", metavar="TABLE")
@click.argument("who")
@click.option("--before", "before", metavar="OTHER", default=None, help="Just before OTHER's turn.")
@click.option("--after", "after", metavar="OTHER", default=None, help="Just after OTHER's turn.")
@expect_option
@db_option
@json_option
def move_command(
    table_ref: str,
    who: str,
    before: str | None,
    after: str | None,
    expect: int | None,
    db: str | None,
    as_json: bool,
) -> None:
    """WHO's next turn this round comes just before (--before) or after (--after)
    OTHER's; moving the combatant whose turn it is puts its turn off."""
    from affray.table.commands import Move

    _simple(table_ref, db, as_json, Move(who, before, after), expect)


@table.command("link")
@click.argument("table_ref", metavar="TABLE")
@click.argument("who")
@click.option(
    "--base",
    default="http://127.0.0.1:8000",
    show_default=True,
    help="Where `affray serve` answers, for the link.",
)
@db_option
@json_option
def link_command(table_ref: str, who: str, base: str, db: str | None, as_json: bool) -> None:
    """A link for WHO's player: the player page, plus a form to answer the dice and
    questions the rules put to WHO. A new link revokes the old one."""
    tables = _tables(db)
    row = tables.table(table_ref)
    cid, token = tables.link(row, who)
    url = f"{base.rstrip('/')}/p/{row.id}?token={token}"
    if as_json:
        emit_json({"url": url, "token": token, "combatant": cid})
        return
    click.echo(f"{cid}'s player: {url}")


@table.command("mark")
@click.argument("table_ref", metavar="TABLE")
@click.argument("who")
@click.argument("condition")
@click.option(
    "--until",
    type=click.Choice(["start", "end"]),
    default=None,
    help="It ends at the start or end of a turn (default: when removed).",
)
@click.option("--of", "of", default=None, metavar="NAME", help="Whose turn (default: WHO's).")
@click.option("--turns", type=click.IntRange(min=1, max=1000), default=1, show_default=True)
@click.option(
    "--public",
    is_flag=True,
    help="The players see it on WHO even when WHO is not of their side.",
)
@expect_option
@db_option
@json_option
def mark_command(
    table_ref: str,
    who: str,
    condition: str,
    until: str | None,
    of: str | None,
    turns: int,
    public: bool,
    expect: int | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Put CONDITION (prone, blessed, on fire, ...) on WHO, for as long as you say."""
    from affray.table import Edge, Mark

    ends = Edge(until) if until else None
    _simple(table_ref, db, as_json, Mark(who, condition, ends, of, turns, public), expect)


@table.command("unmark")
@click.argument("table_ref", metavar="TABLE")
@click.argument("who")
@click.argument("condition")
@expect_option
@db_option
@json_option
def unmark_command(
    table_ref: str, who: str, condition: str, expect: int | None, db: str | None, as_json: bool
) -> None:
    """Take CONDITION off WHO."""
    from affray.table import Unmark

    _simple(table_ref, db, as_json, Unmark(who, condition), expect)


@table.command("note")
@click.argument("table_ref", metavar="TABLE")
@click.argument("text")
@expect_option
@db_option
@json_option
def note_command(
    table_ref: str, text: str, expect: int | None, db: str | None, as_json: bool
) -> None:
    """Add a line to the table's journal."""
    from affray.table import Note

    _simple(table_ref, db, as_json, Note(text), expect)


@table.command("show")
@click.argument("table_ref", metavar="TABLE")
@db_option
@json_option
def show_command(table_ref: str, db: str | None, as_json: bool) -> None:
    """The initiative, every combatant's state and conditions, whose turn it is."""
    from affray.table.view import show_data

    tables = _tables(db, write=False)
    row = tables.table(table_ref)
    data = show_data(row, tables.fold(row))
    if as_json:
        emit_json(data)
        return
    _print_show(data)


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
    tables = _tables(db)
    row = tables.table(table_ref)
    _moved(tables, row, tables.undo(row, steps, expect), "undone", as_json)


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
    tables = _tables(db)
    row = tables.table(table_ref)
    _moved(tables, row, tables.redo(row, steps, expect), "redone", as_json)


@table.command("log")
@click.argument("table_ref", metavar="TABLE")
@click.option(
    "--format",
    "form",
    type=click.Choice(["text", "markdown", "json"]),
    default="text",
    show_default=True,
)
@db_option
@json_option
def log_command(table_ref: str, form: str, db: str | None, as_json: bool) -> None:
    """Every change of TABLE in order (Markdown: a journal to paste into your notes)."""
    from affray.table import journal

    tables = _tables(db, write=False)
    row = tables.table(table_ref)
    fold = tables.fold(row)
    items = journal.entries(tables.store.changes(row.id), fold)
    if as_json or form == "json":
        emit_json({"table": row.id, "version": fold.version, "changes": items})
    elif form == "markdown":
        click.echo(plain_lines(journal.markdown(row, items)), nl=False)
    else:
        click.echo(plain_lines(journal.text(row, items)))


@table.command("list")
@db_option
@json_option
def list_command(db: str | None, as_json: bool) -> None:
    """The tables in the database."""
    tables = _tables(db, write=False)
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


# -- helpers ----------------------------------------------------------------------------


def _options(
    pairs: Sequence[str], *, flag: str = "--option", example: str = "--option order=shuffled"
) -> dict[str, Any]:
    """``KEY=VALUE`` pairs, each value read as TOML (a number, a word, a list)."""
    from affray.table.commands import parse_pairs

    return parse_pairs(pairs, flag=flag, example=example)


def _play(
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
    tables = _tables(db)
    row = tables.table(table_ref)
    done = tables.run(
        row,
        command,
        rolls=faces,
        choices=choices,
        seed=seed,
        roll_missing=not no_roll,
        expected=expect,
    )
    if done.unused_choices:
        click.echo("note: no question asked for: " + ", ".join(done.unused_choices), err=True)
    if done.note:
        click.echo(f"note: {done.note}", err=True)
    _report(tables, row, done, as_json)


def _simple(
    table_ref: str, db: str | None, as_json: bool, command: Any, expect: int | None
) -> None:
    tables = _tables(db)
    row = tables.table(table_ref)
    _report(tables, row, tables.run(row, command, expected=expect), as_json)


def _events(done: Done) -> dict[str, Any]:
    return {
        "events": [event.to_dict() for event in done.events],
        "lines": list(done.lines),
    }


def _report(tables: Tables, row: TableRow, done: Done, as_json: bool) -> None:
    from affray.table.view import show_data

    shown = show_data(row, tables.fold(row))
    if as_json:
        emit_json(
            {
                "version": done.version,
                **_events(done),
                "round": shown["round"],
                "turn": shown["turn"],
                "phase": shown["phase"],
                "winner": shown["winner"],
                "unused_choices": list(done.unused_choices),
            }
        )
        return
    print_lines(_lines(done))
    _print_dim(_whats_next(shown))


def _lines(done: Done) -> Any:
    from affray.narration import narrate
    from affray.table.events import TABLE

    return narrate(done.events, registry_system(done.table.system).narration, TABLE)


def registry_system(name: str) -> Any:
    """The rule system called ``name`` (the registry loads it on first use)."""
    from affray import registry

    return registry.system(name)


def _whats_next(shown: dict[str, Any]) -> str:
    table = shown["table"]
    match shown["phase"]:
        case "setup":
            return f"Next: add combatants, then `affray table start {table}`"
        case "turn":
            return f"Round {shown['round']}: {shown['turn']}'s turn"
        case "round over":
            return (
                f"Round {shown['round']} is over: `affray table next {table}` "
                f"starts round {shown['round'] + 1}"
            )
        case _:
            won = shown["winner"]
            return f"The fight is over: {won} won" if won else "The fight is over: no one is left"


def _moved(tables: Tables, row: TableRow, done: Done, word: str, as_json: bool) -> None:
    from affray.table.view import describe, show_data

    shown = show_data(row, tables.fold(row))
    moved = [{"version": a.version, "what": describe(a.command)} for a in done.moved]
    if as_json:
        emit_json(
            {
                "version": done.version,
                word: moved,
                "round": shown["round"],
                "turn": shown["turn"],
                "phase": shown["phase"],
            }
        )
        return
    from rich.text import Text

    out = console()
    for item in moved:
        out.print(Text(plain(f"{word}: {item['what']}")))
    _print_dim(_whats_next(shown))


def _print_dim(line: str) -> None:
    """A line of text (names in it too) in the dim style: never read as markup."""
    from rich.text import Text

    console().print(Text(plain(line), style="dim"))


NOTES_SHOWN = 20
"""The latest notes `table show` prints (--json has them all)."""


def _print_show(data: dict[str, Any]) -> None:
    from rich.table import Table
    from rich.text import Text

    out = console()
    out.print(
        Text.assemble(
            (plain(data["name"]), "bold"),
            plain(f" ({data['system']}) · round {data['round']} · version {data['version']}"),
        )
    )
    keys = list(  # the system's figures, one column each (true/false: the condition says it)
        dict.fromkeys(
            k for c in data["combatants"] for k, v in c["state"].items() if not isinstance(v, bool)
        )
    )
    grid = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    for column in ("", "combatant", "side", "condition"):
        grid.add_column(column, no_wrap=True)
    for key in keys:
        words = plain(key.replace("_", " "))
        grid.add_column(Text(words), justify="right", min_width=max(map(len, words.split())))
    grid.add_column("conditions", min_width=10)
    for c in data["combatants"]:
        kept = "; ".join(
            k["text"] + (f" (until {k['until']})" if k["until"] else "") for k in c["conditions"]
        )
        grid.add_row(
            "▶" if c["id"] == data["turn"] else "",
            Text(plain(c["id"]), style="bold"),
            Text(plain(c["side"])),
            Text(plain(c["condition"])),
            *(Text(plain(str(c["state"].get(key, "")))) for key in keys),
            Text(plain(kept)),
            style="" if c["condition"] in ("fighting", "conscious") else "dim",
        )
    out.print(grid)
    if data["order"]:
        out.print(Text(plain(f"Round {data['round']} order: " + " · ".join(data["order"]))))
    if data["queue"]:
        out.print(Text(plain("Still to act this round: " + ", ".join(data["queue"])), style="dim"))
    notes = data["notes"]
    if len(notes) > NOTES_SHOWN:
        earlier = len(notes) - NOTES_SHOWN
        out.print(
            Text(
                f"({earlier:,} earlier notes: `affray table log {data['table']}`, or --json)",
                style="dim",
            )
        )
    if notes:
        shown = "\n".join(plain(f"Note: {note}") for note in notes[-NOTES_SHOWN:])
        out.print(Text(shown, style="dim"))
    _print_dim(_whats_next(data))
