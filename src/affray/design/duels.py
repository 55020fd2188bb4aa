"""A duel's sheets moved along their ladders, and each moved duel's odds, as the
explorer works a cell out (the same jobs, seeds and engines: ``affray duel A B -n N
--seed SEED`` repeats a simulated one)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from affray import registry
from affray.duels import method_for
from affray.errors import AffrayError, SheetError
from affray.explore.backends import Backend
from affray.explore.compute import Result
from affray.explore.grid import Job, cell_key_of, cell_seed
from affray.explore.run import Announce, Progress, Start, work_out
from affray.explore.values import one_line, with_value
from affray.ladders import Ladder, Rung
from affray.quoting import quoted
from affray.sheets import sheet_from_data
from affray.sheets.combatants import resolve_reference

Side = Literal["a", "b"]
Method = Literal["exact", "monte-carlo"]


@dataclass(frozen=True, slots=True)
class Sheet:
    """A duel's sheet: its data as the file gives it, its name and its system's name."""

    data: Mapping[str, Any]
    name: str
    system: str


@dataclass(frozen=True, slots=True)
class Settings:
    """How each moved duel's odds are worked out.

    Attributes:
        method: ``exact`` (where the system has exact odds) or ``monte-carlo``.
        n, seed, engine: the simulation's duels, seed (each duel's own, from it and
            its sheets) and engine.
    """

    method: Method
    n: int = 20_000
    seed: int = 1
    engine: Literal["fast", "reference"] = "fast"


@dataclass(frozen=True, slots=True)
class Chance:
    """A side's chance to win one moved duel.

    Attributes:
        p: the chance (None when the moved sheet is invalid: ``error`` says why).
        low, high: its 95 % interval when simulated (else equal to ``p``).
        n: the duels it rests on (None: exact).
        seed: the seed that repeats it (``affray duel -n N --seed SEED``).
        note: why it is simulated where exact odds were asked.
    """

    p: float | None
    low: float | None = None
    high: float | None = None
    n: int | None = None
    seed: int | None = None
    error: str | None = None
    note: str | None = None
    """Why it is simulated where exact odds were asked (the exact chain refused it)."""

    @property
    def exact(self) -> bool:
        return self.n is None and self.p is not None

    def to_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {"p": self.p}
        if self.n is not None:
            found |= {"ci95": [self.low, self.high], "n": self.n, "seed": self.seed}
        if self.error is not None:
            found["error"] = self.error
        if self.note is not None:
            found["note"] = self.note
        return found


def load(reference: str, side: Side, system: str | None = None) -> Sheet:
    """A duel's sheet: a file, or a bestiary name (of ``system`` where given, as the
    second sheet's is of the first's).

    Raises:
        SheetError: there is no such sheet, or it is invalid.
    """
    found = resolve_reference(reference, system)
    sheet = found.sheet()
    return Sheet(found.data, sheet.name, registry.system_of(sheet).name)


def pair(a: str, b: str) -> tuple[Sheet, Sheet]:
    """Two sheets of one system.

    Raises:
        SheetError: either is unreadable, or they are of two systems.
    """
    first = load(a, "a")
    try:
        second = load(b, "b", first.system)
    except SheetError:
        second = load(b, "b")  # of another system: said below
    if first.system != second.system:
        raise SheetError(
            "the two sheets are of different rule systems",
            path=b,
            key="system",
            hint=f"a duel needs two sheets of one system ({a} is a {first.system} sheet)",
        )
    return first, second


def settings(system: str, exact: bool, n: int | None, seed: int | None, engine: str) -> Settings:
    """The method asked for (exact where the system has it, unless ``-n``).

    Raises:
        AffrayError: exact odds asked of a system that has none.
    """
    asked: Method | None = "exact" if exact else (None if n is None else "monte-carlo")
    method = method_for(registry.system(system), asked)
    fast: Literal["fast", "reference"] = "reference" if engine == "reference" else "fast"
    return Settings(method, n or 20_000, 1 if seed is None else seed, fast)


def ladder(sheet: Sheet, key: str) -> Ladder:
    """The ladder of ``key`` on ``sheet``, as its system moves it.

    Raises:
        AffrayError: the system moves no such key (the tip lists those it does).
    """
    ladders = registry.system(sheet.system).ladders
    found = () if ladders is None else ladders(sheet.data)
    for one in found:
        if one.key == key:
            return one
    import difflib

    keys = [one.key for one in found]
    near = difflib.get_close_matches(key, keys, n=1)
    known = ", ".join(keys) or "none"
    raise AffrayError(
        f"{sheet.name}'s sheet has no key {quoted(key)} to move"
        + (f" (did you mean {quoted(near[0])}?)" if near else ""),
        hint=f"the keys of a {sheet.system} sheet a designer moves: {known}",
    )


def moved(data: Mapping[str, Any], rung: Rung) -> dict[str, Any]:
    """``data`` with the keys of ``rung`` set."""
    result = dict(data)
    for key, value in rung.patch.items():
        result = with_value(result, key, value)
    return result


def chances(
    duels: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]],
    side: Side,
    how: Settings,
    backend: Backend | Start | None = None,
    *,
    progress: Progress | None = None,
    announce: Announce | None = None,
    workers: int | None = None,
) -> list[Chance]:
    """``side``'s chance to win each duel (a pair of sheets' data), in order."""
    jobs: list[Job | None] = []
    problems: list[str | None] = []
    for a, b in duels:
        problem = _problem(a, "a") or _problem(b, "b")
        problems.append(problem)
        if problem is not None:
            jobs.append(None)
            continue
        key = cell_key_of(a, b, how.method, how.n, how.seed, how.engine)
        jobs.append(Job(key, a, b, how.method, how.n, cell_seed(how.seed, a, b), how.engine))
    todo = [job for job in jobs if job is not None]
    results = iter(work_out(todo, backend, progress=progress, announce=announce, workers=workers))
    found = []
    for job, problem in zip(jobs, problems, strict=True):
        if job is None:
            found.append(Chance(None, error=problem))
            continue
        found.append(_chance(next(results), side))
    return found


def _problem(data: Mapping[str, Any], side: str) -> str | None:
    try:
        sheet_from_data(data, side)
    except AffrayError as error:
        return one_line(error)
    return None


def _chance(result: Result, side: Side) -> Chance:
    if result.error is not None or result.p_a_wins is None or result.p_b_wins is None:
        return Chance(None, error=result.error or "no odds")
    p = result.p_a_wins if side == "a" else result.p_b_wins
    if result.method == "exact":
        return Chance(p, p, p)
    low, high = result.ci95_low, result.ci95_high
    if side == "b" and low is not None and high is not None:  # A's interval, turned
        low, high = wilson(p, result.n or 1)
    return Chance(p, low, high, result.n, result.seed)


def wilson(p: float, n: int) -> tuple[float, float]:
    """A 95 % Wilson interval for a chance ``p`` of ``n`` duels."""
    z = 1.959963984540054
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
