"""The table: a tracked fight at a real table, with physical dice.

People choose and roll; the rules (through the rule-system door) do the rest.
Every change is one transaction appended to an event log in SQLite
(:mod:`~affray.table.store`); the state is the fold of that log
(:mod:`~affray.table.fold`), so undo and redo of many steps, turns included, are
changes like any other. :class:`Tables` is what the terminal verbs and the web
tracker call.
"""

from affray.table.commands import Act, Add, Command, Edge, Mark, Next, Note, Run, Start, Unmark
from affray.table.service import Done, Tables
from affray.table.state import Phase, Rules, TableState
from affray.table.store import Store, TableRow, default_path

__all__ = [
    "Act",
    "Add",
    "Command",
    "Done",
    "Edge",
    "Mark",
    "Next",
    "Note",
    "Phase",
    "Rules",
    "Run",
    "Start",
    "Store",
    "TableRow",
    "TableState",
    "Tables",
    "Unmark",
    "default_path",
]
