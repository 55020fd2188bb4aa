"""``affray solve ENC``: a member of an encounter moved along a key (how many of it,
or a key of its sheet), and a side's chance to win at each value, as the explorer's
encounter sweeps work a cell out (exact where the system has exact odds of whole
encounters and they are within its budget, else simulated)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from affray import registry
from affray.design.duels import Chance, Settings, Sheet, ladder
from affray.design.sensitivity import Move, Row, Sensitivity
from affray.design.solve import Point, Solved, crossings, monotonic, rungs_of
from affray.errors import AffrayError
from affray.explore.compute import Result
from affray.explore.encounter_sweep import COUNT, EncounterSweep, load_encounter_sweep
from affray.explore.grid import Cell, cells
from affray.explore.run import Progress, work_out
from affray.explore.sweep import Axis
from affray.ladders import Rung
from affray.quoting import quoted
from affray.sheets import load_document

COUNTS = (1, 8)
"""How many of a member are tried when no --range or --values says."""


def parse_member_key(vary: str) -> tuple[str, int, str]:
    """``SIDE.KEY`` or ``SIDE.MEMBER.KEY`` (the side's MEMBER-th entry, from 1) as
    (side, member, key).

    Raises:
        AffrayError: it is neither.
    """
    parts = vary.split(".")
    if len(parts) >= 3 and parts[1].isdigit():
        return parts[0], int(parts[1]), ".".join(parts[2:])
    if len(parts) >= 2 and parts[0] and parts[1]:
        return parts[0], 1, ".".join(parts[1:])
    raise AffrayError(
        f"--vary {quoted(vary)} is not SIDE.KEY",
        hint="e.g. --vary goblins.count (how many goblins), --vary goblins.skill, or "
        "--vary goblins.2.hit_dice (the side's second member)",
    )


def _sweep(
    path: Path, side: str, member: int, key: str, values: Sequence[Any], n: int, seed: int
) -> EncounterSweep:
    data = {
        "encounter": path.name,
        "n": n,
        "seed": seed,
        "axes": [{"side": side, "member": member, "key": key, "values": list(values)}],
    }
    return load_encounter_sweep(path.parent / path.name, data, text="")


def plan(
    encounter: str,
    vary: str,
    values: Sequence[str] | None,
    span: tuple[int, int] | None,
    how: Settings,
) -> tuple[EncounterSweep, bool, list[Any], list[dict[str, Any]] | None]:
    """The encounter with the values to try of its member's key, whether the key is a
    number, each value as people read it (a Midian weapon by its name, where the
    sheet takes its table), and for a sheet's key what each value sets (a patch:
    an MST-2 weapon sets its grip too); None for a count (the sweep's own axis).

    Raises:
        AffrayError: the side, the member or the key is not the encounter's; a value
            asked for is none of the key's.
    """
    path = Path(encounter)
    side, member, key = parse_member_key(vary)
    found = _encounter_file(path)
    sides = [str(s.get("name")) for s in found.get("sides", []) if isinstance(s, dict)]
    match = next((s for s in sides if s.lower() == side.lower()), None)
    if match is None:
        raise AffrayError(
            f"{encounter} has no side called {quoted(side)}",
            hint="its sides: " + ", ".join(quoted(s) for s in sides),
        )
    probe = _sweep(path, match, member, COUNT, [1], 1, how.seed)  # its members, checked
    mine = next((m for m in probe.members if (m.side, m.number) == (match, member)), None)
    if mine is None:
        listed = [m for m in probe.members if m.side == match]
        raise AffrayError(
            f"side {quoted(match)} has no member {member}",
            hint="members count from 1: " + ", ".join(f"{m.number} ({m.label})" for m in listed),
        )
    if key == COUNT:
        if values is not None:
            tried: list[Any] = [_whole(v) for v in values]
        else:
            low, high = sorted(span) if span is not None else COUNTS
            tried = list(range(max(low, 1), high + 1))
        integer = True
        labels = list(tried)
    else:
        sheet = Sheet(mine.sheet.data, mine.label, probe.system)
        moving = ladder(sheet, key)
        rungs = rungs_of(moving, values, span)
        labels = [r.value for r in rungs]
        integer = moving.kind == "integer"
        sweep = _sweep(path, match, member, COUNT, [1], how.n, how.seed)
        return sweep, integer, labels, [dict(r.patch) for r in rungs]
    sweep = _sweep(path, match, member, key, tried, how.n, how.seed)
    return sweep, integer, labels, None


def _cell(sweep: EncounterSweep, side: str, member: int, patch: Mapping[str, Any]) -> Cell:
    """The encounter with one member's keys set as ``patch`` says (every key of a step:
    an MST-2 weapon and its grip), as a sweep's one cell."""
    axes = tuple(Axis(side, key, (value,), None, member) for key, value in patch.items())
    return next(iter(cells(replace(sweep, axes=axes))))


