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
