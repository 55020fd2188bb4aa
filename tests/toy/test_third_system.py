"""A third rule system, "coin", a package of its own in tests/toy/ (pyproject,
entry point, CLI group, bestiary, question topic), installed with pip as a third
party's would be: affray finds it through the ``affray.systems`` entry point and
serves it through every door: sheets, encounter files, duels, fights, the CLI, the
table and the web tracker. These are the steps of docs/systems.md, followed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

import affray
from affray import registry
from affray.dice import ScriptedDice
from affray.encounter import RecordingChooser, ReplayChooser, ScriptedChooser
from affray.errors import SheetError
from tests.helpers import run
from tests.web.conftest import free_port

TOY = Path(__file__).resolve().parent
AFFRAY = Path(sys.executable).with_name("affray")
OFFLINE = ("--quiet", "--no-deps", "--no-index", "--no-build-isolation")
"""pip's options for installing the toy here and now, from its folder alone."""


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toy package installed with pip into a folder of its own (docs/systems.md,
    step 5), offline: that folder on the path is the plug-in installed."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", *OFFLINE, "--target", str(target), str(TOY)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    assert (target / "affray_coin" / "system.py").is_file()
    return target


@pytest.fixture
def coin(installed: Path) -> Iterator[Any]:
    """The toy found through its entry point in this process (and forgotten after)."""
    sys.path.insert(0, str(installed))
    registry.reload()
    import affray_coin.rules

    yield affray_coin.rules
    sys.path.remove(str(installed))
    registry.reload()


@pytest.fixture(autouse=True)
def coin_system(coin: Any) -> None:
    assert "coin" in registry.systems()


