"""The tracker in a real browser (Chromium driven by Playwright): a whole MST-2 round
and a Midian round played by clicking and typing dice, three steps undone and
redone, and an open player page showing each change within a second.

Set AFFRAY_SCREENSHOTS=DIR to keep screenshots of both pages (docs/ has them).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect, sync_playwright

from tests.helpers import SLOWDOWN
from tests.web.conftest import Server, shots

pytestmark = pytest.mark.slow
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
LIVE_MS = 1000 * SLOWDOWN  # the player page shows a change within a second (bench: 1 s)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), "install Chromium: apt-get install -y chromium"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


class Tracker:
    """The game master's page and a player page on one table."""

    def __init__(self, browser: Browser, server: Server, table: str) -> None:
        row = server.setup.ford if table == "ford" else server.setup.inn
        self.gm = browser.new_page(viewport={"width": 1400, "height": 900})
        self.player = browser.new_page(viewport={"width": 420, "height": 800})
        self.gm.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
        self.player.goto(f"{server.url}/p/{row.id}?token={row.player_token}")
        expect(self.gm.locator("#panel .panel")).to_be_visible()
        self.version = self._version()
        self.typed: list[int] = []
        self.purposes: list[str] = []
        self._seen_by_player()

    def _version(self) -> int:
        return int(self.gm.locator("#panel .panel").get_attribute("data-version") or -1)

    def _seen_by_player(self) -> None:
        expect(self.player.locator(f'#board .status[data-version="{self.version}"]')).to_have_count(
            1, timeout=LIVE_MS
        )

    def changed(self) -> None:
        """The last click made a change: the GM's page has it, and the players' page
        shows it within a second."""
        expect(self.gm.locator("#panel .panel")).not_to_have_attribute(
            "data-version", str(self.version)
        )
        self.version = self._version()
        self._seen_by_player()

    def click(self, selector: str) -> None:
        self.typed, self.purposes = [], []
        self.gm.locator(selector).first.click()

    def _step(self) -> str:
        return self.gm.locator("#panel .panel").get_attribute("data-waiting") or ""

    def choose(self, label: str) -> None:
        """Click an answer; the server goes on with the command (to its next question
        or die, or to its end)."""
        before = self._step()
        self.gm.locator("#pending button.choice", has_text=label).first.click()
        expect(self.gm.locator("#panel .panel")).not_to_have_attribute("data-waiting", before)

    def face(self, value: int, purpose: str) -> None:
        """Type the face of the die the page asks for (checking it asks for that one,
        after the faces typed so far, which the server kept)."""
        so_far = self.gm.locator("#faces-so-far")
        if self.typed:
            expect(so_far).to_have_text("faces so far: " + ", ".join(map(str, self.typed)))
            told = self.gm.locator("#faces-told li")  # each face with what it was for
            expect(told).to_have_count(len(self.typed))
            expect(told.last).to_contain_text(str(self.typed[-1]))
            expect(told.last).to_contain_text(self.purposes[-1])
        else:
            expect(so_far).to_have_count(0)
        expect(self.gm.locator("#pending label")).to_contain_text(purpose)
        self.gm.fill("#pending input.face", str(value))
        self.gm.click("#enter-face")
        self.typed.append(value)
        self.purposes.append(purpose)

    def act(self, label: str) -> None:
        self.typed, self.purposes = [], []
        self.click(f'button[data-label="{label}"]')
        expect(self.gm.locator("#pending")).to_be_visible()

    def cell(self, who: str, key: str, value: str) -> None:
        """The game master's board shows ``value`` for ``who``'s ``key`` (soon)."""
        expect(self.gm.locator(f'tr[data-id="{who}"] [data-key="{key}"]')).to_have_text(value)


