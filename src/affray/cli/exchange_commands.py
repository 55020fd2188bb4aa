"""The files of ``affray table export/import`` and ``affray party export/import``
(docs/exchange.md): reading an export (a file, or ``-`` for stdin) and writing one
(a file, whole or not at all, or stdout). The format is
:mod:`affray.table.exchange`'s."""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

import click

from affray.table.exchange import MAX_CHARACTERS, ExchangeError

STDIO = "-"
_EXPORT_START = re.compile(rb'^\s*\{\s*"format"\s*:\s*"affray"')


def read_export(path: str) -> tuple[str, str]:
    """The text of an export, and what to call it in messages.

    Raises:
        ExchangeError: no such file, unreadable, too large, or not UTF-8.
    """
    if path == STDIO:
        raw, where = sys.stdin.buffer.read(MAX_CHARACTERS + 1), "<stdin>"
    else:
        file, where = Path(path), path
        try:
            if not file.is_file():
                raise ExchangeError(
                    "no such file" if not file.exists() else "not a file",
                    path=where,
                    hint="check the path (or give - to read the export from stdin)",
                )
            with file.open("rb") as stream:
                raw = stream.read(MAX_CHARACTERS + 1)
        except OSError as error:
            raise ExchangeError(
                f"cannot read the file ({error.strerror or error})", path=where
            ) from None
    if len(raw) > MAX_CHARACTERS:
        raise ExchangeError(
            f"the file is larger than {MAX_CHARACTERS:,} bytes",
            path=where,
            hint="an export of even a long campaign is a few megabytes",
        )
    try:
        return raw.decode("utf-8-sig"), where
    except UnicodeDecodeError as error:
        raise ExchangeError(
            f"not UTF-8 text (byte {error.start})",
            path=where,
            hint="an export is the JSON affray writes, in UTF-8",
        ) from None


def looks_like_export(path: str) -> bool:
    """Whether the file starts as affray's exports do (``{"format": "affray"``)."""
    try:
        with Path(path).open("rb") as stream:
            return _EXPORT_START.match(stream.read(256)) is not None
    except OSError:
        return False


out_option = click.option(
    "-o",
    "--out",
    "out",
    type=click.Path(dir_okay=False, path_type=str),
    default=None,
    metavar="FILE",
    help="Write it to FILE (default: stdout).",
)
"""An export's ``-o FILE`` (a table's, a party's)."""


def write_export(text: str, out: str | None) -> None:
    """``text`` to stdout (no ``out``, or ``-``), or to the file ``out``: written beside
    it first, then put in its place, so that a file is never left half written.

    Raises:
        ExchangeError: the file cannot be written.
    """
    if out is None or out == STDIO:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    target = Path(out)
    try:
        handle, temporary = tempfile.mkstemp(
            dir=target.resolve().parent, prefix=f".{target.name}.", suffix=".tmp"
        )
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
                stream.write(text)
                stream.flush()
                os.fsync(stream.fileno())
            os.chmod(temporary, _mode(target))
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        raise ExchangeError(
            f"cannot write the file ({error.strerror or error})",
            path=out,
            hint="give -o a file in a directory you can write to",
        ) from None


def _mode(target: Path) -> int:
    """The permissions a file written in place of ``target`` gets: its own if it is
    there, else those of a new file (the umask's)."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
