"""The open format (docs/exchange.md): a table or a party exported, imported into
another database and exported again gives the same bytes; the imported table is
the same table (its log replays to the same `table show`, undo and redo alike); a
party keeps its wounds and its dead; a bad file is one clear error with a tip, exit
code 2, and nothing written; an import never takes the place of what is there."""

from __future__ import annotations

import json
import re
import sqlite3
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from affray.cli.main import cli
from affray.table import Act, Next, Start, Store, Tables
from affray.table.commands import Set
from affray.table.exchange import CommandVerb, schema_text
from affray.table.parties import Parties
from tests.helpers import EXAMPLES

ROOT = Path(__file__).resolve().parent.parent.parent
KNIGHT = str(EXAMPLES / "mst2/knight.json")
SPEARMAN = str(EXAMPLES / "mst2/spearman.toml")
CHARGE = str(EXAMPLES / "encounters/charge.toml")
GUARD = tomllib.loads((EXAMPLES / "midian/guard.toml").read_text(encoding="utf-8"))


def affray(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def ok(*args: str, stdin: str | None = None) -> str:
    result = affray(*args, stdin=stdin)
    assert result.exit_code == 0, result.output
    return result.stdout


def shown(db: Path, table: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ok("table", "show", table, "--json", "--db", str(db)))
    return data


def counts(db: Path) -> tuple[int, ...]:
    """How many rows each kept thing has (tables, their changes, parties, theirs)."""
    Store(db).close()  # made and migrated, as a command would
    with sqlite3.connect(db) as connection:
        return tuple(
            connection.execute(f"SELECT count(*) FROM {rows}").fetchone()[0]
            for rows in ("tables", "changes", "parties", "party_changes")
        )


@pytest.fixture
def ford(tmp_path: Path) -> Path:
    """An MST-2 table with a story: a sheet file and a bestiary creature, typed-in
    dice, a condition and a note, an undo and a new change after it (the log keeps
    the undone branch), the game master's fiat, a rename and a hidden combatant."""
    db = tmp_path / "a.db"
    d = ("--db", str(db))
    ok("table", "new", "Ford", "--system", "mst2", *d)
    ok("table", "add", "ford", KNIGHT, "--side", "heroes", *d)
    ok("table", "add", "ford", "ogre", "--side", "monsters", *d)
    ok("table", "add", "ford", SPEARMAN, "--side", "heroes", "--as", "Bram", *d)
    ok("table", "start", "ford", *d)
    turn = shown(db, "ford")["turn"]
    target = "Ogre" if turn != "Ogre" else "Knight"
    ok(
        "table",
        "act",
        "ford",
        turn,
        "attack",
        target,
        "--rolls",
        "20",
        "--roll-rest",
        "--seed",
        "1",
        *d,
    )
    ok("table", "mark", "ford", "Knight", "prone", "--until", "end", *d)
    ok("table", "note", "ford", "the river rises", *d)
    ok("table", "undo", "ford", *d)
    ok("table", "note", "ford", "the bridge holds", *d)
    ok("table", "set", "ford", "Bram", "wounds=2", *d)
    ok("table", "rename", "ford", "Ogre", "Grug", *d)
    ok("table", "hide", "ford", "Grug", *d)
    ok("table", "undo", "ford", *d)  # a redo is open
    return db


def test_a_table_exported_and_imported_exports_the_same_bytes(ford: Path, tmp_path: Path) -> None:
    first, second, other = tmp_path / "first.json", tmp_path / "second.json", tmp_path / "b.db"
    ok("table", "export", "ford", "-o", str(first), "--db", str(ford))
    assert ok("table", "export", "ford", "--db", str(ford)) == first.read_text()  # stdout
    ok("table", "import", str(first), "--db", str(other))
    ok("table", "export", "ford", "-o", str(second), "--db", str(other))
    assert second.read_bytes() == first.read_bytes()

    document = json.loads(first.read_text())
    assert (document["format"], document["version"], document["kind"]) == ("affray", 2, "table")
    assert "gm_token" not in first.read_text()
    assert list(document["sheets"]) == ["Knight", "Grug", "Bram"]  # renamed: its own sheet
    assert document["sheets"]["Knight"] == json.loads(Path(KNIGHT).read_text())
    assert [c["verb"] for c in document["log"]][-3:] == ["rename", "hide", "undo"]


def test_an_imported_table_is_the_same_table_undo_and_redo_alike(
    ford: Path, tmp_path: Path
) -> None:
    export, other = tmp_path / "ford.json", tmp_path / "b.db"
    ok("table", "export", "ford", "-o", str(export), "--db", str(ford))
    ok("table", "import", str(export), "--db", str(other))
    assert shown(other, "ford") == shown(ford, "ford")
    log = ("table", "log", "ford", "--format", "json", "--db")
    assert ok(*log, str(other)) == ok(*log, str(ford))
    for db in (ford, other):
        ok("table", "redo", "ford", "--db", str(db))  # the hide comes back
        ok("table", "undo", "ford", "--steps", "4", "--db", str(db))
    assert shown(other, "ford") == shown(ford, "ford")
    assert shown(other, "ford")["can_redo"] == 4


def test_a_midian_fight_left_to_its_tactics_replays_on_import(tmp_path: Path) -> None:
    db, other, export = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "charge.json"
    ok("table", "new", "Charge", "--system", "midian", "--db", str(db))
    ok("table", "import", "charge", CHARGE, "--db", str(db))  # an encounter file, as ever
    ok("table", "run", "charge", "--to-end", "--seed", "2", "--db", str(db))
    ok("table", "export", "charge", "-o", str(export), "--db", str(db))
    text = export.read_text()
    # through stdin, under a name of its own
    out = json.loads(
        ok("table", "import", "-", "--as", "The Charge", "--json", "--db", str(other), stdin=text)
    )
    assert set(out) == {"table", "name", "system", "version", "gm_token", "player_token", "db"}
    assert (out["table"], out["name"], out["system"]) == ("the-charge", "The Charge", "midian")
    original, imported = shown(db, "charge"), shown(other, "the-charge")
    assert imported["phase"] == "over"
    assert {**imported, "table": "charge", "name": "Charge"} == original
    again = json.loads(ok("table", "export", "the-charge", "--db", str(other)))
    assert again["table"] == {**json.loads(text)["table"], "id": "the-charge", "name": "The Charge"}
    assert {**again, "table": None} == {**json.loads(text), "table": None}


def test_an_import_never_takes_the_place_of_a_table_and_a_refused_one_writes_nothing(
    ford: Path, tmp_path: Path
) -> None:
    export = tmp_path / "ford.json"
    ok("table", "export", "ford", "-o", str(export), "--db", str(ford))
    before = counts(ford)
    result = affray("table", "import", str(export), "--db", str(ford))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: there is a table with the id 'ford' here already; nothing was imported",
        "Tip: import it under another name with --as NEW",
    ]
    moved = tmp_path / "moved.json"  # another id, the same name (a name finds a table too)
    moved.write_text(export.read_text().replace('"id": "ford"', '"id": "ford-x"', 1))
    result = affray("table", "import", str(moved), "--db", str(ford))
    assert result.exit_code == 2
    assert "there is a table with the name 'Ford' here already" in result.stderr
    ok("table", "new", "Second Ford", "--system", "mst2", "--db", str(ford))
    result = affray("table", "import", str(export), "--as", "second  ford", "--db", str(ford))
    assert result.exit_code == 2
    assert "the id 'second-ford' here already" in result.stderr
    assert counts(ford)[0] == before[0] + 1 and counts(ford)[1:] == before[1:]
    ok("table", "import", str(export), "--as", "Ford again", "--db", str(ford))
    assert shown(ford, "ford-again")["combatants"] == shown(ford, "ford")["combatants"]


