"""A phone's words match the moment (issue 50, items 4 and 5): it says what its own
dice did ("Your d20 18: … → hit."), that its action waits on the game master (not
"your turn") while the game master's die is asked, and a refusal stays in view when a
live update comes, until the table changes again."""

from __future__ import annotations

import html
import re

from starlette.testclient import TestClient

from affray.table import Store, Tables
from tests.web.conftest import Setup
from tests.web.test_own_turns import post


def text_of(page: str, id_: str) -> str | None:
    """The words of the element ``id_`` of a page, or None when it is not there."""
    found = re.search(rf'id="{id_}"[^>]*>(.*?)</p>', page, re.S)
    return None if found is None else " ".join(html.unescape(found.group(1)).split())


def spearmans_turn(client: TestClient, setup: Setup) -> str:
    """The spearman's turn, its player choosing: its link's token."""
    gm = setup.ford.gm_token
    assert post(client, "ford", gm, verb="start").status_code == 200
    assert (
        post(client, "ford", gm, verb="allow", values={"players_choose": True}).status_code == 200
    )
    return Tables(Store(setup.db)).link(setup.ford, "Spearman")[1]


def phone(client: TestClient, token: str, path: str = "", **form: str) -> str:
    """The phone's page (or its answer to a form posted to ``/p/ford/PATH``)."""
    if form:
        answered = client.post(f"/p/ford/{path}?token={token}", data=form)
        assert answered.status_code == 200, answered.text
        return answered.text
    return client.get(f"/p/ford?token={token}").text


def test_a_phone_says_what_its_own_dice_did_and_what_it_waits_on(
    client: TestClient, setup: Setup
) -> None:
    spear = spearmans_turn(client, setup)
    asked = phone(client, spear, "act", action="attack", target="Sellsword")
    assert "d20" in (text_of(asked, "answer") or asked)  # its own d20 is asked of it
    asked = phone(client, spear, "answer", face="18")
    hit = "Your d20 18: Spearman attacks Sellsword (spear): d20 18+2=20 vs evasion 11 → hit."
    assert text_of(asked, "mine-did") == hit
    phone(client, spear, "answer", face="8")
    waits = phone(client, spear, "answer", face="8")
    # its power dice did their part; the sellsword's shock die is the game master's
    told = text_of(waits, "mine-did")
    assert told is not None and told.startswith(hit + " Your d8 8, d8 8: power 2d8 [8,8]"), told
    assert text_of(waits, "waits-on") == (
        "Waiting for the game master: Sellsword's shock check, hit die 1 (a d10)."
    )
    assert "your turn" not in waits.lower() and 'id="nothing-asked"' not in waits
    assert 'data-signal=""' in waits  # the phone does not buzz "your turn" again
    # the game master types the shock dice: the phone still says what its dice did
    gm = setup.ford.gm_token
    assert post(client, "ford", gm, verb="answer", rolls=[9, 9]).status_code == 200
    after = phone(client, spear)
    assert (text_of(after, "mine-did") or "").startswith(hit)
    assert 'id="waits-on"' not in after


def test_a_refusal_stays_in_view_until_the_table_changes(client: TestClient, setup: Setup) -> None:
    spear = spearmans_turn(client, setup)
    phone(client, spear, "act", action="attack", target="Sellsword")
    refused = phone(client, spear, "answer", face="99")  # no d20 shows 99
    said = text_of(refused, "ask-message")
    assert said is not None and "99" in said
    # a live update (or a reload) draws the page again: the refusal is still there
    assert text_of(phone(client, spear), "ask-message") == said
    # the table moves on (the game master cancels what waits): that moment has passed
    assert post(client, "ford", setup.ford.gm_token, verb="cancel").status_code == 200
    assert text_of(phone(client, spear), "ask-message") is None


def test_a_defence_says_what_it_costs(client: TestClient, setup: Setup) -> None:
    """The guard's defence against the brawler's blow: the parry is one of the round's
    free ones, the dodge spends an action, taking it keeps both (Midian: "a defence
    that is not free spends the defender's next action")."""
    gm = setup.inn.gm_token
    headers = {"Authorization": f"Bearer {gm}"}
    started = client.post(
        f"/api/tables/{setup.inn.id}/commands",
        json={"expected_version": 2, "command": {"verb": "start", "seed": 1}},
        headers=headers,
    )
    assert started.status_code == 200, started.text
    assert client.get(f"/api/tables/{setup.inn.id}", headers=headers).json()["turn"] == "Brawler"
    blow = {"verb": "act", "actor": "Brawler", "action": "attack", "target": "Guard"}
    asked = client.post(
        f"/api/tables/{setup.inn.id}/commands",
        json={"expected_version": 3, "command": {**blow, "rolls": [16], "choose_missing": False}},
        headers=headers,
    )
    assert asked.status_code == 422, asked.text
    choice = asked.json()["needs"]["choice"]
    assert dict(zip(choice["options"], choice["explains"], strict=True)) == {
        "parry": "free: one of the round's free parries or blocks",
        "dodge": "spends an action (the next one this round)",
        "take it": "no defence: keeps the free parries and the actions",
    }
