"""Players play their own turns (SPEC part 4): with ``players_choose`` allowed, a
player's own link may act for its own combatant on that combatant's turn, its faces
and answers used for its own dice and questions alone; the game master's undo takes it
back; anything else is 403. And in Chromium: two phones and the game master's page
play a round where each player chooses and rolls their own turn."""

from __future__ import annotations

import json
import subprocess
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from starlette.testclient import TestClient

from affray.table import Store, Tables
from tests.helpers import EXAMPLES, SCRIPT, terminal
from tests.web.conftest import Server, Setup
from tests.web.test_browser import browser  # noqa: F401  (the fixture)


def post(client: TestClient, table: str, token: str, **command: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"}
    shown = client.get(f"/api/tables/{table}", headers=headers).json()
    return client.post(
        f"/api/tables/{table}/commands",
        json={"expected_version": shown["version"], "command": command},
        headers=headers,
    )


def gm_view(client: TestClient, setup: Setup) -> Any:
    return client.get(f"/api/tables/ford?token={setup.ford.gm_token}").json()


def test_a_link_acts_on_its_own_turn_only_when_the_game_master_allows_it(
    client: TestClient, setup: Setup
) -> None:
    gm = setup.ford.gm_token
    assert post(client, "ford", gm, verb="start").status_code == 200  # the spearman first
    tables = Tables(Store(setup.db))
    spear = tables.link(setup.ford, "Spearman")[1]
    sell = tables.link(setup.ford, "Sellsword")[1]
    hold = {"verb": "act", "actor": "Spearman", "action": "hold"}
    refused = post(client, "ford", spear, **hold)
    assert refused.status_code == 403
    assert "game master chooses" in refused.json()["error"]
    assert gm_view(client, setup)["allowed"] == {"players_choose": False, "players_odds": False}
    allowed = post(client, "ford", gm, verb="allow", values={"players_choose": True})
    assert allowed.status_code == 200, allowed.text
    assert gm_view(client, setup)["allowed"]["players_choose"] is True
    # not the sellsword's turn; not the spearman's to act for; only act and answer
    assert post(client, "ford", sell, verb="act", actor="Sellsword", action="hold").status_code == (
        403
    )
    other = post(client, "ford", spear, verb="act", actor="Sellsword", action="hold")
    assert other.status_code == 403 and "acts for Spearman alone" in other.json()["error"]
    assert post(client, "ford", spear, verb="note", text="hi").status_code == 403
    version = gm_view(client, setup)["version"]
    done = post(client, "ford", spear, **hold)
    assert done.status_code == 200, done.text
    assert done.json() == {"version": version + 1, "acted": True}  # nothing else told
    shown = gm_view(client, setup)
    assert shown["turn"] == "Sellsword"
    # the game master takes it back
    assert post(client, "ford", gm, verb="undo").status_code == 200
    assert gm_view(client, setup)["turn"] == "Spearman"
    # a player's own turn is theirs alone: the player token cannot act
    players = post(client, "ford", setup.ford.player_token, **hold)
    assert players.status_code == 403


def test_a_players_faces_roll_only_their_own_dice(client: TestClient, setup: Setup) -> None:
    """The spearman's player sends more faces than the spearman's dice: the table
    uses those of the spearman's own dice, and waits on the game master for the
    sellsword's (a face a player sends never lands on another's die)."""
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
        rolls=[18, 8, 8, 1, 1, 1, 1],
    )
    assert acted.status_code == 202, acted.text
    assert acted.json() == {"acted": True, "waiting": True, "asks": None}  # not theirs now
    pending = gm_view(client, setup)["pending"]
    assert pending["who"] == "Sellsword"  # its shock die, for the game master
    assert pending["rolls"] == [18, 8, 8]  # the d20 and the spear's 2d8: the spearman's
    assert pending["answered"] == []
    # while it waits, the player cannot begin another action
    again = post(client, "ford", spear, verb="act", actor="Spearman", action="hold")
    assert again.status_code == 403 and "waits" in again.json()["error"]


