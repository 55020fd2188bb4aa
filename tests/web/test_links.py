"""Players' own links (SPEC part 3, "Campaigns"): a link for one combatant reads as
the player page does and answers only the dice and questions put to that combatant,
while the command waits; anything else is 403; a new link revokes the old. And in
Chromium: a game master and two players on phone-sized pages, each player typing
their own die and choosing their own answer."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner
from playwright.sync_api import Browser, Page, expect
from starlette.testclient import TestClient

from affray.cli.main import cli
from affray.table import Store, Tables
from tests.helpers import EXAMPLES, terminal
from tests.web.conftest import Server, Setup, shots
from tests.web.test_browser import browser  # noqa: F401  (the fixture)


def post(client: TestClient, setup: Setup, token: str, **command: Any) -> Any:
    shown = client.get(f"/api/tables/{setup.inn.id}", headers={"Authorization": f"Bearer {token}"})
    return client.post(
        f"/api/tables/{setup.inn.id}/commands",
        json={"expected_version": shown.json()["version"], "command": command},
        headers={"Authorization": f"Bearer {token}"},
    )


def test_a_link_answers_only_its_own_combatants_dice(client: TestClient, setup: Setup) -> None:
    made = CliRunner().invoke(
        cli, ["table", "link", setup.inn.id, "guard", "--db", str(setup.db), "--json"]
    )
    assert made.exit_code == 0, made.output
    link = json.loads(made.stdout)
    assert link["combatant"] == "Guard" and link["url"].endswith(f"?token={link['token']}")
    guard = link["token"]
    seen = client.get(f"/api/tables/{setup.inn.id}?token={guard}").json()
    assert seen["notes"] == [] and all(c["source"] == "" for c in seen["combatants"])
    gm = setup.inn.gm_token
    assert post(client, setup, guard, verb="note", text="hi").status_code == 403
    assert post(client, setup, guard, verb="answer", rolls=[3]).status_code == 403  # nothing waits
    # the game master starts the round: the guard's initiative die waits on the guard
    assert (
        post(client, setup, gm, verb="start", roll_missing=False, choose_missing=False).status_code
        == 422
    )
    tables = Tables(Store(setup.db))
    brawler = tables.link(setup.inn, "Brawler")[1]
    assert post(client, setup, brawler, verb="answer", rolls=[5]).status_code == 403
    asked = post(client, setup, guard, verb="answer", rolls=[3])
    assert asked.status_code == 202
    # taken; what is asked of the guard now (the stance), with its question's id
    asks = asked.json().pop("asks")
    assert asked.json() == {"answered": True, "waiting": True, "asks": asks}
    assert asks["choice"]["topic"] == "stance" and asks["question"]
    # a link answers only the one thing asked: one face for a die, one answer for a choice
    assert post(client, setup, guard, verb="answer", rolls=[3]).status_code == 422
    both = post(client, setup, guard, verb="answer", choose={"stance": "normal"}, rolls=[5])
    assert both.status_code == 422
    stance = post(client, setup, guard, verb="answer", choose={"stance": "defensive"})
    assert stance.status_code == 202  # now the brawler's initiative
    gm_view = client.get(f"/api/tables/{setup.inn.id}?token={gm}").json()
    assert gm_view["pending"]["needs"]["die"]["purpose"].startswith("Brawler")
    assert post(client, setup, brawler, verb="answer", rolls=[10]).status_code == 202
    done = post(client, setup, brawler, verb="answer", choose={"stance": "normal"})
    assert done.status_code == 200, done.text
    assert set(done.json()) == {"version", "answered"}  # no one else's dice or events
    state = {
        c["id"]: c["state"]
        for c in client.get(f"/api/tables/{setup.inn.id}?token={gm}").json()["combatants"]
    }
    assert (state["Guard"]["stance"], state["Brawler"]["stance"]) == ("defensive", "normal")
    # a new link revokes the old
    tables.link(setup.inn, "Guard")
    assert client.get(f"/api/tables/{setup.inn.id}?token={guard}").status_code == 401


@pytest.mark.slow
def test_two_players_answer_their_own_dice_on_their_phones(
    browser: Browser,  # noqa: F811
    server: Server,
) -> None:
    row = server.setup.inn
    db = server.setup.db  # a terminal beside the server: the brawler first
    terminal(db, "table", "start", row.id, "--rolls", "3,10", "--choose", "stance=normal")
    links = {
        who: terminal(db, "table", "link", row.id, who)["token"] for who in ("Guard", "Brawler")
    }
    gm = browser.new_page(viewport={"width": 1366, "height": 768})
    gm.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
    phones: dict[str, Page] = {}
    for who, token in links.items():
        phones[who] = browser.new_page(viewport={"width": 390, "height": 844})
        phones[who].goto(f"{server.url}/p/{row.id}?token={token}")
        expect(phones[who].locator("#nothing-asked")).to_be_visible()
    before = gm.locator("#panel .panel").get_attribute("data-version")
    gm.locator('button[data-label="attack Guard"]').click()
    expect(gm.locator("#waiting-player")).to_contain_text("Waiting for Brawler's player")
    # the brawler's player types the d20; the guard's player is asked nothing
    phones["Brawler"].fill("#answer input.face", "15")
    phones["Brawler"].click("#my-enter")
    expect(phones["Guard"].locator("#my-question")).to_contain_text("defend", timeout=5000)
    # the brawler's phone says its attack waits on the guard's player (issue 50, item 5)
    expect(phones["Brawler"].locator("#waits-on")).to_contain_text("Waiting for Guard's player")
    phones["Guard"].locator("button.choice", has_text="take it").click()
    # the damage die is the brawler's: rolled for him
    expect(phones["Brawler"].locator("#my-roll")).to_be_visible(timeout=5000)
    phones["Brawler"].click("#my-roll")
    expect(gm.locator("#panel .panel")).not_to_have_attribute(
        "data-version", before or "", timeout=5000
    )
    gm.reload()
    expect(gm.locator("#log")).to_contain_text("Brawler attacks Guard (fists): d20 15")
    for page in (gm, *phones.values()):
        page.close()


def test_the_link_is_made_from_the_game_masters_page_too(client: TestClient, setup: Setup) -> None:
    gm = {"Authorization": f"Bearer {setup.inn.gm_token}"}
    panel = client.post(
        f"/t/{setup.inn.id}/do", data={"verb": "link", "who": "Brawler"}, headers=gm
    )
    assert "player&#39;s own link" in panel.text
    with Store(setup.db) as store:
        (token,) = store.links(setup.inn.id).values()
    assert f"/p/{setup.inn.id}?token={token}" in panel.text


def test_a_link_belongs_to_its_combatant_for_good(client: TestClient, setup: Setup) -> None:
    """Hostile round 4, item 2: a link made for the elf archer, the elf's add undone,
    an enemy added in its place (who the table may give the same serial): the link
    reads nothing of the enemy and answers nothing for it; it has left the table."""
    db = setup.db
    elf = str(EXAMPLES / "midian" / "elf_archer.toml")
    terminal(db, "table", "add", "inn-brawl", elf, "--side", "watch", "--player")
    token = terminal(db, "table", "link", "inn-brawl", "Elf archer")["token"]
    headers = {"Authorization": f"Bearer {token}"}
    assert client.get(f"/api/tables/{setup.inn.id}", headers=headers).status_code == 200
    terminal(db, "table", "undo", "inn-brawl")
    terminal(db, "table", "add", "inn-brawl", "bandit", "--as", "Secret Boss", "--side", "crown")
    terminal(db, "table", "set", "inn-brawl", "Secret Boss", "hit_points=3")
    terminal(db, "table", "mark", "inn-brawl", "Secret Boss", "hiding the crown")
    seen = client.get(f"/api/tables/{setup.inn.id}", headers=headers)
    assert seen.status_code == 403 and "left the table" in seen.json()["error"]
    assert "Secret Boss" not in seen.text and "hiding the crown" not in seen.text
    page = client.get(f"/p/{setup.inn.id}/ask?token={token}")
    assert page.status_code == 403 and "Secret Boss" not in page.text
    # a new link for the boss is the boss's; the elf's old one stays dead
    boss = terminal(db, "table", "link", "inn-brawl", "Secret Boss")["token"]
    mine = client.get(f"/api/tables/{setup.inn.id}", headers={"Authorization": f"Bearer {boss}"})
    assert mine.status_code == 200
    assert client.get(f"/api/tables/{setup.inn.id}", headers=headers).status_code == 403


def test_a_hidden_combatant_is_redacted_by_its_fields_never_by_its_letters(
    client: TestClient, setup: Setup
) -> None:
    """Hostile round 4, item 4: a hidden combatant called "e" turned "the end of
    Knight's next turn" into "thsomeone someonend…"; the text is made again from the
    condition's own fields, with "someone" in the place of whom it names."""
    db = setup.db
    terminal(db, "table", "add", "ford", "goblin", "--as", "e", "--side", "blades")
    terminal(db, "table", "hide", "ford", "e")
    terminal(db, "table", "start", "ford", "--seed", "1")
    terminal(
        db, "table", "mark", "ford", "Spearman", "prone", "--until", "end", "--of", "e", "--public"
    )
    terminal(db, "table", "mark", "ford", "Sellsword", "wary", "--until", "end", "--public")
    seen = client.get(f"/api/tables/{setup.ford.id}?token={setup.ford.player_token}").json()
    conditions = {c["id"]: c["conditions"] for c in seen["combatants"]}
    assert "e" not in conditions
    assert conditions["Spearman"] == [
        {"text": "prone", "until": "the end of someone's next turn", "public": True}
    ]
    assert conditions["Sellsword"][0]["until"] == "the end of Sellsword's next turn"


