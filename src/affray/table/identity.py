"""Who a combatant is, for good: its key.

A combatant is known by its key from the change that adds it on: every later change
in the log names it by that key, whatever it is called then (a rename changes only
what it is called), and no other combatant ever has it (one added later under the
same name, or after an undo, has its own). Names are what a combatant is called at a
moment, for people; what a person types (a name, any case, a unique start) is made a
key at the edge, before a command is written (:func:`keyed`).

A key is opaque (``~`` and eight hex digits, drawn at random when the combatant is
added): unlike a serial or a version it says nothing of how many others joined, so a
player who sees the keys of the combatants they see learns nothing of one hidden
from them. A log older than keys names combatants by name; such a combatant's key is
made from its serial and the version of the change that added it
(:func:`derived_key`), the same each time the log is folded.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Mapping
from dataclasses import replace

from affray.errors import AffrayError
from affray.table.commands import (
    Act,
    Add,
    Command,
    Hazard,
    Hide,
    Mark,
    Move,
    Note,
    Remove,
    Rename,
    Reveal,
    Set,
    Unmark,
)
from affray.table.model import KEY_MARK, TableState


def new_key() -> str:
    """A key no combatant has had (``~`` and eight hex digits, at random)."""
    return KEY_MARK + secrets.token_hex(4)


def derived_key(serial: int, version: int) -> str:
    """The key of a combatant an older log added without one: the same for the same
    serial and adding change, and as opaque as a new one."""
    digest = hashlib.blake2b(f"{serial}@{version}".encode(), digest_size=4).hexdigest()
    return KEY_MARK + digest


def with_key(command: Command, key: str | None = None) -> Command:
    """An add with its key (``key``, or a new one) if it has none; any other command as
    it is."""
    if isinstance(command, Add) and command.key is None:
        return replace(command, key=key or new_key())
    return command


def keyed(state: TableState, command: Command) -> Command:
    """``command`` with every combatant it names named by its key (as a person typed
    it, a name in any case or a unique start, resolved in ``state``). A name that names
    no one is left as typed: the rules refuse it when the command is played, in words.
    An add gets its key here too."""

    def key(name: str) -> str:
        try:
            return state.key_of(state.resolve(name))
        except AffrayError:  # no one, or more than one: the command's refusal says so
            return name

    return with_key(renamed(command, key))


def names_in(command: Command, called: Mapping[str, str]) -> Command:
    """``command`` with every combatant it names by key named as ``called`` says (a
    key's name: for people, in the journal and what waits). A key not in it is left."""
    return renamed(command, lambda value: called.get(value, value))


def renamed(command: Command, change: Callable[[str], str]) -> Command:
    """``command`` with ``change`` made to every combatant it names (not an add's own
    name, nor a rename's new one: those are names, not references)."""

    def maybe(value: str | None) -> str | None:
        return None if value is None else change(value)

    match command:
        case Act(actor=actor, target=target):
            return replace(command, actor=change(actor), target=maybe(target))
        case Mark(combatant=who, of=of):
            return replace(command, combatant=change(who), of=maybe(of))
        case Unmark(combatant=who):
            return replace(command, combatant=change(who))
        case Note(about=about):
            return replace(command, about=maybe(about))
        case Set() | Hazard() | Remove() | Rename() | Hide() | Reveal():
            return replace(command, who=change(command.who))
        case Move(who=who, before=before, after=after):
            return replace(command, who=change(who), before=maybe(before), after=maybe(after))
        case _:
            return command
