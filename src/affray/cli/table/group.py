"""The ``affray table`` group: each verb named by the module beside this one that holds
it (:data:`VERBS`), loaded only when it runs or shows its own ``--help``."""

from __future__ import annotations

import click

from affray.cli.groups import Lazy, LazyGroup

VERBS: dict[str, Lazy] = {
    "act": Lazy(
        "affray.cli.table.play",
        "act_command",
        "ACTOR, whose turn it is, takes ACTION (at TARGET): attack, shoot, flee, hold, ...",
    ),
    "add": Lazy(
        "affray.cli.table.setup",
        "add_command",
        "Add the combatant of SHEET (a sheet file or a bestiary name) to TABLE (or N of it "
        "with --count); or, with SHEET party:PARTY, every member of that party with the "
        "state it carries, on one side named after the party.",
    ),
    "allow": Lazy(
        "affray.cli.table.fiat",
        "allow_command",
        "What the players may do from now on: players_choose=on (a player's own link chooses "
        "its combatant's action on its turn) and players_odds=on (their pages show the odds "
        "of each action); off takes it back. Undo takes it back too.",
    ),
    "end": Lazy(
        "affray.cli.table.setup",
        "end_command",
        "Write the state of TABLE's party members back to their parties (one change of each "
        "party; `affray party undo PARTY` takes it back).",
    ),
    "export": Lazy(
        "affray.cli.table.exports",
        "export_command",
        "TABLE as one JSON document (docs/exchange.md): its rules, its whole log (every "
        "change with its dice and answers), its combatants' sheets and its state, to import "
        "on another machine (`affray table import FILE`) or to read with another tool. With "
        "--json and -o: a line saying what was written.",
    ),
    "hazard": Lazy(
        "affray.cli.table.play",
        "hazard_command",
        "The game master brings a hazard of the table's system on WHO: KIND and its "
        "KEY=VALUE, e.g. fall feet=30, or a fire that burns at the end of every round until "
        "put out, where the system has one (`table hazards TABLE` lists the system's hazards "
        "and their keys). Its dice come from --rolls, as an action's do; `undo` takes it "
        "back.",
    ),
    "hazards": Lazy(
        "affray.cli.table.play",
        "hazards_command",
        "The hazards the table's system lets the game master bring on a combatant, with the "
        "keys each takes.",
    ),
    "hide": Lazy(
        "affray.cli.table.fiat",
        "hide_command",
        "Hide WHO from the players (it fights on, for the game master).",
    ),
    "import": Lazy(
        "affray.cli.table.exports",
        "import_command",
        "TABLE ENCOUNTER: add everyone in an ENCOUNTER file to TABLE (its sides, counts, "
        "names and tactics). EXPORT alone: a table that `affray table export` wrote (a file, "
        "or - for stdin), as a new table with its whole log, under its own name or --as "
        "NAME; it never takes the place of a table that is here (docs/exchange.md).",
    ),
    "link": Lazy(
        "affray.cli.table.setup",
        "link_command",
        "A link for WHO's player: the player page, plus a form to answer the dice and "
        "questions the rules put to WHO (and to play WHO's turns, when the game master "
        "allows it). A new link revokes the old one.",
    ),
    "list": Lazy(
        "affray.cli.table.setup",
        "list_command",
        "The tables in the database.",
    ),
    "log": Lazy(
        "affray.cli.table.reports",
        "log_command",
        "Every change of TABLE in order (Markdown: a journal to paste into your notes).",
    ),
    "mark": Lazy(
        "affray.cli.table.fiat",
        "mark_command",
        "Put CONDITION (prone, blessed, on fire, ...) on WHO, for as long as you say.",
    ),
    "move": Lazy(
        "affray.cli.table.fiat",
        "move_command",
        "WHO's next turn this round comes just before (--before) or after (--after) OTHER's; "
        "moving the combatant whose turn it is puts its turn off.",
    ),
    "new": Lazy(
        "affray.cli.table.setup",
        "new_command",
        "Make a new table NAME playing SYSTEM; prints its id and tokens.",
    ),
    "next": Lazy(
        "affray.cli.table.play",
        "next_command",
        "End the current turn (the combatant passes); after the last turn of a round, end "
        "the round and start the next (its initiative rolls in --rolls).",
    ),
    "note": Lazy(
        "affray.cli.table.fiat",
        "note_command",
        "Add a line to the table's journal (with --about, the game master's note on one "
        "combatant: shown beside it on the game master's board; players never see notes).",
    ),
    "odds": Lazy(
        "affray.cli.table.odds",
        "odds_command",
        "The fight from here: each side's chance to win from the table as it stands (wounds, "
        "distances, whose turn, what is left of the round), and, for whoever's turn it is, "
        "its side's chance after each action open to it (the others playing by their "
        "tactics).",
    ),
    "redo": Lazy(
        "affray.cli.table.play",
        "redo_command",
        "Bring back the last STEPS changes undone (until a new change is made).",
    ),
    "remove": Lazy(
        "affray.cli.table.fiat",
        "remove_command",
        "WHO leaves the table (its turns, engagements and conditions too).",
    ),
    "rename": Lazy(
        "affray.cli.table.fiat",
        "rename_command",
        "WHO is called NAME from now on.",
    ),
    "reveal": Lazy(
        "affray.cli.table.fiat",
        "reveal_command",
        "Show WHO to the players again.",
    ),
    "run": Lazy(
        "affray.cli.table.play",
        "run_command",
        "Leave the next turn (or --turns N, or --to-end) to the combatants' tactics, rolling "
        "seeded dice; round 1 starts first if the fight has not started. After `table "
        "import` on a new table, `run --to-end --seed S` tells the same fight as `affray "
        "fight ENCOUNTER --seed S`. Undo takes it back like any change.",
    ),
    "set": Lazy(
        "affray.cli.table.fiat",
        "set_command",
        "The game master's fiat: set WHO's state, KEY any key of `table show`'s state (e.g. "
        "wounds=2) or condition (one of the table's system's conditions, e.g. condition=out: "
        "a word it does not take is refused with the list).",
    ),
    "show": Lazy(
        "affray.cli.table.reports",
        "show_command",
        "The initiative, every combatant's state and conditions, whose turn it is.",
    ),
    "start": Lazy(
        "affray.cli.table.play",
        "start_command",
        "Start round 1 (rolling initiative, where the system has it).",
    ),
    "undo": Lazy(
        "affray.cli.table.play",
        "undo_command",
        "Take back the last STEPS changes (turns and initiative included).",
    ),
    "unmark": Lazy(
        "affray.cli.table.fiat",
        "unmark_command",
        "Take CONDITION off WHO.",
    ),
}
"""The verbs of ``affray table``, each by the module that holds it (a test holds each
summary equal to its verb's own help)."""


@click.group("table", cls=LazyGroup, lazy=VERBS)
def table() -> None:
    """A tracked fight: people choose and roll, affray keeps the rules and the log.

    \b
    affray table new "Goblin ambush" --system mst2
    affray table add goblin-ambush examples/mst2/knight.json --side heroes
    affray table add goblin-ambush ogre --side monsters
    affray table start goblin-ambush
    affray table act goblin-ambush Knight attack Ogre --rolls 14,5,2,6
    affray table undo goblin-ambush
    """
