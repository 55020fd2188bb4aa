"""Running a simulation in seeded chunks, in this process or on worker processes.

Chunk ``i`` of a run draws from ``SeedSequence(entropy, spawn_key=(i,))`` (what
``SeedSequence.spawn`` hands out), so the totals depend on the seed and the
number of duels only, never on the number of workers; memory is one chunk's.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from affray.sim.stats import DuelStats

Job = Callable[[int, int, int], DuelStats]
"""``job(entropy, index, size)``: fight ``size`` duels of chunk ``index``; picklable."""


def run_chunks(
    job: Job,
    n: int,
    chunk: int,
    *,
    seed: int | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> tuple[DuelStats, int]:
    """Run ``n`` duels as chunks of ``chunk`` and add up their totals.

    Returns:
        The totals, and the entropy used (the seed, or a fresh one when ``seed`` is
        None) so that any run can be repeated.
    """
    entropy = int(np.random.SeedSequence(seed).entropy)  # type: ignore[arg-type]
    jobs = [(index, min(chunk, n - start)) for index, start in enumerate(range(0, n, chunk))]
    total = DuelStats()
    workers = min(workers, len(jobs), os.cpu_count() or 1)
    if workers <= 1:
        for index, size in jobs:
            total = total + job(entropy, index, size)
            if progress is not None:
                progress(size)
        return total, entropy
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(job, entropy, index, size) for index, size in jobs]
        for future, (_, size) in zip(futures, jobs, strict=True):
            total = total + future.result()
            if progress is not None:
                progress(size)
    return total, entropy
