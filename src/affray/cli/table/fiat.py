"""The game master's fiat at the table: set, remove, rename, hide, reveal, move,
mark, unmark, note, allow."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from affray.cli.options import json_option
from affray.cli.table.opening import db_option, expect_option, open_table, pairs_given
from affray.cli.table.reports import report
from affray.table import Edge, Mark, Note, Unmark
from affray.table.commands import Allow, Hide, Move, Remove, Rename, Reveal, Set
from affray.table.submission import Submission, submit


@click.command("set")
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
    values = pairs_given(pairs, flag="KEY=VALUE", example="wounds=2")
    simple_verb(table_ref, db, as_json, Set(who, values), expect)


@click.command("remove")
@click.argument("table_ref", metavar="TABLE")
@click.argument("who")
@expect_option
@db_option
@json_option
def remove_command(
    table_ref: str, who: str, expect: int | None, db: str | None, as_json: bool
) -> None:
    """WHO leaves the table (its turns, engagements and conditions too)."""
    simple_verb(table_ref, db, as_json, Remove(who), expect)


@click.command("rename")
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
    simple_verb(table_ref, db, as_json, Rename(who, name), expect)


@click.command("hide")
@click.argument("table_ref", metavar="TABLE")
@click.argument("who")
@expect_option
@db_option
@json_option
def hide_command(
    table_ref: str, who: str, expect: int | None, db: str | None, as_json: bool
) -> None:
    """Hide WHO from the players (it fights on, for the game master)."""
    simple_verb(table_ref, db, as_json, Hide(who), expect)


@click.command("allow")
@click.argument("table_ref", metavar="TABLE")
@click.argument("pairs", nargs=-1, required=True, metavar="KEY=on|off...")
@expect_option
@db_option
@json_option
def allow_command(
    table_ref: str, pairs: Sequence[str], expect: int | None, db: str | None, as_json: bool
) -> None:
    """What the players may do from now on: players_choose=on (a player's own link
    chooses its combatant's action on its turn) and players_odds=on (their pages show
    the odds of each action); off takes it back. Undo takes it back too."""
    values = pairs_given(pairs, flag="KEY=on|off", example="players_choose=on")
    simple_verb(table_ref, db, as_json, Allow.of(values), expect)


@click.command("reveal")
@click.argument("table_ref", metavar="TABLE")
@click.argument("who")
@expect_option
@db_option
@json_option
def reveal_command(
    table_ref: str, who: str, expect: int | None, db: str | None, as_json: bool
) -> None:
    """Show WHO to the players again."""
    simple_verb(table_ref, db, as_json, Reveal(who), expect)


@click.command("move")
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
    simple_verb(table_ref, db, as_json, Move(who, before, after), expect)


@click.command("mark")
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
    ends = Edge(until) if until else None
    simple_verb(table_ref, db, as_json, Mark(who, condition, ends, of, turns, public), expect)


@click.command("unmark")
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
    simple_verb(table_ref, db, as_json, Unmark(who, condition), expect)


@click.command("note")
@click.argument("table_ref", metavar="TABLE")
@click.argument("text")
@click.option("--about", default=None, metavar="WHO", help="A note on one combatant.")
@expect_option
@db_option
@json_option
def note_command(
    table_ref: str,
    text: str,
    about: str | None,
    expect: int | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Add a line to the table's journal (with --about, the game master's note on one
    combatant: shown beside it on the game master's board; players never see notes)."""
    simple_verb(table_ref, db, as_json, Note(text, about), expect)


def simple_verb(
    table_ref: str, db: str | None, as_json: bool, command: Any, expect: int | None
) -> None:
    tables, row = open_table(db, table_ref)
    done = submit(tables, row, Submission(command.verb, command, expected=expect))
    report(tables, row, done, as_json)
