"""The turn-order strip agrees with the board (issue 50, item 6): with a combatant out
of the fight whose turn is still to come, the strip marks the current turn current and
the out one passed over, and no move arrows show on the out one."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect
from starlette.testclient import TestClient

from affray.table import Store, Tables
from affray.table.commands import Act, Set, Start
from tests.helpers import EXAMPLES
from tests.web.conftest import Server, Setup, shots
from tests.web.test_browser import browser  # noqa: F401  (the fixture)


def an_ogre_out_still_to_come(setup: Setup) -> None:
    """Spearman's turn, then Sellsword's, then the Ogre's: the Ogre put out by fiat."""
    tables = Tables(Store(setup.db))
    row = setup.ford
    tables.run(row, tables.joining(row, str(EXAMPLES / "mst2" / "ogre.toml"), side="blades"))
    tables.run(row, Start(), seed=3)
    assert tables.fold(row).state.encounter.queue == ("Sellsword", "Ogre")
    tables.run(row, Set("Ogre", {"condition": "out"}))
    tables.store.close()


def strip_of(page: str) -> list[tuple[str, str, list[str]]]:
    """Each turn of the strip: its combatant, where it stands, its arrows."""
    strip = page.split("<turn-order", 1)[1].split("</turn-order>", 1)[0]
    found = []
    for item in re.findall(r"<li (.*?)</li>", strip, re.S):
        cid = re.search(r'data-id="([^"]+)"', item)
        at = re.search(r'data-at="([^"]+)"', item)
        assert cid is not None and at is not None
        arrows = re.findall(r">([↑↓])</button>", item)
        found.append((cid.group(1), at.group(1), arrows))
    return found


def test_an_out_combatants_turn_is_passed_over_and_cannot_be_moved(
    client: TestClient, setup: Setup
) -> None:
    an_ogre_out_still_to_come(setup)
    gm = client.get(f"/t/ford?token={setup.ford.gm_token}").text
    assert strip_of(gm) == [
        ("Spearman", "current", ["↓"]),
        ("Sellsword", "to come", ["↑"]),
        ("Ogre", "out", []),
    ]
    # the Spearman holds: the Sellsword's turn is current, the Spearman's done
    Tables(Store(setup.db)).run(setup.ford, Act("Spearman", "hold"))
    gm = client.get(f"/t/ford?token={setup.ford.gm_token}").text
    assert strip_of(gm) == [
        ("Spearman", "done", []),
        ("Sellsword", "current", []),  # nothing left to move it past
        ("Ogre", "out", []),
    ]
    players = client.get(f"/p/ford?token={setup.ford.player_token}").text
    assert strip_of(players) == [
        ("Spearman", "done", []),
        ("Sellsword", "current", []),
        ("Ogre", "out", []),
    ]


@pytest.mark.slow
def test_the_strip_in_chromium(browser: Browser, server: Server) -> None:  # noqa: F811
    an_ogre_out_still_to_come(server.setup)
    row = server.setup.ford
    gm = browser.new_page(viewport={"width": 1280, "height": 800})
    gm.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
    strip = gm.locator("turn-order")
    expect(strip.locator("li.current")).to_have_attribute("data-id", "Spearman")
    expect(strip.locator('li[data-id="Ogre"]')).to_have_class(re.compile(r"\bout\b"))
    expect(strip.locator('li[data-id="Ogre"] button')).to_have_count(0)
    expect(gm.locator("#turn")).to_have_text("Spearman")
    shots(gm, "turn-strip-out")
    gm.close()