def hidden_assassin(setup: Setup, *, first: str) -> str:
    """The inn with a hidden assassin among the rowdies, round 1 begun with ``first``'s
    turn: the guard's link's token."""
    db = setup.db
    terminal(db, "table", "add", "inn-brawl", "rogue", "--as", "Assassin", "--side", "rowdies")
    terminal(db, "table", "hide", "inn-brawl", "Assassin")
    terminal(db, "table", "start", "inn-brawl", "--rolls", "3,10,5", "--choose", "stance=normal")
    shown = terminal(db, "table", "show", "inn-brawl")
    if shown["turn"] != first:
        terminal(db, "table", "move", "inn-brawl", first, "--before", shown["turn"])
    return str(terminal(db, "table", "link", "inn-brawl", "Guard")["token"])


def test_a_question_about_a_hidden_combatant_names_someone(
    client: TestClient, setup: Setup
) -> None:
    """Hostile round 4, item 3: the guard's link read "Assassin's attack (19) hits
    Guard: defend how?" while the board and the API hid the assassin. A question about
    a hidden combatant says "someone", by its own fields (whom it is about, and its
    prompt's template)."""
    token = hidden_assassin(setup, first="Assassin")
    waited = post(
        client,
        setup,
        setup.inn.gm_token,
        verb="act",
        actor="Assassin",
        action="attack",
        target="Guard",
        rolls=[15],
        roll_missing=False,
        choose_missing=False,
    )
    assert waited.status_code == 422, waited.text
    assert waited.json()["needs"]["choice"]["about"] == "Assassin"  # the guard is asked
    asked = client.get(f"/p/{setup.inn.id}/ask?token={token}")
    assert asked.status_code == 200
    assert "hits Guard: defend how?" in asked.text and "someone" in asked.text
    assert "Assassin" not in asked.text
    page = client.get(f"/p/{setup.inn.id}?token={token}")
    assert "Assassin" not in page.text
    # the game master's page names it
    gm = client.get(f"/t/{setup.inn.id}?token={setup.inn.gm_token}")
    assert "Assassin&#39;s attack" in gm.text


