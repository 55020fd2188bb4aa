"""Who rolled what, on the pages (issue 50, item 3): the game master's page and the
players' pages list the evening's dice, each face with who gave it — typed by the
game master, typed by a player, or rolled by affray and for whom — the players' list
only what they may know (no die of a combatant hidden from them)."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from playwright.sync_api import Browser, expect
from starlette.testclient import TestClient

from affray.cli.main import cli
from affray.table import Store, Tables
from affray.web import create_app
from tests.web.conftest import Server, Setup, shots
from tests.web.test_browser import browser  # noqa: F401  (the fixture)
from tests.web.test_own_turns import gm_view, post


def dice_of(page: str, *, did: bool = False) -> list[str]:
    """The dice log's faces as a page lists them: "18 d20 for … typed by …" (and with
    ``did``, what each did: "…: Spearman attacks Sellsword (spear): d20 18+2=20 …")."""
    section = page.split('id="dice-log"', 1)[1].split("</section>", 1)[0]
    faces = re.findall(r'<li class="face by-\w+">(.*?)</li>', section, re.S)
    if not did:
        faces = [re.sub(r'<span class="did">.*?</span>', "", face, flags=re.S) for face in faces]
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", face)).split()) for face in faces]


def a_round_of_marks(client: TestClient, setup: Setup) -> str:
    """The spearman's player attacks from the phone (its own d20 and power dice); the
    game master types the sellsword's shock die; returns the spearman's link token."""
    gm = setup.ford.gm_token
    post(client, "ford", gm, verb="start")
    post(client, "ford", gm, verb="allow", values={"players_choose": True})
    spear = Tables(Store(setup.db)).link(setup.ford, "Spearman")[1]
    acted = post(
        client,
        "ford",
        spear,
        verb="act",
        actor="Spearman",
        action="attack",
        target="Sellsword",
        rolls=[18, 8, 8],
    )
    assert acted.status_code == 202, acted.text
    answered = post(client, "ford", gm, verb="answer", rolls=[9, 9])
    assert answered.status_code == 200, answered.text
    assert gm_view(client, setup)["pending"] is None
    return spear


def test_both_pages_say_who_gave_each_face(client: TestClient, setup: Setup) -> None:
    spear = a_round_of_marks(client, setup)
    # the sellsword's turn: the game master's attack, its d20 typed, the rest rolled
    gm = setup.ford.gm_token
    done = post(
        client,
        "ford",
        gm,
        verb="act",
        actor="Sellsword",
        action="attack",
        target="Spearman",
        rolls=[19],
        roll_rest=True,
    )
    assert done.status_code == 200, done.text
    page = client.get(f"/t/ford?token={gm}").text
    faces = dice_of(page)
    assert faces[0].startswith(
        "19 d20 for Spearman's counter-attack on Sellsword typed by the game master"
    )
    assert all(f.endswith("rolled by affray for the game master") for f in faces[1:-5])
    assert faces[-5:] == [
        "18 d20 for Spearman's attack on Sellsword typed by a player",
        "8 d8 for Spearman's power die 1 typed by a player",
        "8 d8 for Spearman's power die 2 typed by a player",
        "9 d10 for Sellsword's shock check, hit die 1 typed by the game master",
        "9 d10 for Sellsword's shock check, hit die 2 typed by the game master",
    ]
    # what each face did, told with it
    told = dice_of(page, did=True)[-5:]
    hit = ": Spearman attacks Sellsword (spear): d20 18+2=20 vs evasion 11 → hit"
    assert told[0].endswith(hit), told
    assert all("power 2d8 [8,8] vs protection 2 → " in face for face in told[1:3]), told
    assert all(": shock 2d10+1 [9,9]=19" in face for face in told[3:]), told
    phone = client.get(f"/p/ford?token={spear}").text
    # nothing hidden: the players read the same dice, and what they did
    assert dice_of(phone, did=True) == dice_of(page, did=True)


def test_the_players_dice_leave_out_a_hidden_combatants(client: TestClient, setup: Setup) -> None:
    gm = setup.ford.gm_token
    post(client, "ford", gm, verb="hide", who="Sellsword")
    a = post(client, "ford", gm, verb="start")
    assert a.status_code == 200, a.text
    shown: dict[str, Any] = gm_view(client, setup)
    actor = shown["turn"]
    target = "Spearman" if actor == "Sellsword" else "Sellsword"
    post(client, "ford", gm, verb="act", actor=actor, action="attack", target=target)
    on_gm = dice_of(client.get(f"/t/ford?token={gm}").text)
    assert any("Sellsword" in face for face in on_gm)
    players = client.get(f"/p/ford?token={setup.ford.player_token}").text
    assert "Sellsword" not in players
    assert not any("Sellsword" in face for face in dice_of(players))


@pytest.mark.slow
def test_the_dice_log_in_chromium(browser: Browser, server: Server) -> None:  # noqa: F811
    """The game master types the spearman's d20 and rolls the rest with "Roll all the
    rest"; both pages' dice logs say so, live, at a laptop's and a phone's size."""
    row = server.setup.ford
    gm = browser.new_page(viewport={"width": 1280, "height": 800})
    gm.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
    players = browser.new_page(viewport={"width": 390, "height": 844})
    players.goto(f"{server.url}/p/{row.id}?token={row.player_token}")
    expect(players.locator("#dice-log")).to_contain_text("No dice yet")
    gm.click("#start")
    expect(gm.locator("#turn")).to_have_text("Spearman")
    gm.locator('button[data-label="attack Sellsword"]').click()
    gm.fill("#pending input.face", "18")
    gm.click("#enter-face")
    expect(gm.locator("#pending label")).to_contain_text("power die 1")
    gm.click("#roll-rest")
    typed = gm.locator("#dice-log .face.by-gm").first
    expect(typed).to_contain_text("18 d20 for Spearman's attack on Sellsword")
    expect(typed).to_contain_text("typed by the game master")
    expect(gm.locator("#dice-log .face.by-affray").first).to_contain_text(
        "rolled by affray for the game master"
    )
    expect(players.locator("#dice-log .face.by-gm").first).to_contain_text(
        "typed by the game master"
    )
    shots(gm, "dice-log-gm")
    shots(players, "dice-log-players")
    gm.close()
    players.close()


def test_an_imported_tables_dice_log_says_who_gave_each_face_and_what_it_did(
    client: TestClient, setup: Setup, tmp_path: Path
) -> None:
    """Exported and imported into another database, the table's dice log is the same:
    each face typed on a phone, typed by the game master or rolled by affray (and for
    whom), and what it did."""
    a_round_of_marks(client, setup)
    gm = setup.ford.gm_token
    post(client, "ford", gm, verb="act", actor="Sellsword", action="attack", target="Spearman")
    before = dice_of(client.get(f"/t/ford?token={gm}").text, did=True)
    assert {"typed by a player", "typed by the game master", "for the game master"} <= {
        words for face in before for words in WHO if words in face
    }
    export, other = tmp_path / "ford.json", tmp_path / "other.db"
    exported = CliRunner().invoke(
        cli, ["table", "export", "ford", "-o", str(export), "--db", str(setup.db)]
    )
    assert exported.exit_code == 0, exported.output
    imported = CliRunner().invoke(cli, ["table", "import", str(export), "--db", str(other)])
    assert imported.exit_code == 0, imported.output
    row = Tables(Store(other)).table("ford")
    with TestClient(create_app(other, poll_s=0.05)) as elsewhere:
        after = dice_of(elsewhere.get(f"/t/ford?token={row.gm_token}").text, did=True)
    assert after == before


WHO = ("typed by a player", "typed by the game master", "for the game master")
