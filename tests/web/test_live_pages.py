"""The pages' live updates, in Chromium, against a real server with a real terminal
beside it: one message per change carries every part of the page it touches (no
page asks again for a part), each morphed into place, so what is typed, what has
focus and a menu left open survive another process's change; the screen reader hears
each change; a question takes the focus when it appears; and this round's order is
moved by its arrows and by the keyboard.

Set AFFRAY_SCREENSHOTS=DIR to keep screenshots at laptop and phone sizes.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers import SLOWDOWN, terminal
from tests.web.conftest import Server, shots
from tests.web.test_browser import browser  # noqa: F401  (the fixture)

pytestmark = pytest.mark.slow
LIVE_MS = 1000 * SLOWDOWN


@pytest.fixture
def pages(browser: Browser, server: Server) -> Iterator[tuple[Page, Page, list[str]]]:  # noqa: F811
    """The game master's page (1280×800) and the player page (390×844) of the ford,
    and every request the game master's page makes."""
    row = server.setup.ford
    gm = browser.new_page(viewport={"width": 1280, "height": 800})
    asked: list[str] = []
    gm.on("request", lambda request: asked.append(f"{request.method} {request.url}"))
    gm.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(f"{server.url}/p/{row.id}?token={row.player_token}")
    expect(gm.locator("#panel .panel")).to_be_visible()
    yield gm, phone, asked
    gm.close()
    phone.close()


def version_shown(page: Page, version: int) -> None:
    expect(page.locator(f'#board .status[data-version="{version}"]')).to_have_count(
        1, timeout=LIVE_MS
    )


def test_a_terminal_change_reaches_both_pages_in_one_message_each(
    pages: tuple[Page, Page, list[str]], server: Server
) -> None:
    gm, phone, asked = pages
    asked.clear()
    terminal(server.setup.db, "table", "note", "ford", "the river is rising")
    version_shown(gm, 3)
    version_shown(phone, 3)
    expect(gm.locator("#log")).to_contain_text("the river is rising")
    expect(gm.locator("#last")).to_contain_text("Note: the river is rising")
    expect(gm.locator("#announce")).to_have_text("Note: the river is rising")
    assert [a for a in asked if "/part/" in a or a.startswith("POST")] == []  # no GET of a part
    terminal(server.setup.db, "table", "start", "ford", "--seed", "1")
    version_shown(phone, 4)
    expect(phone.locator("#announce")).to_contain_text("Round 1")
    expect(phone.locator("turn-order li")).to_have_count(2)


def test_typing_focus_and_an_open_menu_survive_another_process_change(
    pages: tuple[Page, Page, list[str]], server: Server
) -> None:
    gm, _, _ = pages
    gm.locator('tr[data-id="Sellsword"] details.gm-menu summary').click()
    menu = gm.locator('tr[data-id="Sellsword"] details.gm-menu')
    expect(menu).to_have_attribute("open", "")
    gm.fill("#note-text", "half a thought")
    gm.locator("#note-text").focus()
    terminal(server.setup.db, "table", "set", "ford", "Sellsword", "wounds=2")
    version_shown(gm, 3)
    expect(gm.locator('tr[data-id="Sellsword"] [data-key="wounds"]')).to_have_text("2")
    expect(gm.locator("#note-text")).to_have_value("half a thought")
    assert gm.evaluate("document.activeElement.id") == "note-text"
    expect(menu).to_have_attribute("open", "")
    shots(gm, "gm-live")


def test_a_question_takes_the_focus_and_the_order_moves_by_arrow_and_by_key(
    pages: tuple[Page, Page, list[str]], server: Server
) -> None:
    gm, phone, _ = pages
    gm.click("#start")  # MST-2: the listed order
    version_shown(gm, 3)
    order = gm.locator("turn-order li")
    expect(order).to_have_text(["Spearman ↓", "Sellsword ↑"])
    gm.locator('turn-order li[data-id="Sellsword"] button').click()  # ↑: before the Spearman
    version_shown(gm, 4)
    expect(order.first).to_contain_text("Sellsword")
    expect(phone.locator("turn-order li").first).to_contain_text("Sellsword", timeout=LIVE_MS)
    shots(gm, "order-moved")
    gm.locator('turn-order li[data-id="Spearman"]').focus()
    gm.keyboard.press("Alt+ArrowUp")  # and back, by the keyboard
    version_shown(gm, 5)
    expect(order.first).to_contain_text("Spearman")
    gm.locator('button[data-label="attack Sellsword"]').click()
    question = gm.locator("#pending")
    expect(question).to_be_visible()
    focused = gm.evaluate("document.activeElement.className + ' ' + document.activeElement.tagName")
    assert "face" in focused or "choice" in focused, focused
    shots(gm, "gm-question")
    shots(phone, "player-live")


