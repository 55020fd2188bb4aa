"""The ways hidden combatants reached the players, each as it was found (a Knight of the
players', a goblin Sneak and an ogre; the players' page, their JSON, a phone), and
combatants known by key (docs/tracker.md, "What players see")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from affray.cli.main import cli
from affray.errors import ActionRefusedError
from affray.table import Store, Tables
from affray.table.commands import Act, Allow, Hazard, Hide, Remove, Rename, Reveal, Start
from affray.web import create_app
from tests.helpers import EXAMPLES

SHEETS = {
    "mst2": ("mst2/knight.json", "mst2/goblin.toml", "mst2/ogre.toml"),
    "midian": ("midian/guard.toml", "midian/brawler.toml", "midian/dockhand.toml"),
}


class Table:
    def __init__(self, db: Path, system: str = "mst2") -> None:
        self.tables = Tables(Store(db))
        self.row = self.tables.new("Ambush", system)
        hero, sneak, ogre = SHEETS[system]
        self.add(hero, "heroes", "Knight", player=True)
        self.add(sneak, "monsters", "Sneak")
        self.add(ogre, "monsters", "Ogre")
        self.app = TestClient(create_app(db, poll_s=0.05))

    def add(self, sheet: str, side: str, name: str, **given: bool) -> None:
        path = str(EXAMPLES / sheet)
        hidden = given.pop("hidden", False)
        command = self.tables.joining(self.row, path, side=side, name=name, **given)
        self.tables.run(self.row, replace(command, hidden=hidden))

    def read(self) -> str:
        """Everything the players' token reads: the page, the board, the JSON."""
        token = self.row.player_token
        return " ".join(
            self.app.get(f"{path}?token={token}").text
            for path in (
                f"/p/{self.row.id}",
                f"/p/{self.row.id}/board",
                f"/api/tables/{self.row.id}",
            )
        )


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    found = Table(tmp_path / "t.db")
    with found.app:
        yield found


def test_hidden_then_renamed_is_not_told_by_its_old_name(table: Table) -> None:
    table.tables.run(table.row, Hide("Sneak"))
    table.tables.run(table.row, Rename("Sneak", "Assassin"))
    read = table.read()
    assert "Sneak" not in read and "Assassin" not in read
    assert "Ogre joins the fight (side monsters)" in read


def test_renamed_then_hidden_is_not_told_by_either_name(table: Table) -> None:
    table.tables.run(table.row, Rename("Sneak", "Assassin"))
    table.tables.run(table.row, Hide("Assassin"))
    read = table.read()
    assert "Sneak" not in read and "Assassin" not in read


def test_hidden_revealed_and_hidden_again_leaves_no_appearance(table: Table) -> None:
    table.tables.run(table.row, Hide("Sneak"))
    table.tables.run(table.row, Reveal("Sneak"))
    assert "Sneak appears" in table.read()  # seen now: told
    table.tables.run(table.row, Hide("Sneak"))
    assert "Sneak" not in table.read()


def test_hidden_then_removed_stays_unnamed(table: Table) -> None:
    table.tables.run(table.row, Hide("Sneak"))
    table.tables.run(table.row, Remove("Sneak"))
    assert "Sneak" not in table.read()


def test_a_unique_start_of_a_name_never_reaches_the_log(table: Table) -> None:
    table.tables.run(table.row, Hazard("snea", "fall", {"feet": 10}), seed=1)
    table.tables.run(table.row, Hide("Sneak"))
    table.tables.run(table.row, Rename("snea", "Phantom"))
    read = table.read()
    assert "snea" not in read.lower() and "Phantom" not in read
    logged = table.tables.store.changes(table.row.id)
    commands = [change.payload["command"] for change in logged]
    assert all("snea" not in json.dumps(command) for command in commands)
    sneak = table.tables.fold(table.row).state.keys["Phantom"]
    assert commands[-1] == {"verb": "rename", "who": sneak, "name": "Phantom"}


def test_a_hidden_combatants_turn_is_someones(table: Table) -> None:
    table.tables.run(table.row, Hide("Sneak"))
    table.tables.run(table.row, Start(), seed=1)
    for _ in range(4):
        state = table.tables.fold(table.row).state
        if state.current == "Sneak":
            break
        table.tables.run(table.row, Act(state.current or "", "hold"))
    assert table.tables.fold(table.row).state.current == "Sneak"
    read = table.read()
    assert "None" not in read and "Sneak" not in read
    assert "someone</strong>'s turn" in read and "someone's turn" in read


