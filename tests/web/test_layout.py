"""The game master's page fits the screens people use: at 1024, 1280, 1366 and 1920 px
wide and on a phone (390×844), for both systems' boards, nothing overflows the board
(``scrollWidth <= clientWidth``) nor the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.helpers import terminal
from tests.web.conftest import Server
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
