"""The tracker's home page: its key, every table with its two links (tables made in a
terminal too, without a restart), a new table with its options, archive, bring back
and delete."""

from __future__ import annotations

from starlette.testclient import TestClient

from affray.table import Store, Tables
from tests.web.conftest import Setup


def key_of(setup: Setup) -> str:
    with Store(setup.db) as store:
        return store.home_key()


def test_the_home_page_needs_its_key(client: TestClient, setup: Setup) -> None:
    assert client.get("/").status_code == 401
    assert client.get("/?key=nonsense").status_code == 403
    assert client.post("/home/do", data={"verb": "new", "name": "X"}).status_code == 401
    key = key_of(setup)
    assert key == key_of(setup)  # kept with the database
    page = client.get(f"/?key={key}")
    assert page.status_code == 200
    for row in (setup.ford, setup.inn):
        assert f"/t/{row.id}?token={row.gm_token}" in page.text
        assert f"/p/{row.id}?token={row.player_token}" in page.text


def test_tables_made_elsewhere_show_up_and_new_ones_are_made(
    client: TestClient, setup: Setup
) -> None:
    key = key_of(setup)
    auth = {"Authorization": f"Bearer {key}"}
    tables = Tables(Store(setup.db))
    made = tables.new("Cellar", "midian")
    tables.store.close()
    assert "Cellar" in client.get("/home/list", headers=auth).text
    done = client.post(
        "/home/do",
        data={
            "verb": "new",
            "name": "Bridge",
            "system": "mst2",
            "options": "order=shuffled max_rounds=20",
        },
        headers=auth,
    )
    assert done.status_code == 200 and "Made Bridge." in done.text
    with Store(setup.db) as store:
        bridge = store.table("bridge")
    assert (bridge.system, dict(bridge.options)) == (
        "mst2",
        {"ask_circumstance": False, "order": "shuffled", "max_rounds": 20},  # MST-2's default
    )
    refused = client.post(
        "/home/do",
        data={"verb": "new", "name": "Bad", "system": "mst2", "options": "speed=3"},
        headers=auth,
    )
    assert "speed" in refused.text and "Made" not in refused.text
    # archive, bring back, delete (only an archived table)
    not_yet = client.post("/home/do", data={"verb": "delete", "table": made.id}, headers=auth)
    assert "archive a table before deleting it" in not_yet.text
    client.post("/home/do", data={"verb": "archive", "table": made.id}, headers=auth)
    listed = client.get("/home/list", headers=auth).text
    assert 'id="archived"' in listed and "Bring back" in listed
    client.post("/home/do", data={"verb": "restore", "table": made.id}, headers=auth)
    assert 'id="archived"' not in client.get("/home/list", headers=auth).text
    client.post("/home/do", data={"verb": "archive", "table": made.id}, headers=auth)
    gone = client.post("/home/do", data={"verb": "delete", "table": made.id}, headers=auth)
    assert "Deleted Cellar." in gone.text
    with Store(setup.db) as store:
        assert made.id not in [row.id for row, _ in store.tables()]


def test_parties_on_the_home_page(client: TestClient, setup: Setup) -> None:
    auth = {"Authorization": f"Bearer {key_of(setup)}"}

    def do(**form: str) -> str:
        answer = client.post("/home/do", data=form, headers=auth)
        assert answer.status_code == 200
        return answer.text

    assert "Made the party The Company." in do(verb="party-new", name="The Company", system="mst2")
    assert "joins The Company" in do(
        verb="party-add", party="the-company", sheet="goblin", **{"as": "Snaga"}
    )
    listed = client.get("/home/list", headers=auth).text
    assert "Snaga" in listed and "fresh" in listed and "party:the-company" in listed
    assert "rests 2 days" in do(verb="party-rest", party="the-company", days="2")
    assert "days of rest" in do(verb="party-rest", party="the-company", days="0")
    do(verb="party-undo", party="the-company")
    assert "unknown verb" in do(verb="party-dance", party="the-company")


def test_an_unknown_verb_of_the_home_form_is_named(client: TestClient, setup: Setup) -> None:
    """Hostile round 4, item 10: an unknown verb said "no table ''"."""
    answer = client.post(f"/home/do?key={key_of(setup)}", data={"verb": "juggle"})
    assert answer.status_code == 200
    assert "unknown verb &#39;juggle&#39;" in answer.text and "no table" not in answer.text
