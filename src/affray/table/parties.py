"""Parties: the store and the rules together, what ``affray party`` and the party
verbs of ``affray table`` call. Every party change is one transaction on the store;
a party's state is the fold of its log (:mod:`affray.table.party_rules`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from affray import registry
from affray.dice import Dice
from affray.errors import TableError
from affray.narration.telling import narrate_text
from affray.table import party_rules as rules
from affray.table import roster
from affray.table.commands import Add, Command, Set, text
from affray.table.party_rules import Member, PartyFold, PartyState
from affray.table.party_store import PartyRow, PartyStore
from affray.table.service import Tables
from affray.table.store import TableRow

PREFIX = "party:"
"""How ``table add`` names a party instead of a sheet."""


@dataclass(frozen=True, slots=True)
class PartyDone:
    """A party change made: the party's new version, its state, and what happened."""

    party: PartyRow
    version: int
    state: PartyState
    verb: str
    lines: tuple[str, ...] = ()
    members: tuple[str, ...] = ()
    """The members whose values it set (a table's end)."""
    left: tuple[str, ...] = ()
    """A table's end: the combatants not written back (no longer in the party)."""


class Parties:
    """The parties of one database (beside its tables)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.store = PartyStore(tables.store)

    def new(self, name: str, system: str) -> PartyRow:
        """A new, empty party of ``system``.

        Raises:
            TableError: a bad name, an unknown system, or one that cannot carry state.
        """
        name = " ".join(name.split())
        if not name or len(name) > 80 or not name.isprintable():
            raise TableError(
                "a party's name is 1 to 80 characters of plain text", hint='e.g. "The Company"'
            )
        if system not in registry.systems():
            raise TableError(
                f"unknown rule system {system!r}",
                hint="--system is one of: " + ", ".join(registry.systems()),
            )
        if registry.system(system).edit is None:
            raise TableError(
                f"{registry.system(system).title} takes no edits of a combatant's state, so "
                "a party of it cannot carry its wounds",
                hint="--system is one of: "
                + ", ".join(s.name for s in registry.all_systems() if s.edit is not None),
            )
        return self.store.create(name, system)

    def party(self, ref: str) -> PartyRow:
        return self.store.party(ref)

    def fold(self, row: PartyRow) -> PartyFold:
        return rules.fold([(c.version, c.verb, c.payload) for c in self.store.changes(row.id)])

    def add(
        self, row: PartyRow, sheet: str, name: str | None = None, *, anywhere: bool = True
    ) -> PartyDone:
        """``sheet`` (a .toml/.json file, or a bestiary name of the party's system)
        joins the party, fresh, as ``name`` (its sheet's name, numbered if taken).

        Raises:
            AffrayError: the sheet is invalid or of another system; the name is taken.
        """
        system = registry.system(row.system)
        found = roster.sheet(row.system, sheet, anywhere=anywhere)
        data, source = dict(found.data), found.source
        parsed = system.read_sheet(data, where=source)
        name = roster.given_name(name)
        text(name or parsed.name, "the member's name")
        text(source, "the sheet's file or name")
        with self.store.writing(row.id) as writer:
            state = self.fold(row).state
            rules.refuse_more(state)
            taken = {m.id.lower() for m in state.members}
            mid = name or parsed.name
            if name is not None and mid.lower() in taken:
                raise TableError(
                    f"the party has a member called {mid!r} already",
                    hint="give the new one another name with --as",
                )
            mid = roster.newcomer_id(mid, name is not None, taken)
            member = Member(mid, source, data, {})
            payload = {"member": member.data()}
            after = rules.apply(state, rules.ADD, payload)
            version = writer.append(rules.ADD, payload)
        return PartyDone(row, version, after, rules.ADD, (f"{mid} joins {row.name}.",))

    def rest(
        self, row: PartyRow, days: int, dice: Dice, options: Mapping[str, object]
    ) -> PartyDone:
        """Every member after ``days`` days of rest (the system's healing rules), as
        one change.

        Raises:
            AffrayError: as :func:`affray.table.party_rules.rest`.
        """
        system = registry.system(row.system)
        with self.store.writing(row.id) as writer:
            state = self.fold(row).state
            values, events = rules.rest(system, state, days, dice, options)
            lines = (
                *narrate_text(events, system.narration),
                f"{row.name} rests {days} {'day' if days == 1 else 'days'}.",
            )
            payload = {"days": days, "options": dict(options), "values": values}
            after = rules.apply(state, rules.REST, payload)
            version = writer.append(rules.REST, {**payload, "lines": list(lines)})
        return PartyDone(row, version, after, rules.REST, lines)

    def undo(self, row: PartyRow) -> PartyDone:
        """Take back the party's last change in effect.

        Raises:
            TableError: there is none.
        """
        with self.store.writing(row.id) as writer:
            folded = self.fold(row)
            last = folded.check_undo()
            version = writer.append(rules.UNDO, {"version": last.version, "verb": last.verb})
            after = folded.feed(version, rules.UNDO, {}).state
        return PartyDone(row, version, after, rules.UNDO, (f"undid {last.verb} (v{last.version})",))

    # -- parties at tables --------------------------------------------------------------

    def joining(self, table: TableRow, ref: str, *, tactics: str = "nearest") -> list[Command]:
        """The commands that bring every member of the party ``ref`` onto ``table``, on
        one side named after the party: an ``add`` each, then a ``set`` of its carried
        values for each one not fresh.

        Raises:
            AffrayError: the party is of another system, empty, or a name is taken.
        """
        row = self.party(ref)
        if row.system != table.system:
            raise TableError(
                f"{row.name} is a {row.system} party, but this table plays {table.system}",
                hint=f"bring it to a {row.system} table",
            )
        state = self.fold(row).state
        if not state.members:
            raise TableError(
                f"{row.name} has no members", hint="add one: `affray party add PARTY SHEET`"
            )
        fold = self.tables.fold(table)
        taken = {c.id.lower(): c.id for c in fold.state.encounter.combatants}
        for member in state.members:
            if member.id.lower() in taken:
                raise TableError(
                    f"there is already a combatant called {taken[member.id.lower()]!r} at "
                    f"{table.id}",
                    hint="rename that one first (`affray table rename TABLE WHO NAME`)",
                )
        adds: list[Command] = []
        sets: list[Command] = []
        for member in state.members:
            add = self.tables.joining_data(
                table,
                member.sheet,
                member.source,
                side=row.name,
                name=member.id,
                tactics=tactics,
                player=True,
            )
            adds.append(replace(add, party=row.id, member=member.id, member_key=member.joined))
            if member.values:  # already only what is not as fresh
                sets.append(Set(add.combatant, dict(member.values)))
        return [*adds, *sets]

    def from_parties(self, table: TableRow) -> dict[str, Origin]:
        """Each combatant at the table that came from a party: where it came from
        (following renames; one removed is gone)."""
        fold = self.tables.fold(table)
        found: dict[str, Origin] = {}
        ids = {c.id for c in fold.initial.encounter.combatants}
        for applied in fold.done:
            now = {c.id for c in applied.state.encounter.combatants}
            command = applied.command
            if isinstance(command, Add) and command.party is not None:
                found[command.combatant] = Origin(
                    command.party, command.member or command.combatant, command.member_key
                )
            gone, new = ids - now, now - ids
            if len(gone) == 1 and len(new) == 1:  # a rename
                (old,) = gone
                (renamed,) = new
                if old in found:
                    found[renamed] = found.pop(old)
            found = {cid: origin for cid, origin in found.items() if cid in now}
            ids = now
        return found

    def end(self, table: TableRow) -> list[PartyDone]:
        """Each party member's state at the table written back to its party, one
        change for each party, all in one transaction with the check that this version
        of the table was not written back already (so that ends at once write it back
        once). A member who is no longer in its party (taken back by an undo, say) is
        not written back, and said so in the party's lines; a later member of the same
        name is another member, never written onto.

        Raises:
            TableError: no one at the table came from a party, this version of the
                table was written back already, or no member is still in its party.
        """
        with self.store.store.transaction():  # the write lock first (then the fold's)
            fold = self.tables.fold(table)
            origins = self.from_parties(table)
            if not origins:
                raise TableError(
                    f"no one at {table.id} came from a party",
                    hint=f"bring one with `affray table add {table.id} party:PARTY`",
                )
            by_party: dict[str, list[tuple[str, Origin]]] = {}
            for cid, origin in origins.items():
                by_party.setdefault(origin.party, []).append((cid, origin))
            rows = [self.party(party_id) for party_id in by_party]
            for row in rows:
                if (table.id, fold.version) in self.fold(row).state.written:
                    raise TableError(
                        f"{row.name} has {table.id} at version {fold.version} written back already",
                        hint="undo that with `affray party undo PARTY`, or go on at the table",
                    )
            system = fold.rules.system
            ruleset = fold.rules.ruleset
            encounter = fold.state.encounter
            dones: list[PartyDone] = []
            for row in rows:
                state = self.fold(row).state
                values: dict[str, dict[str, Any]] = {}
                left: list[str] = []
                for cid, origin in by_party[row.id]:
                    member = origin.member_of(state)
                    if member is None:
                        left.append(cid)
                        continue
                    fresh = rules.fresh_values(system, ruleset, member)
                    values[member.id] = rules.changed(
                        rules.carried(system, ruleset, encounter, cid), fresh
                    )
                said = tuple(f"{cid} is no longer in {row.name}: not written back." for cid in left)
                if not values:
                    version = self.store.version(row.id)
                    dones.append(PartyDone(row, version, state, "", said, left=tuple(left)))
                    continue
                with self.store.writing(row.id) as writer:
                    payload = {"table": table.id, "table_version": fold.version, "values": values}
                    after = rules.apply(state, rules.END, payload)
                    lines = (
                        f"{table.name} ends: {', '.join(values)} back with {row.name}.",
                        *said,
                    )
                    version = writer.append(rules.END, {**payload, "lines": list(lines)})
                dones.append(
                    PartyDone(row, version, after, rules.END, lines, tuple(values), tuple(left))
                )
            if not any(done.verb for done in dones):
                raise TableError(
                    f"no one at {table.id} is still in the party they came from; nothing was "
                    "written back",
                    hint="see `affray party show PARTY`",
                )
        return dones


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a combatant at a table came from: its party, its name there, and which
    member it is for good (None for a table logged before members had one)."""

    party: str
    name: str
    key: int | None

    def member_of(self, state: PartyState) -> Member | None:
        """The member this combatant is, if it is still in the party."""
        if self.key is not None:
            return state.joined(self.key)
        try:
            return state.member(self.name)
        except TableError:
            return None