def _encounter_file(path: Path) -> Mapping[str, Any]:
    """An encounter file's data.

    Raises:
        AffrayError: it is a sheet, not an encounter (a duel needs two sheets).
    """
    found = load_document(path)
    if "sides" not in found:
        raise AffrayError(
            f"{path} is a sheet, not an encounter file",
            hint="give two sheets (A B) for a duel, or an encounter file with --for SIDE",
        )
    return found


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise AffrayError(
            f"a count is a whole number, not {quoted(text)}", hint="e.g. --values 1,2,3"
        ) from None


def solve_encounter(
    encounter: str,
    vary: str,
    target: float,
    side: str,
    how: Settings,
    *,
    values: Sequence[str] | None = None,
    span: tuple[int, int] | None = None,
    backend: Any = None,
    progress: Progress | None = None,
    announce: Callable[[float, int, int], None] | None = None,
) -> Solved:
    """The values of a member's key (``vary``) that bring ``side``'s chance to win the
    encounter to ``target``.

    Raises:
        AffrayError: ``side`` is none of the encounter's; see :func:`plan`.
    """
    sweep, integer, labels, patches = plan(encounter, vary, values, span, how)
    whose = _side(sweep, encounter, side)
    exact = how.method == "exact" and registry.system(sweep.system).exact_fights is not None
    if patches is None:
        grid = list(cells(sweep))
    else:
        at = parse_member_key(vary)
        mine = next(
            m for m in sweep.members if m.side.lower() == at[0].lower() and m.number == at[1]
        )
        grid = [_cell(sweep, mine.side, mine.number, patch) for patch in patches]
    jobs = [
        replace(c.job, method="exact" if exact else "monte-carlo")
        for c in grid
        if c.job is not None
    ]
    results = iter(work_out(jobs, backend, progress=progress, announce=announce))
    place = sweep.sides.index(whose)
    points = []
    for cell, label in zip(grid, labels, strict=True):
        chance = (
            Chance(None, error=cell.error) if cell.job is None else _chance(next(results), place)
        )
        points.append(Point(label, chance))
    method = (
        "exact" if all(p.chance.exact for p in points if p.chance.p is not None) else "monte-carlo"
    )
    return Solved(
        vary,
        target,
        whose,
        method,
        tuple(points),
        crossings(points, target, integer=integer),
        monotonic(points),
        integer,
    )


def _chance(result: Result, place: int) -> Chance:
    from affray.design.duels import wilson

    if result.error is not None or result.p_wins is None:
        return Chance(None, error=result.error or "no odds")
    p = result.p_wins[place]
    if result.method == "exact":
        return Chance(p, p, p)
    low, high = wilson(p, result.n or 1)
    return Chance(p, low, high, result.n, result.seed, note=result.note)


@dataclass(frozen=True, slots=True)
class Moved:
    """A member's key and its step down and up (None where it cannot move so)."""

    side: str
    member: int
    label: str
    key: str
    now: Any
    down: Any
    up: Any


