"""affray's own commands load by name (``affray.cli.main.LAZY``): ``affray --help`` loads
none of them, each command loads its own module, and the list of commands says what
each command's own help says."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys

import click
import pytest

from affray.cli.main import LAZY, cli, system_commands


@pytest.mark.parametrize("name", sorted(LAZY))
def test_a_commands_summary_is_its_own_helps_first_paragraph(name: str) -> None:
    lazy = LAZY[name]
    command = getattr(importlib.import_module(lazy.module), lazy.attribute)
    assert isinstance(command, click.Command)
    first = inspect.cleandoc(command.help or "").split("\n\n")[0].replace("\n", " ")
    assert lazy.summary == first, f"LAZY[{name!r}].summary: copy the command's help"
    assert cli.get_command(click.Context(cli), name) is command


def test_every_command_is_named_in_the_table() -> None:
    for lazy in LAZY.values():  # every command module loaded: none adds one unnamed
        importlib.import_module(lazy.module)
    assert set(cli.commands) <= set(LAZY) | set(system_commands())


def test_help_loads_no_command() -> None:
    probe = (
        "import sys\n"
        "from affray.cli.main import cli\n"
        "try:\n"
        "    cli(['--help'], standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('affray.cli.', 'affray.table',"
        " 'affray.design', 'affray.web', 'affray.explore'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded = eval(done.stdout.strip().splitlines()[-1])
    assert loaded == ["affray.cli.main", "affray.cli.options"], loaded
    assert all(name in done.stdout for name in LAZY)
