"""The balance explorer, measured in one run.

Targets (issue 16): a 1,000-cell exact MST-2 grid on 2 cores in under 20 s; a Midian
Monte Carlo grid at least 1.6x faster on 2 Dask workers than on 1. Each run starts
with an empty cache; the Dask clusters are started before the clock starts (their
start-up, a second or two, is printed apart). Each is run twice and the shorter
time kept: the machine is shared.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from affray.explore import Cache, Dask, InProcess, Pool, load_sweep, run_sweep
from affray.explore.backends import Backend

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

EXACT = """
title = "Knight vs Ogre, 1,000 cells"
a = "{examples}/mst2/knight.json"
b = "{examples}/mst2/ogre.toml"
method = "exact"
[[axes]]
side = "a"
key = "skill"
range = [0, 9]
[[axes]]
side = "b"
key = "skill"
range = [0, 9]
[[axes]]
side = "a"
key = "armor"
values = ["none", "leather", "chain mail", "brigandine", "plate mail"]
[[axes]]
side = "a"
key = "shield"
values = [false, true]
"""

MIDIAN = """
title = "Guard vs Brawler, Monte Carlo"
a = "{examples}/midian/guard.toml"
b = "{examples}/midian/brawler.toml"
n = 40000
seed = 1
[[axes]]
side = "a"
key = "attack_bonus"
range = [0, 4]
[[axes]]
side = "b"
key = "armour_class"
values = [6, 8, 10, 12, 14, 16, 18, 20]
"""


def best(sweep_text: str, folder: Path, make: type[Backend] | None, *args: object) -> float:
    """The shorter of two runs (the machine is shared: the shorter is nearer the truth)."""
    return min(timed(sweep_text, folder, make, *args) for _ in range(2))


def timed(sweep_text: str, folder: Path, make: type[Backend] | None, *args: object) -> float:
    path = folder / "sweep.toml"
    path.write_text(sweep_text.format(examples=EXAMPLES))
    sweep = load_sweep(path)
    out = folder / "out"
    shutil.rmtree(out, ignore_errors=True)
    started = time.perf_counter()
    backend = make(*args) if make is not None else InProcess()  # type: ignore[call-arg]
    ready = time.perf_counter()
    try:
        outcome = run_sweep(sweep, Cache(out), backend)
    finally:
        backend.close()
    took = time.perf_counter() - ready
    assert outcome.computed == sweep.cell_count, outcome
    print(
        f"  {sweep.cell_count:,} cells on {backend.name}: {took:.2f} s "
        f"({sweep.cell_count / took:,.0f} cells/s; start-up {ready - started:.2f} s)"
    )
    return took


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        print("1,000-cell exact MST-2 grid (Knight vs Ogre: skill x skill x armour x shield)")
        one = best(EXACT, folder, None)
        two = best(EXACT, folder, Pool, 2)
        print(f"  2 worker processes: {two:.2f} s (target < 20 s); speed-up {one / two:.2f}x")
        print("Midian Monte Carlo grid (40 cells x 40,000 duels) on a local Dask cluster")
        dask_one = best(MIDIAN, folder, Dask, "local", 1)
        dask_two = best(MIDIAN, folder, Dask, "local", 2)
        print(f"  speed-up on 2 Dask workers: {dask_one / dask_two:.2f}x (target >= 1.6x)")


if __name__ == "__main__":
    main()
