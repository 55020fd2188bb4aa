"""Two game master's windows in Chromium: a half-typed attack waiting in one survives the
other's quick key, a double click on + makes +2, and any other change from a window is
refused naming what waits (issue 49); the add form puts a combatant on the board hidden
(issue 48). Set AFFRAY_SCREENSHOTS=DIR to keep the pages at laptop and phone sizes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from affray.table import Store, Tables
from tests.web.conftest import Server, shots
from tests.web.test_browser import browser  # noqa: F401  (the fixture)

pytestmark = pytest.mark.slow


@pytest.fixture
def windows(browser: Browser, server: Server) -> Iterator[tuple[Page, Page]]:  # noqa: F811
    row = server.setup.ford
    pages = []
    for _ in range(2):
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
        expect(page.locator("#panel .panel")).to_be_visible()
        pages.append(page)
    yield pages[0], pages[1]
    for page in pages:
        page.close()


def wounds(page: Page, who: str) -> Locator:
    return page.locator(f'tr[data-id="{who}"] .value[data-key="wounds"]')


def test_a_waiting_attack_survives_the_other_windows_quick_keys(
    windows: tuple[Page, Page], server: Server
) -> None:
    first, second = windows
    first.click("#start")
    expect(first.locator("#turn")).to_have_text("Spearman")
    first.locator('button[data-label="attack Sellsword"]').click()
    expect(first.locator("#pending label")).to_contain_text("Spearman's attack on Sellsword")
    first.fill("#pending input.face", "1")  # half typed: not entered yet
    # the second window sees the attack waiting, and clicks + twice at once
    expect(second.locator("#pending label")).to_contain_text("Spearman's attack on Sellsword")
    plus = second.locator('tr[data-id="Sellsword"] [data-cell="wounds"] button', has_text="+")
    plus.dblclick()
    expect(wounds(second, "Sellsword")).to_have_text("2")
    expect(second.locator("#panel")).not_to_contain_text("The table changed")
    # the first window's question is still there, with what was typed in it
    expect(wounds(first, "Sellsword")).to_have_text("2")
    expect(first.locator("#pending label")).to_contain_text("Spearman's attack on Sellsword")
    expect(first.locator("#pending input.face")).to_have_value("1")
    shots(first, "one-door-waiting")
    # any other change from the second window is refused, naming what waits
    second.locator("#note-text").fill("the ford is slippery")
    second.click("#note-button")
    expect(second.locator("#panel")).to_contain_text("finish it or cancel it first")
    tables = Tables(Store(server.setup.db))
    assert tables.waiting(tables.table("ford")) is not None
    assert "the ford is slippery" not in str(tables.fold(tables.table("ford")).notes())
    # the first window enters its face: the attack goes on where it was
    first.fill("#pending input.face", "20")
    first.click("#enter-face")
    expect(first.locator("#pending label")).to_contain_text("power die")


def test_a_combatant_added_hidden_never_shows_on_the_players_page(
    windows: tuple[Page, Page],
    server: Server,
    browser: Browser,  # noqa: F811
) -> None:
    first, _ = windows
    row = server.setup.ford
    players = browser.new_page(viewport={"width": 390, "height": 844})
    players.goto(f"{server.url}/p/{row.id}?token={row.player_token}")
    first.select_option("#add-sheet", "goblin")
    first.fill("#add-name", "Lurker")
    first.check("#add-hidden")
    first.click("#add-button")
    expect(first.locator('tr[data-id="Lurker"]')).to_contain_text("hidden")
    shots(first, "one-door-add-hidden")
    expect(players.locator("#board")).to_contain_text("Sellsword")
    players.reload()
    expect(players.locator("#board")).to_contain_text("Sellsword")
    assert "Lurker" not in players.content()
    shots(players, "one-door-players")
    players.close()