def affray_cli(
    installed: Path, *args: str, db: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``affray ARGS`` in a process of its own that has the toy installed."""
    env = {**os.environ, "PYTHONPATH": str(installed)}
    if db is not None:
        env["AFFRAY_DB"] = str(db)
    return subprocess.run(
        [str(AFFRAY), *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )


def write_fight(tmp_path: Path, options: str = "") -> Path:
    (tmp_path / "ann.toml").write_text('system = "coin"\nname = "Ann"\nhits = 3\nknack = 2\n')
    (tmp_path / "bob.toml").write_text('system = "coin"\nname = "Bob"\nhits = 2\n')
    path = tmp_path / "coins.toml"
    path.write_text(
        f'system = "coin"\nname = "Coins"\n{options}\n'
        '[[sides]]\nname = "Heads"\nmembers = ["ann.toml"]\n'
        '[[sides]]\nname = "Tails"\nmembers = ["2 bob.toml"]\n'
    )
    return path


def test_the_toy_system_is_found_through_its_entry_point(installed: Path) -> None:
    assert affray.systems() == ["mst2", "midian", "coin"]  # the built-ins first
    assert registry.broken() == {}
    shown = affray_cli(installed, "--help")
    assert shown.returncode == 0
    assert re.search(r"^  coin +Coin: the toy rule system", shown.stdout, re.MULTILINE)


def test_without_the_package_there_is_no_toy_system() -> None:
    # a process of its own, without the folder the toy is installed in: coin is there
    # exactly when its package is installed (this venv has not, unless someone did
    # docs/systems.md's step 5 in it)
    code = (
        "import importlib.util, affray\n"
        "print(affray.systems(), importlib.util.find_spec('affray_coin') is not None)"
    )
    alone = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    listed, installed = alone.stdout.rsplit(" ", 1)
    expected = ["mst2", "midian", "coin"] if installed.strip() == "True" else ["mst2", "midian"]
    assert listed == str(expected)


def test_unregistering_takes_the_narration_with_it(coin: Any) -> None:
    flip = coin.Flipped("Ann", "Bob", 5, True, False, 1)
    assert affray.narrate([flip]) == ["Ann flips 5 at Bob: hits (1 left)"]
    registry.unregister("coin")
    assert affray.narrate([flip])[0].startswith("flipped: ")  # shown as data, untold


def test_an_encounter_file_of_the_toy_system_fights_to_the_end(tmp_path: Path) -> None:
    fight = affray.fight(write_fight(tmp_path), seed=4)
    assert fight.winner in ("Heads", "Tails")
    assert [c.id for c in fight.combatants] == ["Ann", "Bob 1", "Bob 2"]
    losers = [c for c in fight.combatants if c.side != fight.winner]
    assert all(c.state["hits"] == 0 and c.condition == "out" for c in losers)
    lines = affray.narrate(fight.events)
    assert any(" flips " in line for line in lines)
    assert lines[-1].startswith("Winner: ")


def test_scripted_dice_and_choices_decide_a_toy_fight(coin: Any, tmp_path: Path) -> None:
    # Round 1: Ann flips 2 (+2 knack = 4) at Bob 1 (nearest: the first listed): a hit; Bob 1's
    # AI ducks (its first option) and rolls 6: ducked. Bob 1 flips 1: a miss. Bob 2 flips 6:
    # a hit, and Ann takes it, as typed in for her: no duck roll.
    ai = registry.system("coin").ai(coin.CoinRuleset(), {}, dice=ScriptedDice([]))
    chooser = ScriptedChooser({"duck": "take it"}, ai, who="Ann")
    dice = ScriptedDice([2, 6, 1, 6])
    fight = affray.fight(write_fight(tmp_path), dice=dice, chooser=chooser, max_rounds=1)
    flips = [e for e in fight.events if isinstance(e, coin.Flipped)]
    assert [(f.attacker, f.hit, f.ducked, f.hits_left) for f in flips] == [
        ("Ann", True, True, 2),
        ("Bob 1", False, False, 3),
        ("Bob 2", True, False, 2),
    ]
    assert dice.remaining == ()


def test_a_recorded_fight_replays_to_the_same_events(tmp_path: Path) -> None:
    path = write_fight(tmp_path)
    from affray.dice import RandomDice
    from affray.sheets import load_encounter

    setup = load_encounter(path)
    dice = RandomDice(11, record=True)
    recorder = RecordingChooser(setup.system.ai(setup.ruleset, setup.tactics, dice=dice))
    first = affray.fight(setup, dice=dice, chooser=recorder)
    replay = affray.fight(
        load_encounter(path),
        dice=ScriptedDice(dice.recorded),
        chooser=ReplayChooser(recorder.answers),
    )
    assert replay.events == first.events
    assert len(recorder.answers) > 0


def test_a_simulated_toy_duel_and_its_odds(tmp_path: Path) -> None:
    write_fight(tmp_path)
    ann = affray.load(tmp_path / "ann.toml")
    bob = affray.load(tmp_path / "bob.toml")
    sim = affray.duel(ann, bob, n=600, seed=2)
    assert sim.engine == "reference" and sim.n == 600
    assert sim == affray.duel(ann, bob, n=600, seed=2)
    assert sim.p_a_wins > 0.5  # Ann hits on 2+ with her knack and has more hits


def test_the_toy_systems_cli_group_and_bestiary(installed: Path, tmp_path: Path) -> None:
    flipped = affray_cli(installed, "coin", "flip", "coin:knave", "squire", "--seed", "3")
    assert flipped.returncode == 0, flipped.stderr
    assert flipped.stdout.startswith("Knave flips ") and " at Squire: a " in flipped.stdout
    duel = affray_cli(
        installed, "duel", "coin:knave", "coin:squire", "-n", "400", "--seed", "2", "--json"
    )
    assert duel.returncode == 0, duel.stderr
    answer = json.loads(duel.stdout)
    assert answer["method"] == "monte-carlo" and answer["engine"] == "reference"
    assert answer["n"] == 400 and answer["a_wins"] > answer["b_wins"]
    exact = affray_cli(installed, "duel", "coin:knave", "coin:squire", "--exact")
    assert exact.returncode == 2 and "Coin has no exact duel odds" in exact.stderr
    unknown = affray_cli(installed, "duel", "coin:nobody", "coin:squire")
    assert unknown.returncode == 2 and "knave, squire" in unknown.stderr


def test_the_toy_system_fights_an_encounter_file_in_the_cli(
    installed: Path, tmp_path: Path
) -> None:
    path = write_fight(tmp_path)
    told = affray_cli(installed, "fight", str(path), "--seed", "4")
    assert told.returncode == 0, told.stderr
    assert "Coins (coin)" in told.stdout and " flips " in told.stdout
    many = json.loads(affray_cli(installed, "fight", str(path), "-n", "200", "--json").stdout)
    assert many["method"] == "monte-carlo" and many["n"] == 200
    assert sum(side["wins"] for side in many["sides"].values()) + many["draws"] == 200


def test_the_toy_system_at_the_table_and_on_the_web(installed: Path, tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    made = json.loads(
        affray_cli(installed, "table", "new", "Coins", "--system", "coin", "--json", db=db).stdout
    )
    for sheet, side in (("coin:knave", "heads"), ("squire", "tails")):
        added = affray_cli(installed, "table", "add", "coins", sheet, "--side", side, db=db)
        assert added.returncode == 0, added.stderr
    assert affray_cli(installed, "table", "start", "coins", db=db).returncode == 0
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(installed), "AFFRAY_DB": str(db)}
    server = subprocess.Popen(
        [str(AFFRAY), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                page = httpx.get(f"{url}/t/coins?token={made['gm_token']}", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the tracker did not start"
                time.sleep(0.1)
        assert page.status_code == 200 and "Knave" in page.text and "Squire" in page.text
        api = f"{url}/api/tables/coins"
        gm = {"Authorization": f"Bearer {made['gm_token']}"}
        shown = httpx.get(api, headers=gm, timeout=10).json()
        who = shown["turn"]
        foe = "Squire" if who == "Knave" else "Knave"
        command = {"verb": "act", "actor": who, "action": "attack", "target": foe}
        command |= {"rolls": [6], "choose": {f"{foe}:duck": "take it"}}
        body = {"expected_version": shown["version"], "command": command}
        acted = httpx.post(f"{api}/commands", json=body, headers=gm, timeout=30)
        assert acted.status_code == 200, acted.text
        assert acted.json()["lines"][-1] == f"{who} flips 6 at {foe}: hits (1 left)"
    finally:
        server.terminate()
        server.wait(timeout=20)
    ended = affray_cli(installed, "table", "run", "coins", "--to-end", "--seed", "1", db=db)
    assert ended.returncode == 0, ended.stderr
    assert "Winner: " in ended.stdout


def test_the_cli_fights_and_duels_the_toy_system(tmp_path: Path) -> None:
    path = write_fight(tmp_path)
    told = run("fight", str(path), "--seed", "4")
    assert told.exit_code == 0, told.output
    assert "Coins (coin)" in told.stdout and " flips " in told.stdout
    data = json.loads(run("fight", str(path), "--seed", "4", "--json").stdout)
    assert data["system"] == "coin" and data["combatants"][0]["hits"] >= 0
    duel = run("duel", str(tmp_path / "ann.toml"), str(tmp_path / "bob.toml"), "--narrate")
    assert duel.exit_code == 0 and "Ann vs Bob" in duel.stdout
    sim = json.loads(
        run(
            "duel",
            str(tmp_path / "ann.toml"),
            str(tmp_path / "bob.toml"),
            "-n",
            "300",
            "--workers",
            "1",
            "--json",
        ).stdout
    )
    assert sim["method"] == "monte-carlo" and sim["engine"] == "reference"


def test_the_toy_systems_keys_are_checked_like_any_other(tmp_path: Path) -> None:
    with pytest.raises(SheetError) as caught:
        affray.fight(write_fight(tmp_path, "lethality = 'high'"), seed=1)
    assert caught.value.key == "lethality"
    assert "is an MST-2 option, but this is a Coin encounter" in str(caught.value)
    with pytest.raises(SheetError) as caught:
        affray.fight(write_fight(tmp_path, "knack_bonus = 'x'"), seed=1)
    assert caught.value.key == "knack_bonus"


def test_the_toy_systems_own_question_is_answered_at_the_table(tmp_path: Path) -> None:
    from affray.table import Act, Start, Store, Tables

    write_fight(tmp_path)
    tables = Tables(Store(tmp_path / "t.db"))
    row = tables.new("Coins", "coin")
    for sheet, side in (("ann.toml", "Heads"), ("bob.toml", "Tails")):
        tables.run(row, tables.joining(row, str(tmp_path / sheet), side=side))
    state = tables.run(row, Start()).state
    actor = state.current
    assert actor is not None
    foe = "Bob" if actor == "Ann" else "Ann"
    done = tables.run(
        row, Act(actor, "attack", foe), rolls=(6,), choices=[f"{foe}:duck=take it"], seed=1
    )
    flipped = [e.to_dict() for e in done.events if e.kind == "flipped"]
    assert flipped and flipped[0]["hit"] and not flipped[0]["ducked"]
    answers = tables.fold(row).done[-1].inputs.answers
    assert (answers[-1].who, answers[-1].topic, answers[-1].label) == (foe, "duck", "take it")
    with pytest.raises(affray.AffrayError, match="TOPIC is one of: action, duck"):
        tables.run(row, Act(foe, "attack", actor), choices=["defence=dodge"])
