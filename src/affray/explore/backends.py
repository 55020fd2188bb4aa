"""Where batches of cells are worked out: this process, a pool of worker processes,
or a Dask cluster (one started here, or a running scheduler).

A backend takes batches as they are made and hands back each batch with its
results as it finishes, keeping only a few in flight, so that batch sizes can
follow the measured cost of a cell and an interrupt loses little.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from affray.errors import AffrayError
from affray.explore.compute import Result, run_batch
from affray.explore.grid import AnyJob

Batch = list[AnyJob]
NextBatch = Callable[[], Batch | None]
"""Makes the next batch (sized by what has been measured so far), or None at the end."""

IN_FLIGHT_PER_WORKER = 2


class Backend(Protocol):
    """Runs batches; ``workers`` says how many run at once."""

    workers: int
    name: str

    def run(self, make: NextBatch) -> Iterator[tuple[Batch, list[Result]]]:
        """Each batch with its results, as they finish."""
        ...

    def close(self) -> None:
        """Stop any work still running and let the workers go."""
        ...


class InProcess:
    """Batches worked out here, one after another."""

    name = "this process"

    def __init__(self) -> None:
        self.workers = 1

    def run(self, make: NextBatch) -> Iterator[tuple[Batch, list[Result]]]:
        while (batch := make()) is not None:
            yield batch, run_batch(batch)

    def close(self) -> None:
        pass


class Pool:
    """Batches on worker processes of this machine."""

    def __init__(self, workers: int) -> None:
        from affray.sim.chunks import quiet_worker

        self.workers = workers
        self.name = f"{workers} worker processes"
        self.pool = ProcessPoolExecutor(max_workers=workers, initializer=quiet_worker)

    def run(self, make: NextBatch) -> Iterator[tuple[Batch, list[Result]]]:
        from affray.sim.chunks import interrupt_after

        pending: dict[Future[list[Result]], Batch] = {}
        ended = False
        while True:
            while not ended and len(pending) < self.workers * IN_FLIGHT_PER_WORKER:
                batch = make()
                if batch is None:
                    ended = True
                    break
                with interrupt_after():
                    pending[self.pool.submit(run_batch, batch)] = batch
            if not pending:
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                try:
                    results = future.result()
                except BrokenProcessPool:
                    raise WorkerLostError() from None
                yield pending.pop(future), results

    def close(self) -> None:
        from affray.sim.chunks import stop_pool

        stop_pool(self.pool)


ADDRESS = re.compile(r"^(tcp|tls|ucx|inproc)://[^\s/:]+(:(\d{1,5}))?/?$")


class WorkerLostError(AffrayError):
    """A worker stopped (killed, out of memory) before its batch was done."""

    def __init__(self) -> None:
        super().__init__(
            "a worker stopped before its cells were done (killed, or out of memory?)",
            hint="the cells done are kept: run the same command again to go on",
        )


def check_address(where: str) -> None:
    """Refuse at once what cannot be a Dask scheduler's address (``local`` is fine).

    Raises:
        AffrayError: not ``local`` nor ``tcp://HOST:PORT`` (or tls://, ...).
    """
    if where == "local":
        return
    found = ADDRESS.match(where)
    port = found.group(3) if found else None
    if found is None or (port is not None and not 0 < int(port) < 65536):
        raise AffrayError(
            f"{where!r} is not a Dask scheduler address",
            hint="--dask local starts a cluster here; --dask tcp://HOST:PORT uses "
            "a running scheduler (started with: dask scheduler)",
        )


class Dask:
    """Batches on a Dask cluster: ``local`` starts one on this machine (one
    single-threaded worker process per core, or ``workers``); an address such as
    ``tcp://10.0.0.5:8786`` uses a running scheduler and its workers."""

    def __init__(self, where: str, workers: int | None = None, *, wait_seconds: float = 10) -> None:
        from affray.extras import need

        need("distributed", "--dask")
        import distributed

        for noisy in ("distributed", "tornado", "bokeh"):
            logging.getLogger(noisy).setLevel(logging.ERROR)
        dask: Any = distributed  # untyped: its calls are checked by the tests
        self.cluster: Any = None
        if where == "local":
            self.cluster = dask.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address="127.0.0.1:0",  # its web server binds a free port
                silence_logs=logging.ERROR,
                preload=["affray.explore.worker_setup"],  # Ctrl-C is the client's to handle
            )
            self.client: Any = dask.Client(self.cluster)
            self.name = f"a local Dask cluster of {len(self.cluster.workers)} workers"
        else:
            check_address(where)
            self.client = _connect(dask, where, wait_seconds)
            try:
                self.client.wait_for_workers(1, timeout=wait_seconds)
            except (OSError, TimeoutError):
                self.client.close()
                raise AffrayError(
                    f"the Dask scheduler at {where} has no workers",
                    hint=f"start one or more with: dask worker {where}",
                ) from None
        self.workers = max(
            1,
            sum(
                info.get("nthreads", 1) for info in self.client.scheduler_info()["workers"].values()
            ),
        )
        if self.cluster is None:
            self.name = f"the Dask scheduler at {where} ({self.workers} worker threads)"
        self.client.run(warm_up)  # imports done before the first batch, on every worker

    def submit(self, job: Callable[..., Any], /, *args: int) -> Any:
        """``job(*args)`` on a worker (a run's chunk: :func:`affray.sim.chunks.run_chunks`
        ``on`` this cluster); its future."""
        return self.client.submit(job, *args, pure=False)

    def run(self, make: NextBatch) -> Iterator[tuple[Batch, list[Result]]]:
        import distributed
        from distributed import KilledWorker

        dask: Any = distributed
        pending: dict[str, Batch] = {}
        queue = dask.as_completed()

        def top_up() -> None:
            while len(pending) < self.workers * IN_FLIGHT_PER_WORKER:
                batch = make()
                if batch is None:
                    return
                future = self.client.submit(run_batch, batch, pure=False)
                pending[future.key] = batch
                queue.add(future)

        top_up()
        while pending:
            future = next(queue)
            try:
                results = future.result()
            except KilledWorker:
                raise WorkerLostError() from None
            batch = pending.pop(future.key)
            future.release()
            yield batch, results
            top_up()

    def close(self) -> None:
        """A local cluster's worker processes are ended at once (a cell at work would
        otherwise hold the shutdown up for seconds; the cells done are kept already),
        then the client and the cluster close; a running scheduler's workers are its
        own and are left alone."""
        if self.cluster is not None:
            _end_workers(self.cluster)
        # closing can never lose the results: the cells are done and kept, and a slow
        # machine's close that times out (or a scheduler gone) leaves nothing behind
        with contextlib.suppress(Exception):
            self.client.close(timeout=CLOSE_S)
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                self.cluster.close(timeout=CLOSE_S)
            _forget_at_exit()