def test_a_player_begins_an_action_and_is_asked_for_each_of_its_dice(
    client: TestClient, setup: Setup
) -> None:
    gm = setup.ford.gm_token
    post(client, "ford", gm, verb="start")
    post(client, "ford", gm, verb="allow", values={"players_choose": True})
    spear = Tables(Store(setup.db)).link(setup.ford, "Spearman")[1]
    begun = post(
        client, "ford", spear, verb="act", actor="Spearman", action="attack", target="Sellsword"
    )
    assert begun.status_code == 202
    asks = begun.json()["asks"]
    die = asks["die"]
    assert die["sides"] == 20 and die["purpose"] == "Spearman's attack on Sellsword"
    answered = post(client, "ford", spear, verb="answer", rolls=[18], question=asks["question"])
    assert answered.status_code == 202
    power = answered.json()["asks"]["die"]
    assert power["sides"] == 8 and "power" in power["purpose"]  # the spear's 2d8, its own


def test_the_circumstance_question_is_the_game_masters_never_a_players(
    client: TestClient, setup: Setup
) -> None:
    """Issue 36, item 3: a player answered "does any circumstance add power?" and gave
    himself +2d20 "helpless". At a table it is not asked (none), unless the game master
    asks for it (the option ``ask_circumstance``); then it waits on the game master."""
    tables = Tables(Store(setup.db))
    asking = tables.new("Asking ford", "mst2", {"ask_circumstance": True})
    for sheet, side, player in (("spearman", "levy", True), ("sellsword", "blades", False)):
        path = str(EXAMPLES / "mst2" / f"{sheet}.toml")
        tables.run(asking, tables.joining(asking, path, side=side, player=player))
    tables.store.close()
    gm = asking.gm_token
    post(client, asking.id, gm, verb="start")
    post(client, asking.id, gm, verb="allow", values={"players_choose": True})
    spear = Tables(Store(setup.db)).link(asking, "Spearman")[1]
    begun = post(
        client,
        asking.id,
        spear,
        verb="act",
        actor="Spearman",
        action="attack",
        target="Sellsword",
        choose={"circumstance": "helpless"},
    )
    assert begun.status_code == 202 and begun.json()["asks"] is None  # not the player's
    shown = client.get(f"/api/tables/{asking.id}?token={gm}").json()
    assert shown["pending"]["who"] is None  # the game master's
    assert shown["pending"]["needs"]["choice"]["topic"] == "circumstance"
    assert shown["pending"]["answered"] == []  # the player's "helpless" was not taken
    taken = post(client, asking.id, spear, verb="answer", choose={"circumstance": "helpless"})
    assert taken.status_code == 403


def test_a_hidden_combatant_is_no_target_for_a_player(client: TestClient, setup: Setup) -> None:
    db = setup.db
    terminal(db, "table", "add", "ford", "goblin", "--as", "Lurker", "--side", "blades")
    terminal(db, "table", "hide", "ford", "Lurker")
    terminal(db, "table", "allow", "ford", "players_choose=on")
    terminal(db, "table", "start", "ford", "--seed", "3")
    shown = terminal(db, "table", "show", "ford")
    if shown["turn"] != "Spearman":
        terminal(db, "table", "move", "ford", "Spearman", "--before", shown["turn"])
    spear = terminal(db, "table", "link", "ford", "Spearman")["token"]
    page = client.get(f"/p/ford?token={spear}").text
    assert "your-turn" in page and "Lurker" not in page
    aimed = post(
        client, "ford", spear, verb="act", actor="Spearman", action="attack", target="Lurker"
    )
    assert aimed.status_code == 422
    assert "Lurker" not in aimed.json()["tip"]  # the refusal lists only those seen
    assert "no combatant" in aimed.json()["error"]


