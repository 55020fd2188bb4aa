"""What waits is never dropped by another window, quick keys add (two clicks, +2), and
a player's own turn is played once (issue 49)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from affray.errors import PendingError
from affray.table import Store, Tables
from affray.table.commands import Set
from tests.web.conftest import Setup


def do(client: TestClient, setup: Setup, **fields: Any) -> httpx.Response:
    answer = client.post(
        "/t/ford/do",
        data={k: str(v) for k, v in fields.items()},
        headers={"Authorization": f"Bearer {setup.ford.gm_token}"},
    )
    assert answer.status_code == 200, answer.text
    return answer


def shown(client: TestClient, setup: Setup) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/tables/ford?token={setup.ford.gm_token}").json()
    return found


def wounds(client: TestClient, setup: Setup) -> dict[str, int]:
    return {c["id"]: c["state"]["wounds"] for c in shown(client, setup)["combatants"]}


def waiting_attack(client: TestClient, setup: Setup) -> dict[str, Any]:
    """Round 1 started and whoever's turn it is attacking, waiting for its d20."""
    do(client, setup, verb="start", expected_version=shown(client, setup)["version"])
    now = shown(client, setup)
    foe = next(c["id"] for c in now["combatants"] if c["id"] != now["turn"])
    do(
        client,
        setup,
        verb="act",
        actor=now["turn"],
        action="attack",
        target=foe,
        expected_version=now["version"],
    )
    pending = shown(client, setup)["pending"]
    assert pending is not None and "die" in pending["needs"]
    return pending


def test_another_windows_quick_key_leaves_what_waits_waiting(
    client: TestClient, setup: Setup
) -> None:
    pending = waiting_attack(client, setup)
    before = shown(client, setup)
    # the other window saw the same question, and clicks + beside someone's wounds
    do(
        client,
        setup,
        verb="set",
        who="Spearman",
        adds="wounds=1",
        shown_waiting=pending["question"],
    )
    after = shown(client, setup)
    assert after["version"] == before["version"] + 1
    assert wounds(client, setup)["Spearman"] == 1
    assert after["pending"] is not None
    assert after["pending"]["question"] == pending["question"]  # the same question, by its id
    assert after["pending"]["needs"] == pending["needs"]


def test_another_change_from_a_window_is_refused_naming_what_waits(
    client: TestClient, setup: Setup
) -> None:
    pending = waiting_attack(client, setup)
    before = shown(client, setup)
    for fields in (
        {"verb": "next"},
        {"verb": "note", "text": "the ford is slippery"},
        {"verb": "set", "who": "Spearman", "pairs": "wounds=2"},
    ):
        said = do(
            client,
            setup,
            **fields,
            expected_version=before["version"],
            shown_waiting=pending["question"],
        ).text
        assert "waits for a d20" in said and "finish it or cancel it first" in said, fields
        assert shown(client, setup)["version"] == before["version"]
        assert shown(client, setup)["pending"]["question"] == pending["question"]
    do(client, setup, verb="cancel", expected_version=before["version"])  # then it may go
    assert shown(client, setup)["pending"] is None


def test_two_quick_clicks_on_plus_make_two_and_no_conflict(
    client: TestClient, setup: Setup
) -> None:
    version = shown(client, setup)["version"]
    for _ in range(2):  # both sent from the page as it was, before either came back
        said = do(client, setup, verb="set", who="Sellsword", adds="wounds=1").text
        assert "The table changed" not in said
    assert wounds(client, setup)["Sellsword"] == 2
    assert shown(client, setup)["version"] == version + 2
    do(client, setup, verb="set", who="Sellsword", adds="wounds=-1")
    assert wounds(client, setup)["Sellsword"] == 1
    log = client.get(f"/api/tables/ford/log?token={setup.ford.gm_token}").json()["changes"]
    assert log[-1]["what"] == "set Sellsword wounds-1"


def test_a_change_beside_what_waits_that_would_alter_it_is_refused(
    client: TestClient, setup: Setup
) -> None:
    """A change kept beside what waits (as quick keys are) that would make the command
    that waits ask something else, or end, is refused: the Spearman's attack waits for
    its d20, and the Spearman put out of the fight by fiat could not go on with it."""
    pending = waiting_attack(client, setup)
    tables = Tables(Store(setup.db))
    row = tables.table("ford")
    attacker = shown(client, setup)["turn"]
    before = shown(client, setup)["version"]
    with pytest.raises(PendingError, match="waits for a d20") as refused:
        tables.run(row, Set(attacker, {"condition": "dead"}), beside=True)
    assert refused.value.question == pending["question"]
    assert f"{attacker}: attack" in refused.value.message
    assert shown(client, setup)["version"] == before
    assert shown(client, setup)["pending"]["question"] == pending["question"]
    # kept beside it, a change the attack goes on the same after is applied
    tables.run(row, Set(attacker, adds={"wounds": 1}), beside=True)
    assert shown(client, setup)["version"] == before + 1
    assert shown(client, setup)["pending"]["question"] == pending["question"]


def bench() -> Any:
    """bench/own_turn.py, whose counts of a phone's act this test holds."""
    path = Path(__file__).resolve().parents[2] / "bench" / "own_turn.py"
    spec = importlib.util.spec_from_file_location("own_turn_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("faces", "plays", "outcome"),
    [((1,), 1, "done"), ((20, 6, 6), 1, "waits: the next die is a d6 for Goblin's shock")],
    ids=["a one-die miss", "three own dice then a foe's"],
)
def test_a_phones_act_is_played_once_and_written_once(
    faces: tuple[int, ...], plays: int, outcome: str
) -> None:
    """One play and one write: the change, or what waits (with what the faces did: the
    command played on past the stop with made-up dice, in the same play)."""
    counted, said = bench().measure(faces)
    assert (counted.plays, counted.writes) == (plays, 1)
    assert said.startswith(outcome)
    if outcome == "done":
        assert counted.changes == 1 and counted.waiting is None
    else:
        assert counted.changes == 0 and counted.waiting == list(faces)
