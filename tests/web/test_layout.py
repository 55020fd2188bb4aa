"""The game master's page fits the screens people use: at 1024, 1280, 1366 and 1920 px
wide and on a phone (390×844), for both systems' boards, nothing overflows the board
(``scrollWidth <= clientWidth``) nor the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers import terminal
from tests.web.conftest import Server, shots
from tests.web.test_browser import browser  # noqa: F401  (the fixture)

pytestmark = pytest.mark.slow
SIZES = [(1024, 768), (1280, 800), (1366, 768), (1920, 1080), (390, 844)]


@pytest.mark.parametrize("table", ["ford", "inn"])
def test_the_board_fits_every_screen(browser: Browser, server: Server, table: str) -> None:  # noqa: F811
    row = server.setup.ford if table == "ford" else server.setup.inn
    terminal(server.setup.db, "table", "start", row.id, "--seed", "1")  # every column filled
    for width, height in SIZES:
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
        expect(page.locator("#board table.board")).to_be_visible()
        expect(page.locator("#panel .panel")).to_be_visible()
        sizes = page.evaluate(
            """() => {
                const board = document.querySelector('#board');
                return [board.scrollWidth, board.clientWidth,
                        document.documentElement.scrollWidth, window.innerWidth];
            }"""
        )
        board_scroll, board_client, page_scroll, page_width = sizes
        assert board_scroll <= board_client, (width, sizes)
        assert page_scroll <= page_width, (width, sizes)
        page.close()


def _on_screen(page: Page, selector: str) -> None:
    """Every element ``selector`` finds is wholly inside the window, unscrolled."""
    boxes = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].map(e => {
            const r = e.getBoundingClientRect();
            return [r.top, r.bottom, r.left, r.right, window.innerHeight, window.innerWidth];
        })""",
        selector,
    )
    assert boxes, selector
    for top, bottom, left, right, height, width in boxes:
        assert top >= 0 and bottom <= height and left >= 0 and right <= width, (selector, boxes)


def test_the_turn_on_one_screen_with_eight_combatants(browser: Browser, server: Server) -> None:  # noqa: F811
    """Issue 36, item 2: at 1280×800 with eight combatants, the actions of whoever's
    turn it is and what the last action did are on the screen without scrolling; and
    while a die is asked, the question and the last outcome are."""
    db, row = server.setup.db, server.setup.ford
    terminal(db, "table", "add", "ford", "goblin", "--side", "levy", "--count", "6")
    terminal(db, "table", "start", "ford", "--seed", "3")
    terminal(db, "table", "run", "ford", "--turns", "1", "--seed", "3")  # an outcome
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
    expect(page.locator("#board tr[data-id]")).to_have_count(8)
    expect(page.locator("#last")).to_be_visible()
    actions = page.locator("#panel button[data-label]")
    assert actions.count() >= 7  # an attack on each foe, and more
    expect(page.locator("#panel .tag.best")).to_have_count(1, timeout=30_000)  # the odds
    shots(page, "turn-eight")
    _on_screen(page, "#panel button[data-label]")
    _on_screen(page, "#last")
    actions.first.click()  # its die is asked
    expect(page.locator("#pending input.face")).to_be_visible()
    page.locator("#pending input.face").fill("12")
    page.click("#enter-face")  # a hit or a miss, told as the next die is asked
    expect(page.locator("#faces-did li").first).to_be_visible()
    shots(page, "turn-eight-question")
    _on_screen(page, "#pending")
    _on_screen(page, "#last")
    page.close()
