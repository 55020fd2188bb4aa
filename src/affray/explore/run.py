"""Running a sweep: the cells not in the cache, in batches, on a backend.

Batches are sized to take about :data:`TASK_SECONDS` each, from the cost of the
cells measured so far (the first cell is timed here, alone, before any batch is
sent), and small enough near the end that every worker has a share. A cell's
result depends on the cell only (its seed is its own), never on the batches or
the workers, so any backend gives the same results.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import cast

from affray.explore.backends import Backend, Batch, InProcess
from affray.explore.cache import Cache
from affray.explore.compute import Result, run_job
from affray.explore.encounter_sweep import AnySweep
from affray.explore.fight_cell import FightJob
from affray.explore.grid import AnyJob, Cell, cells

TASK_SECONDS = 0.5
"""What one batch should take on a worker: long enough that sending it costs little
(a Dask task costs about a millisecond), short enough to balance and to resume."""
MAX_BATCH = 2_000

Progress = Callable[[int], None]
"""Hears how many more cells are done."""
Announce = Callable[[float, int, int], None]
"""Hears, once the first cell is timed: the seconds the rest should take, the cells
left and the workers sharing them."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished sweep: every cell with its result (None for an invalid sheet).

    Attributes:
        rows: each cell and its result, in grid order.
        computed: cells worked out in this run (alike cells, worked out once, each
            counted: computed + cached + invalid = cells).
        cached: cells taken from the cache.
        seconds: how long the run took.
        backend: what worked them out, for people.
    """

    rows: tuple[tuple[Cell, Result | None], ...]
    computed: int
    cached: int
    seconds: float
    backend: str

    @property
    def invalid(self) -> int:
        return sum(1 for cell, _ in self.rows if cell.error is not None)


PILOT_DUELS = 2_000
"""A Monte Carlo sweep's first pilot (see :func:`_pilot`)."""
PILOT_FIGHTS = 200
"""An encounter sweep's first pilot: a fight of many takes a millisecond or more."""
PILOT_SECONDS = 0.2

Start = Callable[[], Backend]
"""Starts a backend: called only if there is work for one (so a sweep found whole in
the cache, or of one cell, starts no worker)."""


def reasons(rows: Sequence[tuple[Cell, Result | None]]) -> list[tuple[str, list[Cell]]]:
    """Each reason cells have no odds (an invalid sheet, or a duel the rules refused)
    and the cells it applies to, the commonest reason first."""
    groups: dict[str, list[Cell]] = {}
    for cell, result in rows:
        why = cell.error or (result.error if result is not None else None)
        if why is not None:
            groups.setdefault(why, []).append(cell)
    return sorted(groups.items(), key=lambda item: -len(item[1]))


def run_sweep(
    sweep: AnySweep,
    cache: Cache,
    backend: Backend | Start | None = None,
    *,
    progress: Progress | None = None,
    announce: Announce | None = None,
    workers: int | None = None,
) -> Outcome:
    """Work out every cell of ``sweep`` not already in ``cache`` (each kept in the
    cache as its batch finishes) and gather all of them. ``backend`` is a backend, or
    what starts one (then it is closed here too); None works in this process.
    ``workers``: how many the backend will have, when that is known before it starts
    (then a long run is announced before a cluster is started, not after)."""
    started = time.perf_counter()
    grid = list(cells(sweep))
    todo: dict[str, AnyJob] = {}
    for cell in grid:
        if cell.job is not None and cell.job.key not in cache:
            todo.setdefault(cell.job.key, cell.job)
    cached = sum(1 for cell in grid if cell.job is not None and cell.job.key in cache)
    computed = _count(grid, todo)  # cells, alike ones each counted
    if progress is not None:
        progress(len(grid) - computed)
    jobs = list(todo.values())
    used = "this process"
    if jobs:
        used = _work(jobs, cache, backend, progress, announce, grid, workers)
    rows = tuple((cell, cache[cell.job.key] if cell.job else None) for cell in grid)
    return Outcome(rows, computed, cached, time.perf_counter() - started, used)


class Kept(dict[str, Result]):
    """Results kept in memory only (a question asked once, not a sweep to resume)."""

    def add(self, done: Iterable[tuple[str, Result]]) -> None:
        self.update(done)


def work_out(
    jobs: Sequence[AnyJob],
    backend: Backend | Start | None = None,
    *,
    progress: Progress | None = None,
    announce: Announce | None = None,
    workers: int | None = None,
) -> list[Result]:
    """Each job's result, in order (alike jobs, by their keys, worked out once), as a
    sweep works its cells out: the first timed alone, the rest in batches on
    ``backend`` (None: this process)."""
    todo: dict[str, AnyJob] = {}
    for job in jobs:
        todo.setdefault(job.key, job)
    kept = Kept()
    if todo:
        _work(list(todo.values()), kept, backend, progress, announce, (), workers)
    return [kept[job.key] for job in jobs]


