"""A phone's words match the moment (issue 50, items 4 and 5): it says what its own
dice did ("Your d20 18: … → hit."), that its action waits on the game master (not
"your turn") while the game master's die is asked, and a refusal stays in view when a
live update comes, until the table changes again."""

from __future__ import annotations

import html
import re

import pytest
from playwright.sync_api import Browser, expect
from starlette.testclient import TestClient

from affray.table import Store, Tables
from tests.helpers import terminal
from tests.web.conftest import Server, Setup, shots
from tests.web.test_browser import browser  # noqa: F401  (the fixture)
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


@pytest.mark.slow
def test_a_phones_words_in_chromium(browser: Browser, server: Server) -> None:  # noqa: F811
    """The spearman's phone (390×844) attacks and types its own dice; it says what
    each did and, when the sellsword's shock die is the game master's, that it waits
    for it; the game master's page (1280×800) shows each face with who gave it and
    what it did; a late face typed on the phone is refused and stays in view while
    live updates come."""
    db = server.setup.db
    row = server.setup.ford
    terminal(db, "table", "start", "ford")
    terminal(db, "table", "allow", "ford", "players_choose=on")
    spear = terminal(db, "table", "link", "ford", "Spearman")["token"]
    gm = browser.new_page(viewport={"width": 1280, "height": 800})
    gm.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(f"{server.url}/p/{row.id}?token={spear}")
    phone.locator("#own-actions button", has_text="attack").first.click()
    for face, asked in (("18", "attack on Sellsword"), ("8", "power die 1"), ("8", "power die 2")):
        expect(phone.locator("#answer label")).to_contain_text(asked)  # the die asked now
        phone.fill("#answer input.face", face)
        phone.click("#my-enter")
    expect(phone.locator("#mine-did")).to_contain_text("Your d20 18: Spearman attacks Sellsword")
    expect(phone.locator("#mine-did")).to_contain_text("Your d8 8, d8 8: power 2d8 [8,8]")
    expect(phone.locator("#waits-on")).to_have_text(
        "Waiting for the game master: Sellsword's shock check, hit die 1 (a d10)."
    )
    expect(phone.locator("#nothing-asked")).to_have_count(0)
    told = gm.locator("#faces-told li")
    expect(told).to_have_count(3)
    expect(told.nth(0)).to_contain_text("typed by a player: Spearman attacks Sellsword")
    expect(gm.locator("#faces-told li").nth(1)).to_contain_text("power 2d8 [8,8]")
    shots(phone, "phone-words-waiting")
    shots(gm, "phone-words-gm-panel")
    gm.fill("#pending input.face", "9")
    gm.click("#enter-face")
    expect(gm.locator("#pending label")).to_contain_text("hit die 2")
    gm.fill("#pending input.face", "9")
    gm.click("#enter-face")
    latest = gm.locator("#dice-log ol.dice > li").first.locator(".face")
    expect(latest.last).to_contain_text("shock 2d10+1 [9,9]")
    expect(phone.locator("#waits-on")).to_have_count(0)
    expect(phone.locator("#mine-did")).to_contain_text("Your d20 18")
    shots(phone, "phone-words-done")
    gm.close()
    phone.close()
