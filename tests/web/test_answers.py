"""Answers through the API (SPEC part 3): answers belong to who is asked, a 422 for a
die or an answer carries every face used so far and leaves the command waiting (GET
shows it as ``pending``), ``answer`` goes on with it, any other change drops it, and
``run`` leaves turns to the tactics."""

from __future__ import annotations

from typing import Any

import httpx2 as httpx
from starlette.testclient import TestClient

from tests.web.conftest import Setup


def gm(setup: Setup) -> dict[str, str]:
    return {"Authorization": f"Bearer {setup.inn.gm_token}"}


def post(client: TestClient, setup: Setup, expected: int, **fields: Any) -> httpx.Response:
    return client.post(
        f"/api/tables/{setup.inn.id}/commands",
        json={"expected_version": expected, "command": fields},
        headers=gm(setup),
    )


def shown(client: TestClient, setup: Setup) -> dict[str, Any]:
    data: dict[str, Any] = client.get(f"/api/tables/{setup.inn.id}", headers=gm(setup)).json()
    return data


def stances(client: TestClient, setup: Setup) -> dict[str, str]:
    return {c["id"]: c["state"]["stance"] for c in shown(client, setup)["combatants"]}


def test_a_choice_for_one_combatant_is_that_combatants_alone(
    client: TestClient, setup: Setup
) -> None:
    response = post(
        client,
        setup,
        2,
        verb="start",
        rolls=[3, 10],
        roll_rest=True,
        choose={"Brawler:stance": "evasion"},
    )
    assert response.status_code == 200, response.text
    assert stances(client, setup)["Brawler"] == "evasion"
    assert stances(client, setup)["Guard"] != "evasion"
    post(client, setup, 3, verb="undo")
    both = post(client, setup, 4, verb="start", rolls=[3, 10], choose={"stance": "defensive"})
    assert both.status_code == 200
    assert set(stances(client, setup).values()) == {"defensive"}


def test_a_422_carries_the_faces_used_and_the_command_waits(
    client: TestClient, setup: Setup
) -> None:
    assert (
        post(client, setup, 2, verb="start", rolls=[3, 10], choose={"stance": "normal"}).status_code
        == 200
    )
    # the brawler attacks with no die typed: the API says which die, with no face used yet
    first = post(
        client,
        setup,
        3,
        verb="act",
        actor="Brawler",
        action="attack",
        target="Guard",
        roll_missing=False,
        choose_missing=False,
    )
    assert first.status_code == 422
    assert first.json()["needs"]["die"]["sides"] == 20 and first.json()["rolls"] == []
    assert shown(client, setup)["pending"]["who"] == "Brawler"
    # a 15 hits: now the guard is asked how to defend, and the 15 is kept
    second = post(client, setup, 3, verb="answer", rolls=[15])
    assert second.status_code == 422
    assert second.json()["rolls"] == [15]
    choice = second.json()["needs"]["choice"]
    assert (choice["who"], choice["topic"]) == ("Guard", "defence")
    pending = shown(client, setup)["pending"]
    assert (pending["who"], pending["rolls"]) == ("Guard", [15])
    # a wrong answer is refused and it still waits
    assert (
        post(client, setup, 3, verb="answer", choose={"Guard:defence": "juggle"}).status_code == 422
    )
    assert shown(client, setup)["pending"]["rolls"] == [15]
    # the answer and the damage die: the attack applied is the 15
    done = post(client, setup, 3, verb="answer", choose={"Guard:defence": "take it"}, rolls=[3])
    assert done.status_code == 200, done.text
    attack = next(e for e in done.json()["events"] if e["event"] == "attack_rolled")
    assert attack["die"]["face"] == 15
    assert shown(client, setup)["pending"] is None
    # re-posting the faces of a 422 with the answer repeats those dice (no server state)
    post(client, setup, 4, verb="undo")
    again = post(
        client,
        setup,
        5,
        verb="act",
        actor="Brawler",
        action="attack",
        target="Guard",
        rolls=[15, 3],
        choose={"Guard:defence": "take it"},
    )
    assert again.json()["events"] == done.json()["events"]


def test_any_other_change_drops_the_waiting_command(client: TestClient, setup: Setup) -> None:
    assert post(client, setup, 2, verb="start", roll_missing=False).status_code == 422
    assert shown(client, setup)["pending"]["needs"]["die"]["sides"] == 10
    assert post(client, setup, 2, verb="note", text="a drink first").status_code == 200
    assert shown(client, setup)["pending"] is None
    refused = post(client, setup, 3, verb="answer", rolls=[3])
    assert refused.status_code == 422 and "no command is waiting" in refused.json()["error"]


def test_run_leaves_the_fight_to_the_tactics(client: TestClient, setup: Setup) -> None:
    one = post(client, setup, 2, verb="run", seed=1)
    assert one.status_code == 200 and one.json()["round"] == 1
    rest = post(client, setup, 3, verb="run", to_end=True, seed=1)
    assert rest.status_code == 200 and rest.json()["phase"] == "over"
    assert post(client, setup, 4, verb="undo").json()["phase"] != "over"


def test_an_answer_names_its_question_and_a_stale_one_changes_nothing(
    client: TestClient, setup: Setup
) -> None:
    """SPEC part 4: a pending question carries an id, and an answer whose id is not
    the pending question's is a 409 that changes nothing. The game master answered the
    guard's initiative die from his page; the guard's phone, still showing it, sends
    its 4: it is refused, and never taken as the next die."""
    first = post(client, setup, 2, verb="start", roll_missing=False, choose_missing=False)
    assert first.status_code == 422
    question = first.json()["needs"]["question"]
    assert shown(client, setup)["pending"]["question"] == question
    took = post(client, setup, 2, verb="answer", rolls=[3], question=question)
    assert took.status_code == 422  # answered: the next question (the brawler's die)
    after = shown(client, setup)["pending"]
    assert after["question"] != question and after["rolls"] == [3]
    stale = post(client, setup, 2, verb="answer", rolls=[4], question=question)
    assert stale.status_code == 409
    assert stale.json()["question"] == after["question"]
    assert shown(client, setup)["pending"] == after  # nothing changed
    assert post(client, setup, 2, verb="answer", rolls=[4], question="nonsense").status_code == 409
    # the current id goes on
    choice = after["needs"].get("choice")
    answer = {"choose": {choice["topic"]: "normal"}} if choice else {"rolls": [10]}
    on = post(client, setup, 2, verb="answer", question=after["question"], **answer)
    assert on.status_code in (200, 422), on.text
    assert shown(client, setup)["pending"] != after
