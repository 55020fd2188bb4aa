"""What the verbs print: a table shown, its log, a change's report and what to do
next."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click
from rich.table import Table
from rich.text import Text

from affray import registry
from affray.cli.options import json_option
from affray.cli.output import console, emit_json, plain, plain_lines, print_lines
from affray.cli.table.opening import db_option, open_table
from affray.narration import narrate
from affray.table import journal
from affray.table.events import TABLE
from affray.table.view import describe, show_data
from affray.table.waiting import moment_words, waiting_words

if TYPE_CHECKING:
    from affray.table import Done, TableRow, Tables


@click.command("show")
@click.argument("table_ref", metavar="TABLE")
@db_option
@json_option
def show_command(table_ref: str, db: str | None, as_json: bool) -> None:
    """The initiative, every combatant's state and conditions, whose turn it is."""
    tables, row = open_table(db, table_ref, write=False)
    fold = tables.fold(row)
    pending = tables.waiting(row)  # the same JSON as the API's GET: what waits too
    data = show_data(row, fold, pending)
    if as_json:
        emit_json(data)
        return
    print_show(data)
    if pending is not None:
        said = waiting_words(pending, fold.state.keys_named())
        print_dim(f"waiting: {said} (the command again with more --rolls goes on with it)")
        held = moment_words(pending)
        if held is not None:
            print_dim(held[0].upper() + held[1:])


@click.command("log")
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
    tables, row = open_table(db, table_ref, write=False)
    fold = tables.fold(row)
    items = journal.entries(tables.store.changes(row.id), fold)
    if as_json or form == "json":
        emit_json({"table": row.id, "version": fold.version, "changes": items})
    elif form == "markdown":
        click.echo(plain_lines(journal.markdown(row, items)), nl=False)
    else:
        click.echo(plain_lines(journal.text(row, items)))


def events_json(done: Done) -> dict[str, Any]:
    return {
        "events": [event.to_dict() for event in done.events],
        "lines": list(done.lines),
    }


def report(tables: Tables, row: TableRow, done: Done, as_json: bool) -> None:
    shown = show_data(row, tables.fold(row))
    if as_json:
        emit_json(
            {
                "version": done.version,
                **events_json(done),
                "round": shown["round"],
                "turn": shown["turn"],
                "phase": shown["phase"],
                "winner": shown["winner"],
                "unused_choices": list(done.unused_choices),
                "faces": list(done.faces),
                "rolled": list(done.rolled),
            }
        )
        return
    print_lines(lines_of(done))
    if done.rolled:  # a face no one at the table rolled is never passed off as theirs
        print_dim(
            "affray rolled: " + "; ".join(f"{f['face']} (the {f['die']})" for f in done.rolled)
        )
    print_dim(whats_next(shown))


def lines_of(done: Done) -> Any:
    return narrate(done.events, registry_system(done.table.system).narration, TABLE)


def registry_system(name: str) -> Any:
    """The rule system called ``name`` (the registry loads it on first use)."""
    return registry.system(name)


def whats_next(shown: dict[str, Any]) -> str:
    table = shown["table"]
    match shown["phase"]:
        case "setup":
            sides = {c["side"] for c in shown.get("combatants", ())}
            if len(sides) >= 2:
                return f"Next: `affray table start {table}` (or add more combatants)"
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


def report_moved(tables: Tables, row: TableRow, done: Done, word: str, as_json: bool) -> None:
    shown = show_data(row, tables.fold(row))
    moved = [{"version": a.version, "what": describe(a.command, done.called)} for a in done.moved]
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
    out = console()
    for item in moved:
        out.print(Text(plain(f"{word}: {item['what']}")))
    print_dim(whats_next(shown))


def print_dim(line: str) -> None:
    """A line of text (names in it too) in the dim style: never read as markup."""
    console().print(Text(plain(line), style="dim"))


NOTES_SHOWN = 20
"""The latest notes `table show` prints (--json has them all)."""


def print_show(data: dict[str, Any]) -> None:
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
            [
                *c.get("effects", []),
                *(
                    k["text"] + (f" (until {k['until']})" if k["until"] else "")
                    for k in c["conditions"]
                ),
            ]
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
    print_dim(whats_next(data))
