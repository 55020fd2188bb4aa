"""Players' own links: a token per combatant, naming it for good (by its serial and
the change that added it), so that a link never passes to another combatant."""

from __future__ import annotations

from affray.table.commands import Add
from affray.table.folds import Folds
from affray.table.store import TableRow


class Links(Folds):
    """The players' own links of the tables."""

    def link(self, table: TableRow, who: str) -> tuple[str, str]:
        """A player's own link for the combatant ``who``: its id and the link's token
        (a new one revokes the old).

        Raises:
            RulesError: no combatant is called that.
        """
        state = self.fold(table).state
        cid = state.resolve(who)
        serial = state.serials[cid]
        # a link of an older affray's, by the serial alone, is revoked with it
        return cid, self.store.link(table.id, self._keys(table)[cid], revoke=(f"#{serial}",))

    def linked(self, token: str) -> tuple[str, str | None] | None:
        """The table and the combatant (its id now, or None if it has left the table)
        whose player's link this token is, if it is one."""
        found = self.store.linked(token)
        if found is None:
            return None
        table_id, serial = found
        return table_id, self._who(table_id, serial)

    def linked_ids(self, table: TableRow) -> list[str]:
        """The combatants who have a player's link now."""
        held = set(self.store.links(table.id))
        serials = self.fold(table).state.serials
        return [
            cid
            for cid, key in self._keys(table).items()
            if key in held or f"#{serials[cid]}" in held
        ]

    def link_tokens(self, table: TableRow) -> dict[str, str]:
        """Each combatant with a player's link now, and its link's token."""
        held = self.store.links(table.id)
        serials = self.fold(table).state.serials
        found = {}
        for cid, key in self._keys(table).items():
            token = held.get(key) or held.get(f"#{serials[cid]}")
            if token is not None:
                found[cid] = token
        return found

    def _who(self, table_id: str, key: str) -> str | None:
        """The combatant at the table now whose link ``key`` is, if it is still there.

        A link names its combatant for good: by its serial and the version of the change
        that added it (``#SERIAL@VERSION``), so that a combatant added after an undo,
        which may be given the same serial, is never another link's. A link an older
        affray made (``#SERIAL``) names the serial alone."""
        table = self.table(table_id)
        if "@" in key:
            return next((cid for cid, k in self._keys(table).items() if k == key), None)
        serials = self.fold(table).state.serials
        return next((cid for cid, n in serials.items() if f"#{n}" == key), None)

    def _keys(self, table: TableRow) -> dict[str, str]:
        """Each combatant's link key: ``#SERIAL@VERSION``, VERSION the change that
        added it (never given again: a version is never reused)."""
        with self.lock(table.id):
            fold = self.fold(table)
            added: dict[int, int] = {}
            for applied in fold.done:
                if isinstance(applied.command, Add):
                    added[applied.state.serials[applied.command.combatant]] = applied.version
            serials = fold.state.serials
        return {cid: f"#{n}@{added.get(n, 0)}" for cid, n in serials.items()}