CLOSE_S = 1
"""How long the client and a local cluster each get to close (their workers are ended
first: there is nothing left to wait for but sockets)."""


def _forget_at_exit() -> None:
    """distributed closes every cluster it made again at exit; ours is closed, and a
    second Ctrl-C during that would print its traceback."""
    import atexit

    with contextlib.suppress(Exception):
        from distributed.deploy import spec

        atexit.unregister(spec.close_clusters)


def _end_workers(cluster: Any) -> None:
    """Kill a local cluster's worker processes (through its nannies' handles)."""
    import os
    import signal

    for nanny in list(getattr(cluster, "workers", {}).values()):
        process = getattr(getattr(nanny, "process", None), "process", None)
        pid = getattr(process, "pid", None)
        if isinstance(pid, int):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def _connect(dask: Any, where: str, seconds: float) -> Any:
    """A client of the scheduler at ``where``, within ``seconds`` whatever answers there
    (a web server, say, which the handshake alone would wait on for ever).

    Raises:
        AffrayError: nothing answers as a Dask scheduler in time.
    """
    import threading

    made: list[Any] = []
    failed: list[BaseException] = []

    def connect() -> None:
        try:
            made.append(dask.Client(where, timeout=f"{seconds}s"))
        except Exception as error:  # anything: a refused port, garbage, a huge length
            failed.append(error)

    attempt = threading.Thread(target=connect, daemon=True)
    attempt.start()
    attempt.join(seconds + 2)
    if made:
        return made[0]
    why = f" ({type(failed[0]).__name__})" if failed else " (no answer)"
    raise AffrayError(
        f"no Dask scheduler answers at {where}{why}",
        hint=f"start one with: dask scheduler; then workers with: dask worker {where}",
    )


def backend(dask: str | None, workers: int) -> Backend:
    """The backend asked for: Dask, a pool of ``workers`` processes, or this process."""
    if dask is not None:
        return Dask(dask, workers if dask == "local" else None)
    if workers <= 1:
        return InProcess()
    return Pool(workers)


def warm_up() -> None:
    """Load what working out a cell needs (the rule systems, numpy, the simulators), so
    that a fresh worker's first batch takes as long as its others."""
    import affray.api  # loaded here, once: the simulators and the encounter engine
    import affray.registry

    affray.registry.all_systems()
