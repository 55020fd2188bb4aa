"""``affray frontier``: every option of one key (a weapon, an armour, a grip, a shield)
against each opponent, with its mean and its worst chance; an option that another
beats against every opponent is dominated (never worth taking), and the others are
the frontier."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from affray.design.duels import Chance, Settings, Sheet, chances, ladder, moved
from affray.explore.run import Progress
from affray.ladders import Rung


@dataclass(frozen=True, slots=True)
class Option:
    """One value of the key: its chance against each opponent (by name), their mean
    and worst, and the options that beat it against every opponent."""

    value: Any
    against: dict[str, Chance]
    dominated_by: tuple[Any, ...]

    @property
    def valid(self) -> bool:
        return all(c.p is not None for c in self.against.values())

    @property
    def mean(self) -> float | None:
        ps = [c.p for c in self.against.values()]
        if not ps or any(p is None for p in ps):
            return None
        return sum(p for p in ps if p is not None) / len(ps)

    @property
    def worst(self) -> float | None:
        ps = [c.p for c in self.against.values()]
        if not ps or any(p is None for p in ps):
            return None
        return min(p for p in ps if p is not None)

    def to_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "value": self.value,
            "p": {name: c.p for name, c in self.against.items()},
            "mean": self.mean,
            "worst": self.worst,
            "dominated_by": list(self.dominated_by),
        }
        errors = {name: c.error for name, c in self.against.items() if c.error}
        if errors:
            found["errors"] = errors
        intervals = {
            name: [c.low, c.high]
            for name, c in self.against.items()
            if c.n is not None and c.p is not None
        }
        if intervals:
            found["ci95"] = intervals
        return found


@dataclass(frozen=True, slots=True)
class Frontier:
    vary: str
    sheet: str
    method: str
    opponents: tuple[str, ...]
    options: tuple[Option, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "vary": self.vary,
            "sheet": self.sheet,
            "method": self.method,
            "against": list(self.opponents),
            "options": [o.to_dict() for o in self.options],
        }


def beats(one: dict[str, Chance], other: dict[str, Chance]) -> bool:
    """Whether ``one`` beats ``other`` against every opponent: at least as good
    against each (beyond the noise where simulated: its interval above the other's
    chance), and better against one. Exact chances closer than 1e-12 are equal."""
    better = False
    for name, mine in one.items():
        theirs = other[name]
        if mine.p is None or theirs.p is None:
            return False
        if mine.n is None and theirs.n is None:
            if mine.p < theirs.p - 1e-12:
                return False
            better = better or mine.p > theirs.p + 1e-12
            continue
        low = mine.low if mine.low is not None else mine.p
        high = theirs.high if theirs.high is not None else theirs.p
        if mine.p < theirs.p:
            return False
        better = better or low > high
    return better


def dominance(options: Sequence[tuple[Any, dict[str, Chance]]]) -> list[Option]:
    """Each option with the options that beat it against every opponent."""
    return [
        Option(
            value,
            against,
            tuple(other for other, theirs in options if other != value and beats(theirs, against)),
        )
        for value, against in options
    ]


def rungs(sheet: Sheet, key: str, values: Sequence[str] | None) -> list[Rung]:
    """The options: every rung of the key's ladder, or those named."""
    from affray.design.solve import rungs_of

    return rungs_of(ladder(sheet, key), values, None)


def frontier(
    sheet: Sheet,
    key: str,
    opponents: Sequence[Sheet],
    how: Settings,
    *,
    values: Sequence[str] | None = None,
    backend: Any = None,
    progress: Progress | None = None,
    announce: Callable[[float, int, int], None] | None = None,
) -> Frontier:
    """Every option of ``key`` on ``sheet`` against each opponent."""
    options = rungs(sheet, key, values)
    duels = [(moved(sheet.data, r), o.data) for r in options for o in opponents]
    found = iter(chances(duels, "a", how, backend, progress=progress, announce=announce))
    names = _names(opponents)
    table = [(r.value, {name: next(found) for name in names}) for r in options]
    return Frontier(key, sheet.name, how.method, tuple(names), tuple(dominance(table)))


def _names(opponents: Sequence[Sheet]) -> list[str]:
    """Each opponent's name, made unique (Ogre, Ogre 2)."""
    seen: dict[str, int] = {}
    names = []
    for one in opponents:
        seen[one.name] = seen.get(one.name, 0) + 1
        names.append(one.name if seen[one.name] == 1 else f"{one.name} {seen[one.name]}")
    return names
