"""Hostile round 3 (issue 26), the terminal's side: text that cannot be written or
that carries control codes, a locked database, a foreign or damaged database, a full
disk. Each attack is refused in plain words (exit 2, a tip, no traceback) before
anything is written, or, where it is already in a database, shown harmlessly."""

from __future__ import annotations

import gc
import hashlib
import json
import os
import selectors
import signal
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from affray.cli.main import cli
from affray.table.schema import MIGRATIONS
from affray.table.store import Store
from tests.helpers import EXAMPLES, SCRIPT, SLOWDOWN, ctrl_c_as_at_a_terminal

LOOSE_SECONDS = 10
"""A bound that only a 30-second wait breaks (loose: the machine is shared)."""

SPEARMAN = str(EXAMPLES / "mst2/spearman.toml")


def run(db: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, [*args, "--db", str(db)], catch_exceptions=False)


def run_json(db: Path, *args: str) -> dict[str, Any]:
    result = run(db, *args, "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def refused(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and "\nTip: " in result.stderr, result.stderr
    assert "Traceback" not in result.output
    assert "internal error" not in result.output
    return result.stderr


def no_control_codes(printed: str) -> None:
    """Nothing a terminal would act on: only printable characters and line breaks."""
    bad = [ch for line in printed.split("\n") for ch in line if not ch.isprintable()]
    assert not bad, [f"U+{ord(ch):04X}" for ch in bad]


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """A database with table "t": a spearman on side "levy" (version 1)."""
    db = tmp_path / "t.db"
    run_json(db, "table", "new", "T", "--system", "mst2")
    run_json(db, "table", "add", "t", SPEARMAN, "--side", "levy")
    return db


def rewrite(db: Path, old: str, new: str) -> None:
    """Put text into the stored log as an older affray (or a hand) could have: every
    ``old`` of every payload becomes ``new`` (as JSON writes it, escapes and all)."""
    escaped = json.dumps(new)[1:-1]
    with Store(db) as store, store.transaction() as raw:
        raw.execute("UPDATE changes SET payload = replace(payload, ?, ?)", (old, escaped))


# -- item 1: text that cannot be encoded -------------------------------------------------

UNENCODABLE = [
    ("table", "add", "t", "ogre", "--as", "X\udc00"),
    ("table", "add", "t", "ogre", "--side", "S\ud800"),
    ("table", "note", "t", "a note \ud800"),
    ("table", "mark", "t", "Spearman", "prone\udc00"),
    ("table", "rename", "t", "Spearman", "Sp\udc80"),
    ("table", "new", "Ta\udc00ble", "--system", "mst2"),
    ("party", "new", "P\udc00", "--system", "mst2"),
]


@pytest.mark.parametrize("args", UNENCODABLE, ids=lambda args: " ".join(args[:2]))
def test_unencodable_text_is_refused_before_anything_is_written(
    table: Path, args: tuple[str, ...]
) -> None:
    before = run_json(table, "table", "show", "t")
    tables = run_json(table, "table", "list")
    stderr = refused(run(table, *args))
    stderr.encode("utf-8")  # the error itself can be written
    assert run_json(table, "table", "show", "t") == before
    assert run_json(table, "table", "list") == tables
    assert run_json(table, "party", "list") == {"parties": []}


def test_a_party_member_with_unencodable_text_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    run_json(db, "party", "new", "Company", "--system", "mst2")
    stderr = refused(run(db, "party", "add", "company", SPEARMAN, "--as", "B\udc00"))
    assert "cannot be written" in stderr
    assert run_json(db, "party", "show", "company")["members"] == []


def test_a_table_already_holding_unencodable_text_shows_it(table: Path) -> None:
    """Written before the edge refused it (straight into the log): every view shows it,
    with U+FFFD in its place, and undo works."""
    run_json(table, "table", "note", "t", "NOTETEXT")
    rewrite(table, "Spearman", "X\udc00")
    rewrite(table, "NOTETEXT", "n\ud800")
    shown = run(table, "table", "show", "t")
    assert shown.exit_code == 0, shown.output
    assert "X\ufffd" in shown.stdout and "n\ufffd" in shown.stdout
    data = run_json(table, "table", "show", "t")
    assert [c["id"] for c in data["combatants"]] == ["X\ufffd"]
    assert data["notes"] == ["n\ufffd"]
    for form in ("text", "markdown", "json"):
        logged = run(table, "table", "log", "t", "--format", form)
        assert logged.exit_code == 0, logged.output
        logged.stdout.encode("utf-8")
        assert "X\ufffd" in (
            logged.stdout if form != "json" else json.loads(logged.stdout)["changes"][0]["what"]
        )
    undone = run(table, "table", "undo", "t")
    assert undone.exit_code == 0 and "n\ufffd" in undone.stdout
    assert run_json(table, "table", "show", "t")["notes"] == []
    assert run(table, "table", "export", "t").exit_code == 0


def test_the_commands_refuse_it_for_every_caller() -> None:
    """The check is in the commands themselves: the web's API builds the same ones."""
    from affray.errors import TableError
    from affray.table.commands import Act, Add, Mark, Note, Rename, text

    for make in (
        lambda: Add("X\udc00", "s", "bestiary ogre", {}),
        lambda: Add("X", "s\x1b[2J", "bestiary ogre", {}),
        lambda: Add("X", "s", "bestiary ogre", {"name": "O\udc00"}),
        lambda: Note("a\nb"),
        lambda: Mark("X", "\u202eprone"),
        lambda: Act("X", "attack", "Y\x9b"),
        lambda: Rename("X", "Y\x07"),
        lambda: text("\ud800", "a side"),
    ):
        with pytest.raises(TableError, match="holds"):
            make()
    assert text("Sir Brûlé — ① 🗡", "a name") == "Sir Brûlé — ① 🗡"


# -- item 7: control codes ---------------------------------------------------------------

CONTROL = [
    ("table", "add", "t", "ogre", "--side", "red\x1b[31m"),
    ("table", "add", "t", "ogre", "--side", "osc\x1b]8;;https://evil.example\x07x"),
    ("table", "add", "t", "ogre", "--as", "Og\u202ere"),
    ("table", "note", "t", "a\x1b]0;title\x07b"),
    ("table", "note", "t", "bell\x07 and return\rover"),
    ("table", "note", "t", "first line\n### Round 99"),
    ("table", "mark", "t", "Spearman", "csi\x9b31m"),
    ("table", "mark", "t", "Spearman", "\u202eenorp"),
    ("table", "unmark", "t", "Spearman", "x\x1b"),
    ("party", "new", "Co\x1b[5mmpany", "--system", "mst2"),
]


@pytest.mark.parametrize("args", CONTROL, ids=lambda args: " ".join(args[:2]) + " " + args[-1][:6])
def test_control_codes_are_refused_where_text_is_entered(
    table: Path, args: tuple[str, ...]
) -> None:
    before = run_json(table, "table", "show", "t")
    stderr = refused(run(table, *args))
    no_control_codes(stderr)
    assert run_json(table, "table", "show", "t") == before


def test_a_line_break_in_a_note_is_refused_with_what_to_do(table: Path) -> None:
    stderr = refused(run(table, "table", "note", "t", "one\ntwo"))
    assert "line break" in stderr and "a note of its own" in stderr


def test_control_codes_already_stored_are_escaped_on_output(table: Path) -> None:
    run_json(table, "table", "note", "t", "NOTETEXT")
    run_json(table, "table", "mark", "t", "Spearman", "MARKTEXT")
    rewrite(table, "levy", "le\x1b[31mvy\x1b]8;;https://evil.example\x07")
    rewrite(table, "NOTETEXT", "n\x1b]0;pwned\x07o\rte\n### Injected heading")
    rewrite(table, "MARKTEXT", "\x9b31m\u202eprone")
    for args in (
        ("table", "show", "t"),
        ("table", "log", "t"),
        ("table", "log", "t", "--format", "markdown"),
        ("table", "list"),
        ("table", "undo", "t"),
    ):
        result = run(table, *args)
        assert result.exit_code == 0, result.output
        no_control_codes(result.stdout + result.stderr)
    journal = run(table, "table", "log", "t", "--format", "markdown").stdout
    assert not [line for line in journal.splitlines() if "Injected" in line and line[:1] == "#"]
    shown = run_json(table, "table", "show", "t")
    assert shown["combatants"][0]["side"] == "le\\u001b[31mvy\\u001b]8;;https://evil.example\\u0007"


def test_a_name_that_would_start_a_markdown_block_stays_in_its_line(table: Path) -> None:
    run_json(table, "table", "add", "t", "ogre", "--as", "# Boss", "--side", "1. monsters")
    journal = run(table, "table", "log", "t", "--format", "markdown").stdout
    assert "- \\# Boss joins the fight on side 1. monsters (bestiary ogre)" in journal


# -- item 12: a foreign, damaged or missing database -------------------------------------


def snapshot(folder: Path) -> dict[str, str]:
    """Every file of a folder (recursively) and a digest of its bytes (of a ``-shm``
    file, SQLite's shared memory of readers and writers, only that it is there)."""
    return {
        str(path.relative_to(folder)): (
            "shared memory"
            if path.name.endswith("-shm")
            else hashlib.sha256(path.read_bytes()).hexdigest()
        )
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


READS = [
    ("table", "list"),
    ("table", "show", "t"),
    ("table", "log", "t"),
    ("table", "export", "t"),
    ("party", "list"),
    ("party", "show", "p"),
]
WRITES = [
    ("table", "new", "T", "--system", "mst2"),
    ("table", "note", "t", "hello"),
    ("party", "new", "P", "--system", "mst2"),
]


def foreign(path: Path, user_version: int = 0, schema: str = "people (name TEXT)") -> None:
    db = sqlite3.connect(path)
    db.execute(f"CREATE TABLE {schema}")
    columns = schema.count(",") + 1
    db.execute(f"INSERT INTO {schema.split()[0]} VALUES ({', '.join(['1'] * columns)})")
    db.execute(f"PRAGMA user_version = {user_version}")
    db.commit()
    db.close()


@pytest.mark.parametrize("args", READS + WRITES, ids=" ".join)
@pytest.mark.parametrize(
    "schema",
    [
        (0, "people (name TEXT)"),  # someone else's
        (3, "tables (id TEXT, title TEXT)"),  # affray's name, not its columns
        (1, "notes (body TEXT)"),
    ],
    ids=["foreign", "wrong-columns", "wrong-tables"],
)
def test_a_database_that_is_not_affrays_is_refused_untouched(
    tmp_path: Path, args: tuple[str, ...], schema: tuple[int, str]
) -> None:
    other = tmp_path / "other.db"
    foreign(other, *schema)
    before = snapshot(tmp_path)
    stderr = refused(run(other, *args))
    assert "cannot use it as a table database" in stderr and "left as it is" in stderr
    assert snapshot(tmp_path) == before
    db = sqlite3.connect(other)
    assert db.execute("PRAGMA user_version").fetchone() == (schema[0],)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    db.close()


@pytest.mark.parametrize("args", READS, ids=" ".join)
def test_a_read_makes_no_file_and_no_folder(tmp_path: Path, args: tuple[str, ...]) -> None:
    missing = tmp_path / "a" / "b" / "tables.db"
    result = run(missing, *args)
    assert "Traceback" not in result.output
    if args[1] == "list":  # a folder that is not there is a path mistyped (issue 56)
        assert "its folder" in refused(result) and "does not exist" in result.stderr
        assert not missing.parent.exists()
        there = tmp_path / "tables.db"  # a folder that is there: the list is empty
        assert run_json(there, *args) in ({"tables": []}, {"parties": []})
        assert not there.exists()
    else:
        assert "no table 't'" in refused(result) or "no party 'p'" in result.stderr
    assert not (tmp_path / "a").exists()


def test_a_read_changes_nothing_of_an_affray_database(table: Path) -> None:
    gc.collect()  # the fixture's connections closed (in one process each command's is)
    folder = table.parent
    before = snapshot(folder)
    for args in READS[:4]:
        run(table, *args)
    gc.collect()
    assert snapshot(folder) == before


def test_an_older_affray_database_is_read_without_being_migrated(tmp_path: Path) -> None:
    older = tmp_path / "old.db"
    db = sqlite3.connect(older, isolation_level=None)
    for statements in MIGRATIONS[:2]:
        for statement in statements:
            db.execute(statement)
    db.execute("PRAGMA user_version = 2")
    db.execute(
        "INSERT INTO tables VALUES ('old', 'Old', 'mst2', '{}', 'g', 'p', '2024-01-01T00:00:00')"
    )
    db.close()
    assert run_json(older, "table", "list")["tables"][0]["table"] == "old"
    assert run_json(older, "table", "show", "old")["version"] == 0
    db = sqlite3.connect(older)
    assert db.execute("PRAGMA user_version").fetchone() == (2,)
    db.close()
    run_json(older, "table", "note", "old", "now it is written")  # a write migrates it
    db = sqlite3.connect(older)
    assert db.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
    db.close()


@pytest.mark.parametrize(
    "payload",
    [
        "not json",
        "[1, 2]",
        "{}",
        '{"command": 5}',
        '{"command": {"verb": "note", "text": "x"}, "faces": ["six"]}',
        '{"command": {"verb": "note", "text": "x"}, "answers": [1]}',
    ],
)
def test_a_damaged_change_is_a_plain_error(table: Path, payload: str) -> None:
    run_json(table, "table", "note", "t", "x")
    with Store(table) as store, store.transaction() as raw:
        raw.execute("UPDATE changes SET payload = ? WHERE version = 2", (payload,))
    for args in (("table", "show", "t"), ("table", "log", "t"), ("table", "note", "t", "y")):
        stderr = refused(run(table, *args))
        assert "change 2 of table 't' is damaged" in stderr


def test_a_damaged_undo_is_a_plain_error(table: Path) -> None:
    run_json(table, "table", "undo", "t")
    with Store(table) as store, store.transaction() as raw:
        raw.execute('UPDATE changes SET payload = \'{"steps": "x"}\' WHERE version = 2')
    assert "damaged" in refused(run(table, "table", "show", "t"))


def test_a_file_that_is_no_database_is_refused_untouched(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"these are my notes, not a database\n" * 50)
    before = snapshot(tmp_path)
    for args in (*READS, *WRITES):
        assert "not an SQLite file" in refused(run(junk, *args))
    assert snapshot(tmp_path) == before


# -- item 4: a locked database -----------------------------------------------------------


@pytest.fixture
def locked(table: Path) -> Any:
    """Another writer holds the database's write lock for the test's length."""
    other = sqlite3.connect(table, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO settings VALUES ('held', 'by another writer')")
    yield table
    other.execute("ROLLBACK")
    other.close()


def test_reads_never_wait_for_the_write_lock(locked: Path) -> None:
    for args in READS[:4]:
        started = time.monotonic()
        result = run(locked, *args)
        assert time.monotonic() - started < LOOSE_SECONDS, args
        assert result.exit_code == 0, result.output


def test_a_write_gives_up_on_the_lock_in_plain_words(
    locked: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("affray.table.store.BUSY_TIMEOUT_S", 1.0)
    started = time.monotonic()
    result = run(locked, "table", "note", "t", "hello")
    assert time.monotonic() - started < LOOSE_SECONDS
    assert result.exit_code == 2 and "Traceback" not in result.output
    waiting, error, tip = result.stderr.splitlines()
    assert waiting.startswith("waiting for another affray writing to")
    assert error.startswith("error: ") and "is busy" in error and "nothing was changed" in error
    assert tip.startswith("Tip: ")


def test_a_waiting_write_says_so_and_ctrl_c_ends_it(locked: Path) -> None:
    process = subprocess.Popen(
        [*SCRIPT, "table", "note", "t", "hello", "--db", str(locked)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=ctrl_c_as_at_a_terminal,
        env={**os.environ, "AFFRAY_DEBUG": ""},
    )
    assert process.stderr is not None
    try:
        waiting = b""
        with selectors.DefaultSelector() as selector:
            selector.register(process.stderr, selectors.EVENT_READ)
            deadline = time.monotonic() + 30  # the start of a fresh interpreter, loosely
            while b"waiting for another affray" not in waiting and time.monotonic() < deadline:
                if selector.select(timeout=0.5):
                    waiting += os.read(process.stderr.fileno(), 4096)
        assert b"waiting for another affray writing to" in waiting, waiting
        process.send_signal(signal.SIGINT)
        started = time.monotonic()
        _, rest = process.communicate(timeout=LOOSE_SECONDS)
        assert time.monotonic() - started < 2 * SLOWDOWN
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130
    assert b"interrupted" in rest and b"Traceback" not in waiting + rest
    assert run_json(locked, "table", "show", "t")["notes"] == []


# -- item 13: a full disk ----------------------------------------------------------------


def test_a_full_disk_is_said_plainly_and_nothing_is_written(
    table: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk, as SQLite sees one: the database may not grow past its pages."""
    from affray.table.db import Database

    connect = Database._connect

    def full(self: Database, target: str, **kwargs: Any) -> sqlite3.Connection:
        db = connect(self, target, **kwargs)
        (pages,) = db.execute("PRAGMA page_count").fetchone()
        db.execute(f"PRAGMA max_page_count = {pages}")
        return db

    monkeypatch.setattr(Database, "_connect", full)
    for args in (
        ("table", "note", "t", "a long note " * 2_000),
        ("table", "mark", "t", "Spearman", "a long condition " * 2_000),
    ):
        stderr = refused(run(table, *args))
        assert "the disk is full; nothing was written" in stderr
    monkeypatch.undo()
    shown = run_json(table, "table", "show", "t")
    assert shown["version"] == 1 and shown["notes"] == []
    assert [t["table"] for t in run_json(table, "table", "list")["tables"]] == ["t"]


def test_an_sqlite_error_on_a_read_is_one_plain_line(
    table: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(self: Store, table_id: str, after: int = 0) -> Any:
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(Store, "iter_changes", broken)
    result = run(table, "table", "show", "t")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: the table database failed: database disk image")
    assert "Tip: " in result.stderr and "Traceback" not in result.output


def test_a_database_that_cannot_be_opened_is_said_plainly(
    table: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A disk SQLite cannot open the file on (a read-only disk with no shared-memory
    file beside a WAL database): one plain line and a tip, never a copy that ignores
    the WAL (which could show a table without its latest changes)."""
    from affray.table import db

    connect = db._sqlite
    tried: list[str] = []

    def cannot_open(target: str, **kwargs: Any) -> sqlite3.Connection:
        tried.append(target)
        if target.startswith("file:"):
            error = sqlite3.OperationalError("unable to open database file")
            error.sqlite_errorname = "SQLITE_CANTOPEN"  # type: ignore[attr-defined]
            raise error
        return connect(target, **kwargs)

    monkeypatch.setattr(db, "_sqlite", cannot_open)
    stderr = refused(run(table, "table", "show", "t"))
    assert "cannot be opened" in stderr or "disk refused" in stderr
    assert not any("immutable" in target for target in tried)


def test_a_store_opened_to_read_refuses_to_write(table: Path) -> None:
    from affray.errors import TableError

    with Store(table, readonly=True) as store, pytest.raises(TableError, match="read only"):
        store.create("Another", "mst2", {})


@pytest.mark.parametrize(
    "args",
    [
        ("duel", "knight", "ogre"),
        ("fight", "examples/encounters/ambush.toml", "--seed", "1"),
        ("odds", "20d20"),
    ],
)
def test_a_reader_that_goes_away_ends_the_command_quietly(args: tuple[str, ...]) -> None:
    """`affray duel A B | head -1` (issue 28): the reader had what it wanted; affray
    stops printing and exits 0, with nothing on stderr."""
    import subprocess

    from tests.helpers import SCRIPT

    root = Path(__file__).resolve().parent.parent
    with subprocess.Popen(
        [*SCRIPT, *args], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.read(10)  # the first few bytes, as `head -c 10` reads them
        process.stdout.close()
        err = process.stderr.read()
        code = process.wait(timeout=60)
    assert code == 0 and err == b""


def test_serve_on_a_port_in_use_says_so_before_any_link(tmp_path: Path) -> None:
    """Hostile round 4, item 9: a taken port printed working-looking links, then an
    errno and exit 3; it is refused first, exit 2, with a tip naming --port."""
    import socket
    import subprocess

    from tests.helpers import SCRIPT

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*SCRIPT, "serve", "--db", str(tmp_path / "t.db"), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2, done.stderr
    assert f"port {port} on 127.0.0.1 is taken" in done.stderr and "--port" in done.stderr
    assert "http://" not in done.stdout and "Traceback" not in done.stderr
    assert not (tmp_path / "t.db").exists()


def test_a_ctrl_c_while_python_waits_for_its_threads_is_quiet(tmp_path: Path) -> None:
    """Hostile round 4, item 10: a Ctrl-C that came as a long fight ended, while
    Python waited for a thread at its exit, printed "Exception ignored in: <module
    'threading'>" and a traceback. The command is done by then: it leaves quietly, as
    an interrupted command does (130), with what it printed kept."""
    ready = tmp_path / "ready"
    code = (
        "import sys, threading, time, pathlib\n"
        "sys.argv = ['affray', 'roll', '2d6', '--seed', '1']\n"
        "from affray.cli.main import main\n"
        f"def linger():\n    pathlib.Path({str(ready)!r}).touch()\n    time.sleep(60)\n"
        "threading.Thread(target=linger).start()\n"
        "main()\n"
    )
    child = subprocess.Popen(
        [SCRIPT[0], "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    deadline = time.monotonic() + LOOSE_SECONDS * SLOWDOWN
    while not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # main() has returned: Python waits on the thread
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=LOOSE_SECONDS * SLOWDOWN)
    assert child.returncode == 130, err
    assert "Exception ignored" not in err and "Traceback" not in err, err
    assert out.strip(), "what the command printed is kept"
