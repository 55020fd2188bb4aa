"""Secrets by identity: nothing a player's token or link reads names a combatant the
players cannot see (docs/tracker.md, "What players see").

A Hypothesis state machine plays random sequences of the game master's changes on
both systems (adds, hidden or not; hide, reveal, rename with a unique start of the
name and with names used before; remove, hazard, note, set, turns, undo and redo),
and after every step reads every player surface: the players' page, the JSON API
with the players' token, a player's phone (its page, board and question), the live
update a page receives, the players' log, and the refusals of random commands from
the phone. The oracle is kept apart from the code under test: it follows each
combatant by its key in the game master's view after every step and works out which
names the players may never read.
"""

from __future__ import annotations

import contextlib
import json
import re
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from starlette.testclient import TestClient

from affray.errors import AffrayError
from affray.table import Store, Tables
from affray.table.commands import (
    Allow,
    Hazard,
    Hide,
    Next,
    Note,
    Remove,
    Rename,
    Reveal,
    Run,
    Set,
    Start,
)
from affray.web import create_app
from affray.web.player import context
from affray.web.roles import PLAYERS, player
from tests.helpers import EXAMPLES

SHEETS = {
    "mst2": ["mst2/goblin.toml", "mst2/ogre.toml", "mst2/sellsword.toml"],
    "midian": ["midian/brawler.toml", "midian/dockhand.toml", "midian/guard.toml"],
}
HERO = {"mst2": "mst2/knight.json", "midian": "midian/guard.toml"}
HAZARDS = {"mst2": ("fall", {"feet": 10}), "midian": ("fall", {"feet": 10})}
WORDS = ["Quorv", "Blessa", "Tarnik", "Vexal", "Mirrow", "Dunsk", "Pellim", "Goran", "Ysolt"]


class Oracle:
    """What the players may never read, worked out from the game master's view alone:
    for each key, every name it had and whether it was hidden with it."""

    def __init__(self) -> None:
        self.names: dict[str, set[str]] = {}
        self.seen_as: dict[str, set[str]] = {}
        """The names each key had while the players saw it."""
        self.last_hidden: dict[str, bool] = {}
        self.present: set[str] = set()

    def look(self, shown: dict[str, Any]) -> None:
        present = set()
        for combatant in shown["combatants"]:
            key, name = combatant["key"], combatant["id"]
            present.add(key)
            self.names.setdefault(key, set()).add(name)
            self.last_hidden[key] = combatant["hidden"]
            if not combatant["hidden"]:
                self.seen_as.setdefault(key, set()).add(name)
        self.present = present

    def secret(self) -> set[str]:
        """Keys the players may know nothing of: hidden now, or gone while hidden."""
        return {key for key, hidden in self.last_hidden.items() if hidden}

    def forbidden(self) -> set[str]:
        """Names (and keys) no player surface may show."""
        secret = self.secret()
        found: set[str] = set(secret)
        for key, names in self.names.items():
            if key in secret:
                found |= names
            else:
                found |= names - self.seen_as.get(key, set())
        for key, names in self.seen_as.items():  # a name reused by one the players see
            if key not in secret:
                found -= names
        return found


def words_in(text: str) -> set[str]:
    return set(re.findall(r"[~\w]+", text))


