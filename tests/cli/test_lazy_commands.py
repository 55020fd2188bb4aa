"""affray's own commands load by name (``affray.cli.main.LAZY``), and so do the verbs of
``affray table`` and ``affray party`` (their groups' ``VERBS``): a group's ``--help``
loads none of them, each command loads its own module, and a group's list of commands
says what each command's own help says."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
from collections.abc import Mapping

import click
import pytest
from click.testing import CliRunner

from affray.cli.groups import Lazy, LazyGroup
from affray.cli.main import LAZY, cli, system_commands
from affray.cli.party.group import VERBS as PARTY_VERBS
from affray.cli.party.group import party
from affray.cli.table.group import VERBS as TABLE_VERBS
from affray.cli.table.group import table

GROUPS: dict[str, tuple[click.Group, Mapping[str, Lazy]]] = {
    "": (cli, LAZY),
    "table": (table, TABLE_VERBS),
    "party": (party, PARTY_VERBS),
}
"""affray's lazy groups by their path below ``affray``, with their tables of commands."""

NAMED = [(path, name) for path, (_, lazy) in GROUPS.items() for name in sorted(lazy)]


def label(path: str, name: str) -> str:
    return f"{path} {name}".strip()


@pytest.mark.parametrize(("path", "name"), NAMED, ids=[label(*n) for n in NAMED])
def test_a_commands_summary_is_its_own_helps_first_paragraph(path: str, name: str) -> None:
    group, table_of = GROUPS[path]
    lazy = table_of[name]
    command = getattr(importlib.import_module(lazy.module), lazy.attribute)
    assert isinstance(command, click.Command)
    assert command.name == name
    first = inspect.cleandoc(command.help or "").split("\n\n")[0].replace("\n", " ")
    assert lazy.summary == first, f"{label(path, name)!r}'s summary: copy the command's help"
    assert group.get_command(click.Context(group), name) is command


def test_every_command_is_named_in_the_table() -> None:
    for lazy in LAZY.values():  # every command module loaded: none adds one unnamed
        importlib.import_module(lazy.module)
    assert set(cli.commands) <= set(LAZY) | set(system_commands())


@pytest.mark.parametrize("path", ["table", "party"])
def test_every_verb_of_a_groups_modules_is_named_in_its_table(path: str) -> None:
    """A verb written in one of the group's modules and left out of its table would
    never run: each command a module defines is in the table, by that module."""
    group, lazy = GROUPS[path]
    package = lazy[next(iter(lazy))].module.rpartition(".")[0]
    modules = {m.module for m in lazy.values()}
    assert all(m.startswith(f"{package}.") for m in modules)
    defined = {
        (module, attribute)
        for module in modules
        for attribute, value in vars(importlib.import_module(module)).items()
        if isinstance(value, click.Command) and value.callback is not None
        if value.callback.__module__ == module
    }
    assert defined == {(m.module, m.attribute) for m in lazy.values()}
    assert set(group.commands) <= set(lazy)  # the modules loaded add no verb themselves


def test_every_lazy_group_is_in_the_tests_list() -> None:
    """affray's own groups are all lazy ones, and each is checked here."""
    found = {}
    for name in LAZY:
        command = cli.get_command(click.Context(cli), name)
        if isinstance(command, click.Group):
            found[name] = command
    assert set(found) == set(GROUPS) - {""}
    assert all(isinstance(group, LazyGroup) for group in found.values())
    assert all(found[path] is GROUPS[path][0] for path in found)


@pytest.mark.parametrize(("path", "name"), NAMED, ids=[label(*n) for n in NAMED])
def test_every_named_command_shows_its_help(path: str, name: str) -> None:
    args = [*path.split(), name, "--help"]
    done = CliRunner().invoke(cli, args, prog_name="affray")
    assert done.exit_code == 0, done.output
    assert done.output.startswith(f"Usage: affray {label(path, name)} ")


HEAVY = (
    "affray.table",
    "affray.sim",
    "affray.web",
    "affray.design",
    "affray.explore",
    "pydantic",
    "numpy",
    "starlette",
    "rich",
)
"""What a group's ``--help`` never needs: the table's and the engines' packages, the web
tracker, and the libraries they load."""


def loaded_after(*args: str) -> tuple[list[str], str]:
    """The modules loaded (affray's own CLI modules, and those of :data:`HEAVY`) by
    ``affray ARGS`` run through click's test runner in a fresh process, and its output."""
    probe = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from affray.cli.main import cli\n"
        f"done = CliRunner().invoke(cli, {list(args)!r}, prog_name='affray')\n"
        "assert done.exit_code == 0, (done.exit_code, done.output)\n"
        "print(done.output)\n"
        f"heavy = {HEAVY!r}\n"
        "print(sorted(m for m in sys.modules if m.startswith('affray.cli.')"
        " or any(m == h or m.startswith(h + '.') for h in heavy)))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    *output, last = done.stdout.strip().splitlines()
    return eval(last), "\n".join(output)


CORE = ["affray.cli.groups", "affray.cli.main"]
"""The CLI's modules every command loads: the groups."""


def test_help_loads_no_command() -> None:
    loaded, output = loaded_after("--help")
    assert loaded == sorted([*CORE, "affray.cli.options"]), loaded  # the systems' groups'
    assert all(f"  {name} " in output for name in LAZY)


@pytest.mark.parametrize("path", ["table", "party"])
def test_a_groups_help_loads_none_of_its_verbs(path: str) -> None:
    loaded, output = loaded_after(path, "--help")
    assert loaded == sorted([*CORE, f"affray.cli.{path}", f"affray.cli.{path}.group"]), loaded
    assert all(f"  {name} " in output for name in GROUPS[path][1])


def test_a_verb_loads_its_own_module_and_what_it_runs() -> None:
    """``table show`` loads the table (it runs it), not the simulation's engines nor the
    other verbs' modules; ``table odds`` loads the engines."""
    loaded, _ = loaded_after("table", "show", "--help")
    verbs = {m for m in loaded if m.startswith("affray.cli.table.")}
    assert verbs == {
        "affray.cli.table.group",
        "affray.cli.table.opening",
        "affray.cli.table.reports",
    }, verbs
    assert "affray.table.service" in loaded
    assert not {"numpy", "affray.sim", "starlette", "affray.table.exchange"} & set(loaded)
    loaded, _ = loaded_after("table", "odds", "--help")
    assert {"numpy", "affray.cli.table.odds"} <= set(loaded)
