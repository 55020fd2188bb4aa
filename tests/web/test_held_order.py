"""Nothing shown that nobody rolled, in Chromium (issue 50, items 1 and 2): the order
a round waits for while its initiative dice are typed, and a hazard's dice asked of the
game master, at a laptop's and a phone's size."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from playwright.sync_api import Browser, expect

from affray.cli.main import cli
from affray.table import Store, Tables
from affray.web import create_app
from affray.web.app import server as tracker_server
from tests.helpers import EXAMPLES as ALL_EXAMPLES
from tests.web.conftest import free_port, shots
from tests.web.test_browser import browser  # noqa: F401  (the fixture)

EXAMPLES = ALL_EXAMPLES / "midian"


@pytest.mark.slow
def test_the_held_order_and_a_hazards_dice_in_chromium(
    browser: Browser,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Items 1 and 2 at a laptop's and a phone's size: on a Midian table of physical
    dice, "Start round 1" shows what the order waits for, not an order; a fall from the
    guard's menu asks its dice (typed here), and the order and the fall are told once
    every die is given."""
    db = tmp_path / "t.db"
    for args in (
        ("table", "new", "Inn", "--system", "midian", "--option", "physical_dice=true"),
        ("table", "add", "inn", str(EXAMPLES / "guard.toml"), "--side", "watch"),
        ("table", "add", "inn", str(EXAMPLES / "brawler.toml"), "--side", "rowdies"),
    ):
        assert CliRunner().invoke(cli, [*args, "--db", str(db)]).exit_code == 0
    gm_token = Tables(Store(db)).table("inn").gm_token
    port = free_port()
    running = tracker_server(create_app(db, poll_s=0.05), "127.0.0.1", port)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120  # a guard against a hang, not a measure of speed
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        gm = browser.new_page(viewport={"width": 1280, "height": 800})
        gm.goto(f"http://127.0.0.1:{port}/t/inn?token={gm_token}")
        gm.click("#start")
        expect(gm.locator("#held")).to_have_text(
            "The round's order waits for 2 more dice: Guard's initiative —, Brawler's initiative —"
        )
        gm.fill("#pending input.face", "7")
        gm.click("#enter-face")
        expect(gm.locator("#held")).to_contain_text("Guard's initiative 7, Brawler's")
        assert "order:" not in (gm.locator("#panel").text_content() or "")
        shots(gm, "held-order")
        gm.locator("#pending button.choice", has_text="normal").click()  # the guard's stance
        expect(gm.locator("#pending label")).to_contain_text("Brawler's initiative")
        gm.fill("#pending input.face", "3")
        gm.click("#enter-face")
        expect(gm.locator("#pending #question")).to_contain_text("Brawler")  # its stance
        gm.locator("#pending button.choice", has_text="normal").click()
        expect(gm.locator("#result")).to_contain_text("order:")
        expect(gm.locator("#held")).to_have_count(0)
        # a fall from the guard's menu: its dice are asked
        gm.locator('details[data-menu="Guard"] summary').click()
        menu = gm.locator('details[data-menu="Guard"]')
        menu.locator('select[name="kind"]').select_option("fall")
        menu.locator('input[name="hazard_values"]').fill("feet=20")
        menu.locator("button", has_text="Hazard").click()
        expect(gm.locator("#pending label")).to_contain_text("Guard's fall")
        shots(gm, "hazard-asks-its-dice")
        for face in ("4", "3", "19"):  # 2d6 of the fall, then the crushing save
            asked = gm.locator("#pending").get_attribute("data-step")
            gm.fill("#pending input.face", face)
            gm.click("#enter-face")
            expect(gm.locator(f'#pending[data-step="{asked}"]')).to_have_count(0)
        expect(gm.locator("#result")).to_contain_text("fall")
        gm.close()
    finally:
        running.should_exit = True
        thread.join(timeout=10)
