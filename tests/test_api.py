"""The public API of SPEC.md: it runs, agrees with the engines, and type-checks in a
user's script under ``mypy --strict``."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import affray
from affray.errors import AffrayError
from tests.helpers import EXAMPLES

SNIPPET = textwrap.dedent(
    f"""
    import affray

    a = affray.load("{EXAMPLES}/mst2/knight.json")
    b = affray.load("{EXAMPLES}/mst2/ogre.toml")
    odds = affray.duel(a, b)
    print(odds.method, odds.p_a_wins, odds.p_b_wins, odds.p_draw, odds.mean_rounds)
    sim = affray.duel(a, b, n=2_000, seed=1)
    print(sim.method, sim.n, sim.a_wins, sim.b_wins, sim.draws, sim.p_a_wins)
    low, high = sim.ci95_a_wins
    print(low <= sim.p_a_wins <= high, sim.mean_rounds)
    fight = affray.fight("{EXAMPLES}/encounters/ambush.toml", seed=3)
    winner: str | None = fight.winner
    rounds: int = fight.rounds
    lines: list[str] = affray.narrate(fight.events)
    systems: list[str] = affray.systems()
    print(winner, rounds, len(lines), systems)
    total: int = sim.a_wins + sim.b_wins + sim.draws  # beyond the SPEC: counts are ints
    share: float = sim.a_wins / sim.n
    print(total == sim.n, share == sim.p_a_wins, hash(odds) == hash(odds), sim.engine)
    """
)


def test_the_spec_snippet_runs_and_type_checks_under_mypy_strict(tmp_path: Path) -> None:
    script = tmp_path / "user_script.py"
    script.write_text(SNIPPET)
    ran = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=False, timeout=120
    )
    assert ran.returncode == 0, ran.stderr
    exact, simulated, interval, fought, counted = ran.stdout.splitlines()
    assert exact.startswith("exact ") and simulated.startswith("monte-carlo 2000 ")
    assert interval.startswith("True ")
    assert fought.endswith("['mst2', 'midian']")
    assert counted == "True True True fast"
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--cache-dir",
            str(tmp_path / "cache"),
            str(script),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        cwd=tmp_path,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_duel_is_exact_where_the_system_has_it_and_simulates_agreeing_with_it() -> None:
    a, b = affray.load(EXAMPLES / "mst2/knight.json"), affray.load(EXAMPLES / "mst2/ogre.toml")
    odds = affray.duel(a, b)
    assert isinstance(odds, affray.DuelAnswer)
    assert abs(odds.p_a_wins + odds.p_b_wins + odds.p_draw - 1) < 1e-12
    for engine in ("fast", "reference"):
        sim = affray.duel(a, b, n=3_000, seed=2, engine=engine)  # type: ignore[arg-type]
        assert sim.engine == engine and sim.n == 3_000
        sigma = (odds.p_a_wins * (1 - odds.p_a_wins) / sim.n) ** 0.5
        assert abs(sim.p_a_wins - odds.p_a_wins) < 4 * sigma
        assert sim.a_wins + sim.b_wins + sim.draws == sim.n


def test_duel_without_exact_odds_simulates_with_the_fast_engine() -> None:
    guard = affray.load(EXAMPLES / "midian/guard.toml")
    brawler = affray.load(EXAMPLES / "midian/brawler.toml")
    sim = affray.duel(guard, brawler, n=400, seed=5)
    assert sim.method == "monte-carlo" and sim.engine == "fast" and sim.note is None
    assert sim == affray.duel(guard, brawler, n=400, seed=5)
    reference = affray.duel(guard, brawler, n=400, seed=5, engine="reference")
    assert reference.engine == "reference" and reference.note is None


def test_a_duel_the_fast_engine_does_not_model_falls_back_and_says_why() -> None:
    archer = affray.load(EXAMPLES / "midian/elf_archer.toml")
    guard = affray.load(EXAMPLES / "midian/guard.toml")
    sim = affray.duel(archer, guard, n=200, seed=5)
    assert sim.engine == "reference" and sim.n == 200
    assert sim.note is not None
    assert "Elf archer's ranged weapon (Long bow)" in sim.note
    assert "the reference engine plays these duels" in sim.note
    reference = affray.duel(archer, guard, n=200, seed=5, engine="reference")
    assert sim == dataclasses.replace(reference, note=sim.note)  # the same duels


def test_a_duel_of_two_systems_is_refused() -> None:
    with pytest.raises(AffrayError, match="different rule systems"):
        affray.duel(
            affray.load(EXAMPLES / "mst2/knight.json"), affray.load(EXAMPLES / "midian/guard.toml")
        )


def test_fight_reports_the_end_and_every_combatant() -> None:
    fight = affray.fight(EXAMPLES / "encounters/ambush.toml", seed=3)
    assert fight.winner in ("Caravan guard", "Bandits", None)
    assert fight.events[-1].kind == "encounter_ended"
    assert {c.id for c in fight.combatants} >= {"Sellsword", "Bandit 1"}
    assert all("wounds" in c.state for c in fight.combatants)
    again = affray.fight(EXAMPLES / "encounters/ambush.toml", seed=3)
    assert affray.narrate(again.events) == affray.narrate(fight.events)
