"""A third rule system, defined in tests/ only, runs through every door: sheets,
encounter files, fights (with the CLI's narration) and simulated duels."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import affray
from affray.dice import ScriptedDice
from affray.encounter import RecordingChooser, ReplayChooser, ScriptedChooser
from affray.errors import SheetError
from tests.helpers import run
from tests.toy import coin


@pytest.fixture(autouse=True)
def coin_system() -> Iterator[None]:
    coin.install()
    yield
    coin.remove()


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


def test_the_toy_system_is_registered() -> None:
    assert "coin" in affray.systems()


def test_an_encounter_file_of_the_toy_system_fights_to_the_end(tmp_path: Path) -> None:
    fight = affray.fight(write_fight(tmp_path), seed=4)
    assert fight.winner in ("Heads", "Tails")
    assert [c.id for c in fight.combatants] == ["Ann", "Bob 1", "Bob 2"]
    losers = [c for c in fight.combatants if c.side != fight.winner]
    assert all(c.state["hits"] == 0 and c.condition == "out" for c in losers)
    lines = affray.narrate(fight.events)
    assert any(" flips " in line for line in lines)
    assert lines[-1].startswith("Winner: ")


def test_scripted_dice_and_choices_decide_a_toy_fight(tmp_path: Path) -> None:
    # Round 1: Ann flips 2 (+2 knack = 4) at Bob 1 (nearest: the first listed): a hit; Bob 1's
    # AI ducks (its first option) and rolls 6: ducked. Bob 1 flips 1: a miss. Bob 2 flips 6:
    # a hit, and Ann takes it, as typed in for her: no duck roll.
    ai = coin.SYSTEM.ai(coin.CoinRuleset(), {}, ScriptedDice([]))
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
    recorder = RecordingChooser(setup.system.ai(setup.ruleset, setup.tactics, dice))
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
