"""Who joins a table: the adds a sheet, a creature, N of one or an encounter file
make, named as the table's roster rules say (:mod:`affray.table.roster`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from affray import registry
from affray.errors import AffrayError, SheetError, TableError
from affray.narration.telling import narrate_text
from affray.table import roster
from affray.table.commands import ALLOWED, Add, Command
from affray.table.events import TABLE
from affray.table.fold import Fold, Played, play
from affray.table.folds import Done, Folds
from affray.table.model import Rules
from affray.table.store import TableRow


@dataclass(frozen=True, slots=True)
class Importing:
    """What importing an encounter file does: the adds, and the file's rules."""

    commands: list[Add]
    options: dict[str, Any]


class Joining(Folds):
    """The adds of those who join a table, and several of them (an encounter's, N of
    one, a party) played in one transaction (:meth:`run_all`)."""

    def joining(
        self,
        table: TableRow,
        sheet: str,
        *,
        side: str | None = None,
        name: str | None = None,
        tactics: str = "nearest",
        player: bool = False,
    ) -> Add:
        """The command that adds the combatant of ``sheet`` (a .toml/.json file, or a
        bestiary name of the table's system, ``mst2:ogre`` too) as ``name`` (its
        sheet's name, numbered if taken) on ``side`` (its own, by default): the rules
        of :mod:`affray.table.roster`.

        Raises:
            SheetError: the file or the sheet is invalid, or a creature of another
                system.
            TableError: there is no such file or creature; a bad name.
        """
        found = roster.sheet(table.system, sheet)
        return self.joining_data(
            table, found.data, found.source, side=side, name=name, tactics=tactics, player=player
        )

    def joining_data(
        self,
        table: TableRow,
        data: Mapping[str, Any],
        source: str,
        *,
        side: str | None = None,
        name: str | None = None,
        tactics: str = "nearest",
        player: bool = False,
    ) -> Add:
        """:meth:`joining` for a sheet's data already read (an uploaded sheet)."""
        newcomer = roster.Newcomer.of(data, source, name)
        return newcomer.add(self._ids(table), side=side, tactics=tactics, player=player)

    def joining_many(
        self,
        table: TableRow,
        data: Mapping[str, Any],
        source: str,
        count: int,
        *,
        side: str | None = None,
        name: str | None = None,
        tactics: str = "nearest",
        player: bool = False,
    ) -> list[Add]:
        """``count`` combatants of one sheet's data at once (Goblin 1 … Goblin N), on
        one side."""
        newcomer = roster.Newcomer.of(data, source, name)
        return newcomer.adds(self._ids(table), count, side=side, tactics=tactics, player=player)

    def importing(
        self, table: TableRow, data: Mapping[str, Any], where: str, base: Path | None
    ) -> Importing:
        """The commands that add every member of an encounter file (its sides, counts,
        names and tactics; sheet files relative to ``base``, or only bestiary names
        when there is no ``base``, as for an uploaded file), and the file's rules (its
        options, each side's keys, its round cap) as table options.

        Raises:
            SheetError: the file is invalid or of another system; a member's sheet is.
        """
        from affray.sheets.encounters import roster as encounter_roster

        found = encounter_roster(data, where)
        if found.system != table.system:
            raise SheetError(
                f"is a {found.system} encounter, but this table plays {table.system}",
                path=where,
                key="system",
            )
        commands = roster.members(
            found.members, table.system, where, base, self._ids(table), self._tactics_keys(table)
        )
        options: dict[str, Any] = {**found.options, "max_rounds": found.max_rounds}
        if found.sides:
            options["sides"] = {side: dict(keys) for side, keys in found.sides.items()}
        return Importing(commands, options)

    def _ids(self, table: TableRow) -> list[str]:
        """The ids of the combatants at the table now."""
        return [c.id for c in self.fold(table).state.encounter.combatants]

    @staticmethod
    def _tactics_keys(table: TableRow) -> frozenset[str]:
        return registry.system(table.system).tactics_keys

    def run_all(
        self,
        table: TableRow,
        commands: Sequence[Command],
        expected: int | None = None,
        *,
        options: Mapping[str, Any] | None = None,
    ) -> list[Done]:
        """Several commands that roll nothing (an import's adds), each a change of its
        own (so each can be undone), all in one transaction: all or none.

        ``options`` (an encounter file's rules) become the table's if it has no change
        yet; otherwise the table keeps its own, and the first Done's note says so.

        Raises:
            ConflictError: ``expected`` is not the table's version (nothing applied).
            AffrayError: an option the system does not take (nothing applied).
        """
        note = None
        if options is not None:  # the table's defaults and what it allows the players stay
            kept = {k: v for k, v in table.options.items() if k in ALLOWED}
            options = {**registry.system(table.system).table_defaults, **kept, **options}
        # the write lock is taken first, the fold's inside it (never the reverse)
        with self.store.writing(table.id, expected) as writer:
            fold = self.fold(table)
            if options is not None and dict(options) != dict(table.options):
                if fold.version == 0:
                    try:
                        rules = Rules.of(table.system, options)
                    except AffrayError as error:
                        raise TableError(f"option {error.message}", hint=error.hint) from None
                    writer.set_options(options)
                    table = replace(table, options=dict(options))
                    fold = Fold(rules)
                    with self.lock(table.id):
                        self._folds[table.id] = fold
                else:
                    note = (
                        "the table keeps its own rules (it has changes already); the "
                        "encounter's are: " + ", ".join(f"{k} = {v}" for k, v in options.items())
                    )
            state = fold.state
            played: list[tuple[Played, tuple[str, ...]]] = []
            for command in commands:
                one = play(fold.rules, state, command)
                state = one.state
                told = fold.rules.system.narration
                played.append((one, tuple(narrate_text(one.events, told, TABLE))))
            versions = [
                writer.append(one.command.verb, {**one.payload(), "lines": list(lines)})
                for one, lines in played
            ]
        dones: list[Done] = []
        for version, (one, lines) in zip(versions, played, strict=True):
            self._pushed(table, fold, version - 1, version, one)
            dones.append(Done(table, version, one.state, one.events, lines))
        if note is not None and dones:
            dones[0] = replace(dones[0], note=note)
        self.checkpoint(table)
        return dones