def test_the_odds_of_the_fight_come_and_stay_under_live_updates(
    browser: Browser,  # noqa: F811
    server: Server,
) -> None:
    """The odds of the fight are worked out away from the page, which asks for them
    until they come: a live update that comes meanwhile (the page's first, or another
    process's change) never leaves the page waiting on them for good."""
    db = server.setup.db
    row = server.setup.ford
    terminal(db, "table", "add", "ford", "goblin", "--side", "blades")
    terminal(db, "table", "start", "ford")
    gm = browser.new_page(viewport={"width": 1280, "height": 800})
    gm.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
    expect(gm.locator("#odds .fight-odds .bar").first).to_be_visible(timeout=30_000)
    expect(gm.locator("#win-1")).to_contain_text("%")
    # the best move is marked, once; each chance says how it was found
    expect(gm.locator("#panel .tag.best")).to_have_count(1)
    expect(gm.locator("#why")).to_contain_text("Best: ")  # and why, in one line
    texts = gm.locator("#panel small.win").all_inner_texts()
    assert all("exact" in t or "±" in t for t in texts), texts
    terminal(db, "table", "note", "ford", "the river rises")  # a change from elsewhere
    expect(gm.locator("#log")).to_contain_text("the river rises", timeout=LIVE_MS)
    expect(gm.locator("#odds .fight-odds .bar").first).to_be_visible(timeout=30_000)
    expect(gm.locator("#win-1")).to_contain_text("%", timeout=30_000)
    gm.close()


def test_a_second_game_master_window_never_drops_what_the_first_began(
    browser: Browser,  # noqa: F811
    server: Server,
) -> None:
    """Issue 36, item 7: a laptop and a tablet on one table. The laptop begins the
    spearman's attack (its d20 waits); the tablet, which has not heard of it yet,
    clicks another action: refused, nothing applied, the waiting attack kept, and the
    tablet shows it. An undo in one window shows in the other."""
    db = server.setup.db
    row = server.setup.ford
    terminal(db, "table", "start", "ford")
    laptop = browser.new_page(viewport={"width": 1280, "height": 800})
    laptop.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
    tablet = browser.new_page(viewport={"width": 1024, "height": 768})
    tablet.route("**/live?*", lambda route: route.abort())  # it hears of nothing
    tablet.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
    laptop.locator('#panel button[data-label="attack Sellsword"]').click()
    expect(laptop.locator("#pending input.face")).to_be_visible()
    question = laptop.locator("#panel .panel").get_attribute("data-question")
    assert question
    tablet.locator('#panel button[data-label="hold"]').click()
    expect(tablet.locator("#message")).to_contain_text("another window began")
    expect(tablet.locator("#pending input.face")).to_be_visible()  # it shows what waits
    shots(tablet, "two-windows")
    with urllib.request.urlopen(f"{server.url}/api/tables/ford?token={row.gm_token}") as got:
        shown = json.load(got)
    assert shown["pending"]["question"] == question and shown["version"] == 3
    # the tablet answers it (it shows it now); the laptop hears of it
    tablet.fill("#pending input.face", "2")
    tablet.click("#enter-face")
    expect(laptop.locator("#pending")).to_have_count(0, timeout=LIVE_MS * 3)
    expect(laptop.locator("#last")).to_contain_text("Spearman attacks Sellsword")
    laptop.click("#undo")
    tablet.unroute("**/live?*")
    tablet.reload()
    expect(tablet.locator("#last")).to_contain_text("undone")
    for page in (laptop, tablet):
        page.close()


def test_a_hazard_from_the_menu_lands_on_both_pages(
    pages: tuple[Page, Page, list[str]], server: Server
) -> None:
    """Issue 41, item 7: the Hazard form of a combatant's menu (the system's hazards to
    pick) brings a fall on the spearman; both pages show its wounds."""
    gm, phone, _ = pages
    gm.locator('tr[data-id="Spearman"] details.gm-menu summary').click()
    menu = gm.locator('tr[data-id="Spearman"] details.gm-menu')
    form = menu.locator("form").filter(has=gm.locator('select[name="kind"]'))
    expect(form.locator('select[name="kind"] option')).to_have_text(
        ["fall", "poison", "burned", "on-fire"]
    )
    form.locator('select[name="kind"]').select_option("fall")
    form.locator('input[name="hazard_values"]').fill("feet=30")
    shots(gm, "gm-hazard")
    form.locator("button").click()
    # its shock die is asked (never rolled unasked), with what the fall did so far
    expect(gm.locator("#pending")).to_contain_text("shock")
    expect(gm.locator("#faces-did")).to_contain_text("Spearman suffers falling")
    shots(gm, "gm-hazard-die")
    gm.fill("#pending input.face", "9")
    gm.click("#enter-face")
    version_shown(gm, 3)
    expect(
        gm.locator(
            'tr[data-id="Spearman"] [data-key="wounds"], '
            'tr[data-id="Spearman"] [data-cell="wounds"] .value'
        )
    ).to_have_text("3")
    version_shown(phone, 3)
    expect(gm.locator("#log")).to_contain_text("falling")