def test_a_die_asked_of_a_player_says_someone_for_a_hidden_target(
    client: TestClient, setup: Setup
) -> None:
    """Hostile round 4, item 3 (dice): the guard's link asked for "Guard's attack on
    Assassin" while the board hid the assassin. A die's purpose that names another
    combatant keeps whom it is about as a field, and a link reads "someone" there."""
    token = hidden_assassin(setup, first="Guard")
    waited = post(
        client,
        setup,
        setup.inn.gm_token,
        verb="act",
        actor="Guard",
        action="attack",
        target="Assassin",
        roll_missing=False,
        choose_missing=False,
    )
    assert waited.status_code == 422, waited.text
    die = waited.json()["needs"]["die"]
    assert die["purpose"] == "Guard's attack on Assassin" and die["about"] == "Assassin"
    asked = client.get(f"/p/{setup.inn.id}/ask?token={token}")
    assert asked.status_code == 200
    assert "Guard&#39;s attack on someone" in asked.text and "Assassin" not in asked.text
    # the game master's page names it, and the guard's answer lands on that die
    gm = client.get(f"/t/{setup.inn.id}?token={setup.inn.gm_token}")
    assert "Guard&#39;s attack on Assassin" in gm.text
    answered = post(client, setup, token, verb="answer", rolls=[12])
    assert answered.status_code in (200, 202), answered.text
    assert answered.json().get("answered") is True
    # what the 12 did is the game master's: it names the assassin, and no link shows it
    waiting = client.get(f"/api/tables/{setup.inn.id}?token={setup.inn.gm_token}").json()
    assert any("Assassin" in line for line in waiting["pending"]["did"])
    for shown in (
        client.get(f"/p/{setup.inn.id}/ask?token={token}"),
        client.get(f"/p/{setup.inn.id}?token={token}"),
        client.get(f"/api/tables/{setup.inn.id}?token={token}"),
    ):
        assert shown.status_code == 200 and "Assassin" not in shown.text


