"""Printing: rich for people, JSON for programs.

rich (about 40 ms to import) is imported only where it prints: a command's ``--json``,
its error line and ``--help`` never load it. Every other import is at the top.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any

from affray.odds.format import percent as percent
from affray.quoting import unprintable

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from affray.narration import Line

_STYLES = {
    "name": "bold",
    "hit": "green",
    "miss": "yellow",
    "wound": "red",
    "out": "bold red",
    "dim": "dim",
}


def console(*, stderr: bool = False) -> Console:
    return _quiet_console()(stderr=stderr, highlight=False, soft_wrap=True)


@cache
def _quiet_console() -> type[Console]:
    """rich's Console, made to end quietly when its reader goes away (``affray duel A B
    | head -1``): the command's reader had enough (exit 0, where rich's own exits 1)."""
    from rich.console import Console  # rich only where it prints (the module's docstring)

    class Quiet(Console):
        def on_broken_pipe(self) -> None:
            try:
                super().on_broken_pipe()
            except SystemExit:
                raise SystemExit(0) from None

    return Quiet


_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def plain(text: str) -> str:
    """Text as it may reach a terminal: a control or format character (an escape
    sequence, a bell, a carriage return, a line break, a direction override) shown as
    its escape (``\\u001b``, ``\\n``), a code point no encoding can write (a lone
    surrogate) as U+FFFD. Text from files, databases and people goes through it."""
    if text.isprintable():  # the common case, at C speed
        return text

    def one(char: str) -> str:
        if "\ud800" <= char <= "\udfff":
            return "\ufffd"
        if unprintable(char):
            return _ESCAPES.get(char) or f"\\u{ord(char):04x}"
        return char

    return "".join(one(char) for char in text)


def plain_lines(text: str) -> str:
    """:func:`plain` for each line of a text of many lines (the line breaks kept)."""
    return "\n".join(plain(line) for line in text.split("\n"))


def to_float(value: Fraction | float | int) -> float:
    return float(value)


def emit_json(data: Any) -> None:
    """Print ``data`` as JSON (Fractions as floats)."""

    def default(value: Any) -> Any:
        if isinstance(value, Fraction):
            return float(value)
        raise TypeError(f"cannot serialise {type(value).__name__}")

    sys.stdout.write(json.dumps(data, indent=2, default=default) + "\n")


def styled(line: Line) -> Text:
    from rich.text import Text  # rich only where it prints (the module's docstring)

    text = Text()
    for part, style in line:
        text.append(plain(part), style=_STYLES.get(style, ""))
    return text


def print_lines(lines: Iterable[Line]) -> None:
    out = console()
    for line in lines:
        out.print(styled(line))


def table(
    title: str, columns: Sequence[str], rows: Iterable[Sequence[str]], *, bars: bool = False
) -> None:
    """A titled table: first column left, numbers right, a last bar column left if ``bars``.

    Every text is shown as it is: a name such as ``[/]`` is not read as rich markup."""
    # rich only where it prints (the module's docstring)
    from rich.table import Table
    from rich.text import Text

    grid = Table(title=Text(plain(title)), title_justify="left")
    last = len(columns) - 1
    for index, column in enumerate(columns):
        left = index == 0 or (bars and index == last)
        grid.add_column(Text(plain(column)), justify="left" if left else "right")
    for row in rows:
        grid.add_row(*(Text(plain(cell)) for cell in row))
    console().print(grid)


class ProgressBar:
    """A rich progress bar on stderr for long runs at a terminal; silent otherwise."""

    def __init__(self, total: int, label: str, threshold: int = 20_000) -> None:
        self.total = total
        self.label = label
        self.showing = total >= threshold and sys.stderr.isatty()
        self.bar: Any = None

    def __enter__(self) -> Any:
        if not self.showing:
            return lambda done: None
        from rich.progress import Progress  # rich only where it prints (the module's docstring)

        self.bar = Progress(console=console(stderr=True), transient=True)
        self.bar.start()
        task = self.bar.add_task(self.label, total=self.total)
        return lambda done: self.bar.advance(task, done)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
