"""``affray sensitivity``: each key of each sheet moved one step down and one up along
its ladder (skill ±1, armour one row, a die one size, hit dice one die, the next
weapon), A's chance to win at each, sorted by how far the larger move takes it from
A's chance as the sheets stand: the keys that matter most first (a tornado chart)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from affray import registry
from affray.design.duels import Chance, Settings, Sheet, chances, moved
from affray.explore.run import Progress
from affray.ladders import Ladder, Rung


@dataclass(frozen=True, slots=True)
class Move:
    """A key moved one step: the value it takes, and A's chance with it."""

    value: Any
    chance: Chance

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, **self.chance.to_dict()}


@dataclass(frozen=True, slots=True)
class Row:
    """One key of one sheet, moved down and up (None where it cannot move that way)."""

    side: str
    key: str
    now: Any
    down: Move | None
    up: Move | None
    member: str | None = None
    """In an encounter: the member (its name, and its place on its side when the side
    lists several: ``Bandit (2)``)."""

    def effect(self, base: float) -> float:
        """How far the larger of its two moves takes A's chance from ``base``."""
        return max(
            (abs(m.chance.p - base) for m in (self.down, self.up) if m and m.chance.p is not None),
            default=0.0,
        )

    def to_dict(self) -> dict[str, Any]:
        found = {"member": self.member} if self.member is not None else {}
        return found | {
            "side": self.side,
            "key": self.key,
            "now": self.now,
            "down": self.down.to_dict() if self.down else None,
            "up": self.up.to_dict() if self.up else None,
        }


@dataclass(frozen=True, slots=True)
class Sensitivity:
    """A's chance as the sheets stand, and each key's rows, largest effect first."""

    a: str
    b: str
    method: str
    base: Chance
    rows: tuple[Row, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "method": self.method,
            "base": self.base.p,
            "rows": [row.to_dict() for row in self.rows],
        }


def steps(sheet: Sheet) -> list[tuple[Ladder, Rung | None, Rung | None]]:
    """Each ladder of ``sheet`` (those it stands on: a key whose own value is on its
    ladder), with its step down and up."""
    ladders = registry.system(sheet.system).ladders
    found = () if ladders is None else ladders(sheet.data)
    return [(one, one.down, one.up) for one in found if one.at is not None]


def count(a: Sheet, b: Sheet) -> int:
    """How many duels the question works out (the sheets as they stand, and each move)."""
    moves = [m for s in (a, b) for _, *ms in steps(s) for m in ms if m is not None]
    return 1 + len(moves)


def sensitivity(
    a: Sheet,
    b: Sheet,
    how: Settings,
    *,
    backend: Any = None,
    progress: Progress | None = None,
    announce: Callable[[float, int, int], None] | None = None,
) -> Sensitivity:
    """Every key of both sheets moved one step each way, and A's chance at each."""
    duels: list[tuple[Any, Any]] = [(a.data, b.data)]
    places: list[tuple[str, Ladder, Rung | None, Rung | None]] = []
    for side, sheet in (("a", a), ("b", b)):
        for ladder, down, up in steps(sheet):
            places.append((side, ladder, down, up))
            for rung in (down, up):
                if rung is not None:
                    moved_data = moved(sheet.data, rung)
                    duels.append((moved_data, b.data) if side == "a" else (a.data, moved_data))
    found = iter(chances(duels, "a", how, backend, progress=progress, announce=announce))
    base = next(found)
    rows = []
    for side, ladder, down, up in places:
        moves = [None if r is None else Move(r.value, next(found)) for r in (down, up)]
        now = ladder.rungs[ladder.at].value if ladder.at is not None else None
        rows.append(Row(side, ladder.key, now, moves[0], moves[1]))
    centre = base.p if base.p is not None else 0.5
    rows.sort(key=lambda row: -row.effect(centre))
    return Sensitivity(a.name, b.name, how.method, base, tuple(rows))
