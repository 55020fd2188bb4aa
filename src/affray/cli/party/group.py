"""The ``affray party`` group: each verb named by the module beside this one that holds
it (:data:`VERBS`), loaded only when it runs or shows its own ``--help``."""

from __future__ import annotations

import click

from affray.cli.groups import Lazy, LazyGroup

VERBS: dict[str, Lazy] = {
    "add": Lazy(
        "affray.cli.party.verbs",
        "add_command",
        "Add the character of SHEET (a sheet file or a bestiary name) to PARTY, fresh.",
    ),
    "export": Lazy(
        "affray.cli.party.exports",
        "export_command",
        "PARTY as one JSON document (docs/exchange.md): its whole log and its members' "
        "sheets and state, to import on another machine (`affray party import FILE`) or to "
        "read with another tool. With --json and -o: a line saying what was written.",
    ),
    "import": Lazy(
        "affray.cli.party.exports",
        "import_command",
        "A party that `affray party export` wrote (FILE, or - for stdin), with its whole "
        "log, under its own name or --as NAME; it never takes the place of a party that is "
        "here (docs/exchange.md).",
    ),
    "list": Lazy(
        "affray.cli.party.verbs",
        "list_command",
        "The parties in the database.",
    ),
    "new": Lazy(
        "affray.cli.party.verbs",
        "new_command",
        "Make a new, empty party NAME playing SYSTEM.",
    ),
    "rest": Lazy(
        "affray.cli.party.verbs",
        "rest_command",
        "Every member of PARTY after N days of rest, by its system's healing rules.",
    ),
    "show": Lazy(
        "affray.cli.party.verbs",
        "show_command",
        "Every member of PARTY and the state it carries.",
    ),
    "undo": Lazy(
        "affray.cli.party.verbs",
        "undo_command",
        "Take back PARTY's last change (a member added, a rest, a table's end).",
    ),
}
"""The verbs of ``affray party``, each by the module that holds it (a test holds each
summary equal to its verb's own help)."""


@click.group("party", cls=LazyGroup, lazy=VERBS)
def party() -> None:
    """A party: characters who carry their wounds from table to table.

    \b
    affray party new "The Company" --system mst2
    affray party add the-company examples/mst2/knight.json
    affray table add goblin-ambush party:the-company
    affray table end goblin-ambush
    affray party rest the-company --days 3 --seed 7
    affray party show the-company
    """
