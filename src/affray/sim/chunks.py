"""Running a simulation in seeded chunks, in this process or on worker processes.

Chunk ``i`` of a run draws from ``SeedSequence(entropy, spawn_key=(i,))`` (what
``SeedSequence.spawn`` hands out), so the totals depend on the seed and the
number of duels only, never on the number of workers. Chunks are made as they are
needed and only a few are in flight at once, so memory stays flat however many
duels are asked for, and an interrupt (Ctrl-C) stops the workers at once. A run
can say how long it will take before it starts, timed on a short pilot.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import numpy as np

from affray.estimates import Estimate
from affray.stats import DuelStats


class Totals(Protocol):
    """What a chunk gives back: totals that add up (``+``)."""

    def __add__(self: TotalsT, other: TotalsT, /) -> TotalsT: ...


TotalsT = TypeVar("TotalsT", bound=Totals)

Job = Callable[[int, int, int], TotalsT]
"""``job(entropy, index, size)``: fight ``size`` duels of chunk ``index``; picklable."""

IN_FLIGHT_PER_WORKER = 2
PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal a process gets when its parent dies."""


def chunks(n: int, chunk: int) -> Iterator[tuple[int, int]]:
    """``(index, size)`` of each chunk of a run of ``n`` duels, made as needed."""
    for index, start in enumerate(range(0, n, chunk)):
        yield index, min(chunk, n - start)