def _count(grid: Sequence[Cell], todo: dict[str, AnyJob]) -> int:
    """How many cells of the grid wait for these jobs (alike cells share one)."""
    return sum(1 for cell in grid if cell.job is not None and cell.job.key in todo)


def _work(
    jobs: list[AnyJob],
    cache: Cache | Kept,
    backend: Backend | Start | None,
    progress: Progress | None,
    announce: Announce | None,
    grid: Sequence[Cell],
    workers: int | None = None,
) -> str:
    """Work out the jobs; what worked them out, for people."""
    sharing = dict.fromkeys((job.key for job in jobs), 0 if grid else 1)
    for cell in grid:
        if cell.job is not None and cell.job.key in sharing:
            sharing[cell.job.key] += 1

    def done(batch: Batch, results: Sequence[Result]) -> None:
        cache.add((job.key, result) for job, result in zip(batch, results, strict=True))
        if progress is not None:
            progress(sum(sharing[job.key] for job in batch))

    first = jobs[0]
    per_cell, kept = _pilot(first)
    rest = jobs
    if kept is not None:  # the pilot was the whole first cell: keep it
        done([first], [kept])
        rest = jobs[1:]
    if not rest:
        return "this process"
    if announce is not None and workers is not None:  # said before a cluster starts
        announce(per_cell * len(rest) / min(workers, len(rest)), len(rest), workers)
    where = _start(backend)
    started = where is not backend
    try:
        sizer = _Sizer(max(per_cell, 1e-4), where.workers)
        if announce is not None and workers is None:
            announce(per_cell * len(rest) / min(where.workers, len(rest)), len(rest), where.workers)
        position = 0

        def make() -> Batch | None:
            nonlocal position
            if position >= len(rest):
                return None
            size = sizer.size(len(rest) - position)
            batch = rest[position : position + size]
            position += size
            return batch

        for batch, results in where.run(make):
            done(batch, results)
            sizer.measured(results)
    finally:
        if started:
            where.close()
    return where.name


def _pilot(job: AnyJob) -> tuple[float, Result | None]:
    """How long ``job`` will take, timed on it or on fewer of its duels: a Monte Carlo
    pilot grows (2,000 duels or 200 fights, then four times as many) until it takes
    :data:`PILOT_SECONDS` or is the whole cell, which is then its result. The cost of a
    duel is the slope between the last two pilots, so that a fixed cost (a kernel
    compiled, sheets read) is counted once, not once a duel."""
    pilot = PILOT_FIGHTS if isinstance(job, FightJob) else PILOT_DUELS
    size = min(job.n, pilot) if job.method == "monte-carlo" else job.n
    before: tuple[int, float] | None = None
    while True:
        result = run_job(replace(job, n=size))
        if size >= job.n:
            return result.seconds, result
        if result.seconds >= PILOT_SECONDS and before is not None:
            return _extrapolated(before, (size, result.seconds), job.n), None
        before = (size, result.seconds)
        size = min(size * 4, job.n)


def _extrapolated(small: tuple[int, float], large: tuple[int, float], n: int) -> float:
    """Seconds for ``n`` duels, from two pilots (duels, seconds): the slope between them
    times the duels, plus the fixed cost they share (never below the larger pilot's
    own rate, which a noisy machine may otherwise undercut)."""
    (a, ta), (b, tb) = small, large
    per_duel = max((tb - ta) / (b - a), 0.0)
    fixed = max(ta - per_duel * a, 0.0)
    estimate = fixed + per_duel * n
    return max(estimate, tb) if per_duel > 0 else tb * n / b


def _start(backend: Backend | Start | None) -> Backend:
    """The backend to use: the one given, or one started now."""
    if backend is None:
        return InProcess()
    if hasattr(backend, "run"):
        return cast(Backend, backend)
    return backend()


class _Sizer:
    """Batch sizes from the mean cost of the cells measured so far."""

    def __init__(self, first: float, workers: int) -> None:
        self.total = first
        self.count = 1
        self.workers = workers

    @property
    def seconds_per_cell(self) -> float:
        return self.total / self.count

    def measured(self, results: Sequence[Result]) -> None:
        self.total += sum(result.seconds for result in results)
        self.count += len(results)

    def size(self, left: int) -> int:
        by_time = math.floor(TASK_SECONDS / max(self.seconds_per_cell, 1e-6))
        share = math.ceil(left / (self.workers * 2))  # every worker busy to the end
        return max(1, min(by_time, share, MAX_BATCH, left))
