"""Undo and redo: a change that moves changes from the stack in effect to the redo
branch, or back (:class:`~affray.table.fold.Fold`)."""

from __future__ import annotations

from affray.table.commands import command_data
from affray.table.fold import REDO, UNDO
from affray.table.folds import Done, Folds
from affray.table.store import TableRow


class Moves(Folds):
    """Undo and redo of a table's changes."""

    def undo(self, table: TableRow, steps: int = 1, expected: int | None = None) -> Done:
        """Take back the last ``steps`` changes in effect (turns and initiative too)."""
        return self._move(table, UNDO, steps, expected)

    def redo(self, table: TableRow, steps: int = 1, expected: int | None = None) -> Done:
        """Bring back the last ``steps`` changes undone (before any new change)."""
        return self._move(table, REDO, steps, expected)

    def _move(self, table: TableRow, verb: str, steps: int, expected: int | None) -> Done:
        # the write lock first, the fold's inside it (never the reverse)
        with self.store.writing(table.id, expected) as writer:
            fold = self.fold(table)
            moved = fold.check_undo(steps) if verb == UNDO else fold.check_redo(steps)
            payload = {
                "steps": steps,
                "versions": [applied.version for applied in moved],
                "commands": [command_data(applied.command) for applied in moved],
            }
            version = writer.append(verb, payload)
            base = fold.version
        with self.lock(table.id):
            if fold.version == base and self._folds.get(table.id) is fold:
                if verb == UNDO:
                    fold.undo(version, steps)
                else:
                    fold.redo(version, steps)
            else:  # fed from the log meanwhile
                fold = self.fold(table)
        self.checkpoint(table)
        return Done(table, version, fold.state, moved=tuple(moved), called=fold.called())
