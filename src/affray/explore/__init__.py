"""The balance explorer: a duel's (or a whole encounter's) odds over a grid of stats,
as a table, a heatmap and a report (``affray explore SWEEP.toml``; docs/explorer.md).

- :mod:`~affray.explore.sweep`: the sweep file, checked;
- :mod:`~affray.explore.encounter_sweep`: a sweep over an encounter file's members;
- :mod:`~affray.explore.grid`: its cells, each a pair of sheets (or an encounter)
  with a key and a seed;
- :mod:`~affray.explore.fight_cell`: an encounter's cell, as its fights start;
- :mod:`~affray.explore.compute`: one cell's odds (what a worker runs);
- :mod:`~affray.explore.backends`: this process, a pool of processes, or Dask;
- :mod:`~affray.explore.run`: batching, the resume cache, progress;
- :mod:`~affray.explore.rows`, :mod:`~affray.explore.heatmap`,
  :mod:`~affray.explore.report`, :mod:`~affray.explore.outputs`: the files.
"""

from affray.explore.backends import Backend, Dask, InProcess, Pool, backend
from affray.explore.cache import Cache
from affray.explore.compute import Result
from affray.explore.encounter_sweep import AnySweep, EncounterSweep
from affray.explore.fight_cell import EncounterCell, FightJob
from affray.explore.grid import Cell, Job, cells
from affray.explore.loading import load_sweep
from affray.explore.outputs import write_outputs
from affray.explore.run import Outcome, run_sweep
from affray.explore.sweep import Axis, Sweep

__all__ = [
    "AnySweep",
    "Axis",
    "Backend",
    "Cache",
    "Cell",
    "Dask",
    "EncounterCell",
    "EncounterSweep",
    "FightJob",
    "InProcess",
    "Job",
    "Outcome",
    "Pool",
    "Result",
    "Sweep",
    "backend",
    "cells",
    "load_sweep",
    "run_sweep",
    "write_outputs",
]
