"""A game master's evening from the browser alone (issue 36, item 1): a party made and
filled on the home page, brought onto a table from the game master's page, a fight,
the table ended (its wounds written back, and the home page says so), and the party
rested, with no terminal. Screenshots at laptop and phone sizes when
AFFRAY_SCREENSHOTS names a folder."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from affray.table import Store
from tests.web.conftest import Server, shots
from tests.web.test_browser import browser  # noqa: F401  (the fixture)

pytestmark = pytest.mark.slow


def test_a_party_from_the_home_page_to_a_table_and_back(
    browser: Browser,  # noqa: F811
    server: Server,
) -> None:
    with Store(server.setup.db) as store:
        key = store.home_key()
    home = browser.new_page(viewport={"width": 1280, "height": 800})
    home.goto(f"{server.url}/?key={key}")
    # the party, and two members from the bestiary
    home.fill("#party-name", "The Company")
    home.locator("#new-party select[name=system]").select_option("mst2")
    home.click("#party-button")
    party = home.locator(".party", has_text="The Company")
    expect(party).to_be_visible()
    expect(home.locator("#message")).to_have_class("done")  # not red: it was done
    for creature, name in (("goblin", "Brenna"), ("ogre", "Grub")):
        party.locator("select[name=sheet]").select_option(creature)
        party.locator("input[name=as]").fill(name)
        party.locator("button", has_text="Add").click()
        expect(party).to_contain_text(name)
    # a table for the fight, made twice by a quick double press: one table
    home.fill("#new-name", "Bridge fight")
    home.click("#new-button")
    expect(home.locator("#tables")).to_contain_text("Bridge fight")
    home.click("#new-button")
    expect(home.locator("#message")).to_have_class("message")  # refused: it is there
    assert home.locator("tr[data-table]", has_text="Bridge fight").count() == 1
    row = home.locator("tr[data-table]", has_text="Bridge fight")
    expect(row.locator("code.table-id")).to_have_text("bridge-fight")
    gm_url = row.locator("a.gm-link").get_attribute("href")
    shots(home, "evening-home")
    # the game master brings the party, and a foe
    gm = browser.new_page(viewport={"width": 1280, "height": 800})
    gm.goto(server.url + str(gm_url))
    gm.locator("#add-sheet").select_option(label="The Company (every member)")
    gm.click("#add-button")
    expect(gm.locator("#board")).to_contain_text("Brenna")
    expect(gm.locator("#board")).to_contain_text("Grub")
    gm.locator("#add-sheet").select_option("sellsword")
    gm.click("#add-button")
    expect(gm.locator("#board")).to_contain_text("Sellsword")
    # Brenna is hurt (the game master's fiat)
    gm.locator('details[data-menu="Brenna"] summary').click()
    gm.locator('details[data-menu="Brenna"] input[name=pairs]').fill("wounds=2")
    gm.locator('details[data-menu="Brenna"] form.power', has_text="Set").locator("button").click()
    expect(gm.locator('tr[data-id="Brenna"] [data-key="wounds"]')).to_have_text("2")
    # the home page ends the table: the wounds go back to the party
    home.reload()
    row = home.locator("tr[data-table]", has_text="Bridge fight")
    row.locator("button", has_text="End: write back to The Company").click()
    row = home.locator("tr[data-table]", has_text="Bridge fight")
    expect(row.locator(".written")).to_contain_text("written back to The Company")
    party = home.locator(".party", has_text="The Company")
    expect(party).to_contain_text("wounds 2")
    # a night's rest, then its undo
    party.locator("button", has_text="Rest").click()
    expect(home.locator("#message")).to_have_class("done")
    party.locator("button", has_text="Undo its last change").click()
    expect(home.locator(".party", has_text="The Company")).to_contain_text("wounds 2")
    shots(home, "evening-home-after")
    for page in (home, gm):
        page.close()


def test_the_quick_hands_of_a_tracker(
    browser: Browser,  # noqa: F811
    server: Server,
) -> None:
    """Issue 36, item 5: − and + beside wounds (MST-2) and hit points (Midian); three
    goblins at once (Goblin 1, 2, 3, on one side); each combatant's stat block in its
    menu; a free dice roller that logs nothing."""
    row = server.setup.ford
    gm = browser.new_page(viewport={"width": 1280, "height": 800})
    gm.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
    wounds = gm.locator('tr[data-id="Spearman"] td[data-cell="wounds"]')
    expect(wounds.locator(".value")).to_have_text("0")
    wounds.locator("button", has_text="+").click()
    expect(wounds.locator(".value")).to_have_text("1")
    wounds.locator("button", has_text="+").click()
    expect(wounds.locator(".value")).to_have_text("2")
    wounds.locator("button", has_text="−").click()
    expect(wounds.locator(".value")).to_have_text("1")
    # three goblins at once
    gm.locator("#add-sheet").select_option("goblin")
    gm.fill("#add-count", "3")
    gm.click("#add-button")
    for n in (1, 2, 3):
        expect(gm.locator(f'tr[data-id="Goblin {n}"]')).to_be_visible()
    assert gm.locator('tr[data-id="Goblin 2"] [data-label="side"]').inner_text() == "Goblin"
    # a stat block in the menu
    gm.locator('details[data-menu="Spearman"] summary').click()
    block = gm.locator('details[data-menu="Spearman"] dl.stat-block')
    expect(block).to_contain_text("evasion")
    expect(block).to_contain_text("spear, one-handed 2d8")
    # the dice roller: a total, and the table does not change
    version = gm.locator("#board .status").get_attribute("data-version")
    gm.fill("#roller-expression", "3d6+2")
    gm.click("#roller-button")
    expect(gm.locator("#rolled .total")).to_be_visible()
    total = int(gm.locator("#rolled .total").inner_text())
    assert 5 <= total <= 20
    gm.fill("#roller-expression", "3d")
    gm.click("#roller-button")
    expect(gm.locator("#rolled .message")).to_be_visible()
    assert gm.locator("#board .status").get_attribute("data-version") == version
    shots(gm, "evening-quick-hands")
    # Midian: hit points step too
    inn = server.setup.inn
    gm.goto(f"{server.url}/t/{inn.id}?token={inn.gm_token}")
    points = gm.locator('tr[data-id="Guard"] td[data-cell="hit_points"]')
    before = int(points.locator(".value").inner_text())
    points.locator("button", has_text="−").click()
    expect(points.locator(".value")).to_have_text(str(before - 1))
    gm.close()
