"""Set up a Dask worker of ``--dask local`` (its ``preload``): Ctrl-C at the terminal
reaches every process of the foreground group, and is the client's to handle. The
client stops the cluster; a worker that took the Ctrl-C itself would print its own
traceback on the way out. A worker writes to the terminal's stderr too: it says
nothing there (a worker whose scheduler stopped first would log "Failed to
communicate with scheduler during heartbeat" and its traceback on a busy machine); a
cell's error reaches the client as its task's."""

from __future__ import annotations

import logging
import signal


def dask_setup(worker: object) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for noisy in ("distributed", "tornado"):
        logging.getLogger(noisy).setLevel(logging.CRITICAL + 1)