class Secrets(RuleBasedStateMachine):
    system = "mst2"

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        db = Path(self.folder.name) / "t.db"
        self.tables = Tables(Store(db))
        self.row = self.tables.new("Ambush", self.system)
        hero = self.tables.joining(
            self.row, str(EXAMPLES / HERO[self.system]), side="heroes", name="Hero", player=True
        )
        self.tables.run(self.row, hero)
        self.tables.run(self.row, Allow({"players_choose": True}))
        self.link = self.tables.link(self.row, "Hero")[1]
        self.client = TestClient(create_app(db, poll_s=0.05))
        self.client.__enter__()
        self.oracle = Oracle()
        self.used: list[str] = []
        self.counter = 0
        self.seed = 0

    def teardown(self) -> None:
        self.client.__exit__(None, None, None)
        self.tables.store.close()
        self.folder.cleanup()

    # -- the game master's changes ----------------------------------------------------

    def fresh(self) -> str:
        self.counter += 1
        name = f"{WORDS[self.counter % len(WORDS)]}{self.counter}"
        self.used.append(name)
        return name

    def gm(self) -> dict[str, Any]:
        response = self.client.get(f"/api/tables/{self.row.id}?token={self.row.gm_token}")
        assert response.status_code == 200
        shown: dict[str, Any] = response.json()
        return shown

    def ids(self) -> list[str]:
        return [c["id"] for c in self.gm()["combatants"] if c["id"] != "Hero"]

    def change(self, command: Any, **given: Any) -> None:
        self.seed += 1
        with contextlib.suppress(AffrayError):  # refused: nothing changed
            self.tables.run(self.row, command, seed=self.seed, **given)
        self.oracle.look(self.gm())

    @initialize()
    def first_look(self) -> None:
        self.oracle.look(self.gm())

    @rule(sheet=st.integers(0, 2), hidden=st.booleans())
    def add(self, sheet: int, hidden: bool) -> None:
        path = str(EXAMPLES / SHEETS[self.system][sheet])
        command = self.tables.joining(self.row, path, side="monsters", name=self.fresh())
        self.change(replace(command, hidden=hidden))

    @rule(data=st.data(), verb=st.sampled_from(["hide", "reveal", "remove"]))
    def power(self, data: st.DataObject, verb: str) -> None:
        ids = self.ids()
        if not ids:
            return
        who = data.draw(st.sampled_from(ids))
        typed = who[: data.draw(st.integers(3, len(who)))].lower()  # a unique start will do
        kind = {"hide": Hide, "reveal": Reveal, "remove": Remove}[verb]
        self.change(kind(typed))

    @rule(data=st.data(), reuse=st.booleans())
    def rename(self, data: st.DataObject, reuse: bool) -> None:
        ids = self.ids()
        if not ids:
            return
        who = data.draw(st.sampled_from(ids))
        free = [n for n in self.used if n.lower() not in {i.lower() for i in ids}]
        new = data.draw(st.sampled_from(free)) if reuse and free else self.fresh()
        self.change(Rename(who[:4].lower() if len(who) > 4 else who, new))

    @rule(data=st.data())
    def hazard(self, data: st.DataObject) -> None:
        ids = self.ids()
        if not ids:
            return
        who = data.draw(st.sampled_from(ids))
        kind, values = HAZARDS[self.system]
        self.change(Hazard(who[:5].lower(), kind, values))

    @rule(data=st.data())
    def note_and_set(self, data: st.DataObject) -> None:
        ids = self.ids()
        if not ids:
            return
        who = data.draw(st.sampled_from(ids))
        self.change(Note(f"{who} hides a dagger", about=who))
        condition = "unconscious" if self.system == "midian" else "out"
        if data.draw(st.booleans()):
            self.change(Set(who, {"condition": condition}))

    @rule(how=st.sampled_from(["start", "next", "run"]))
    def turns(self, how: str) -> None:
        command = {"start": Start(), "next": Next(), "run": Run(2)}[how]
        self.change(command)

    @rule(steps=st.integers(1, 3), back=st.booleans())
    def undo_redo(self, steps: int, back: bool) -> None:
        try:
            if back:
                self.tables.undo(self.row, steps)
            else:
                self.tables.redo(self.row, steps)
        except AffrayError:
            pass
        self.oracle.look(self.gm())

    # -- what the players read ---------------------------------------------------------

    def surfaces(self) -> Iterator[tuple[str, str]]:
        table = self.row.id
        players, link = self.row.player_token, self.link
        for path in (f"/p/{table}", f"/api/tables/{table}", f"/p/{table}/board"):
            yield path, self.client.get(f"{path}?token={players}").text
        for path in (f"/p/{table}", f"/p/{table}/board", f"/p/{table}/ask"):
            yield f"{path} (link)", self.client.get(f"{path}?token={link}").text
        yield "/api (link)", self.client.get(f"/api/tables/{table}?token={link}").text
        tracker = self.client.app.state.tracker  # type: ignore[attr-defined]
        row = self.tables.table(table)
        for role in (PLAYERS, player("Hero")):  # what /p/T/live sends, as it renders it
            found = context(tracker, row, role)
            yield f"live ({role.kind})", tracker.render("_live.html", **found)
            yield f"log ({role.kind})", json.dumps(found["story"])

    def refusals(self) -> Iterator[tuple[str, str]]:
        table = self.row.id
        fold = self.tables.fold(self.row)
        ids = [c.id for c in fold.state.encounter.combatants if c.id != "Hero"]
        tries: list[dict[str, Any]] = [
            {"action": "dance"},
            {"action": "attack"},
            *({"action": "attack", "target": cid[:3]} for cid in ids),
        ]
        for act in tries:
            body = {"expected_version": fold.version, "command": {"verb": "act", **act}}
            body["command"]["actor"] = "Hero"
            response = self.client.post(
                f"/api/tables/{table}/commands?token={self.link}", json=body
            )
            yield f"act {act} (link)", response.text
            if response.status_code == 200:
                self.tables.undo(self.row)  # it acted: taken back, as the game master would
                self.oracle.look(self.gm())

    @invariant()
    def no_secret_reaches_the_players(self) -> None:
        forbidden = self.oracle.forbidden()
        for where, text in [*self.surfaces(), *self.refusals()]:
            leaked = forbidden & words_in(text)
            assert not leaked, f"{where} names {leaked}: {text[:2000]}"
            assert "None's turn" not in text, where


class MidianSecrets(Secrets):
    system = "midian"


SETTINGS = settings(
    max_examples=12,
    stateful_step_count=14,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.mark.parametrize("machine", [Secrets, MidianSecrets], ids=["mst2", "midian"])
def test_no_secret_reaches_the_players(machine: type[Secrets]) -> None:
    machine.TestCase.settings = SETTINGS
    machine.TestCase().runTest()
