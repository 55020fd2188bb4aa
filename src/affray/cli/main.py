"""``affray``: the console script. Thin: options → library calls → output.

Every user error (a bad expression, sheet, option or scripted die) leaves with a
short message on stderr and exit code 2; heavy libraries load only when a
command needs them, so ``affray --help`` is instant.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
from typing import Any

import click

from affray.cli.groups import Lazy, LazyGroup
from affray.errors import AffrayError, DiceError, SheetError


class UserError(click.ClickException):
    """A user error, shown as ``error: ...`` with its tip; exit code 2."""

    exit_code = 2

    def __init__(self, error: AffrayError) -> None:
        super().__init__(error.message)
        self.error = error

    def show(self, file: Any = None) -> None:
        # here, not at the top: the printing (with json, ~5 ms) loads to show an error,
        # and `affray --help` never needs it
        from affray.cli.output import plain_lines

        stream = file or sys.stderr
        click.echo(plain_lines(f"error: {self.error.message}"), file=stream)
        tip = readable(self.error.hint or default_tip(self.error))
        click.echo(plain_lines(f"Tip: {tip}"), file=stream)
        for line in getattr(self.error, "did", ()):  # a command stopped for a die
            click.echo(plain_lines(f"so far: {line.strip()}"), file=stream)


_DOC = re.compile(r"\bdocs/((?:rules/)?[a-z0-9_-]+)\.md\b")


def readable(tip: str) -> str:
    """A tip whose pages can be read where affray is installed: ``docs/sheets.md`` says
    ``affray docs sheets`` beside it (the pages ship with affray)."""
    return _DOC.sub(lambda found: f"{found[0]} (`affray docs {found[1]}`)", tip, count=1)


def default_tip(error: AffrayError) -> str:
    """A tip for an error raised without one, by its kind."""
    if isinstance(error, DiceError):
        return "write dice like 3d6+2, 2d10-(1d4+1), 4d6kh3, 3d6!, 2d6r1 or 6d10>=8 (docs/dice.md)"
    if isinstance(error, SheetError):
        return "docs/sheets.md lists every key of a sheet and what it takes"
    return "add --help to the command to see what it takes"


class Interrupted(Exception):  # noqa: N818 - what the user sees: interrupted
    """Ctrl-C, carried past click (which would print a blank line of its own)."""


COMMANDS = "affray.commands"
"""The entry-point group of the rule systems' own command groups (``mst2 =
"affray.rulesystems.mst2.cli:mst2"``): each is loaded when its commands run or when
``affray --help`` lists it, never to run another command."""


def system_commands() -> dict[str, Any]:
    """The rule systems' command groups by name, as entry points (not loaded):
    affray's own first, so a third party cannot shadow them."""
    # here, not at the top: importlib.metadata (about 25 ms) loads only for the list of
    # commands or a system's group, never to run one of affray's own
    from affray.plugins import points

    return points(COMMANDS)


def _broken(name: str, reason: str) -> click.Command:
    """A command in place of a system's group that failed to load: it says why."""

    def fail() -> None:
        raise AffrayError(
            f"the commands of {name!r} failed to load: {reason}",
            hint="reinstall or fix the package that provides them",
        )

    return click.Command(name, callback=fail, help=f"(failed to load: {reason})")