def quiet_worker() -> None:
    """Workers leave Ctrl-C to the main process, which stops them; a SIGTERM (the main
    process stopping them) ends a worker at once, whatever its parent does on one. A
    Ctrl-C that reached the worker as it started, before it could ignore one, is the
    main process's too: the worker says nothing of it (it printed "Exception in
    initializer" and its traceback on a busy machine)."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _end_with_parent()


def _end_with_parent() -> None:
    """On Linux, have the kernel send this worker SIGTERM when the process that started
    it dies, however it dies (``kill -9`` included): no worker fights on, orphaned.
    Elsewhere nothing is done (the parent's own handlers stop its workers)."""
    import ctypes
    import ctypes.util
    import sys

    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # no libc to ask: the parent's handlers remain
        return
    if os.getppid() == 1:  # the parent died before the request was made
        os._exit(1)


PILOT_SECONDS = 0.25
"""A pilot doubles its duels (1, 2, 4, ... up to a chunk) until one round of them
takes this long: long enough to time, short enough not to delay the run."""

PILOT_INDEX = 1 << 62
"""The pilot's chunk index: its own random stream, never one of the run's chunks."""


def estimate_run(
    pilot: int,
    pilot_seconds: float,
    n: int,
    chunk: int,
    workers: int,
    free_cores: float | None = None,
) -> Estimate:
    """The time a run of ``n`` duels will take, from a pilot of ``pilot`` duels that
    took ``pilot_seconds``: the run at the pilot's pace per duel, shared by
    ``workers`` (no more of them than there are chunks), which go no faster than
    the ``free_cores`` of a busy machine allow."""
    sharing = max(1, min(workers, -(-n // chunk)))
    pace = sharing if free_cores is None else max(1.0, min(sharing, free_cores))
    return Estimate(pilot_seconds / pilot * n / pace, n, sharing)


def free_cores() -> float | None:
    """Cores not busy with other work (the load average's view), if the system says."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # not on every platform
        return None
    return (os.cpu_count() or 1) - load


def pilot(job: Job[TotalsT], entropy: int, n: int, chunk: int, workers: int) -> Estimate:
    """Time the job on a few duels of a stream of their own (the run's totals do not
    change), doubling them until a round takes :data:`PILOT_SECONDS` or reaches a
    chunk or ``n``, or the run is sure to be quick; then scale to the run. A slow
    duel (a long fight of tough fighters) is timed on itself: the pilot takes about
    twice :data:`PILOT_SECONDS` or two duels, whichever is longer (a slow first duel is
    timed again, since a process's first call may pay for loading what it needs)."""
    size = 1
    spare = free_cores()
    first = True
    while True:
        started = time.perf_counter()
        job(entropy, PILOT_INDEX, size)
        took = time.perf_counter() - started
        if first and took >= PILOT_SECONDS:  # the first call may have paid for loading
            first = False  # (imports, machine code from the cache): timed once more
            started = time.perf_counter()
            job(entropy, PILOT_INDEX, size)
            took = min(took, time.perf_counter() - started)
        first = False
        found = estimate_run(size, took, n, chunk, workers, spare)
        # overheads make a few duels look slower per duel than many: a run that looks
        # quick from them is quick
        if took >= PILOT_SECONDS or found.seconds < PILOT_SECONDS or size >= min(chunk, n):
            return found
        size = min(size * 2, chunk, n)


class Submits(Protocol):
    """Somewhere else chunks run (a Dask cluster): ``submit(job, *args)`` starts one
    and hands back its future (``result()`` waits for its totals); ``workers`` run at
    once. Whoever made it stops it (a Ctrl-C included)."""

    @property
    def workers(self) -> int: ...

    def submit(self, job: Callable[..., TotalsT], /, *args: int) -> Any: ...


def run_chunks(
    job: Job[TotalsT],
    n: int,
    chunk: int,
    *,
    seed: int | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    estimate: Callable[[Estimate], None] | None = None,
    zero: TotalsT | None = None,
    on: Submits | None = None,
) -> tuple[TotalsT, int]:
    """Run ``n`` duels (or fights) as chunks of ``chunk`` and add up their totals,
    from ``zero`` (no duels yet: :class:`DuelStats` by default), on ``workers``
    processes of this machine or ``on`` somewhere else (a Dask cluster).

    With ``estimate``, a :func:`pilot` first says how long the run will take.

    Returns:
        The totals, and the entropy used (the seed, or a fresh one when ``seed`` is
        None) so that any run can be repeated.
    """
    entropy = int(np.random.SeedSequence(seed).entropy)  # type: ignore[arg-type]
    total: TotalsT = zero if zero is not None else DuelStats()  # type: ignore[assignment]
    if on is not None:
        workers = max(1, min(on.workers, -(-n // chunk)))
    else:
        workers = min(workers, -(-n // chunk), os.cpu_count() or 1)
    if estimate is not None:
        estimate(pilot(job, entropy, n, chunk, workers))
    todo = chunks(n, chunk)
    if on is not None:
        return _in_flight(on, job, entropy, todo, total, progress), entropy
    if workers <= 1:
        for index, size in todo:
            total = total + job(entropy, index, size)
            if progress is not None:
                progress(size)
        return total, entropy
    others = set(multiprocessing.active_children())  # not the pool's: left alone
    pool = ProcessPoolExecutor(max_workers=workers, initializer=quiet_worker)
    try:
        total = _in_flight(_Pool(pool, workers), job, entropy, todo, total, progress)
    except BaseException:
        stop_pool(pool, spare=others)
        raise
    pool.shutdown()
    return total, entropy


@dataclass(frozen=True, slots=True)
class _Pool:
    """This machine's worker processes, as :class:`Submits`: a Ctrl-C is held while a
    chunk is handed over (:func:`interrupt_after`)."""

    pool: ProcessPoolExecutor
    workers: int

    def submit(self, job: Callable[..., TotalsT], /, *args: int) -> Future[TotalsT]:
        with interrupt_after():
            return self.pool.submit(job, *args)


def _in_flight(
    on: Submits,
    job: Job[TotalsT],
    entropy: int,
    todo: Iterator[tuple[int, int]],
    total: TotalsT,
    progress: Callable[[int], None] | None,
) -> TotalsT:
    """The chunks run ``on`` workers, a few in flight a worker, added in order."""
    pending: deque[tuple[Any, int]] = deque()
    for index, size in todo:
        pending.append((on.submit(job, entropy, index, size), size))
        if len(pending) >= on.workers * IN_FLIGHT_PER_WORKER:
            break
    while pending:
        future, size = pending.popleft()
        total = total + future.result()
        if progress is not None:
            progress(size)
        following = next(todo, None)
        if following is not None:
            pending.append((on.submit(job, entropy, *following), following[1]))
    return total


@contextmanager
def interrupt_after() -> Iterator[None]:
    """Hold a Ctrl-C until the block is done, then raise it.

    A submission may start a worker process; a Ctrl-C that lands between the start
    and the pool's note of it would leave a worker the pool does not know, which
    :func:`stop_pool` cannot end (it went on fighting its chunk, and the program waited
    for it at exit). Only the main thread receives signals, so elsewhere this holds
    nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: held.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if held:
        raise KeyboardInterrupt


def stop_pool(
    pool: ProcessPoolExecutor, spare: set[multiprocessing.process.BaseProcess] | None = None
) -> None:
    """Stop the workers now: cancel what has not started, end what has; then wait for
    the pool's manager thread to see them gone (a few milliseconds). Left running, it
    could close its wake-up pipe just as the interpreter's exit writes to it, a race
    of Python 3.11 that prints a traceback ("Exception ignored in threading._shutdown
    ... Bad file descriptor", seen after a worker was killed and after Ctrl-C). The
    thread is taken before ``shutdown``, which forgets it.

    With ``spare`` (the children this process had before the pool), every other child
    is ended too: a worker the pool had started but not yet noted, if a Ctrl-C came
    just then, would otherwise fight on through its chunk while the program waits."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    if spare is not None:
        known = set(processes)
        processes += [p for p in multiprocessing.active_children() if p not in spare | known]
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    if manager is not None:
        manager.join(timeout=5)