def test_added_hidden_in_the_same_change(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    table = Table(db)
    with table.app:
        before = table.tables.store.version(table.row.id)
        table.add("mst2/goblin.toml", "monsters", "Lurker", hidden=True)
        assert table.tables.store.version(table.row.id) == before + 1  # one change
        assert "Lurker" not in table.read()
        shown = table.app.get(f"/api/tables/{table.row.id}?token={table.row.gm_token}").json()
        assert [c["hidden"] for c in shown["combatants"] if c["id"] == "Lurker"] == [True]
        # the page's form and the API do the same
        body = {
            "expected_version": before + 1,
            "command": {
                "verb": "add",
                "sheet": "goblin",
                "as": "Shade",
                "count": 2,
                "hidden": True,
            },
        }
        gm = {"Authorization": f"Bearer {table.row.gm_token}"}
        assert table.app.post(
            f"/api/tables/{table.row.id}/commands", json=body, headers=gm
        ).is_success
        assert "Shade" not in table.read()
    result = CliRunner().invoke(
        cli, ["table", "add", "ambush", "ogre", "--as", "Brute", "--hidden", "--db", str(db)]
    )
    assert result.exit_code == 0, result.output
    assert "Brute is hidden from the players" in result.output
    assert Tables(Store(db)).fold(table.row).state.hidden >= {"Brute", "Lurker", "Shade 1"}


@pytest.mark.parametrize("system", ["mst2", "midian"])
def test_a_players_refusal_names_only_whom_they_see(tmp_path: Path, system: str) -> None:
    table = Table(tmp_path / "t.db", system)
    tables, row = table.tables, table.row
    tables.run(row, Hide("Sneak"))
    tables.run(row, Allow({"players_choose": True}))
    link = tables.link(row, "Knight")[1]
    tables.run(row, Start(), seed=3)
    for _ in range(6):  # to the Knight's turn
        state = tables.fold(row).state
        if state.current == "Knight":
            break
        tables.run(row, Act(state.current or "", "hold"))
    with table.app as app:

        def act(**fields: str) -> tuple[int, str]:
            version = tables.fold(row).version
            body = {
                "expected_version": version,
                "command": {"verb": "act", "actor": "Knight", **fields},
            }
            answer = app.post(f"/api/tables/{row.id}/commands?token={link}", json=body)
            return answer.status_code, answer.text

        assert tables.fold(row).state.current == "Knight"
        # the game master's refusal of the same still names everyone
        with pytest.raises(ActionRefusedError, match="Sneak"):
            tables.run(row, Act("Knight", "dance"))
        status, said = act(action="dance")
        assert status == 422 and "Sneak" not in said and "Ogre" in said
        status, said = act(action="attack", target="snea")
        assert status == 422 and "Sneak" not in said and "snea" in said  # as they typed it
        # the one foe they see is the one meant: no "attack whom?" naming the other
        status, said = act(action="attack")
        assert status in (200, 202), said  # taken: done, or waiting on a die
        assert "Sneak" not in said and "whom" not in said
        acted = tables.fold(row).done[-1].command if status == 200 else None
        waiting = tables.waiting(row)
        target = acted.target if isinstance(acted, Act) else waiting["command"]["target"]
        assert target in ("Ogre", tables.fold(row).state.keys.get("Ogre"))


def test_a_phone_whose_only_foes_are_hidden_says_so(tmp_path: Path) -> None:
    table = Table(tmp_path / "t.db")
    tables, row = table.tables, table.row
    tables.run(row, Remove("Ogre"))
    tables.run(row, Hide("Sneak"))
    tables.run(row, Allow({"players_choose": True}))
    link = tables.link(row, "Knight")[1]
    tables.run(row, Start(), seed=3)
    if tables.fold(row).state.current != "Knight":
        tables.run(row, Act("Sneak", "hold"))
    with table.app as app:
        phone = app.get(f"/p/{row.id}?token={link}").text
    assert "No foe you can see" in phone and "Sneak" not in phone


def test_keys_are_shown_and_taken_for_names(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    table = Table(db)
    with table.app as app:
        gm = app.get(f"/api/tables/{table.row.id}?token={table.row.gm_token}").json()
        keys = {c["id"]: c["key"] for c in gm["combatants"]}
        assert len(set(keys.values())) == 3 and all(k.startswith("~") for k in keys.values())
        body = {
            "expected_version": gm["version"],
            "command": {"verb": "rename", "who": keys["Sneak"], "name": "ogre"},
        }
        headers = {"Authorization": f"Bearer {table.row.gm_token}"}
        refused = app.post(f"/api/tables/{table.row.id}/commands", json=body, headers=headers)
        assert refused.status_code == 422 and "already" in refused.text  # another's name
        body["command"]["name"] = "Slinker"
        assert app.post(
            f"/api/tables/{table.row.id}/commands", json=body, headers=headers
        ).is_success
        after = app.get(f"/api/tables/{table.row.id}?token={table.row.gm_token}").json()
        assert {c["id"]: c["key"] for c in after["combatants"]}["Slinker"] == keys["Sneak"]
    shown = CliRunner().invoke(cli, ["table", "show", "ambush", "--json", "--db", str(db)])
    assert {c["key"] for c in json.loads(shown.output)["combatants"]} == set(keys.values())
    # the journal tells the rename by the names, not the keys
    log = CliRunner().invoke(cli, ["table", "log", "ambush", "--db", str(db)])
    assert "rename Sneak to Slinker" in log.output and "~" not in log.output
