"""The keys of a sheet a designer moves, each as a ladder of values in order.

A rule system says, for a sheet, which of its keys a designer's questions move and how
(:attr:`affray.powers.RuleSystem.ladders`): a number one step up or down (skill ±1),
a row of a table (armour), a die one size (2d6 → 2d8), one die more or fewer (2d10+1
→ 3d10+1), a weapon of its catalog. ``affray solve``, ``sensitivity`` and
``frontier`` ask the rules backwards along these ladders (docs/design.md).

Pure: no I/O, no rule system.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["integer", "ordered"]


@dataclass(frozen=True, slots=True)
class Rung:
    """One value of a ladder: what it sets on the sheet, and how it is named.

    Attributes:
        value: the value as people read it (``4``, ``"chain mail"``, ``"3d10+1"``).
        patch: the sheet keys it sets (dotted for a key of an inline table): mostly
            the ladder's key alone, sometimes a key beside it (a weapon and its grip).
    """

    value: Any
    patch: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Ladder:
    """A key of a sheet a designer can move, and the values it can take, in order.

    Attributes:
        key: the sheet key (``skill``, ``armor``, ``weapon.damage``).
        kind: ``integer`` (a number: a value between two is an equivalent, linear in
            the chance) or ``ordered`` (names or dice in their order: only the
            neighbours mean something).
        rungs: the values, lowest first.
        at: the place of the sheet's own value among them (None: it is none of them,
            an inline weapon say).
    """

    key: str
    kind: Kind
    rungs: tuple[Rung, ...]
    at: int | None

    @property
    def values(self) -> tuple[Any, ...]:
        return tuple(rung.value for rung in self.rungs)

    @property
    def down(self) -> Rung | None:
        """One step down from the sheet's own value (None at the bottom)."""
        if self.at is None or self.at == 0:
            return None
        return self.rungs[self.at - 1]

    @property
    def up(self) -> Rung | None:
        """One step up from the sheet's own value (None at the top)."""
        if self.at is None or self.at + 1 >= len(self.rungs):
            return None
        return self.rungs[self.at + 1]


Ladders = Callable[[Mapping[str, Any]], tuple[Ladder, ...]]
"""A rule system's ladders of a sheet's data (its keys as the file gives them)."""


def numbers(key: str, now: int, low: int, high: int) -> Ladder:
    """An integer key from ``low`` to ``high`` (widened to take the sheet's own value)."""
    low, high = min(low, now), max(high, now)
    rungs = tuple(Rung(v, {key: v}) for v in range(low, high + 1))
    return Ladder(key, "integer", rungs, now - low)


def names(key: str, now: Any, order: Sequence[Any], same: Callable[[Any], Any] = str) -> Ladder:
    """A key that takes one of ``order``'s values (a table's rows, lowest first);
    ``same`` makes two spellings of one value alike (``"Chain Mail"``, ``"chain mail"``)."""
    rungs = tuple(Rung(v, {key: v}) for v in order)
    at = next((i for i, v in enumerate(order) if same(v) == same(now)), None)
    return Ladder(key, "ordered", rungs, at)


DIE_SIZES = (2, 3, 4, 6, 8, 10, 12, 20)
"""The sizes of dice, in order: a die one size up or down is its neighbour here."""

_DICE = re.compile(r"^\s*(\d+)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")


def dice_parts(text: str) -> tuple[int, int, int] | None:
    """``NdS+B`` as (N, S, B); None for any other expression."""
    found = _DICE.match(text)
    if found is None:
        return None
    count, sides, sign, bonus = found.groups()
    plus = int(bonus or 0) * (-1 if sign == "-" else 1)
    return int(count), int(sides), plus


def dice_text(count: int, sides: int, bonus: int) -> str:
    """(N, S, B) written as ``NdS+B`` (``NdS`` without a bonus)."""
    tail = f"+{bonus}" if bonus > 0 else (f"{bonus}" if bonus < 0 else "")
    return f"{count}d{sides}{tail}"


def die_sizes(key: str, text: str) -> Ladder | None:
    """``NdS+B`` with its die one size up or down (2d6 → 2d4, 2d8); None when the
    expression is not of that form, or its die is of no usual size."""
    parts = dice_parts(text)
    if parts is None or parts[1] not in DIE_SIZES:
        return None
    count, sides, bonus = parts
    rungs = tuple(
        Rung(dice_text(count, s, bonus), {key: dice_text(count, s, bonus)}) for s in DIE_SIZES
    )
    return Ladder(key, "ordered", rungs, DIE_SIZES.index(sides))


def dice_counts(key: str, text: str, most: int = 10) -> Ladder | None:
    """``NdS+B`` with one die more or fewer (2d10+1 → 1d10+1, 3d10+1), from one die to
    ``most`` (widened to take the sheet's own); None for another expression."""
    parts = dice_parts(text)
    if parts is None or parts[0] < 1:
        return None
    count, sides, bonus = parts
    top = max(most, count)
    rungs = tuple(
        Rung(dice_text(n, sides, bonus), {key: dice_text(n, sides, bonus)})
        for n in range(1, top + 1)
    )
    return Ladder(key, "ordered", rungs, count - 1)
