"""A table's cost in the length of its log: `affray table show` and a verb (`note`) as
whole processes on tables of 10, 10,000 and 50,000 changes, in one run.

Targets: `table show` on a 50,000-note table under 1 s and 100 MB (max RSS of the
process); a verb on a table of 10,000 changes within 1.5x the time of one with 10.
Prints each figure and the ratios, measured here and now (the machine is noisy: the
ratios are what to read).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from affray.table import Note, Store, Tables
from affray.table.store import ChangeRow

AFFRAY = [sys.executable, "-m", "affray"]
RUNS = 5


def build(db: Path, changes: int) -> str:
    """A table of ``changes`` changes (an add, then notes), written straight into the
    log in one transaction (as an older affray's long evening would have left it)."""
    tables = Tables(Store(db))
    row = tables.new(f"Long {changes}", "mst2")
    tables.run(row, tables.joining(row, "ogre", side="monsters"))
    one = tables.run(row, Note("note 1"))
    first = tables.store.changes(row.id)
    payload = dict(first[-1].payload)
    rows = list(first)
    for version in range(3, changes + 1):
        text = f"note {version - 1}"
        rows.append(
            ChangeRow(
                version,
                "note",
                {**payload, "command": {"verb": "note", "text": text}, "lines": [text]},
                one.table.created,
            )
        )
    other = tables.store.restore(
        table_id=f"long-{changes}-copy",
        name=f"Long {changes} copy",
        system="mst2",
        options={},
        created=row.created,
        archived=False,
        changes=rows[:changes],
    )
    tables.store.close()
    return other.id


_WATCH = """
import os, subprocess, sys, time
start = time.perf_counter()
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
_, status, usage = os.wait4(process.pid, 0)
seconds = time.perf_counter() - start
if os.waitstatus_to_exitcode(status) != 0:
    sys.exit(process.stderr.read().decode())
print(seconds, usage.ru_maxrss / 1024)
"""
"""Runs one command and prints its seconds and max RSS: from a small process of its
own, because a child's max RSS counts the memory of the process that forked it."""


def timed(args: list[str]) -> tuple[float, float]:
    """Seconds and max RSS (MB) of one process."""
    done = subprocess.run(
        [sys.executable, "-c", _WATCH, *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{args} failed: {done.stderr}")
    seconds, rss = done.stdout.split()
    return float(seconds), float(rss)


def median_of(db: Path, table_id: str) -> str:
    seconds, rss = timed([*AFFRAY, "table", "show", table_id, "--db", str(db)])
    return f"{seconds:.2f} s, max RSS {rss:.0f} MB"


def median(args: list[str]) -> tuple[float, float]:
    runs = [timed(args) for _ in range(RUNS)]
    return statistics.median(r[0] for r in runs), max(r[1] for r in runs)


def imported(source: Path, table_id: str, db: Path) -> str:
    """The table exported from ``source`` and imported into ``db`` by the terminal's
    verbs, as a game master moves a long campaign (the import keeps a checkpoint)."""
    export = db.with_name(f"{table_id}.json")
    subprocess.run(
        [*AFFRAY, "table", "export", table_id, "--out", str(export), "--db", str(source)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    seconds, rss = timed([*AFFRAY, "table", "import", str(export), "--db", str(db)])
    print(f"table import, {table_id}: {seconds:.2f} s, max RSS {rss:.0f} MB")
    return table_id


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "source.db"
        db = Path(folder) / "t.db"
        ids = {n: imported(source, build(source, n), db) for n in (10, 10_000, 50_000)}
        print(f"table show, 50000 changes, no checkpoint: {median_of(source, ids[50_000])}")
        shows = {}
        for n, table_id in ids.items():
            shows[n] = median([*AFFRAY, "table", "show", table_id, "--db", str(db)])
            print(f"table show, {n:>6} changes: {shows[n][0]:.3f} s, max RSS {shows[n][1]:.0f} MB")
        notes = {}
        for n in (10, 10_000):
            notes[n] = median([*AFFRAY, "table", "note", ids[n], "more", "--db", str(db)])
            print(f"table note, {n:>6} changes: {notes[n][0]:.3f} s, max RSS {notes[n][1]:.0f} MB")
        print(
            f"show 50,000: {shows[50_000][0]:.2f} s (target < 1 s), "
            f"{shows[50_000][1]:.0f} MB (target < 100 MB)"
        )
        print(f"note 10,000 / note 10: {notes[10_000][0] / notes[10][0]:.2f}x (target <= 1.5x)")


if __name__ == "__main__":
    main()
