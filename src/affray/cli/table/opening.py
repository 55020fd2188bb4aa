"""What every ``affray table`` verb shares: ``--db``, ``--expect``, the dice options,
and the tables of the database opened (and closed with the command)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

from affray.cli.options import seed_option
from affray.cli.output import plain
from affray.errors import TableError
from affray.table import Store, TableRow, Tables
from affray.table.commands import parse_pairs
from affray.table.db import chosen_path

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
    """``--rolls``, ``--roll-rest``, ``--no-roll``, ``--choose`` and ``--seed``: what
    answers the rules."""
    for option in reversed(
        (
            click.option(
                "--rolls",
                metavar="R,R,...",
                default=None,
                help="Faces rolled at the table, in the order the rules roll them. A "
                "command given some faces but not all waits for the next die (exit 2 "
                "naming it) unless --roll-rest; given none, affray rolls them all.",
            ),
            click.option(
                "--roll-rest",
                is_flag=True,
                help="Roll the dice after the faces of --rolls for me.",
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


def open_tables(db: str | None, *, write: bool = True) -> Tables:
    """The tables of ``--db`` (or the default database). A verb that only reads opens
    it with ``write=False``: it makes and changes nothing on disk, and never waits for
    another writer. A write that waits for one says so on stderr."""
    path, make_folder = chosen_path(db)
    store = Store(path, readonly=not write, waiting=_say_waiting, make_folder=make_folder and write)
    context = click.get_current_context(silent=True)
    if context is not None:  # closed with the command (its connections with it)
        context.call_on_close(store.close)
    return Tables(store)


def folder_is_there(db: str | None) -> None:
    """Nothing, when the database of ``--db`` (or the default) is there, or at least its
    folder is (a list of it is then empty).

    Raises:
        TableError: neither is: a path mistyped (``AFFRAY_DB``), not an empty list.
    """
    path, _ = chosen_path(db)
    if not path.exists() and not path.parent.is_dir():
        raise TableError(
            f"no database at {path}: its folder {path.parent} does not exist",
            hint="check --db (or AFFRAY_DB); `affray table new` makes a database, and its folder",
        )


def open_table(db: str | None, ref: str, *, write: bool = True) -> tuple[Tables, TableRow]:
    """The tables of ``--db`` and the table ``ref`` names (an id, or a name): a verb's
    one call to open, resolve, and (with the command) close.

    Raises:
        TableError: no table is called that (the tables there are listed).
    """
    tables = open_tables(db, write=write)
    return tables, tables.table(ref)


def _say_waiting(message: str) -> None:
    click.echo(plain(message), err=True)


def pairs_given(
    pairs: Sequence[str], *, flag: str = "--option", example: str = "--option order=shuffled"
) -> dict[str, Any]:
    """``KEY=VALUE`` pairs, each value read as TOML (a number, a word, a list)."""
    return parse_pairs(pairs, flag=flag, example=example)
