"""``affray solve``: the value of one key that brings a side's chance to a target.

Every value of the key's ladder (or the values asked for) is tried, and every place
where the chance passes the target is a crossing: the two values either side of it,
in the ladder's order (``below`` the lower, ``above`` the higher), with their chances,
and for a number an equivalent value between them, linear in the chance ("skill 3.4").
The chance is not taken to be monotonic in the key: a key whose chance turns back
crosses the target as often as it does, and the answer says it is not monotonic.
Simulated chances carry their intervals; two neighbours whose intervals overlap
cannot be told apart, and the crossing says so.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from affray.design.duels import Chance, Settings, Sheet, Side, chances, ladder, moved
from affray.errors import AffrayError
from affray.explore.run import Progress
from affray.ladders import Ladder, Rung
from affray.quoting import quoted

EXACT_EPSILON = 1e-12
"""Exact chances this close are equal (a chain's sums round in the last places)."""


@dataclass(frozen=True, slots=True)
class Point:
    """A value tried, and the side's chance with it."""

    value: Any
    chance: Chance

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, **self.chance.to_dict()}


@dataclass(frozen=True, slots=True)
class Crossing:
    """Where the chance passes the target: between two neighbouring values.

    Attributes:
        below, above: the lower and the higher value, in the ladder's order.
        equivalent: a number between them where the line through their chances meets
            the target (None for names and dice: only the neighbours mean something).
        told_apart: whether the two chances differ beyond the noise (always for exact
            chances; for simulated ones, when their 95 % intervals do not overlap).
    """

    below: Point
    above: Point
    equivalent: float | None
    told_apart: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "below": self.below.to_dict(),
            "above": self.above.to_dict(),
            "equivalent": self.equivalent,
            "told_apart": self.told_apart,
        }


@dataclass(frozen=True, slots=True)
class Solved:
    """An answer of ``solve``.

    Attributes:
        vary: ``SIDE.KEY`` as asked.
        target: the chance sought.
        side: whose chance it is (``for``).
        method: ``exact`` or ``monte-carlo``.
        points: every value tried, in order.
        crossings: every crossing, in order (none when the target is never reached).
        monotonic: whether the chance only rises, or only falls, along the values
            (beyond the noise, where simulated).
        integer: whether the key is a number.
    """

    vary: str
    target: float
    side: str
    method: str
    points: tuple[Point, ...]
    crossings: tuple[Crossing, ...]
    monotonic: bool
    integer: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "vary": self.vary,
            "target": self.target,
            "for": self.side,
            "method": self.method,
            "crossings": [c.to_dict() for c in self.crossings],
            "points": [p.to_dict() for p in self.points],
            "monotonic": self.monotonic,
        }


def crossings(points: Sequence[Point], target: float, *, integer: bool) -> tuple[Crossing, ...]:
    """Every place where the chance passes ``target`` between two neighbouring values
    (values whose sheet is invalid are left out: their neighbours are neighbours).
    A chance exactly at the target counts as reaching it, once."""
    valid = [p for p in points if p.chance.p is not None]
    found = []
    for below, above in itertools.pairwise(valid):
        low, high = _p(below), _p(above)
        if (low >= target) == (high >= target):
            continue
        equivalent = None
        if integer and high != low:
            share = (target - low) / (high - low)
            equivalent = float(below.value) + share * (float(above.value) - float(below.value))
        found.append(Crossing(below, above, equivalent, _apart(below.chance, above.chance)))
    return tuple(found)


def monotonic(points: Sequence[Point]) -> bool:
    """Whether the chance only rises or only falls along the points, beyond the noise:
    a turn back smaller than the two intervals' overlap (simulated) or than
    :data:`EXACT_EPSILON` (exact) is no turn."""
    valid = [p.chance for p in points if p.chance.p is not None]
    rises = falls = False
    for one, two in itertools.pairwise(valid):
        if not _apart(one, two):
            continue
        if _p_of(two) > _p_of(one):
            rises = True
        else:
            falls = True
    return not (rises and falls)


def _apart(one: Chance, two: Chance) -> bool:
    if one.exact and two.exact:
        return abs(_p_of(one) - _p_of(two)) > EXACT_EPSILON
    lows = (
        one.low if one.low is not None else _p_of(one),
        two.low if two.low is not None else _p_of(two),
    )
    highs = (
        one.high if one.high is not None else _p_of(one),
        two.high if two.high is not None else _p_of(two),
    )
    return highs[0] < lows[1] or highs[1] < lows[0]


