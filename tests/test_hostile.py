"""Hostile but well-formed inputs: each answers or stops with a clear error naming the
limit, quickly (limits asserted loosely, so a busy machine does not fail them)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.helpers import run

LOOSE_SECONDS = 30


def sheet(tmp_path: Path, hit_dice: str, **extra: str) -> str:
    lines = ['system = "mst2"', 'name = "Big"', f'hit_dice = "{hit_dice}"', 'weapon = "sword"']
    lines += [f'{key} = "{value}"' for key, value in extra.items()]
    path = tmp_path / f"big-{hit_dice}.toml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.mark.parametrize("hit_dice", ["100d100", "1000d1000", "31d6", "2d21"])
@pytest.mark.parametrize("command", ["odds", "duel", "simulate"])
def test_hit_dice_past_the_limit_are_refused_at_once(
    tmp_path: Path, hit_dice: str, command: str
) -> None:
    path = sheet(tmp_path, hit_dice)
    args = {
        "odds": ("mst2", "odds", path, path),
        "duel": ("duel", path, path),
        "simulate": ("duel", path, path, "-n", "1000"),
    }[command]
    started = time.monotonic()
    result = run(*args)
    assert time.monotonic() - started < LOOSE_SECONDS
    assert result.exit_code == 2
    assert "at most 30 dice of at most 20 sides" in result.output


def test_the_odds_table_refuses_enormous_hit_dice() -> None:
    started = time.monotonic()
    result = run("mst2", "table", "--hit-dice", "100d100")
    assert time.monotonic() - started < LOOSE_SECONDS
    assert result.exit_code == 2 and "at most 30 dice" in result.output


def test_the_largest_hit_dice_answer_quickly_or_say_the_exact_limit(tmp_path: Path) -> None:
    path = sheet(tmp_path, "30d20")
    for args in (
        ("mst2", "odds", path, path),
        ("duel", path, path, "-n", "1000", "--seed", "1"),
        ("mst2", "table", "--hit-dice", "30d20"),
    ):
        started = time.monotonic()
        result = run(*args)
        assert time.monotonic() - started < LOOSE_SECONDS
        assert result.exit_code == 0, result.output
    exact = run("duel", path, path)
    assert exact.exit_code == 2 and "over the limit of 25,000" in exact.output
    assert "affray duel A B -n 100000" in exact.output


def test_an_exact_duel_just_inside_the_limit_answers(tmp_path: Path) -> None:
    path = sheet(tmp_path, "14d10+9", armor="plate mail")
    started = time.monotonic()
    result = run("duel", path, path, "--json")
    assert time.monotonic() - started < LOOSE_SECONDS
    assert result.exit_code == 0 and '"method": "exact"' in result.stdout


def power_sheet(tmp_path: Path, name: str, power: str, **extra: str) -> str:
    lines = [
        'system = "mst2"',
        f'name = "{name}"',
        f'weapon = {{ name = "Maul", reach = "mid", power = "{power}", hands = 2 }}',
    ]
    lines += [f'{key} = "{value}"' for key, value in extra.items()]
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.mark.parametrize("power", ["1000d1000", "21d6", "2d101"])
@pytest.mark.parametrize("command", ["odds", "duel", "simulate", "table"])
def test_power_pools_past_the_limit_are_refused_at_once(
    tmp_path: Path, power: str, command: str
) -> None:
    """1000d1000 power took 14 s for one attack's odds and hours for a duel."""
    path = power_sheet(tmp_path, "Pow", power, hit_dice="2d10")
    args = {
        "odds": ("mst2", "odds", path, path),
        "duel": ("duel", path, path),
        "simulate": ("duel", path, path, "-n", "1000"),
        "table": ("mst2", "table", "--attacker", path),
    }[command]
    started = time.monotonic()
    result = run(*args)
    assert time.monotonic() - started < LOOSE_SECONDS
    assert result.exit_code == 2
    assert "weapon power" in result.output
    assert "at most 20 dice of at most 100 sides" in result.output


def test_the_largest_power_pools_answer_quickly(tmp_path: Path) -> None:
    big = power_sheet(tmp_path, "Big", "10d6+10d7", extra_power="10d5+10d8", hit_dice="30d20+100")
    tank = power_sheet(tmp_path, "Tank", "20d100", armor="plate mail", hit_dice="30d20+100")
    for args in (
        ("mst2", "odds", big, tank, "--wounds", "600"),
        ("mst2", "table", "--attacker", big, "--skills", "0-100", "--hit-dice", "30d20+100"),
        ("duel", big, tank, "-n", "1000", "--seed", "1"),
    ):
        started = time.monotonic()
        result = run(*args)
        assert time.monotonic() - started < LOOSE_SECONDS
        assert result.exit_code == 0, result.output


def test_an_exact_duel_with_many_ways_to_wound_is_refused_at_once(tmp_path: Path) -> None:
    """15d10 against 15d10 with 20d6 against plate mail: 90 s before this limit."""
    path = power_sheet(tmp_path, "Pick", "20d6", armor="plate mail", hit_dice="15d10")
    started = time.monotonic()
    result = run("duel", path, path)
    assert time.monotonic() - started < LOOSE_SECONDS
    assert result.exit_code == 2
    assert (
        "would take 912,040 steps (22,801 pairs of wound totals, 20 and 20 ways to wound "
        "with a blow), over the limit of 120,000"
    ) in result.output
    assert "affray duel A B -n 100000" in result.output
    assert run("duel", path, path, "-n", "1000", "--seed", "1").exit_code == 0


def test_a_midian_weapon_past_the_exact_dice_budget_still_fights(tmp_path: Path) -> None:
    """The tactics AI weighs a blow by its mean damage: 1000d1000 (past the exact
    distribution's budget) stopped a fight with a dice error, and 80d200 took half a
    second each time a defence was weighed."""
    path = tmp_path / "brute.toml"
    path.write_text(
        'system = "midian"\nname = "Brute"\nhit_points = 5000\nlife_points = 50\n'
        "attributes = { strength = 14, agility = 12, wits = 10, willpower = 12, stamina = 14 }\n"
        'weapon = { name = "Maul", damage = "1000d1000", type = "smashing", hands = 2, '
        'two_hand_grip = true, encumbrance = "heavy" }\n'
    )
    started = time.monotonic()
    result = run("duel", str(path), str(path), "-n", "20", "--seed", "1", "--workers", "1")
    assert time.monotonic() - started < LOOSE_SECONDS
    assert result.exit_code == 0, result.output