def test_table_link_prints_where_the_server_answers(setup: Setup) -> None:
    """Issue 36, item 1: `table link` printed port 8000 while `affray serve` ran on
    another; the server keeps its address with the database, and the link uses it."""
    db = setup.db
    assert terminal(db, "table", "link", "ford", "Spearman")["url"].startswith(
        "http://127.0.0.1:8000/p/ford?token="
    )  # no server has said where it answers yet
    with Store(db) as store:
        store.set_setting("served_at", "http://192.168.1.20:8123")
    made = terminal(db, "table", "link", "ford", "Spearman")
    assert made["url"] == f"http://192.168.1.20:8123/p/ford?token={made['token']}"
    given = terminal(db, "table", "link", "ford", "Spearman", "--base", "http://x:1")
    assert given["url"].startswith("http://x:1/p/ford")


def test_every_link_is_listed_with_a_copy_button_and_a_qr_code(
    browser: Browser,  # noqa: F811
    server: Server,
) -> None:
    row = server.setup.ford
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, permissions=["clipboard-read", "clipboard-write"]
    )
    gm = context.new_page()
    gm.goto(f"{server.url}/t/{row.id}?token={row.gm_token}")
    for who in ("Spearman", "Sellsword"):
        gm.locator(f'details[data-menu="{who}"] summary').click()
        gm.locator(f'details[data-menu="{who}"] button', has_text="Player's link").click()
        expect(gm.locator(f'#links li[data-who="{who}"]')).to_have_count(1)  # listed for good
    links = gm.locator("#links")
    links.locator("summary").first.click()
    expect(links.locator("li")).to_have_count(2)
    spear = links.locator('li[data-who="Spearman"]')
    url = spear.locator("a.player-own-link").get_attribute("href") or ""
    assert url.startswith(f"{server.url}/p/{row.id}?token=")
    spear.locator("button.copy").click()
    expect(spear.locator("button.copy")).to_have_text("Copied")
    assert gm.evaluate("navigator.clipboard.readText()") == url
    spear.locator("details.qr summary").click()
    expect(spear.locator("details.qr svg")).to_be_visible()
    shots(gm, "links")
    # the link opens the spearman's own page
    phone = context.new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(url)
    expect(phone.locator("#you h2")).to_contain_text("Spearman")
    context.close()