def test_an_export_and_an_encounter_file_are_told_apart(ford: Path, tmp_path: Path) -> None:
    export = tmp_path / "ford.json"
    ok("table", "export", "ford", "-o", str(export), "--db", str(ford))
    result = affray("table", "import", "ford", str(export), "--db", str(ford))
    assert result.exit_code == 2
    assert f"error: {export} is an affray export, not an encounter file" in result.stderr
    result = affray("table", "import", CHARGE, "--db", str(ford))  # no table named
    assert result.exit_code == 2
    assert "not valid JSON" in result.stderr
    result = affray("table", "import", KNIGHT, "--db", str(ford))
    assert 'is not an affray export (it has no "format": "affray")' in result.stderr
    assert "affray table import TABLE ENCOUNTER" in result.stderr
    result = affray("table", "import", "ford", CHARGE, "--as", "X", "--db", str(ford))
    assert result.exit_code == 2
    assert "--as names a table imported from an export" in result.stderr


def company(db: Path) -> Parties:
    """The Company (a Knight and Bram) back from a table where the ogre gave the Knight
    3 wounds and the game master killed Bram, then rested two days."""
    parties = Parties(Tables(Store(db)))
    tables = parties.tables
    row = parties.new("The Company", "mst2")
    parties.add(row, KNIGHT)
    parties.add(row, SPEARMAN, "Bram")
    table = tables.new("Ford", "mst2")
    tables.run_all(table, parties.joining(table, "the-company"))
    tables.run(table, tables.joining(table, "ogre", side="monsters"))
    tables.run(table, Start())
    while tables.fold(table).state.current != "Ogre":
        tables.run(table, Next())
    tables.run(table, Act("Ogre", "attack", "Knight"), rolls=[20, 6, 6, 6, 1, 1, 1])
    tables.run(table, Set("Bram", {"condition": "dead"}))
    parties.end(table)
    from affray.dice import ScriptedDice

    parties.rest(row, 2, ScriptedDice([1, 1, 1, 1, 1, 1]), {})
    return parties


