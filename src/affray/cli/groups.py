"""Command groups whose commands are named by module (:class:`Lazy`): a command's
module loads only to run it (or to show its own ``--help``), and the group's
``--help`` lists each command by the summary it is named with, loading none.

``affray`` itself (:mod:`affray.cli.main`), ``affray table`` and ``affray party`` are
such groups. A test holds each summary equal to its command's own help.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import click


@dataclass(frozen=True, slots=True)
class Lazy:
    """A command, named by its module: loaded only to run it (or to show its own
    ``--help``), so that a group's ``--help`` and each command load only what they
    need. ``summary`` is its help's first paragraph, for the group's list of commands
    (a test holds it equal to the command's own)."""

    module: str
    attribute: str
    summary: str

    def load(self) -> click.Command:
        """The command itself (its module imported)."""
        command = getattr(importlib.import_module(self.module), self.attribute)
        assert isinstance(command, click.Command)
        return command


class LazyGroup(click.Group):
    """A group whose commands are :class:`Lazy` (``lazy``, by name), each loaded and
    added to the group the first time it is asked for."""

    def __init__(self, *args: Any, lazy: Mapping[str, Lazy] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy: Mapping[str, Lazy] = lazy or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.lazy, *super().list_commands(ctx)})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            return found
        lazy = self.lazy.get(cmd_name)
        if lazy is None:
            return None
        command = lazy.load()
        self.add_command(command, cmd_name)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands in ``--help``: the lazy ones by their summaries (not
        loaded), any other by its own help (loaded)."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            lazy = self.lazy.get(name)
            if lazy is not None and name not in self.commands:
                told = click.Command(name, help=lazy.summary)  # its words, not loaded
                rows.append((name, told.get_short_help_str(limit)))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
