"""Running a simulation in seeded chunks, in this process or on worker processes.

Chunk ``i`` of a run draws from ``SeedSequence(entropy, spawn_key=(i,))`` (what
``SeedSequence.spawn`` hands out), so the totals depend on the seed and the
number of duels only, never on the number of workers. Chunks are made as they are
needed and only a few are in flight at once, so memory stays flat however many
duels are asked for, and an interrupt (Ctrl-C) stops the workers at once. A run
can say how long it will take before it starts, timed on its first chunk.
"""

from __future__ import annotations

import os
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from affray.sim.stats import DuelStats

Job = Callable[[int, int, int], DuelStats]
"""``job(entropy, index, size)``: fight ``size`` duels of chunk ``index``; picklable."""

IN_FLIGHT_PER_WORKER = 2


def chunks(n: int, chunk: int) -> Iterator[tuple[int, int]]:
    """``(index, size)`` of each chunk of a run of ``n`` duels, made as needed."""
    for index, start in enumerate(range(0, n, chunk)):
        yield index, min(chunk, n - start)


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the main process, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass(frozen=True, slots=True)
class Estimate:
    """How long a run will take, measured on its first chunk (fought alone, before
    the others start) and scaled to the rest of the run and the workers sharing it."""

    seconds: float
    duels: int
    workers: int


def estimate_run(pilot: int, pilot_seconds: float, n: int, chunk: int, workers: int) -> Estimate:
    """The time a run of ``n`` duels will take, from a pilot chunk of ``pilot`` duels
    that took ``pilot_seconds``: the pilot, then the rest at the pilot's pace per duel,
    shared by ``workers`` (no more of them than there are chunks left)."""
    left = n - pilot
    sharing = max(1, min(workers, -(-left // chunk)))
    return Estimate(pilot_seconds + pilot_seconds / pilot * left / sharing, n, sharing)


def run_chunks(
    job: Job,
    n: int,
    chunk: int,
    *,
    seed: int | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    estimate: Callable[[Estimate], None] | None = None,
) -> tuple[DuelStats, int]:
    """Run ``n`` duels as chunks of ``chunk`` and add up their totals.

    With ``estimate``, a run of several chunks fights its first chunk here, timed,
    and says how long the whole run will take before the other chunks start (the
    totals are the same: chunk 0 is chunk 0 wherever it is fought).

    Returns:
        The totals, and the entropy used (the seed, or a fresh one when ``seed`` is
        None) so that any run can be repeated.
    """
    entropy = int(np.random.SeedSequence(seed).entropy)  # type: ignore[arg-type]
    total = DuelStats()
    count = -(-n // chunk)
    workers = min(workers, count, os.cpu_count() or 1)
    todo = chunks(n, chunk)
    if estimate is not None and count > 1:
        index, size = next(todo)
        started = time.perf_counter()
        total = job(entropy, index, size)
        if progress is not None:
            progress(size)
        estimate(estimate_run(size, time.perf_counter() - started, n, chunk, workers))
    if workers <= 1:
        for index, size in todo:
            total = total + job(entropy, index, size)
            if progress is not None:
                progress(size)
        return total, entropy
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_quiet_worker)
    try:
        pending: deque[tuple[Future[DuelStats], int]] = deque()
        for index, size in todo:
            pending.append((pool.submit(job, entropy, index, size), size))
            if len(pending) >= workers * IN_FLIGHT_PER_WORKER:
                break
        while pending:
            future, size = pending.popleft()
            total = total + future.result()
            if progress is not None:
                progress(size)
            following = next(todo, None)
            if following is not None:
                pending.append((pool.submit(job, entropy, *following), following[1]))
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown()
    return total, entropy


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop the workers now: cancel what has not started, end what has."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
