"""Set up a Dask worker of ``--dask local`` (its ``preload``): Ctrl-C at the terminal
reaches every process of the foreground group, and is the client's to handle. The
client stops the cluster; a worker that took the Ctrl-C itself would print its own
traceback on the way out."""

from __future__ import annotations

import signal


def dask_setup(worker: object) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
