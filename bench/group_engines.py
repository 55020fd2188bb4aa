"""Whole encounters: each system's fast group engine against the reference engine,
and the table's "fight from here", measured in one run.

Targets (issue 22): the fast MST-2 engine at least 100x the reference engine on
examples/encounters/ambush.toml, the fast Midian engine at least 30x on
examples/encounters/city_watch.toml; "fight from here" at least 10,000 fights within
1 s on the example tables. Every figure is measured here, on one core (one worker):
fights a second of CPU time (steadier than the wall clock on a busy machine) for
every example encounter, side by side, then the time to 10,000 fights from a table
stopped a few turns into each example fight.
"""

from __future__ import annotations

import sys
import tempfile
import time
import tomllib
from pathlib import Path

from affray.encounter import Phase
from affray.errors import NotModelledError
from affray.sim.fights import encounter_file, fast_fights, simulate_fights
from affray.table import Tables
from affray.table.commands import Run, Start
from affray.table.fold import Fold

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "encounters"
TARGETS = {"ambush": 100.0, "city_watch": 30.0}
REFERENCE_S = 3.0
"""About how long the reference engine plays each encounter (its rate's sample)."""


def rate(path: Path, engine: str, n: int) -> float:
    """Fights a second of CPU time, one worker, after a warm-up (compiling, caches)."""
    start = encounter_file(path)
    simulate_fights(start, min(n, 50), seed=2, workers=1, engine=engine)  # type: ignore[arg-type]
    cpu = time.process_time()
    simulate_fights(start, n, seed=1, workers=1, engine=engine)  # type: ignore[arg-type]
    return n / max(time.process_time() - cpu, 1e-9)


def engines() -> list[tuple[str, str, float, float | None]]:
    rows = []
    for path in sorted(EXAMPLES.glob("*.toml")):
        probe = rate(path, "reference", 30)
        reference = rate(path, "reference", max(50, int(probe * REFERENCE_S)))
        fast = fast_fights(encounter_file(path))
        if isinstance(fast, NotModelledError):
            rows.append((path.stem, f"none ({fast.message})", reference, None))
            continue
        fights = max(20_000, int(reference * 200 * REFERENCE_S))
        rows.append((path.stem, fast.engine, reference, rate(path, "fast", fights)))
    return rows


def from_here() -> list[tuple[str, float, int | None, str]]:
    """Seconds to 10,000 fights (the web's quick odds, with time enough) from a table
    up to three turns into each example fight, and the engine that played them."""
    from affray.table import Store, Tables
    from affray.table.odds import quick_odds

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        tables = Tables(Store(str(Path(folder) / "bench.db")))
        for path in sorted(EXAMPLES.glob("*.toml")):
            fold = _table(tables, path)
            quick_odds(fold.rules, fold.state, n=200, per_action=0, budget_s=5.0)  # warm up
            wall = time.perf_counter()
            odds = quick_odds(fold.rules, fold.state, n=10_000, per_action=0, budget_s=10.0)
            took = time.perf_counter() - wall
            assert odds is not None
            rows.append((path.stem, took, odds.n, odds.method))
        tables.store.close()
    return rows


BUDGET_S = 1.5
"""The web's budget for the fight from here and every action open now."""


def within_budget() -> list[tuple[str, float, int, int, int | None, str]]:
    """The web's quick odds with every action of whoever's turn it is weighed, from
    the same tables: the time taken over the budget, the actions, the fights of the
    whole fight, and the fewest any action rests on (None: exact)."""
    from affray.table import Store, Tables
    from affray.table.odds import quick_odds

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        tables = Tables(Store(str(Path(folder) / "bench.db")))
        for path in sorted(EXAMPLES.glob("*.toml")):
            fold = _table(tables, path)
            quick_odds(fold.rules, fold.state, budget_s=0.3)  # warm up
            wall = time.perf_counter()
            odds = quick_odds(fold.rules, fold.state, budget_s=BUDGET_S)
            took = time.perf_counter() - wall
            assert odds is not None
            counts = [a.n for a in odds.actions]
            fewest = None if None in counts or not counts else min(c for c in counts if c)
            rows.append((path.stem, took / BUDGET_S, len(counts), odds.n or 0, fewest, odds.method))
        tables.store.close()
    return rows


def _table(tables: Tables, path: Path) -> Fold:
    """A table of the encounter at ``path``, started and played three turns."""
    data = tomllib.loads(path.read_text())
    table = tables.new(path.stem, data["system"])
    found = tables.importing(table, data, str(path), path.parent)
    tables.run_all(table, found.commands, options=found.options)
    table = tables.table(table.id)
    tables.run(table, Start(), seed=7)
    for _ in range(3):
        tables.run(table, Run(turns=1), seed=7)
        fold = tables.fold(tables.table(table.id))
        if fold.state.phase(fold.rules) is Phase.OVER:  # one turn too many: back one
            tables.undo(tables.table(table.id))
            break
    fold = tables.fold(tables.table(table.id))
    assert fold.state.phase(fold.rules) is not Phase.OVER, path
    return fold


def main() -> None:
    print("Whole encounters, one worker, fights a second of CPU time")
    print(f"{'encounter':<16} {'reference':>10} {'fast':>12} {'ratio':>8}  engine")
    for name, engine, reference, fast in engines():
        target = TARGETS.get(name)
        if fast is None:
            print(f"{name:<16} {reference:>10,.0f} {'-':>12} {'-':>8}  {engine}")
            continue
        ratio = fast / reference
        mark = (
            ""
            if target is None
            else f"  (target {target:.0f}x: " + ("met)" if ratio >= target else "NOT MET)")
        )
        print(f"{name:<16} {reference:>10,.0f} {fast:>12,.0f} {ratio:>7.0f}x  {engine}{mark}")
    print()
    print("Fight from here: up to 10,000 fights (10 s at most) from a table a few turns in")
    print("(target: 10,000 within 1 s)")
    for name, took, n, method in from_here():
        what = "exact odds" if n is None else f"{n:,} fights"
        print(f"{name:<16} {took:>7.2f} s for {what}  ({method})")
    print()
    print(f"The web's odds with every action weighed: time over the budget ({BUDGET_S} s)")
    print("(target: at most 1.05: the budget holds however many actions are open)")
    for name, ratio, actions, n, fewest, method in within_budget():
        least = "exact" if fewest is None else f"{fewest:,}"
        print(
            f"{name:<16} {ratio:>5.2f} x budget, {actions:>2} actions, fight {n:>6,},"
            f" fewest for an action {least:>6}  ({method})"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
