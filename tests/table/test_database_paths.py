"""Where the database is, and what a name finds: the default data folder is made, a
folder the user named must be there (a mistyped AFFRAY_DB makes nothing); a table's
name is its own (a second table of that name is refused, naming the first), and a
name or an id finds a table whatever its case and spacing."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.helpers import SCRIPT


def affray(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run(
        [*SCRIPT, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, **(env or {})},
    )


def test_a_folder_the_user_named_is_not_made(tmp_path: Path) -> None:
    missing = tmp_path / "nonexistent" / "dir"
    done = affray(
        "table", "new", "X", "--system", "mst2", env={"AFFRAY_DB": str(missing / "tables.db")}
    )
    assert done.returncode == 2, done.stderr
    assert f"the folder {missing} does not exist" in done.stderr and "Tip: " in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "nonexistent").exists()
    named = affray("table", "new", "X", "--system", "mst2", "--db", str(missing / "t.db"))
    assert named.returncode == 2 and not (tmp_path / "nonexistent").exists()


def test_the_default_data_folder_is_made(tmp_path: Path) -> None:
    data = tmp_path / "data"
    done = affray(
        "table", "new", "X", "--system", "mst2", "--json",
        env={"XDG_DATA_HOME": str(data), "AFFRAY_DB": ""},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (data / "affray" / "tables.db").exists()
    assert json.loads(done.stdout)["table"] == "x"


@pytest.mark.parametrize("again", ["Inn brawl", "inn BRAWL", "  Inn   brawl "])
def test_a_taken_name_is_refused_and_names_the_table_that_has_it(
    tmp_path: Path, again: str
) -> None:
    db = str(tmp_path / "t.db")
    assert affray("table", "new", "Inn brawl", "--system", "midian", "--db", db).returncode == 0
    done = affray("table", "new", again, "--system", "midian", "--db", db)
    assert done.returncode == 2, done.stdout
    assert "there is a table called 'Inn brawl' here already (id inn-brawl)" in done.stderr
    assert "nothing was made" in done.stderr
    listed = json.loads(affray("table", "list", "--db", db, "--json").stdout)["tables"]
    assert [t["table"] for t in listed] == ["inn-brawl"]
    for ref in ("INN-BRAWL", "inn   Brawl", "Inn brawl"):
        shown = affray("table", "show", ref, "--db", db, "--json")
        assert json.loads(shown.stdout)["table"] == "inn-brawl", ref
