"""The table on a long fight: 20 combatants, 1,000 changes, then the time of one
`act` and one `show` (target: under 50 ms each, in process), and of the same from a
cold start (a new process: the log folded from its first change).
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from affray.table import Act, Next, Phase, Start, Store, TableRow, Tables
from affray.table.view import show_data

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ROSTERS = {
    "mst2": ["knight.json", "ogre.toml", "sellsword.toml", "spearman.toml", "goblin.toml"],
    "midian": ["guard.toml", "brawler.toml", "elf_archer.toml", "ogre_shaman.toml"],
}
CHANGES = 1000


def step(tables: Tables, row: TableRow, rng: random.Random, n: int) -> None:
    fold = tables.fold(row)
    state = fold.state
    phase = state.phase(fold.rules)
    if phase is Phase.SETUP:
        tables.run(row, Start(), seed=n)
    elif phase is Phase.ROUND_OVER:
        tables.run(row, Next(), seed=n)
    elif phase is Phase.OVER:  # start again from before the end: undo to keep fighting
        tables.undo(row, 5)
    else:
        assert state.current is not None
        legal = fold.rules.ruleset.actions(state.encounter, state.current)
        action = rng.choice([a for a in legal if a.kind in ("attack", "hold")] or list(legal))
        tables.run(row, Act(state.current, action.name, action.target), seed=n)


def build(db: Path, system: str) -> tuple[Tables, TableRow]:
    tables = Tables(Store(db))
    row = tables.new(f"{system} bench", system)
    sheets = ROSTERS[system]
    for i in range(20):
        sheet = str(EXAMPLES / system / sheets[i % len(sheets)])
        tables.run(row, tables.joining(row, sheet, side="AB"[i % 2]))
    rng = random.Random(1)
    n = 0
    while tables.fold(row).version < CHANGES:
        step(tables, row, rng, n)
        n += 1
    return tables, row


def timed(action: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def measure(system: str, folder: str) -> str:
    db = Path(folder) / "bench.db"
    start = time.perf_counter()
    tables, row = build(db, system)
    built = time.perf_counter() - start
    rng = random.Random(2)
    counter = iter(range(10_000, 20_000))
    act_ms = timed(lambda: step(tables, row, rng, next(counter)), 50)
    show_ms = timed(lambda: show_data(row, tables.fold(row)), 50)
    cold_ms = timed(lambda: show_data(row, Tables(Store(db)).fold(row)), 3)
    return (
        f"{system:<6} 20 combatants, {tables.fold(row).version} changes "
        f"(built in {built:.1f} s): act {act_ms:.1f} ms, show {show_ms:.2f} ms "
        f"(median, in process; target < 50 ms); cold fold {cold_ms:.0f} ms"
    )


def main() -> None:
    for system in ROSTERS:
        with tempfile.TemporaryDirectory() as folder:
            print(measure(system, folder))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