def test_the_allow_verb_from_the_terminal(setup: Setup) -> None:
    db = setup.db
    done = terminal(db, "table", "allow", "ford", "players_choose=on", "players_odds=yes")
    assert done["lines"][0].startswith("The game master: the players may choose")
    assert terminal(db, "table", "show", "ford")["allowed"] == {
        "players_choose": True,
        "players_odds": True,
    }
    terminal(db, "table", "undo", "ford")
    assert terminal(db, "table", "show", "ford")["allowed"]["players_choose"] is False
    for bad, said in (
        ("players_chose=on", "cannot be allowed"),
        ("players_choose=maybe", "players_choose=on or players_choose=off"),
    ):
        refused = subprocess.run(
            [*SCRIPT, "table", "allow", "ford", bad, "--db", str(db)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert refused.returncode == 2 and said in refused.stderr, refused.stderr
        assert "Traceback" not in refused.stderr


def act_on_phone(phone: Page) -> bool:
    """The phone's player does what their phone asks, if anything: an action on their
    turn (an attack where there is one), a face for a die, the first answer offered."""
    if phone.locator("#own-actions").count():
        attacks = phone.locator("#own-actions button", has_text="attack")
        (attacks.first if attacks.count() else phone.locator("#own-actions button").first).click()
        return True
    if phone.locator("#answer input.face").count():
        sides = int(phone.locator("#answer input.face").get_attribute("max") or 6)
        phone.fill("#answer input.face", str(min(12, sides)))
        phone.click("#my-enter")
        return True
    if phone.locator("#answer button.choice").count():
        phone.locator("#answer button.choice").first.click()
        return True
    return False


def act_as_game_master(gm: Page) -> bool:
    """The game master answers what waits on them, or plays a foe's turn."""
    if gm.locator("#pending input.face").count():
        sides = int(gm.locator("#pending input.face").get_attribute("max") or 6)
        gm.fill("#pending input.face", str(min(9, sides)))
        gm.click("#enter-face")
        return True
    if gm.locator("#pending button.choice").count():
        gm.locator("#pending button.choice").first.click()
        return True
    turn = gm.locator("#panel h2").first
    if turn.count() and "Sellsword" in turn.inner_text():
        gm.locator("#panel form.action button").first.click()
        return True
    return False


@pytest.mark.slow
def test_two_phones_choose_and_roll_their_own_turns(
    browser: Browser,  # noqa: F811
    server: Server,
) -> None:
    """A round at the ford with two player characters, each on its player's phone:
    each player chooses their action on their turn and rolls their own dice; the game
    master answers the sellsword's and plays its turn. Their phones say "your turn"
    (in the title too) and show what happened."""
    db = server.setup.db
    row = server.setup.ford
    archer = str(EXAMPLES / "mst2" / "archer.toml")
    terminal(db, "table", "add", "ford", archer, "--side", "levy", "--player")
    terminal(db, "table", "start", "ford")
    links = {
        who: terminal(db, "table", "link", "ford", who)["token"] for who in ("Spearman", "Archer")
    }
    gm = browser.new_page(viewport={"width": 1280, "height": 800})
    gm.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
    # the game master lets the players choose, and see the odds, from the page
    for key in ("players_choose", "players_odds"):
        gm.click(f"#allow-{key}")
        expect(gm.locator(f"#allow-{key}")).to_have_attribute("aria-pressed", "true")
    phones: dict[str, Page] = {}
    for who, token in links.items():
        phones[who] = browser.new_page(viewport={"width": 390, "height": 844})
        phones[who].goto(f"{server.url}/p/{row.id}?token={token}")
    first = terminal(db, "table", "show", "ford")["turn"]
    expect(phones[first].locator("#your-turn")).to_be_visible(timeout=5000)
    assert phones[first].title().startswith("● Your turn")
    expect(phones[first].locator("#own-actions .odds").first).to_contain_text("hit")
    acted: set[str] = set()
    for _ in range(120):
        with urllib.request.urlopen(f"{server.url}/api/tables/ford?token={row.gm_token}") as got:
            shown = json.load(got)
        if shown["round"] > 1 or shown["phase"] != "turn":
            break
        moved = False
        for who, phone in phones.items():
            if act_on_phone(phone):
                acted.add(who)
                moved = True
                break
        if not moved:
            moved = act_as_game_master(gm)
        if not moved:
            gm.wait_for_timeout(200)
            continue
        gm.wait_for_timeout(400)
    log = terminal(db, "table", "log", "ford")
    actors = {c["what"].split(":")[0] for c in log["changes"] if c["verb"] == "act"}
    assert {"Spearman", "Archer"} <= actors and acted == {"Spearman", "Archer"}
    # each phone tells what happened, in the players' words
    for phone in phones.values():
        expect(phone.locator("#story")).to_contain_text("Spearman: attack")
    for page in (gm, *phones.values()):
        page.close()


@pytest.mark.slow
def test_a_stale_phone_answer_is_refused_and_the_phone_shows_what_is_asked_now(
    browser: Browser,  # noqa: F811
    server: Server,
) -> None:
    """Issue 37, item 1: the game master answered the spearman's die on his page while
    the spearman's phone (its live updates cut off here) still showed it; the phone's
    late face is refused, nothing is applied, and the phone shows the next question."""
    db = server.setup.db
    row = server.setup.ford
    terminal(db, "table", "start", "ford")
    spear = terminal(db, "table", "link", "ford", "Spearman")["token"]
    gm = browser.new_page(viewport={"width": 1280, "height": 800})
    gm.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
    gm.locator('#panel button[data-label="attack Sellsword"]').click()
    expect(gm.locator("#pending input.face")).to_be_visible()
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.route("**/live?*", lambda route: route.abort())  # it hears of no change
    phone.goto(f"{server.url}/p/{row.id}?token={spear}")
    expect(phone.locator("#answer label")).to_contain_text("Spearman's attack on Sellsword")
    # the game master types the d20 first
    gm.fill("#pending input.face", "17")
    gm.click("#enter-face")
    expect(gm.locator("#faces-so-far")).to_contain_text("17")
    version = terminal(db, "table", "show", "ford")["version"]
    phone.fill("#answer input.face", "3")
    phone.click("#my-enter")
    expect(phone.locator("#ask-message")).to_contain_text("answered already")
    expect(phone.locator("#answer label")).to_contain_text("power")  # what is asked now
    with urllib.request.urlopen(f"{server.url}/api/tables/ford?token={row.gm_token}") as got:
        shown = json.load(got)
    assert shown["version"] == version and shown["pending"]["rolls"] == [17]  # not the 3
    for page in (gm, phone):
        page.close()


@pytest.mark.slow
def test_a_player_sees_the_best_move_when_the_game_master_allows_the_odds(
    browser: Browser,  # noqa: F811
    server: Server,
) -> None:
    db = server.setup.db
    row = server.setup.ford
    terminal(db, "table", "allow", "ford", "players_choose=on")
    terminal(db, "table", "start", "ford")
    spear = terminal(db, "table", "link", "ford", "Spearman")["token"]
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(f"{server.url}/p/{row.id}?token={spear}")
    expect(phone.locator("#own-actions")).to_be_visible()
    assert phone.locator("#own-odds").count() == 0  # not allowed: no odds at all
    assert phone.locator("#own-actions .odds").count() == 0
    terminal(db, "table", "allow", "ford", "players_odds=on")
    best = phone.locator("#own-odds li.best")
    expect(best).to_contain_text("best", timeout=30_000)
    expect(best).to_contain_text("%")
    chances = phone.locator("#own-odds li").all_inner_texts()
    assert len(chances) == phone.locator("#own-actions button").count()
    phone.close()


@pytest.mark.slow
def test_a_phone_page_fits_a_phone_and_gives_no_game_masters_instructions(
    browser: Browser,  # noqa: F811
    server: Server,
) -> None:
    """Issue 37, item 2: the conditions column was clipped at 390 px, and the players
    read "Setting up: add combatants, then start" and "Is `affray serve` still
    running?"."""
    db = server.setup.db
    row = server.setup.ford
    terminal(db, "table", "mark", "ford", "Sellsword", "prone and bleeding badly", "--public")
    terminal(db, "table", "mark", "ford", "Spearman", "blessed by the river god")
    spear = terminal(db, "table", "link", "ford", "Spearman")["token"]
    for token in (spear, row.player_token):
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.goto(f"{server.url}/p/{row.id}?token={token}")
        expect(phone.locator("#board .status")).to_contain_text("setting up")
        text = phone.locator("body").inner_text()
        assert "add combatants" not in text and "affray serve" not in phone.content()
        tags = phone.locator("#board .tag")
        assert tags.count() == 2
        for tag in tags.all():
            box = tag.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.close()
