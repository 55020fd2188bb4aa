"""A player's own turn from their phone, counted: how many times the command is played
and how many write transactions it costs (issue 49's goal: three of the player's own
dice = 1 play, 1 write transaction; measured before: a one-die miss 3 plays and 2
writes, three of the player's own dice 8 plays and 4 writes). A command that stops
for another's die plays on past the stop with made-up dice in the same play, to tell
what the faces given did (the rules keep their events until a command ends).

Counts, not seconds: the same on a busy machine. A play is one run of the rules over
the command (:func:`affray.table.state.apply`, which a live play, a replay and the
telling of what faces did all go through); a write is one transaction on the store.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from affray.errors import InputNeededError
from affray.table import Store, Tables, fold
from affray.table.commands import Act, Allow, Start
from affray.table.own_turn import play_own_turn

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


class Counted:
    """What one player's action cost, and where it left the table."""

    def __init__(self) -> None:
        self.plays = 0
        self.writes = 0
        self.changes = 0
        """Changes it wrote (1 when it was done)."""
        self.waiting: list[int] | None = None
        """The faces the command that waits used so far, if one waits."""


@contextmanager
def counting(tables: Tables) -> Iterator[Counted]:
    """Count the plays and the write transactions made inside the block."""
    counted = Counted()
    applied = fold.apply
    transaction = tables.store.transaction

    def apply(*args: Any, **kwargs: Any) -> Any:
        counted.plays += 1
        return applied(*args, **kwargs)

    @contextmanager
    def counted_transaction(*args: Any, **kwargs: Any) -> Iterator[Any]:
        counted.writes += 1
        with transaction(*args, **kwargs) as db:
            yield db

    fold.apply = apply  # type: ignore[assignment]
    tables.store.transaction = counted_transaction  # type: ignore[method-assign]
    try:
        yield counted
    finally:
        fold.apply = applied
        tables.store.transaction = transaction  # type: ignore[method-assign]


def knights_turn(folder: Path) -> tuple[Tables, Any]:
    tables = Tables(Store(folder / "t.db"))
    row = tables.new("Bench", "mst2")
    for sheet, side, player in (("knight.json", "heroes", True), ("goblin.toml", "foes", False)):
        path = str(EXAMPLES / "mst2" / sheet)
        tables.run(row, tables.joining(row, path, side=side, player=player))
    tables.run(row, Allow({"players_choose": True}))
    tables.run(row, Start(), seed=1)
    if tables.fold(row).state.current != "Knight":
        tables.run(row, Act("Goblin", "hold"))
    return tables, row


def measure(faces: tuple[int, ...]) -> tuple[Counted, str]:
    with tempfile.TemporaryDirectory() as folder:
        tables, row = knights_turn(Path(folder))
        before = tables.fold(row).version  # read once, as a server holds it
        with counting(tables) as counted:
            try:
                play_own_turn(tables, row, "Knight", "attack", None, rolls=faces)
                outcome = "done"
            except InputNeededError as needed:
                outcome = f"waits: {needed.message}"
        counted.changes = tables.fold(row).version - before
        waiting = tables.waiting(row)
        counted.waiting = None if waiting is None else list(waiting["rolls"])
        tables.store.close()
    return counted, outcome


def main() -> None:
    for what, faces in (
        ("a one-die miss", (1,)),
        ("three of its own dice, then a foe's", (20, 6, 6)),
    ):
        counted, outcome = measure(faces)
        print(f"{what:36} {counted.plays} play(s), {counted.writes} write(s)  ({outcome})")


if __name__ == "__main__":
    main()