def test_an_mst2_round_by_clicking_and_typing_dice(browser: Browser, server: Server) -> None:
    t = Tracker(browser, server, "ford")
    t.click("#start")
    t.changed()
    expect(t.player.locator("#turn")).to_have_text("Spearman")
    # the spearman misses: a 5
    t.act("attack Sellsword")  # no circumstance is asked at a table (its default)
    t.face(5, "Spearman's attack on Sellsword")
    t.changed()
    expect(t.gm.locator("#result")).to_contain_text("→ miss")
    # the sellsword closes in: the spear's counter-attack (3) misses, then 14 hits;
    # power [5, 2, 6] against protection 2: 2 wounds; shock 3 > 2
    t.act("attack Spearman")
    for face, purpose in (
        (3, "Spearman's counter-attack on Sellsword"),  # asked as what it is (issue 36)
        (14, "Sellsword's attack on Spearman"),
        (5, "power"),
        (2, "power"),
        (6, "power"),
        (3, "shock"),
    ):
        if purpose == "power" and face == 5:  # the d20s typed so far: what each did
            did = t.gm.locator("#faces-did li")
            expect(did.nth(1)).to_contain_text("d20 3+2=5 vs evasion 11 → miss")
            expect(did.last).to_contain_text("d20 14+3=17 vs evasion 12 → hit")
            shots(t.gm, "question-did")
        t.face(face, purpose)
    t.changed()
    t.cell("Spearman", "wounds", "2")
    expect(t.player.locator('tr[data-id="Spearman"] .state')).to_contain_text("wounds 2")
    expect(t.player.locator('tr[data-id="Sellsword"] .health')).to_have_text("unhurt")
    t.click("#next")  # round 2
    t.changed()
    expect(t.gm.locator(".status")).to_contain_text("Round 2")
    screenshots(t)
    # three steps back (keyboard), and forward again (buttons)
    for _ in range(3):
        t.gm.keyboard.press("u")
        t.changed()
    expect(t.player.locator(".status")).to_contain_text("Round 1")
    expect(t.player.locator("#turn")).to_have_text("Spearman")
    for _ in range(3):
        t.click("#redo")
        t.changed()
    expect(t.player.locator(".status")).to_contain_text("Round 2")
    t.cell("Spearman", "wounds", "2")


def test_a_midian_round_by_clicking_and_typing_dice(browser: Browser, server: Server) -> None:
    t = Tracker(browser, server, "inn")
    # initiative: the guard's d10 3, the brawler's 10 (+1: 11, so actions at 11 and 1)
    t.click("#start")
    t.face(3, "initiative")
    t.choose("normal")  # the guard's stance: his alone
    t.face(10, "initiative")
    t.choose("normal")  # the brawler is asked his own
    t.changed()
    expect(t.player.locator("#turn")).to_have_text("Brawler")
    # 15 + 4 = 19 hits armour class 12; the guard takes it; 1d4 3 + 2 = 5,
    # less 1 for resistance and 3 for reduction: 1 damage
    t.act("attack Guard")
    t.face(15, "Brawler's attack")
    t.choose("take it")
    t.face(3, "damage")
    t.changed()
    t.cell("Guard", "hit_points", "19")
    expect(t.player.locator('tr[data-id="Guard"] .health')).to_have_text("hurt")
    t.click("#next")  # the guard passes
    t.changed()
    t.click("#next")  # and the brawler's second action too
    t.changed()
    expect(t.gm.locator(".status")).to_contain_text("Round 1 is over")
    for _ in range(3):
        t.click("#undo")
        t.changed()
    t.cell("Guard", "hit_points", "20")
    for _ in range(3):
        t.gm.keyboard.press("r")
        t.changed()
    t.cell("Guard", "hit_points", "19")
    expect(t.player.locator(".status")).to_contain_text("Round 1 is over")


def screenshots(t: Tracker) -> None:
    folder = os.environ.get("AFFRAY_SCREENSHOTS")
    if folder:
        t.gm.wait_for_timeout(1500)  # the odds
        t.gm.screenshot(path=str(Path(folder) / "tracker-gm.png"))
        t.player.screenshot(path=str(Path(folder) / "tracker-player.png"))
