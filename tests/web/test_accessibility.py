"""Pages anyone at the table can use: every page passes axe-core (the accessibility
engine, in Chromium) with no serious or critical violation, on a laptop and on a
phone; a whole turn is played on the game master's page by keyboard alone; a die is
written so that a screen reader says it well."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, ViewportSize, expect

from affray.table import Store
from tests.helpers import terminal
from tests.web.conftest import Server
from tests.web.test_browser import browser  # noqa: F401  (the fixture)

pytestmark = pytest.mark.slow
SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
GRAVE = ("serious", "critical")


def size_of(name: str) -> ViewportSize:
    width, height = SIZES[name]
    return {"width": width, "height": height}


@pytest.fixture(scope="module")
def axe() -> Axe:
    return Axe()


def grave(found: Any) -> list[str]:
    """Each serious or critical violation, as a line that says what and where."""
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(str(node["target"]) for node in v["nodes"][:5])
        for v in found.response["violations"]
        if v["impact"] in GRAVE
    ]


def pages(server: Server) -> Iterator[tuple[str, str]]:
    """Every page of an evening, each at a moment that shows most of it: the home
    page; the game master's page in mid-turn with a question waiting; the players'
    page; a player's own link on its turn, and with a die to type."""
    setup = server.setup
    db = setup.db
    with Store(db) as store:
        key = store.home_key()
    terminal(db, "table", "allow", "ford", "players_choose=on", "players_odds=on")
    terminal(db, "table", "mark", "ford", "Sellsword", "prone", "--public")
    terminal(db, "table", "start", "ford")
    spear = terminal(db, "table", "link", "ford", "Spearman")["token"]
    yield "home", f"/?key={key}"
    yield "own turn", f"/p/ford?token={spear}"
    yield "players", f"/p/ford?token={setup.ford.player_token}"
    terminal(db, "table", "start", "inn-brawl", "--rolls", "3,10", "--choose", "stance=normal")
    yield "game master", f"/t/{setup.inn.id}?token={setup.inn.gm_token}"


@pytest.mark.parametrize("size", sorted(SIZES))
def test_every_page_passes_axe_core(
    browser: Browser,  # noqa: F811
    server: Server,
    axe: Axe,
    size: str,
) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        for name, path in pages(server):
            page = context.new_page()
            page.goto(server.url + path)
            page.wait_for_load_state("networkidle")
            found = grave(axe.run(page))
            assert not found, f"{name} page at {size} size:\n" + "\n".join(found)
            page.close()
    finally:
        context.close()


def tab_to(page: Page, selector: str, presses: int = 200) -> None:
    """Tab (only the Tab key) until the element ``selector`` has the focus."""
    target = page.locator(selector).first
    expect(target).to_be_visible()
    for _ in range(presses):
        if target.evaluate("node => node === document.activeElement"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} cannot be reached by Tab")


def test_a_whole_turn_by_keyboard_alone(
    browser: Browser,  # noqa: F811
    server: Server,
) -> None:
    """The game master starts the fight, the spearman attacks, the dice are typed (and
    any question answered), and the turn is undone, all by Tab, Enter and digits."""
    row = server.setup.ford
    page = browser.new_page(viewport=size_of("laptop"))
    page.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
    tab_to(page, "#start")
    page.keyboard.press("Enter")
    attack = '#panel button[data-label="attack Sellsword"]'
    tab_to(page, attack)
    page.keyboard.press("Enter")
    expect(page.locator("#pending")).to_be_visible()  # its d20 first (no circumstance asked)
    for _ in range(20):  # each die and question takes the focus as it is asked
        pending = page.locator("#pending")
        if not pending.count():
            break
        step = pending.get_attribute("data-step")
        face = page.locator("#pending input.face")
        if face.count():
            expect(face).to_be_focused()
            sides = int(face.get_attribute("max") or 6)
            page.keyboard.type(str(min(sides, 15)))
        else:
            expect(page.locator("#pending button.choice").first).to_be_focused()
        page.keyboard.press("Enter")
        page.wait_for_function(  # the next step, or nothing more to ask
            "step => { const p = document.querySelector('#pending');"
            " return !p || p.dataset.step !== step; }",
            arg=step,
        )
    expect(page.locator("#pending")).to_have_count(0)
    expect(page.locator("#last")).to_contain_text("Spearman attacks Sellsword")
    expect(page.locator("#announce")).to_contain_text("Spearman attacks Sellsword")
    tab_to(page, "#undo")
    page.keyboard.press("Enter")
    expect(page.locator("#panel h2")).to_contain_text("Spearman's turn")
    page.close()


def test_a_die_is_said_in_words(
    browser: Browser,  # noqa: F811
    server: Server,
) -> None:
    db = server.setup.db
    terminal(db, "table", "allow", "ford", "players_choose=on")
    terminal(db, "table", "start", "ford")
    spear = terminal(db, "table", "link", "ford", "Spearman")["token"]
    phone = browser.new_page(viewport=size_of("phone"))
    phone.goto(f"{server.url}/p/ford?token={spear}")
    phone.locator("#own-actions button", has_text="attack").click()
    face = phone.locator("#answer input.face")
    expect(face).to_be_focused()
    assert "20-sided die" in phone.locator("#answer label").evaluate(
        "node => node.querySelector('abbr').getAttribute('aria-label')"
    )
    gm = browser.new_page(viewport=size_of("laptop"))
    gm.goto(f"{server.url}/t/ford?token={server.setup.ford.gm_token}")
    expect(gm.locator("#pending abbr")).to_have_attribute("aria-label", "20-sided die")
    for page in (phone, gm):
        page.close()
