"""`affray fight ENC -n N`: the odds of whole encounters by simulation, seeded per
chunk (the same answer for any number of workers), agreeing with the exact duel on a
1-vs-1 file, and what the SPEC's JSON holds."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

import affray
from affray.cli.main import cli
from affray.dice import RandomDice
from affray.encounter import Answers
from affray.sheets.encounters import tactics_dice
from affray.sim.fights import (
    FightTotals,
    encounter_file,
    fight_many,
    set_out,
    simulate_fights,
)
from tests.helpers import EXAMPLES

ENCOUNTERS = sorted((EXAMPLES / "encounters").glob("*.toml"))


def test_the_answer_does_not_depend_on_the_workers() -> None:
    start = encounter_file(EXAMPLES / "encounters" / "ambush.toml")
    one = simulate_fights(start, 450, seed=5, workers=1)
    two = simulate_fights(start, 450, seed=5, workers=2)
    assert one.totals == two.totals
    assert one.to_dict() == two.to_dict()
    other = simulate_fights(start, 450, seed=6, workers=1)
    assert other.totals != one.totals


def test_totals_add_up_and_count_every_fight() -> None:
    start = encounter_file(EXAMPLES / "encounters" / "city_watch.toml")
    odds = simulate_fights(start, 300, seed=2)
    totals = odds.totals
    assert totals.n == 300
    assert sum(totals.wins.values()) + totals.draws == 300
    assert sum(totals.rounds.values()) == 300
    assert totals.total_rounds == sum(r * c for r, c in totals.rounds.items())
    assert all(0 <= count <= 300 for count in totals.standing.values())
    assert FightTotals() + totals == totals


@pytest.mark.parametrize("encounter", ENCOUNTERS, ids=[p.stem for p in ENCOUNTERS])
def test_a_simulated_fight_is_the_fight_affray_fight_tells(encounter: Path) -> None:
    """Given the same dice and tactics dice, one simulated fight ends as the narrated
    fight of `affray fight --seed` does: the same turn loop."""
    fighting = set_out(encounter_file(encounter))
    for seed in range(5):
        told = affray.fight(encounter, seed=seed)
        ai = fighting.system.ai(fighting.ruleset, fighting.tactics, dice=tactics_dice(seed))
        totals = fight_many(fighting, Answers(RandomDice(seed), ai), 1)
        assert totals.wins == ({told.winner: 1} if told.winner else {})
        assert totals.rounds == {told.rounds: 1}
        standing = {c.id for c in told.combatants if c.condition in ("fighting", "conscious")}
        assert set(totals.standing) == standing


def test_a_one_on_one_file_agrees_with_the_exact_duel(tmp_path: Path) -> None:
    knight, ogre = EXAMPLES / "mst2" / "knight.json", EXAMPLES / "mst2" / "ogre.toml"
    path = tmp_path / "pair.toml"
    path.write_text(
        'system = "mst2"\nname = "Pair"\nmax_rounds = 1000\n'
        f'[[sides]]\nname = "Knight"\nmembers = ["{knight}"]\n'
        f'[[sides]]\nname = "Ogre"\nmembers = ["{ogre}"]\n'
    )
    exact = affray.duel(affray.load(knight), affray.load(ogre))
    n = 3000
    odds = simulate_fights(encounter_file(path), n, seed=11, workers=2)
    sigma = math.sqrt(exact.p_a_wins * (1 - exact.p_a_wins) / n)
    assert abs(odds.p_wins("Knight") - exact.p_a_wins) < 4 * sigma
    assert odds.p_standing("Knight") == pytest.approx(odds.p_wins("Knight"))


def test_the_cli_gives_the_spec_json_and_refuses_what_does_not_go(tmp_path: Path) -> None:
    runner = CliRunner()
    ambush = str(EXAMPLES / "encounters" / "ambush.toml")
    plot = tmp_path / "odds.png"
    result = runner.invoke(
        cli,
        [
            "fight",
            ambush,
            "-n",
            "250",
            "--seed",
            "4",
            "--workers",
            "1",
            "--json",
            "--plot",
            str(plot),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["method"] == "monte-carlo" and data["n"] == 250
    assert set(data) >= {"sides", "draws", "p_draw", "mean_rounds", "combatants"}
    for side in data["sides"].values():
        assert set(side) >= {"wins", "p_wins", "ci95"}
        low, high = side["ci95"]
        assert low <= side["p_wins"] <= high
    assert sum(s["wins"] for s in data["sides"].values()) + data["draws"] == 250
    assert all(0 <= c["p_standing"] <= 1 for c in data["combatants"].values())
    assert plot.stat().st_size > 10_000
    again = runner.invoke(
        cli, ["fight", ambush, "-n", "250", "--seed", "4", "--workers", "2", "--json"]
    )
    assert json.loads(again.stdout)["sides"] == data["sides"]
    for bad in (["--rolls", "1,2"], ["--odds"]):
        refused = runner.invoke(cli, ["fight", ambush, "-n", "10", *bad])
        assert refused.exit_code == 2 and "-n simulates many fights" in refused.output
    lone = runner.invoke(cli, ["fight", ambush, "--workers", "2"])
    assert lone.exit_code == 2 and "go with -n N" in lone.output


def test_an_edited_file_is_fought_as_it_is_now(tmp_path: Path) -> None:
    knight = EXAMPLES / "mst2" / "knight.json"
    path = tmp_path / "pair.toml"

    def write(count: int) -> None:
        path.write_text(
            'system = "mst2"\nname = "Pair"\n'
            f'[[sides]]\nname = "Knight"\nmembers = ["{knight}"]\n'
            f'[[sides]]\nname = "Goblins"\nmembers = ["{count} goblins"]\n'
        )

    write(1)
    one = simulate_fights(encounter_file(path), 50, seed=1)
    write(3)
    three = simulate_fights(encounter_file(path), 50, seed=1)
    assert len(one.combatants) == 2 and len(three.combatants) == 4
