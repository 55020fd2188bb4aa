"""A hazard from the game master's board (issue 41, item 7): the combatant's menu offers
the system's hazards; one posted lands as one change, its dice rolled and marked, and
undo takes it back; the players' pages never offer it."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.helpers import terminal
from tests.web.conftest import Setup


def test_a_hazard_from_the_board_is_one_change_undone_by_undo(
    client: TestClient, setup: Setup
) -> None:
    db = setup.db
    gm = client.get(f"/t/ford?token={setup.ford.gm_token}").text
    assert "Setting up: start round 1 when everyone is here." in gm  # two sides are there
    assert 'name="kind"' in gm and '<option value="fall"' in gm and '<option value="poison"' in gm
    player = client.get(f"/p/ford?token={setup.ford.player_token}").text
    assert 'value="hazard"' not in player and '<option value="fall"' not in player
    before = terminal(db, "table", "show", "ford")
    wounds = {c["id"]: c["state"]["wounds"] for c in before["combatants"]}
    made = client.post(
        "/t/ford/do",
        data={
            "verb": "hazard",
            "who": "Spearman",
            "kind": "fall",
            "hazard_values": "feet=20",
            "expected_version": str(before["version"]),
        },
        headers={"Authorization": f"Bearer {setup.ford.gm_token}"},
    )
    assert made.status_code == 200, made.text
    # its die is asked, never rolled unasked: the fall's shock die waits (on the
    # Spearman's player), and what is known is told
    waiting = client.get(f"/api/tables/ford?token={setup.ford.gm_token}").json()
    assert waiting["version"] == before["version"]
    asked = waiting["pending"]
    assert asked["needs"]["die"]["sides"] == 10 and "shock" in asked["needs"]["die"]["purpose"]
    assert asked["who"] == "Spearman" and asked["did"][0].startswith("Spearman suffers falling")
    assert 'id="faces-did"' in made.text and "Spearman suffers falling" in made.text
    typed = client.post(
        "/t/ford/do",
        data={"verb": "answer", "face": "9", "expected_version": str(before["version"])},
        headers={"Authorization": f"Bearer {setup.ford.gm_token}"},
    )
    assert typed.status_code == 200, typed.text
    after = terminal(db, "table", "show", "ford")
    assert after["version"] == before["version"] + 1
    spear = next(c for c in after["combatants"] if c["id"] == "Spearman")
    assert spear["state"]["wounds"] == wounds["Spearman"] + 2
    logged = terminal(db, "table", "log", "ford")["changes"][-1]
    assert logged["verb"] == "hazard"
    assert [(f["face"], f["by"]) for f in logged["faces"]] == [(9, "gm")]
    refused = client.post(
        "/t/ford/do",
        data={
            "verb": "hazard",
            "who": "Spearman",
            "kind": "flood",
            "expected_version": str(after["version"]),
        },
        headers={"Authorization": f"Bearer {setup.ford.gm_token}"},
    )
    assert "no hazard called" in refused.text
    terminal(db, "table", "undo", "ford")
    back = terminal(db, "table", "show", "ford")
    assert {c["id"]: c["state"]["wounds"] for c in back["combatants"]} == wounds