def test_a_party_with_wounds_and_its_dead_moves_to_another_machine(tmp_path: Path) -> None:
    db, other = tmp_path / "a.db", tmp_path / "b.db"
    company(db).store.store.close()
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    ok("party", "export", "the-company", "-o", str(first), "--db", str(db))
    out = json.loads(ok("party", "import", str(first), "--json", "--db", str(other)))
    assert out == {"party": "the-company", "name": "The Company", "system": "mst2", "version": 4}
    ok("party", "export", "the-company", "-o", str(second), "--db", str(other))
    assert second.read_bytes() == first.read_bytes()

    document = json.loads(first.read_text())
    members = {m["id"]: m for m in document["state"]["members"]}
    assert members["Knight"]["values"] == {"wounds": 3}
    assert members["Bram"]["values"] == {"condition": "dead"}
    assert members["Knight"]["sheet"] == json.loads(Path(KNIGHT).read_text())
    assert document["state"]["written"] == [{"table": "ford", "version": 8}]
    show = ("party", "show", "the-company", "--json", "--db")
    assert ok(*show, str(other)) == ok(*show, str(db))

    # at a table of the new machine, they are as they were; undo works there alike
    ok("table", "new", "Bridge", "--system", "mst2", "--db", str(other))
    ok("table", "add", "bridge", "party:the-company", "--db", str(other))
    combatants = {c["id"]: c for c in shown(other, "bridge")["combatants"]}
    assert combatants["Knight"]["state"] == {"wounds": 3}
    assert combatants["Bram"]["condition"] == "dead"
    for where in (db, other):
        ok("party", "undo", "the-company", "--db", str(where))
    assert ok(*show, str(other)) == ok(*show, str(db))


