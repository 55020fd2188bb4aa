"""The ``affray table`` group (its verbs are in the modules beside this one)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    pass


@click.group("table")
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
