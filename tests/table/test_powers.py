"""The game master's powers (SPEC part 3): set, remove, rename, hide, reveal and
move, each one undoable change through the CLI and the API, checked like sheet
values, refused without a change; and what the player token sees of them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from affray.table import Next, Start, Store, TableRow, Tables
from affray.table.commands import Hide, Move, Remove, Rename, Reveal, Set
from affray.table.view import played_order, show_data
from affray.web import create_app
from tests.helpers import EXAMPLES
from tests.table.test_table_cli import Table


def inn(tmp_path: Path) -> Table:
    table = Table(tmp_path / "t.db", "Inn", "midian")
    for sheet, side in (
        ("midian/guard.toml", "watch"),
        ("midian/brawler.toml", "rowdies"),
        ("midian/brawler.toml", "rowdies"),
    ):
        table("add", str(EXAMPLES / sheet), "--side", side)
    return table


def cold(db: Path, table_id: str) -> Any:
    tables = Tables(Store(db))
    return tables.fold(tables.table(table_id)).state


def test_set_changes_a_state_by_fiat_and_is_checked(tmp_path: Path) -> None:
    table = inn(tmp_path)
    table("start", "--seed", "2")
    done = table("set", "Brawler 2", "hit_points=3", "stance=defensive")
    assert done["lines"] == ["The game master sets Brawler 2: hit_points=3, stance=defensive"]
    state = table.state("Brawler 2")["state"]
    assert (state["hit_points"], state["stance"]) == (3, "defensive")
    for bad, said in (
        (["wounds=3"], "unknown key; allowed keys are: hit_points"),
        (["life_points=99"], "more than Brawler's 12"),
        (["condition=asleep"], "conscious"),
        (["hit_points=many"], "hit_points"),
    ):
        assert said in table.refused("set", "Brawler", *bad)
    # knocked out by fiat: the turn passes on; both brawlers down: the fight is over
    table("set", "Brawler", "condition=unconscious")
    assert table.state("Brawler")["condition"] == "unconscious"
    over = table("set", "Brawler 2", "condition=dead")
    assert over["phase"] == "over" and over["winner"] == "watch"
    assert over["lines"][-1].startswith("Winner: watch")
    undone = table("undo")
    assert undone["phase"] != "over"
    assert cold(Path(table.db), table.id).encounter.states["Brawler 2"].health.alive


def test_mst2_wounds_and_condition(tmp_path: Path) -> None:
    table = Table(tmp_path / "t.db", "Ford", "mst2")
    for sheet, side in (("mst2/spearman.toml", "levy"), ("mst2/sellsword.toml", "blades")):
        table("add", str(EXAMPLES / sheet), "--side", side)
    table("set", "Spearman", "wounds=4")
    assert table.state("Spearman")["state"] == {"wounds": 4}
    assert "allowed keys are: wounds, condition" in table.refused("set", "Spearman", "hp=4")
    assert "fighting" in table.refused("set", "Spearman", "condition=asleep")
    table("set", "Sellsword", "condition=fled")
    assert table.state("Sellsword")["condition"] == "fled"


def test_remove_rename_hide_and_reveal(tmp_path: Path) -> None:
    table = inn(tmp_path)
    table("start", "--seed", "2")
    table("rename", "Brawler 2", "Big Tam")
    assert [c["id"] for c in table("show")["combatants"]] == ["Guard", "Brawler", "Big Tam"]
    assert "already a combatant called 'guard'" in table.refused("rename", "Big Tam", "guard")
    table("hide", "Big Tam")
    assert "hidden already" in table.refused("hide", "Big Tam")
    table("reveal", "Big Tam")
    current = table("show")["turn"]
    table("remove", current)
    shown = table("show")
    assert current not in [c["id"] for c in shown["combatants"]]
    assert shown["turn"] not in (None, current)
    assert "no combatant is called" in table.refused("remove", current)
    table("undo")
    assert table("show")["turn"] == current
    tables = Tables(Store(Path(table.db)))
    assert tables.fold(tables.table(table.id)).state == cold(Path(table.db), table.id)


def test_move_puts_a_turn_before_or_after_another(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "t.db"))
    row = tables.new("Ford", "mst2")
    for sheet, side in (
        ("spearman.toml", "levy"),
        ("sellsword.toml", "blades"),
        ("goblin.toml", "levy"),
    ):
        tables.run(row, tables.joining(row, str(EXAMPLES / "mst2" / sheet), side=side))
    state = tables.run(row, Start()).state
    assert (state.current, state.encounter.queue) == ("Spearman", ("Sellsword", "Goblin"))
    assert played_order(state) == ["Spearman", "Sellsword", "Goblin"]
    state = tables.run(row, Move("Goblin", before="Sellsword")).state
    assert (state.current, state.encounter.queue) == ("Spearman", ("Goblin", "Sellsword"))
    assert played_order(state) == ["Spearman", "Goblin", "Sellsword"]  # the order shown
    state = tables.run(row, Move("Spearman", after="Sellsword")).state  # put off
    assert (state.current, state.encounter.queue) == ("Goblin", ("Sellsword", "Spearman"))
    state = tables.run(row, Move("Sellsword", before="Goblin")).state  # takes over
    assert (state.current, state.encounter.queue) == ("Sellsword", ("Goblin", "Spearman"))
    assert played_order(state) == ["Sellsword", "Goblin", "Spearman"]
    state = tables.run(row, Next()).state  # the Sellsword has acted: it stays first
    assert played_order(state) == ["Sellsword", "Goblin", "Spearman"]
    assert show_data(row, tables.fold(row))["order"] == ["Sellsword", "Goblin", "Spearman"]
    tables.undo(row)
    with pytest.raises(Exception, match="before or after whom"):
        tables.run(row, Move("Goblin"))
    tables.run(row, Next())
    tables.run(row, Next())
    tables.run(row, Next())
    with pytest.raises(Exception, match="no turn left this round"):
        tables.run(row, Move("Goblin", before="Spearman"))
    assert Tables(Store(tmp_path / "t.db")).fold(row).state == tables.fold(row).state


def test_a_midian_turn_put_off_gets_its_action_back(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "t.db"))
    row = tables.new("Inn", "midian")
    for sheet, side in (("guard.toml", "watch"), ("brawler.toml", "rowdies")):
        tables.run(row, tables.joining(row, str(EXAMPLES / "midian" / sheet), side=side))
    state = tables.run(row, Start(), rolls=(3, 1), choices=["stance=normal"]).state
    first = state.current
    assert first is not None
    other = "Guard" if first == "Brawler" else "Brawler"
    fold = tables.fold(row)
    spent = fold.rules.ruleset.snapshot(state.encounter, first)["actions_left"]
    state = tables.run(row, Move(first, after=other)).state
    assert state.current == other
    assert fold.rules.ruleset.snapshot(state.encounter, first)["actions_left"] == spent + 1


def api(client: TestClient, row: TableRow, token: str, **command: Any) -> Any:
    version = client.get(f"/api/tables/{row.id}", headers={"Authorization": f"Bearer {token}"})
    return client.post(
        f"/api/tables/{row.id}/commands",
        json={"expected_version": version.json()["version"], "command": command},
        headers={"Authorization": f"Bearer {token}"},
    )


def test_the_powers_through_the_api_and_what_players_see(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    tables = Tables(Store(db))
    row = tables.new("Ford", "mst2")
    for sheet, side, player in (
        ("spearman.toml", "levy", True),
        ("sellsword.toml", "blades", False),
        ("goblin.toml", "blades", False),
    ):
        tables.run(
            row, tables.joining(row, str(EXAMPLES / "mst2" / sheet), side=side, player=player)
        )
    tables.run(row, Set("Sellsword", {"wounds": 2}))
    tables.store.close()
    gm, player = row.gm_token, row.player_token
    with TestClient(create_app(db)) as client:
        assert api(client, row, gm, verb="hide", who="Goblin").status_code == 200
        assert (
            api(client, row, gm, verb="note", text="the goblin hides in the reeds").status_code
            == 200
        )
        assert (
            api(client, row, gm, verb="set", who="Spearman", values={"wounds": 1}).status_code
            == 200
        )
        refused = api(client, row, gm, verb="set", who="Spearman", values={"wounds": -1})
        assert refused.status_code == 422 and "wounds" in refused.json()["error"]
        assert (
            api(client, row, gm, verb="rename", who="Sellsword", name="Hired blade").status_code
            == 200
        )
        assert api(client, row, player, verb="remove", who="Spearman").status_code == 403
        seen = client.get(f"/api/tables/{row.id}?token={player}").json()
        assert [c["id"] for c in seen["combatants"]] == ["Spearman", "Hired blade"]
        spearman, blade = seen["combatants"]
        assert spearman["state"] == {"wounds": 1}
        assert blade["state"] == {"health": "hurt"}
        assert seen["notes"] == [] and all(c["source"] == "" for c in seen["combatants"])
        assert "Goblin" not in str(seen) and player not in str(seen) and gm not in str(seen)
        board = client.get(f"/p/{row.id}/board?token={player}").text
        assert "Goblin" not in board and "reeds" not in board
        full = client.get(f"/api/tables/{row.id}?token={gm}").json()
        assert [c["id"] for c in full["combatants"]] == ["Spearman", "Hired blade", "Goblin"]
        assert api(client, row, gm, verb="reveal", who="Goblin").status_code == 200
        assert api(client, row, gm, verb="remove", who="Goblin").status_code == 200
        assert api(client, row, gm, verb="undo").status_code == 200
        assert "Goblin" in str(client.get(f"/api/tables/{row.id}?token={player}").json())


def test_the_commands_are_values_that_replay(tmp_path: Path) -> None:
    """Every power is logged as a command and folds back from the log."""
    tables = Tables(Store(tmp_path / "t.db"))
    row = tables.new("Ford", "mst2")
    for sheet, side in (("spearman.toml", "levy"), ("sellsword.toml", "blades")):
        tables.run(row, tables.joining(row, str(EXAMPLES / "mst2" / sheet), side=side))
    tables.run(row, Start())
    for command in (
        Set("Spearman", {"wounds": 3}),
        Hide("Sellsword"),
        Reveal("Sellsword"),
        Rename("Spearman", "Levy spear"),
        Move("Sellsword", before="Levy spear"),
        Remove("Sellsword"),
    ):
        tables.run(row, command)
    live = tables.fold(row).state
    assert Tables(Store(tmp_path / "t.db")).fold(row).state == live
    assert [c.id for c in live.encounter.combatants] == ["Levy spear"]


def test_health_words_read_right_for_midian(tmp_path: Path) -> None:
    from affray.table.view import health_word

    tables = Tables(Store(tmp_path / "t.db"))
    row = tables.new("Inn", "midian")
    tables.run(row, tables.joining(row, str(EXAMPLES / "midian" / "guard.toml"), side="watch"))
    words = []
    for values in (
        {"hit_points": 20},
        {"hit_points": 12},
        {"hit_points": 10},
        {"hit_points": 20, "life_points": 9},
        {"condition": "unconscious"},
    ):
        tables.run(row, Set("Guard", values))
        words.append(health_word(tables.fold(row), "Guard"))
    # the guard has 20 hit points and 10 life points
    assert words == ["unhurt", "hurt", "bloodied", "bloodied", "down"]


def test_the_players_see_only_the_conditions_meant_for_them(tmp_path: Path) -> None:
    from affray.table import Mark
    from affray.table.projection import player_data

    tables = Tables(Store(tmp_path / "t.db"))
    row = tables.new("Ford", "mst2")
    for sheet, side, player in (
        ("spearman.toml", "levy", True),
        ("sellsword.toml", "blades", False),
    ):
        tables.run(
            row, tables.joining(row, str(EXAMPLES / "mst2" / sheet), side=side, player=player)
        )
    tables.run(row, Mark("Sellsword", "cursed"))
    tables.run(row, Mark("Sellsword", "on fire", public=True))
    tables.run(row, Mark("Spearman", "blessed"))
    seen = {
        c["id"]: [k["text"] for k in c["conditions"]]
        for c in player_data(row, tables.fold(row))["combatants"]
    }
    assert seen == {"Spearman": ["blessed"], "Sellsword": ["on fire"]}


def test_removing_a_holder_or_the_held_leaves_no_trace_in_the_others(tmp_path: Path) -> None:
    """A Midian hold names both sides of it: removing either lets the other go, and the
    fight goes on (the rest of the round, its end, the next rounds) without them."""
    from affray.table import Act, Run

    for removed in ("Brawler", "Guard"):
        tables = Tables(Store(tmp_path / f"{removed}.db"))
        row = tables.new("Inn", "midian")
        for sheet, side in (
            ("guard.toml", "watch"),
            ("guard.toml", "watch"),
            ("brawler.toml", "rowdies"),
            ("brawler.toml", "rowdies"),
        ):
            tables.run(row, tables.joining(row, str(EXAMPLES / "midian" / sheet), side=side))
        held = False
        for seed in range(60):
            state = tables.run(row, Start(), rolls=(1, 1, 10, 10), choices=["stance=normal"]).state
            assert state.current == "Brawler"
            state = tables.run(row, Act("Brawler", "grapple", "Guard"), seed=seed).state
            held = state.encounter.states["Brawler"].holding == "Guard"
            if held:
                break
            tables.undo(row, 2)
        assert held, "no seed of 60 made a hold"
        tables.run(row, Remove(removed))
        left = next(n for n in ("Brawler", "Guard") if n != removed)
        mine = tables.fold(row).state.encounter.states[left]
        assert mine.holding is None and removed not in mine.held_by
        done = tables.run(row, Run(to_end=True), seed=1)
        assert done.events[-1].kind == "encounter_ended"
        assert Tables(Store(tmp_path / f"{removed}.db")).fold(row).state == tables.fold(row).state


def test_a_players_link_follows_its_combatant(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "t.db"))
    row = tables.new("Inn", "midian")
    for sheet, side in (("guard.toml", "watch"), ("brawler.toml", "rowdies")):
        tables.run(row, tables.joining(row, str(EXAMPLES / "midian" / sheet), side=side))
    _, token = tables.link(row, "Guard")
    tables.run(row, Rename("Guard", "Gus"))
    tables.run(row, Rename("Brawler", "Guard"))
    assert tables.linked(token) == (row.id, "Gus")  # the combatant, not the name
    tables.undo(row, 2)
    assert tables.linked(token) == (row.id, "Guard")
    tables.run(row, Remove("Guard"))
    assert tables.linked(token) == (row.id, None)  # gone: the link answers nothing
    assert tables.linked_ids(row) == []


def test_a_link_is_never_given_to_a_newcomer(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "t.db"))
    row = tables.new("Ford", "mst2")
    for sheet in ("spearman.toml", "sellsword.toml"):
        tables.run(row, tables.joining(row, str(EXAMPLES / "mst2" / sheet), side=sheet))
    _, token = tables.link(row, "Sellsword")
    tables.run(row, Remove("Sellsword"))
    tables.run(row, tables.joining(row, str(EXAMPLES / "mst2" / "sellsword.toml"), side="b"))
    assert tables.linked(token) == (row.id, None)


def test_a_turn_put_off_counts_its_start_once(tmp_path: Path) -> None:
    from affray.table import Edge, Mark

    tables = Tables(Store(tmp_path / "t.db"))
    row = tables.new("Three", "mst2")
    for side in ("a", "b", "c"):
        tables.run(
            row,
            tables.joining(
                row, str(EXAMPLES / "mst2" / "knight.json"), side=side, name=side.upper()
            ),
        )
    tables.run(row, Start())
    tables.run(row, Mark("A", "dazed", Edge.START, "B", 2))
    tables.run(row, Next())  # B's turn starts: dazed counts 1 of 2
    tables.run(row, Move("B", after="C"))  # put off: its start is not counted again
    state = tables.run(row, Next()).state  # C passes: B's turn comes again
    assert state.current == "B"
    assert [c.text for c in state.conditions] == ["dazed"]