def sensitivity_plan(encounter: str, how: Settings) -> tuple[EncounterSweep, list[Moved]]:
    """The encounter, and every member's count and sheet keys with their steps.

    Raises:
        AffrayError: the file is invalid.
    """
    path = Path(encounter)
    found = _encounter_file(path)
    first = next((s for s in found.get("sides", []) if isinstance(s, dict)), {})
    sweep = _sweep(path, str(first.get("name", "")), 1, COUNT, [1], how.n, how.seed)
    ladders = registry.system(sweep.system).ladders
    moves = []
    for member in sweep.members:
        listed = [m for m in sweep.members if m.side == member.side]
        label = member.label if len(listed) == 1 else f"{member.label} ({member.number})"
        count = int(member.table.get(COUNT, 1))
        moves.append(
            Moved(member.side, member.number, label, COUNT, count, count - 1 or None, count + 1)
        )
        for ladder_ in () if ladders is None else ladders(member.sheet.data):
            if ladder_.at is None:
                continue
            now = ladder_.rungs[ladder_.at].value
            down, up = ladder_.down, ladder_.up
            moves.append(Moved(member.side, member.number, label, ladder_.key, now, down, up))
    return sweep, moves


def sensitivity_encounter(
    encounter: str,
    side: str,
    how: Settings,
    *,
    backend: Any = None,
    progress: Progress | None = None,
    announce: Callable[[float, int, int], None] | None = None,
) -> Sensitivity:
    """Each member's count and each key of its sheet moved one step down and one up,
    and ``side``'s chance to win at each, the largest effect first.

    Raises:
        AffrayError: ``side`` is none of the encounter's, or the file is invalid.
    """
    sweep, moves = sensitivity_plan(encounter, how)
    whose = _side(sweep, encounter, side)
    first = sweep.members[0]
    flat = [_cell(sweep, first.side, first.number, {COUNT: int(first.table.get(COUNT, 1))})]
    for move in moves:
        for value in (move.down, move.up):
            if value is not None:
                patch = dict(value.patch) if isinstance(value, Rung) else {move.key: value}
                flat.append(_cell(sweep, move.side, move.member, patch))
    exact = how.method == "exact" and registry.system(sweep.system).exact_fights is not None
    jobs = [
        replace(c.job, method="exact" if exact else "monte-carlo")
        for c in flat
        if c.job is not None
    ]
    results = iter(work_out(jobs, backend, progress=progress, announce=announce))
    place = sweep.sides.index(whose)
    chances = [
        Chance(None, error=c.error) if c.job is None else _chance(next(results), place)
        for c in flat
    ]
    base, rest = chances[0], iter(chances[1:])
    rows = []
    for move in moves:
        found = [
            None if v is None else Move(v.value if isinstance(v, Rung) else v, next(rest))
            for v in (move.down, move.up)
        ]
        rows.append(Row(move.side, move.key, move.now, found[0], found[1], move.label))
    centre = base.p if base.p is not None else 0.5
    rows.sort(key=lambda row: -row.effect(centre))
    method = "exact" if all(c.exact for c in chances if c.p is not None) else "monte-carlo"
    return Sensitivity(whose, sweep.title, method, base, tuple(rows))


def sensitivity_count(encounter: str, how: Settings) -> int:
    """How many encounters the question works out."""
    _, moves = sensitivity_plan(encounter, how)
    return 1 + sum((m.down is not None) + (m.up is not None) for m in moves)


def _side(sweep: EncounterSweep, encounter: str, side: str) -> str:
    whose = next((s for s in sweep.sides if s.lower() == side.lower()), None)
    if whose is None:
        raise AffrayError(
            f"{encounter} has no side called {quoted(side)}",
            hint="--for names the side whose chance is sought: "
            + ", ".join(quoted(s) for s in sweep.sides),
        )
    return whose
