"""The log is the truth: a replay of any log equals the stored state; undo and
redo of many steps; concurrent writers never lose an update; a process killed at
any moment loses no acknowledged change and leaves a sound database."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import threading
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from affray.errors import ConflictError, TableError
from affray.table import Act, Next, Note, Phase, Start, Store, TableRow, Tables
from affray.table.fold import Fold
from affray.table.schema import MIGRATIONS
from affray.table.view import show_data
from tests.helpers import EXAMPLES

MIDIAN = [EXAMPLES / "midian" / f for f in ("guard.toml", "brawler.toml", "elf_archer.toml")]
MST2 = [EXAMPLES / "mst2" / f for f in ("knight.json", "ogre.toml", "archer.toml", "goblin.toml")]


def new_table(db: Path, system: str, sheets: list[Path]) -> tuple[Tables, TableRow]:
    tables = Tables(Store(db))
    row = tables.new("Test", system)
    for i, sheet in enumerate(sheets):
        tables.run(row, tables.joining(row, str(sheet), side="AB"[i % 2]))
    return tables, row


def play_randomly(tables: Tables, row: TableRow, rng: random.Random, changes: int) -> None:
    """Random legal commands (fleeing aside), with undos and redos among them (never
    undoing who joined)."""
    for n in range(changes):
        fold = tables.fold(row)
        state = fold.state
        phase = state.phase(fold.rules)
        roll = rng.random()
        joined = sum(1 for applied in fold.done if applied.command.verb == "add")
        if roll < 0.1 and len(fold.done) > joined:
            tables.undo(row, rng.randint(1, min(3, len(fold.done) - joined)))
        elif roll < 0.15 and fold.undone:
            tables.redo(row, rng.randint(1, len(fold.undone)))
        elif phase is Phase.SETUP:
            tables.run(row, Start(), seed=n)
        elif phase is Phase.OVER:
            tables.run(row, Note(f"over at {n}"))
        elif phase is Phase.ROUND_OVER:
            tables.run(row, Next(), seed=n)
        else:
            assert state.current is not None
            legal = fold.rules.ruleset.actions(state.encounter, state.current)
            action = rng.choice([a for a in legal if a.kind != "flee"] or list(legal))
            tables.run(row, Act(state.current, action.name, action.target), seed=n)


@pytest.mark.parametrize(("system", "sheets"), [("mst2", MST2), ("midian", MIDIAN)])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_replay_of_the_log_equals_the_stored_state(
    tmp_path: Path, system: str, sheets: list[Path], seed: int
) -> None:
    tables, row = new_table(tmp_path / "t.db", system, sheets)
    play_randomly(tables, row, random.Random(seed), 80)
    live = tables.fold(row)
    fresh = Tables(Store(tmp_path / "t.db"))
    replayed = fresh.fold(row)
    assert show_data(row, replayed) == show_data(row, live)
    assert replayed.state == live.state
    again = Fold(replayed.rules)
    for change in fresh.store.changes(row.id):  # the events a replay gives are those logged
        events = again.feed(change.version, change.verb, change.payload)
        assert [e.to_dict() for e in events] == change.payload.get("events", [])


@pytest.fixture(scope="module")
def long_fight(tmp_path_factory: pytest.TempPathFactory) -> tuple[Tables, TableRow]:
    db = tmp_path_factory.mktemp("undo") / "t.db"
    tables, row = new_table(db, "midian", MIDIAN)
    play_randomly(tables, row, random.Random(7), 60)
    return tables, row


def _view(tables: Tables, row: TableRow) -> dict[str, Any]:
    shown = show_data(row, tables.fold(row))
    return {k: v for k, v in shown.items() if k not in ("version", "can_undo", "can_redo")}


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_undo_k_then_redo_k_returns_the_same_state(
    long_fight: tuple[Tables, TableRow], data: st.DataObject
) -> None:
    tables, row = long_fight
    fold = tables.fold(row)
    k = data.draw(st.integers(1, len(fold.done)), label="k")
    before = _view(tables, row)
    earlier = fold.done[-k - 1].state if k < len(fold.done) else fold.initial
    tables.undo(row, k)
    assert tables.fold(row).state == earlier
    tables.redo(row, k)
    assert _view(tables, row) == before
    # and the same from a fresh process's point of view
    assert _view(Tables(Store(tables.store.path)), row) == before


def test_a_stale_writer_gets_a_conflict_and_changes_nothing(tmp_path: Path) -> None:
    tables, row = new_table(tmp_path / "t.db", "mst2", MST2[:2])
    version = tables.fold(row).version
    winners: list[int] = []
    conflicts: list[int] = []

    def write(i: int) -> None:
        mine = Tables(Store(tmp_path / "t.db"))
        try:
            winners.append(mine.run(row, Note(f"writer {i}"), expected=version).version)
        except ConflictError as error:
            conflicts.append(error.current)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert winners == [version + 1]
    assert conflicts == [version + 1] * 7
    assert len(Tables(Store(tmp_path / "t.db")).fold(row).notes()) == 1


def test_concurrent_writers_never_lose_an_update(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    _, row = new_table(db, "mst2", MST2[:2])

    def write(i: int) -> None:
        mine = Tables(Store(db))
        for j in range(15):
            mine.run(row, Note(f"{i}.{j}"))

    threads = [threading.Thread(target=write, args=(i,)) for i in range(6)]
    pids = []
    for i in range(6, 9):  # and processes
        pid = _fork()
        if pid == 0:
            _child(lambda i=i: write(i))
        pids.append(pid)
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for pid in pids:
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
    notes = Tables(Store(db)).fold(row).notes()
    assert sorted(notes) == sorted(f"{i}.{j}" for i in range(9) for j in range(15))
    assert Tables(Store(db)).fold(row).version == 2 + 9 * 15


@pytest.mark.slow
def test_sigkill_at_random_points_loses_no_acknowledged_change(tmp_path: Path) -> None:
    """200 times: a writer streams commands and says "ack V" after each commit; it is
    killed (SIGKILL) at a random moment; every acknowledged change is there, the
    database passes its integrity check, and the log still folds."""
    db = tmp_path / "t.db"
    tables, row = new_table(db, "midian", MIDIAN)
    rng = random.Random(2026)
    acked = 0
    for attempt in range(200):
        read, write = os.pipe()
        tables.fold(row)  # the child starts from this fold (and its own connection)
        pid = _fork()
        if pid == 0:
            os.close(read)
            _child(lambda out=write, seed=attempt: _stream(tables, db, row, out, seed))
        os.close(write)
        wanted = rng.randint(0, 6)
        seen = 0
        with os.fdopen(read, "rb", buffering=0) as pipe:
            while seen < wanted:
                line = pipe.readline()
                if not line:
                    break
                acked = max(acked, int(line.split()[1]))
                seen += 1
            if rng.random() < 0.5:  # or somewhere inside the next transaction
                threading.Event().wait(rng.random() * 0.02)
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            for line in pipe.read().splitlines():  # acks already written before the kill
                acked = max(acked, int(line.split()[1]))
        with sqlite3.connect(db) as check:
            assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            versions = [v for (v,) in check.execute("SELECT version FROM changes ORDER BY 1")]
        assert versions == list(range(1, len(versions) + 1))
        assert len(versions) >= acked
    fold = Tables(Store(db)).fold(row)
    assert fold.version >= acked > 200


def _stream(tables: Tables, db: Path, row: TableRow, out: int, seed: int) -> None:
    tables.store = Store(db)
    rng = random.Random(seed)
    for n in range(1000):
        play_randomly(tables, row, rng, 1)
        os.write(out, f"ack {tables.fold(row).version}\n".encode())
        del n


def _fork() -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # no threads run at fork time
        return os.fork()


def _child(work: Any) -> None:
    """Run ``work`` in a forked child and leave without running the parent's cleanup."""
    code = 0
    try:
        work()
    except BaseException:
        code = 1
    os._exit(code)


def test_the_schema_is_migrated_on_open_and_a_newer_one_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with sqlite3.connect(db) as raw:  # an empty file: migrated to the current schema
        assert raw.execute("PRAGMA user_version").fetchone() == (0,)
    tables, row = new_table(db, "mst2", MST2[:2])
    tables.store.close()
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert Tables(Store(db)).fold(row).version == 2  # opening again keeps everything
    with sqlite3.connect(db) as raw:
        raw.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(TableError, match="made by a newer affray"):
        Store(db)
