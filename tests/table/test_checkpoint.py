"""A table's checkpoint is a cache of its log: a fold read from it equals the fold of
the whole log; one made by another affray, damaged, or hostile is not used (and a
hostile one runs nothing); a deleted table takes its checkpoint with it."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

from affray.table import Note, Store, TableRow, Tables
from affray.table import checkpoint as checkpoints
from affray.table.fold import Fold
from affray.table.view import show_data
from tests.table.test_log import MIDIAN, MST2, new_table, play_randomly


def fresh_fold(db: Path, row: TableRow) -> Fold:
    """The table folded by a process that has nothing of it in memory."""
    return Tables(Store(db)).fold(row)


def whole_fold(db: Path, row: TableRow) -> Fold:
    """The table folded from its first change, no checkpoint read."""
    tables = Tables(Store(db))
    fold = Fold(tables.fold(row).rules)
    for change in tables.store.changes(row.id):
        fold.feed(change.version, change.verb, change.payload)
    return fold


def same(a: Fold, b: Fold, row: TableRow) -> None:
    assert a.version == b.version
    assert a.state == b.state
    assert [x.version for x in a.done] == [x.version for x in b.done]
    assert [x.version for x in a.undone] == [x.version for x in b.undone]
    assert [x.state for x in a.done] == [x.state for x in b.done]
    assert show_data(row, a) == show_data(row, b)


@pytest.mark.parametrize(("system", "sheets", "seed"), [("mst2", MST2, 3), ("midian", MIDIAN, 4)])
def test_a_fold_from_its_checkpoint_is_the_fold_of_its_whole_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, system: str, sheets: list[Path], seed: int
) -> None:
    monkeypatch.setattr(checkpoints, "EVERY", 7)
    db = tmp_path / "t.db"
    tables, row = new_table(db, system, sheets)
    rng = random.Random(seed)
    for _ in range(4):
        play_randomly(tables, row, rng, 15)
        tables.run(row, Note(f"after {tables.fold(row).version}"))
        kept = tables.store.checkpoint(row.id)
        assert kept is not None and kept[1] == checkpoints.STAMP  # one was kept
        assert checkpoints.load(kept[2], tables.fold(row).rules) is not None  # and is read
        assert kept[0] > tables.fold(row).version - 8
        same(fresh_fold(db, row), whole_fold(db, row), row)
        same(fresh_fold(db, row), tables.fold(row), row)
    # undo and redo reach back past the checkpoint from a fresh process
    fresh = Tables(Store(db))
    depth = len(fresh.fold(row).done) - len(sheets)
    fresh.undo(row, depth)
    same(fresh_fold(db, row), whole_fold(db, row), row)
    fresh.redo(row, depth)
    same(fresh_fold(db, row), whole_fold(db, row), row)


def kept_with(tables: Tables, row: TableRow, stamp: str, blob: bytes) -> None:
    with tables.store.transaction() as raw:
        raw.execute(
            "UPDATE checkpoints SET stamp = ?, fold = ? WHERE table_id = ?", (stamp, blob, row.id)
        )


def test_a_checkpoint_of_another_affray_or_damaged_is_not_used(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    tables, row = new_table(db, "mst2", MST2[:2])
    tables.run(row, Note("one"))
    tables.checkpoint(row, force=True)
    version, stamp, blob = tables.store.checkpoint(row.id) or (0, "", b"")
    assert (version, stamp) == (tables.fold(row).version, checkpoints.STAMP)
    # another affray's checkpoint, of a fold with a note that was never logged
    lying = checkpoints.load(blob, tables.fold(row).rules)
    assert lying is not None
    lying.done.append(lying.done[-1]._replace(command=Note("never logged")))
    kept_with(tables, row, "affray 0.0.0, era 1, format 1", checkpoints.dump(lying))
    assert fresh_fold(db, row).notes() == ["one"]
    # the right stamp, damaged bytes
    kept_with(tables, row, checkpoints.STAMP, blob[: len(blob) // 2])
    assert fresh_fold(db, row).notes() == ["one"]
    kept_with(tables, row, checkpoints.STAMP, b"not a pickle")
    assert fresh_fold(db, row).notes() == ["one"]


class _Hostile:
    """A pickle that would run a command when read by a plain unpickler."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[object, tuple[str]]:
        import os

        return os.system, (f"touch {self.path}",)


def test_a_hostile_checkpoint_runs_nothing(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    tables, row = new_table(db, "mst2", MST2[:2])
    tables.run(row, Note("one"))
    tables.checkpoint(row, force=True)
    touched = tmp_path / "touched"
    hostile = pickle.dumps((1, 3, [_Hostile(touched)], [], None))
    kept_with(tables, row, checkpoints.STAMP, hostile)
    assert fresh_fold(db, row).notes() == ["one"]
    assert not touched.exists()
    # nor any class of affray's that is not a plain value
    sneaky = pickle.dumps(Store, protocol=pickle.HIGHEST_PROTOCOL)
    kept_with(tables, row, checkpoints.STAMP, sneaky)
    assert fresh_fold(db, row).notes() == ["one"]


def test_a_deleted_table_takes_its_checkpoint_with_it(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    tables, row = new_table(db, "mst2", MST2[:2])
    tables.run(row, Note("old"))
    tables.checkpoint(row, force=True)
    tables.store.archive(row.id, True)
    tables.store.delete(row.id)
    tables.forget(row.id)
    again = Tables(Store(db)).new("Test", "mst2")
    assert again.id == row.id and tables.store.checkpoint(row.id) is None
    assert fresh_fold(db, again).notes() == []


@pytest.mark.slow
def test_a_table_of_50000_notes_is_shown_in_memory_flat_in_its_log(tmp_path: Path) -> None:
    """The hostile tester's 50,000-note table (12 GB and 80 s a verb before the fold
    grew with its log, not its square): imported, shown and written to by the
    terminal, each in a process whose memory stays that of a small table's."""
    import json
    import subprocess
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import long_log

    source, db = tmp_path / "source.db", tmp_path / "t.db"
    small = long_log.imported(source, long_log.build(source, 10), db)
    big = long_log.imported(source, long_log.build(source, 50_000), db)
    _, small_rss = long_log.timed([*long_log.AFFRAY, "table", "show", small, "--db", str(db)])
    _, big_rss = long_log.timed([*long_log.AFFRAY, "table", "show", big, "--db", str(db)])
    assert big_rss < small_rss + 60  # MB: a 50,000-note log costs tens of MB, not GB
    done = subprocess.run(
        [*long_log.AFFRAY, "table", "note", big, "one more", "--db", str(db), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout)["version"] == 50_001
    shown = subprocess.run(
        [*long_log.AFFRAY, "table", "show", big, "--db", str(db), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    notes = json.loads(shown.stdout)["notes"]
    assert len(notes) == 50_000 and notes[-1] == "one more"  # the add is not a note