def test_a_party_is_refused_where_one_is_and_renamed_with_as(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    company(db).store.store.close()
    export = tmp_path / "company.json"
    ok("party", "export", "the-company", "-o", str(export), "--db", str(db))
    before = counts(db)
    result = affray("party", "import", str(export), "--db", str(db))
    assert result.exit_code == 2
    assert "there is a party with the id 'the-company' here already" in result.stderr
    assert counts(db) == before
    ok("party", "import", str(export), "--as", "The Other Company", "--db", str(db))
    listed = json.loads(ok("party", "list", "--json", "--db", str(db)))["parties"]
    assert [p["party"] for p in listed] == ["the-company", "the-other-company"]


def test_state_and_sheets_are_for_readers_an_import_rebuilds_them(
    ford: Path, tmp_path: Path
) -> None:
    export, bare, other = tmp_path / "ford.json", tmp_path / "bare.json", tmp_path / "b.db"
    ok("table", "export", "ford", "-o", str(export), "--db", str(ford))
    document = json.loads(export.read_text())
    del document["state"], document["sheets"]
    bare.write_text(json.dumps(document))
    ok("table", "import", str(bare), "--db", str(other))
    assert ok("table", "export", "ford", "--db", str(other)) == export.read_text()


# -- bad files ------------------------------------------------------------------------------

Edit = Callable[[dict[str, Any]], Any]


def _set(path: str, value: Any) -> Edit:
    """An edit setting the value at ``path`` (``log.0.payload.faces``)."""

    def edit(document: dict[str, Any]) -> None:
        *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
        target: Any = document
        for part in parents:
            target = target[part]
        target[last] = value

    return edit


def _append(path: str, value: Any) -> Edit:
    """An edit adding ``value`` to the list at ``path``."""

    def edit(document: dict[str, Any]) -> None:
        target: Any = document
        for part in path.split("."):
            target = target[int(part) if part.isdigit() else part]
        target.append(value)

    return edit


TABLE_CASES: list[tuple[str, Edit | str, str, str]] = [
    ("not JSON", "{nope", "not valid JSON: Expecting property name", "affray table export"),
    ("a list", "[1, 2]", "is not an affray export", "affray table export TABLE -o FILE"),
    (
        "a key twice",
        '{"format": "affray", "format": "affray"}',
        'the key "format" appears twice',
        "keep one",
    ),
    (
        "a number JSON does not have",
        _set("table.options.lethality", float("nan")),
        "NaN is not a JSON number",
        "finite",
    ),
    ("a newer version", _set("version", 3), "version: is format version 3", "upgrade affray"),
    ("a version as text", _set("version", "1"), 'version: the format version is "1"', "reads"),
    ("a party's", _set("kind", "party"), "kind: is a party export, not a table's", "party import"),
    (
        "a face that is text",
        _set("log.4.payload.faces.0", "x"),
        'log[4].payload.faces[0]: should be {"face": N, "die": ..., "by": ...} (or, as format '
        '1 wrote it, N) (it is "x")',
        "docs/exchange.md (`affray docs exchange`) describes every key",
    ),
    (
        "a rolled face at no place",
        _set("log.4.payload.rolled", [["x", "d8 for a power die"]]),
        "log[4].payload.rolled[0]: should be [place, die]",
        "docs/exchange.md (`affray docs exchange`) describes every key",
    ),
    (
        "a key of its own",
        _set("log.1.payload.mood", "grim"),
        "log[1].payload.mood: is not a key of the format",
        "docs/schema/affray-export.schema.json",
    ),
    ("a verb unknown", _set("log.1.verb", "dance"), 'log[1].verb: "dance" is not one of', "exch"),
    ("a system unknown", _set("table.system", "gurps"), 'unknown rule system "gurps"', "plays"),
    (
        "a bad sheet",
        _set("log.0.payload.command.sheet.skill", -1),
        "log[0] (change 1, add Knight): sheet: key 'skill': should be at least 0 (got -1)",
        "docs/sheets.md",
    ),
    (
        "a sheet of another system",
        _set("log.0.payload.command.sheet", GUARD),
        "log[0] (change 1, add Knight): sheet: key 'system': is not an MST-2 sheet",
        "every sheet of a mst2 table",
    ),
    (
        "a die too many",
        _append("log.4.payload.faces", 1),
        "log[4] (change 5, act): replaying act left recorded dice or answers unused",
        "",
    ),
    (
        "a state edited",
        _set("state.combatants.0.state.wounds", 9),
        "state.combatants[0].state.wounds: the log does not replay to the state the file "
        "carries: the file has 9, the log gives",
        'Leave out "state"',
    ),
    (
        "a version skipped",
        _set("log.2.version", 9),
        "log[2] (change 9, add): the log skips from version 2 to 9",
        "",
    ),
]


@pytest.mark.parametrize(
    ("edit", "message", "tip"), [case[1:] for case in TABLE_CASES], ids=[c[0] for c in TABLE_CASES]
)
def test_a_bad_table_file_is_one_clear_error_and_writes_nothing(
    ford: Path, tmp_path: Path, edit: Edit | str, message: str, tip: str
) -> None:
    export, bad, other = tmp_path / "ford.json", tmp_path / "bad.json", tmp_path / "b.db"
    ok("table", "export", "ford", "-o", str(export), "--db", str(ford))
    if isinstance(edit, str):
        bad.write_text(edit)
    else:
        document = json.loads(export.read_text())
        edit(document)
        bad.write_text(json.dumps(document))
    result = affray("table", "import", str(bad), "--db", str(other))
    assert result.exit_code == 2, result.output
    error, advice = result.stderr.splitlines()
    assert error.startswith(f"error: {bad}: ")
    assert message in error
    assert advice.startswith("Tip: ") and tip in advice
    assert "Traceback" not in result.output
    assert counts(other) == (0, 0, 0, 0)


PARTY_CASES: list[tuple[str, Edit, str]] = [
    ("a table's", _set("kind", "table"), "kind: is a table export, not a party's"),
    (
        "a bad member sheet",
        _set("log.0.payload.member.sheet.armor", "mithril"),
        "log[0] (change 1, add Knight): sheet: key 'armor': unknown armor \"mithril\"",
    ),
    (
        "bad carried values",
        _set("log.2.payload.values.Knight.wounds", -2),
        "log[2] (change 3, end): party member Knight: key 'wounds': should be at least 0",
    ),
    (
        "a member twice",
        _set("log.1.payload.member.id", "knight"),
        'log[1].payload.member.id: the party has a member called "knight" already',
    ),
    (
        "a dead member edited back to life",
        _set("state.members.1.values", {}),
        "state.members[1].values.condition: the log does not replay",
    ),
]


@pytest.mark.parametrize(
    ("edit", "message"), [case[1:] for case in PARTY_CASES], ids=[c[0] for c in PARTY_CASES]
)
def test_a_bad_party_file_is_one_clear_error_and_writes_nothing(
    tmp_path: Path, edit: Edit, message: str
) -> None:
    db, other = tmp_path / "a.db", tmp_path / "b.db"
    company(db).store.store.close()
    export, bad = tmp_path / "company.json", tmp_path / "bad.json"
    ok("party", "export", "the-company", "-o", str(export), "--db", str(db))
    document = json.loads(export.read_text())
    edit(document)
    bad.write_text(json.dumps(document))
    result = affray("party", "import", str(bad), "--db", str(other))
    assert result.exit_code == 2, result.output
    error, advice = result.stderr.splitlines()
    assert error.startswith(f"error: {bad}: ") and message in error
    assert advice.startswith("Tip: ")
    assert counts(other) == (0, 0, 0, 0)


def test_a_missing_file_and_an_unwritable_one_are_clear(ford: Path, tmp_path: Path) -> None:
    result = affray("table", "import", str(tmp_path / "none.json"), "--db", str(ford))
    assert result.exit_code == 2 and "none.json: no such file" in result.stderr
    out = tmp_path / "no" / "such" / "dir.json"
    result = affray("table", "export", "ford", "-o", str(out), "--db", str(ford))
    assert result.exit_code == 2 and "cannot write the file" in result.stderr


# -- the schema and the docs ----------------------------------------------------------------


def test_the_schema_in_the_docs_is_the_one_the_format_is_read_by() -> None:
    written = (ROOT / "docs/schema/affray-export.schema.json").read_text()
    assert written == schema_text(), (
        "regenerate it: .venv/bin/python -c 'from affray.table.exchange import schema_text; "
        'print(schema_text(), end="")\' > docs/schema/affray-export.schema.json'
    )


def test_the_change_verbs_of_the_format_are_the_tables_own() -> None:
    from typing import get_args

    from affray.table.commands import COMMANDS

    assert set(get_args(CommandVerb)) == set(COMMANDS)


def test_an_export_has_the_keys_the_schema_gives(ford: Path, tmp_path: Path) -> None:
    schema = json.loads(schema_text())["$defs"]
    table = json.loads(ok("table", "export", "ford", "--db", str(ford)))
    assert set(table) == set(schema["TableDocument"]["properties"])
    assert set(table["state"]) == set(schema["TableShown"]["properties"])
    db = tmp_path / "p.db"
    company(db).store.store.close()
    party = json.loads(ok("party", "export", "the-company", "--db", str(db)))
    assert set(party) == set(schema["PartyDocument"]["properties"])


def test_the_example_of_the_docs_imports_and_exports_as_it_is_written(tmp_path: Path) -> None:
    page = (ROOT / "docs/exchange.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"```json\n(\{\n  \"format\".*?)```", page, re.S)
    file = tmp_path / "example.json"
    file.write_text(example)
    kind = json.loads(example)["kind"]
    ok(kind, "import", str(file), "--db", str(tmp_path / "b.db"))
    ref = json.loads(example)[kind]["id"]
    again = json.loads(ok(kind, "export", ref, "--db", str(tmp_path / "b.db")))
    assert {**again, "affray": None} == {**json.loads(example), "affray": None}


def test_a_party_end_naming_no_table_id_is_refused(tmp_path: Path) -> None:
    """Hostile round 4, item 10: a party export whose table's end names ``../../x``
    was taken; a table is named by an id (lower-case words and hyphens)."""
    from click.testing import CliRunner

    from affray.cli.main import cli

    db = str(tmp_path / "t.db")

    def run(*args: str) -> Any:
        return CliRunner().invoke(cli, [*args, "--db", db])

    run("party", "new", "Band", "--system", "mst2")
    run("party", "add", "band", "goblin")
    run("table", "new", "Ford", "--system", "mst2")
    run("table", "add", "ford", "party:band")
    run("table", "set", "ford", "Goblin", "wounds=1")
    assert run("table", "end", "ford").exit_code == 0
    export = tmp_path / "band.json"
    assert run("party", "export", "band", "--out", str(export)).exit_code == 0
    text = export.read_text().replace('"table": "ford"', '"table": "../../x"')
    export.write_text(text)
    refused = run("party", "import", str(export), "--as", "Band 2")
    assert refused.exit_code == 2, refused.output
    assert "table" in refused.stderr and "Traceback" not in refused.output