class AffrayGroup(LazyGroup):
    """A group that turns library errors into clean exits, loads affray's own commands
    by name (:data:`LAZY`), and finds each rule system's own command group through its
    entry point (:data:`COMMANDS`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *system_commands()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            return found
        point = system_commands().get(cmd_name)
        if point is None:
            return None
        try:
            loaded = point.load()
        except Exception as error:  # a third party's bug: say it, do not fall over
            loaded = _broken(cmd_name, f"{type(error).__name__}: {error}")
        if not isinstance(loaded, click.Command):
            loaded = _broken(cmd_name, f"{point.value} is not a click command")
        self.add_command(loaded, cmd_name)
        return loaded

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted from None
        except AffrayError as error:
            raise UserError(error) from None
        except RecursionError:  # defensive: inputs are bounded before this could happen
            raise UserError(AffrayError("input is nested too deeply to process")) from None
        except Exception as error:
            # here, not at the top: only a command that used sqlite3 raises its errors, and
            # it has loaded it; the others (and --help) are spared its ~4 ms
            import sqlite3

            if isinstance(error, sqlite3.Error):  # defensive: the store maps its own
                raise DatabaseFailed(error) from None
            raise


class DatabaseFailed(click.ClickException):
    """An SQLite error the store did not put in words of its own (a damaged file read):
    one plain line and a tip, exit code 1."""

    exit_code = 1

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))

    def show(self, file: Any = None) -> None:
        from affray.cli.output import plain_lines  # as UserError.show's

        stream = file or sys.stderr
        click.echo(plain_lines(f"error: the table database failed: {self.message}"), file=stream)
        click.echo(
            "Tip: check the disk and the file given with --db (or AFFRAY_DB); "
            "restore it from a backup if it is damaged",
            file=stream,
        )


LAZY: dict[str, Lazy] = {
    "day": Lazy(
        "affray.cli.design.day",
        "day_command",
        "A party through a DAY of fights and rests, simulated N times.",
    ),
    "docs": Lazy(
        "affray.cli.docs_command",
        "docs_command",
        "The documentation a tip cites: TOPIC's page (table, sheets, design, rules/mst2 …), "
        "or, without one, every topic with its title. docs/table.md is `affray docs table`.",
    ),
    "duel": Lazy(
        "affray.cli.duel_command", "duel_command", "Who wins a duel between sheets A and B."
    ),
    "examples": Lazy(
        "affray.cli.examples_command",
        "examples_command",
        "Write the example sheets, encounters and sweeps into FOLDER/examples (the README's "
        "lines then run from FOLDER, with `affray` for `.venv/bin/affray`).",
    ),
    "explore": Lazy(
        "affray.cli.explore_command",
        "explore_command",
        "Odds of a duel over a grid of stats: results.csv, heatmap.png, report.html.",
    ),
    "fight": Lazy(
        "affray.cli.fight_command",
        "fight_command",
        "Run and narrate the encounter in a file; or, with -n N, simulate N fights of it.",
    ),
    "frontier": Lazy(
        "affray.cli.design.frontier",
        "frontier_command",
        "Every option of one key of SHEET against each opponent: its mean and worst chance "
        "to win, and which options another beats against every opponent (never worth "
        "taking).",
    ),
    "odds": Lazy(
        "affray.cli.dice_commands",
        "odds_command",
        "Exact distribution of a dice EXPRESSION's total (2d6+1, -1d4, 4d6kh3, 3d6!, "
        "6d10>=8, ...; see docs/dice.md). Several expressions are compared side by side "
        "(affray odds 2d6 1d12); a total against a number is its chance (affray odds "
        '"d20+5>=15").',
    ),
    "party": Lazy(
        "affray.cli.party",
        "party",
        "A party: characters who carry their wounds from table to table.",
    ),
    "roll": Lazy(
        "affray.cli.dice_commands",
        "roll_command",
        "Roll a dice EXPRESSION such as 3d6+2, d%, 2d10-(1d4+1), -1d4, 4d6kh3, 3d6!, 2d6r1 "
        "or 6d10>=8, showing each die: kept or dropped, exploded, rerolled.",
    ),
    "sensitivity": Lazy(
        "affray.cli.design.sensitivity",
        "sensitivity_command",
        "Which key of sheets A and B matters most to A's chance to win; or, of the "
        "encounter file A, which member's count or key matters most to a side's (--for).",
    ),
    "serve": Lazy(
        "affray.cli.serve_command",
        "serve_command",
        "The web tracker: a game master's page and a live player page for each table.",
    ),
    "solve": Lazy(
        "affray.cli.design.solve",
        "solve_command",
        "The value of one key that brings a side's chance to a TARGET, in the duel of "
        "sheets A and B, or in the encounter file A (with --for SIDE).",
    ),
    "table": Lazy(
        "affray.cli.table",
        "table",
        "A tracked fight: people choose and roll, affray keeps the rules and the log.",
    ),
}
"""affray's own commands, each by the module that holds it."""


@click.group(cls=AffrayGroup, lazy=LAZY, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="affray")
def cli() -> None:
    """affray: rules, exact odds and simulation for MST-2 and Midian combat."""


def _terminated(number: int, frame: object) -> None:
    """A SIGTERM (``kill``, a service manager stopping us) unwinds like Ctrl-C does, so
    that worker processes are stopped and files are closed; exit code 128 + 15."""
    raise SystemExit(128 + number)


def _quiet_stdout() -> None:
    """Standard output's reader has gone: what is left to print goes nowhere (Python
    flushes stdout at exit, which would raise again)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file behind stdout: nothing to flush to
        pass


def main() -> None:
    """Entry point of the ``affray`` console script.

    A bug (not a user error) still leaves with one readable line rather than a
    traceback; ``AFFRAY_DEBUG=1`` shows the traceback.
    """
    signal.signal(signal.SIGTERM, _terminated)
    try:
        _run()
    finally:  # the command is done: a Ctrl-C from now on ends the process quietly
        signal.signal(signal.SIGINT, _late_interrupt)


def _late_interrupt(signum: int, frame: object) -> None:
    """A Ctrl-C that comes after the command is done, while Python waits for its
    threads to end (``threading._shutdown``), leaves as "interrupted" would (exit 130)
    instead of printing "Exception ignored in: <module 'threading'>" and a traceback."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(130)


def _run() -> None:
    try:
        code = cli.main(prog_name="affray", standalone_mode=False)
    except click.UsageError as error:  # click's own: a bad option or argument
        if type(error).__name__ == "NoArgsIsHelpError":  # a bare group: its help
            click.echo(error.format_message())
            sys.exit(0)
        click.echo(f"error: {error.format_message()}", err=True)
        where = error.ctx.command_path if error.ctx is not None else "affray"
        click.echo(f"Tip: {where} --help lists its arguments and options", err=True)
        sys.exit(2)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except (Interrupted, click.Abort, KeyboardInterrupt):
        click.echo("interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:  # `affray duel A B | head -1`: the reader has what it wants
        _quiet_stdout()
        sys.exit(0)
    except Exception as error:  # pragma: no cover - only reached through a bug
        if os.environ.get("AFFRAY_DEBUG"):
            raise
        click.echo(
            f"internal error: {type(error).__name__}: {error}\n"
            "This is a bug in affray; run again with AFFRAY_DEBUG=1 for the details.",
            err=True,
        )
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
