"""The game master's note on a combatant (issue 36, item 5): beside it on the game
master's board and in `table show`; never on a player's page or through the players'
tokens."""

from __future__ import annotations

from starlette.testclient import TestClient

from affray.table import Store, Tables
from tests.helpers import terminal
from tests.web.conftest import Setup


def test_a_note_on_a_combatant_is_the_game_masters_alone(client: TestClient, setup: Setup) -> None:
    db = setup.db
    done = terminal(db, "table", "note", "ford", "owes the ferryman", "--about", "sellsword")
    assert done["lines"] == ["Note on Sellsword: owes the ferryman"]  # by its id
    shown = terminal(db, "table", "show", "ford")
    notes = {c["id"]: c["notes"] for c in shown["combatants"]}
    assert notes == {"Spearman": [], "Sellsword": ["owes the ferryman"]}
    assert shown["notes"] == ["Sellsword: owes the ferryman"]
    gm = client.get(f"/t/ford?token={setup.ford.gm_token}").text
    assert "owes the ferryman" in gm and 'class="gm-note"' in gm
    spear = Tables(Store(db)).link(setup.ford, "Spearman")[1]
    for token in (setup.ford.player_token, spear):
        assert "ferryman" not in client.get(f"/p/ford?token={token}").text
        seen = client.get(f"/api/tables/ford?token={token}").json()
        assert "ferryman" not in str(seen)
    # from the board's menu
    made = client.post(
        "/t/ford/do",
        data={"verb": "note", "about": "Spearman", "text": "limps", "expected_version": "3"},
        headers={"Authorization": f"Bearer {setup.ford.gm_token}"},
    )
    assert made.status_code == 200 and "limps" in made.text
    assert terminal(db, "table", "show", "ford")["combatants"][0]["notes"] == ["limps"]