def _p(point: Point) -> float:
    return _p_of(point.chance)


def _p_of(chance: Chance) -> float:
    assert chance.p is not None
    return chance.p


def parse_vary(vary: str, sides: Sequence[str]) -> tuple[str, str]:
    """``SIDE.KEY`` as (side, key).

    Raises:
        AffrayError: it is not of that form, or names no side.
    """
    side, dot, key = vary.partition(".")
    if not dot or not key or side not in sides:
        raise AffrayError(
            f"--vary {quoted(vary)} is not SIDE.KEY",
            hint="e.g. --vary a.skill (the first sheet's skill) or --vary b.armor; "
            f"SIDE is one of: {', '.join(sides)}",
        )
    return side, key


def rungs_of(
    found: Ladder, values: Sequence[str] | None, span: tuple[int, int] | None
) -> list[Rung]:
    """The rungs to try: the ladder's, or the values asked for (each a rung of it, or a
    number for a number's ladder), or a number's range (both ends included).

    Raises:
        AffrayError: a value is not one of the ladder's; a range of a key that is no
            number.
    """
    if span is not None:
        if found.kind != "integer":
            raise AffrayError(
                f"--range counts numbers, and {found.key} takes names",
                hint=f"give --values, or leave both out to try every one: {_listed(found)}",
            )
        low, high = sorted(span)
        return [Rung(v, {found.key: v}) for v in range(low, high + 1)]
    if values is None:
        return list(found.rungs)
    if not values:
        raise AffrayError("--values names no value", hint=f"its values: {_listed(found)}")
    picked: list[Rung] = []
    for text in values:
        rung = next((r for r in found.rungs if str(r.value).lower() == text.strip().lower()), None)
        if rung is None and found.kind == "integer":
            try:
                number = int(text)
            except ValueError:
                number = None
            if number is not None:
                rung = Rung(number, {found.key: number})
        if rung is None:
            raise AffrayError(
                f"{quoted(text)} is not a value of {found.key}",
                hint=f"its values: {_listed(found)}",
            )
        if all(rung.value != other.value for other in picked):  # each value once
            picked.append(rung)
    # in the ladder's order (a number's by its value): neighbours are neighbours
    place = {r.value: i for i, r in enumerate(found.rungs)}
    if found.kind == "integer":
        return sorted(picked, key=lambda r: float(r.value))
    return sorted(picked, key=lambda r: place.get(r.value, len(place)))


def _listed(found: Ladder) -> str:
    values = [str(v) for v in found.values]
    if found.kind == "integer" and len(values) > 6:
        return f"{values[0]} to {values[-1]}"
    return ", ".join(values)


def plan(
    a: Sheet, b: Sheet, vary: str, values: Sequence[str] | None, span: tuple[int, int] | None
) -> tuple[Side, str, list[Rung]]:
    """Which sheet moves, its key, and the values to try.

    Raises:
        AffrayError: ``vary`` names no side or no key the system moves; a value asked
            for is none of the key's.
    """
    which, key = parse_vary(vary, ("a", "b"))
    side: Side = "a" if which == "a" else "b"
    return side, key, rungs_of(ladder(a if side == "a" else b, key), values, span)


def solve_duel(
    a: Sheet,
    b: Sheet,
    vary: str,
    target: float,
    side: Side,
    how: Settings,
    *,
    values: Sequence[str] | None = None,
    span: tuple[int, int] | None = None,
    backend: Any = None,
    progress: Progress | None = None,
    announce: Callable[[float, int, int], None] | None = None,
) -> Solved:
    """The values of ``vary`` (``a.KEY`` or ``b.KEY``) that bring ``side``'s chance to
    win the duel of ``a`` and ``b`` to ``target``.

    Raises:
        AffrayError: ``vary`` names no side or no key the system moves; a value asked
            for is none of the key's.
    """
    which, key, tried = plan(a, b, vary, values, span)
    moving = a if which == "a" else b
    duels = [
        (moved(a.data, r), b.data) if which == "a" else (a.data, moved(b.data, r)) for r in tried
    ]
    found = chances(duels, side, how, backend, progress=progress, announce=announce)
    points = tuple(Point(r.value, c) for r, c in zip(tried, found, strict=True))
    integer = ladder(moving, key).kind == "integer"
    return Solved(
        vary,
        target,
        side,
        how.method,
        points,
        crossings(points, target, integer=integer),
        monotonic(points),
        integer,
    )
