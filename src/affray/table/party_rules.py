"""A party: the characters a campaign carries from fight to fight, with their wounds
(pure: no I/O, no clock).

A party's state is the fold of its log, as a table's is: each change adds a member,
or sets members' carried values (a rest, or a table's end writing its members back);
``undo`` takes back the last change in effect. A member's carried values are exactly
what the game master's ``set`` takes (the system's snapshot keys and ``condition``),
so bringing a member onto a table is an ``add`` and, if it is not fresh, a ``set``.
Nothing here knows a rule system: each one's healing comes through the registry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from affray import registry
from affray.dice import Dice
from affray.encounter import Encounter, Ruleset
from affray.encounter.model import Combatant, named
from affray.errors import TableError
from affray.events import Event

ADD = "add"
REST = "rest"
END = "end"
UNDO = "undo"
VERBS = (ADD, REST, END, UNDO)

NOT_CARRIED = frozenset({"fled"})
"""Conditions a member does not keep after a fight (one who fled is back with the
party, with its wounds)."""


@dataclass(frozen=True, slots=True)
class Member:
    """One of a party: its name, where its sheet came from, the sheet's data (kept
    whole) and its carried values (``set`` keys; empty: fresh)."""

    id: str
    source: str
    sheet: Mapping[str, Any]
    values: Mapping[str, Any]
    joined: int = 0
    """The party's version that added this member: who it is for good (a member added
    later under the same name has another); 0 for one not yet in a party's log."""

    def data(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "source": self.source,
            "sheet": dict(self.sheet),
            "values": dict(self.values),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Member:
        return cls(str(data["id"]), str(data["source"]), dict(data["sheet"]), dict(data["values"]))


@dataclass(frozen=True, slots=True)
class PartyState:
    """The members, in the order they joined, and the tables (id, version) whose end
    has been written back."""

    members: tuple[Member, ...] = ()
    written: frozenset[tuple[str, int]] = frozenset()

    def joined(self, key: int) -> Member | None:
        """The member its party's version ``key`` added, if it is still in the party."""
        return next((m for m in self.members if m.joined == key), None)

    def member(self, name: str) -> Member:
        """The member called ``name`` (case forgiven).

        Raises:
            TableError: no member is.
        """
        for member in self.members:
            if member.id.lower() == " ".join(name.lower().split()):
                return member
        listed = ", ".join(m.id for m in self.members) or "no one yet"
        raise TableError(f"no member of the party is called {name!r}", hint=f"members: {listed}")


def apply(state: PartyState, verb: str, payload: Mapping[str, Any]) -> PartyState:
    """The state after one change (not an undo: :class:`PartyFold` takes those).

    Raises:
        TableError: an unknown verb, or a member that is not there.
    """
    if verb == ADD:
        return replace(state, members=(*state.members, Member.from_data(payload["member"])))
    if verb in (REST, END):
        values: Mapping[str, Mapping[str, Any]] = payload["values"]
        known = {m.id for m in state.members}
        if not set(values) <= known:
            raise TableError(f"the party log names members it does not have: {sorted(values)}")
        members = tuple(
            replace(m, values=dict(values[m.id])) if m.id in values else m for m in state.members
        )
        written = state.written
        if verb == END:
            written = written | {(str(payload["table"]), int(payload["table_version"]))}
        return replace(state, members=members, written=written)
    raise TableError(f"unknown party change {verb!r}", hint="one of: " + ", ".join(VERBS))


@dataclass(frozen=True, slots=True)
class Applied:
    version: int
    verb: str
    state: PartyState


@dataclass(slots=True)
class PartyFold:
    """A party's log folded: the changes in effect (each with the state after it). It
    grows change by change (a long campaign's log folds in linear time)."""

    done: list[Applied] = field(default_factory=list)
    version: int = 0

    @property
    def state(self) -> PartyState:
        return self.done[-1].state if self.done else PartyState()

    def feed(self, version: int, verb: str, payload: Mapping[str, Any]) -> PartyFold:
        """The fold with the next change read (this fold, moved on).

        Raises:
            TableError: the log skips a version, or undoes what is not there.
        """
        if version <= self.version:
            raise TableError(f"the party log has version {version} twice, or out of order")
        if version != self.version + 1:
            raise TableError(f"the party log skips from version {self.version} to {version}")
        if verb == UNDO:
            self.check_undo()
            self.done.pop()
        else:
            after = apply(self.state, verb, payload)
            if verb == ADD:
                *before, added = after.members
                after = replace(after, members=(*before, replace(added, joined=version)))
            self.done.append(Applied(version, verb, after))
        self.version = version
        return self

    def check_undo(self) -> Applied:
        """The change an undo would take back.

        Raises:
            TableError: no change is in effect.
        """
        if not self.done:
            raise TableError(
                "there is no party change to undo",
                hint="add a member first: `affray party add PARTY SHEET`",
            )
        return self.done[-1]


MAX_MEMBERS = 200
"""The most members a party has (all of them can come to one table)."""


def refuse_more(state: PartyState, joining: int = 1) -> None:
    """Refuse a party's member past :data:`MAX_MEMBERS`.

    Raises:
        TableError: the party is full.
    """
    if len(state.members) + joining > MAX_MEMBERS:
        raise TableError(
            f"a party has at most {MAX_MEMBERS} members, and this one has {len(state.members)}",
            hint="make another party for the rest (`affray party new NAME --system S`)",
        )


def fold(changes: Sequence[tuple[int, str, Mapping[str, Any]]]) -> PartyFold:
    """A party's log, folded from its first change."""
    folded = PartyFold()
    for version, verb, payload in changes:
        folded = folded.feed(version, verb, payload)
    return folded


# -- carried values ---------------------------------------------------------------------


def carried(
    system: registry.AnySystem, ruleset: Ruleset[Any, Any], encounter: Encounter[Any, Any], cid: str
) -> dict[str, Any]:
    """``cid``'s values to carry: its snapshot, and its condition when ``set`` takes
    that word and it is not one a member leaves behind (:data:`NOT_CARRIED`)."""
    values = dict(ruleset.snapshot(encounter, cid))
    condition = ruleset.condition(encounter, cid)
    if condition in system.conditions and condition not in NOT_CARRIED:
        values["condition"] = condition
    return values


def solo(
    system: registry.AnySystem, ruleset: Ruleset[Any, Any], member: Member
) -> Encounter[Any, Any]:
    """An encounter of ``member`` alone, fresh and then set to its carried values.

    Raises:
        AffrayError: its sheet or its values are invalid.
    """
    sheet = named(system.read_sheet(member.sheet, where=member.source), member.id)
    encounter: Encounter[Any, Any] = Encounter(
        (Combatant(member.id, "party", sheet),), {member.id: ruleset.initial_state(sheet)}
    )
    if member.values:
        edit = system.edit
        if edit is None:
            raise TableError(f"{system.title} takes no edits, so it cannot carry a member's state")
        encounter = edit(
            encounter, member.id, dict(member.values), where=f"party member {member.id}"
        )
    return encounter


def fresh_values(
    system: registry.AnySystem, ruleset: Ruleset[Any, Any], member: Member
) -> dict[str, Any]:
    """The carried values of ``member`` as it would be fresh."""
    return carried(system, ruleset, solo(system, ruleset, replace(member, values={})), member.id)


def changed(values: Mapping[str, Any], fresh: Mapping[str, Any]) -> dict[str, Any]:
    """The values that are not as fresh."""
    return {key: value for key, value in values.items() if fresh.get(key) != value}


def rest(
    system: registry.AnySystem,
    state: PartyState,
    days: int,
    dice: Dice,
    options: Mapping[str, object],
) -> tuple[dict[str, dict[str, Any]], list[Event]]:
    """Every member after ``days`` days of rest by the system's healing rules, day by
    day (on each day, the members in order): each one's new carried values, and what
    happened.

    Raises:
        TableError: the system has no healing rules, the party is empty, or days is
            not 1 or more.
        AffrayError: an option the system's rest does not take.
    """
    if system.rest is None:
        raise TableError(
            f"{system.title} has no rules for days of rest",
            hint="set the members' state at the next table (`affray table set`)",
        )
    if not 1 <= days <= 365:
        raise TableError(f"rest 1 to 365 days, not {days}", hint="e.g. --days 3")
    if not state.members:
        raise TableError(
            "the party has no members to rest", hint="add one: `affray party add PARTY SHEET`"
        )
    ruleset = system.duel_ruleset()
    encounters = {m.id: solo(system, ruleset, m) for m in state.members}
    events: list[Event] = []
    for _ in range(days):
        for member in state.members:
            encounters[member.id], more = system.rest(
                encounters[member.id], member.id, dice=dice, options=options
            )
            events.extend(more)
    values = {
        m.id: changed(
            carried(system, ruleset, encounters[m.id], m.id), fresh_values(system, ruleset, m)
        )
        for m in state.members
    }
    return values, events
