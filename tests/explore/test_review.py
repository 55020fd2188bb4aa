"""Hostile and unlucky runs of the explorer: each says what is wrong, plainly, and
loses nothing that was kept."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest

from affray.explore import Cache
from affray.explore.cache import CACHE_NAME
from affray.explore.compute import Result
from tests.explore.conftest import WriteSweep
from tests.helpers import SCRIPT, run, run_json

SWEEP = """
a = "sellsword.toml"
b = "ogre.toml"
[[axes]]
side = "b"
key = "skill"
values = [0, 2]
"""


def test_names_and_values_are_shown_as_text_not_obeyed(
    write_sweep: WriteSweep, tmp_path: Path
) -> None:
    """Rich's markup in a name (``[/]``) used to crash the tables; a control code in a
    value reached the terminal."""
    sheet = json.loads((tmp_path / "knight.json").read_text())
    sheet["name"] = "[/bold]K[red]x"
    (tmp_path / "odd.json").write_text(json.dumps(sheet))
    duel = run("duel", str(tmp_path / "odd.json"), str(tmp_path / "ogre.toml"), "--exact")
    assert duel.exit_code == 0 and "[/bold]K[red]x wins" in duel.stdout
    sweep = write_sweep(
        'a = "odd.json"\nb = "ogre.toml"\n[[axes]]\nside = "b"\nkey = "armor"\n'
        'values = ["none", "x\\u001b[31mred", "[/]"]\n'
    )
    result = run("explore", str(sweep), "--out", str(tmp_path / "out"), "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output
    assert "x\\x1b[31mred" in result.stdout and "[/]" in result.stdout
    assert "2 cells with no odds: b (Ogre): key 'armor'" not in result.stderr
    assert result.stderr.count("cell with no odds: b (Ogre): key 'armor'") == 2


@pytest.mark.parametrize(
    ("axes", "said"),
    [
        (("a", "skill", "[1]"), ("both", "skill", "[2]")),
        (("b", "weapon", '["club"]'), ("b", "weapon.power", '["2d6"]')),
    ],
)
def test_axes_that_overlap_are_refused(
    write_sweep: WriteSweep, axes: tuple[str, str, str], said: tuple[str, str, str]
) -> None:
    text = 'a = "knight.json"\nb = "ogre.toml"\n' + "".join(
        f'[[axes]]\nside = "{side}"\nkey = "{key}"\nvalues = {values}\n'
        for side, key, values in (axes, said)
    )
    result = run("explore", str(write_sweep(text)))
    assert result.exit_code == 2
    assert f"two axes set the same key: {axes[0]}.{axes[1]} and {said[0]}.{said[1]}" in (
        result.stderr
    )


def test_a_title_with_a_control_code_is_refused(write_sweep: WriteSweep) -> None:
    result = run("explore", str(write_sweep('title = "T\\u001b[2J"\n' + SWEEP)))
    assert result.exit_code == 2 and "key 'title'" in result.stderr
    assert "control character" in result.stderr


def test_a_sweep_with_no_cell_that_has_odds_fails_after_writing_its_files(
    write_sweep: WriteSweep, tmp_path: Path
) -> None:
    """Each axis has a valid value, but no combination of them is valid."""
    (tmp_path / "duellist.toml").write_text(
        'system = "mst2"\nname = "Duellist"\nweapon = "sword"\nhit_dice = "2d10"\n'
    )
    text = """
    a = "duellist.toml"
    b = "ogre.toml"
    [[axes]]
    side = "a"
    key = "grip"
    values = ["two-handed"]
    [[axes]]
    side = "a"
    key = "shield"
    values = [true]
    """
    out = tmp_path / "out"
    result = run("explore", str(write_sweep(text)), "--out", str(out), "--workers", "1")
    assert result.exit_code == 2
    assert "1 cell with no odds: a (Duellist): " in result.stderr
    assert "error: no cell of the sweep has odds" in result.stderr
    assert (out / "report.html").is_file() and (out / "results.csv").is_file()


def test_a_damaged_cache_line_is_worked_out_again(write_sweep: WriteSweep, tmp_path: Path) -> None:
    sweep = write_sweep(SWEEP)
    out = tmp_path / "out"
    run_json("explore", str(sweep), "--out", str(out), "--workers", "1")
    whole = (out / "results.csv").read_bytes()
    cache = out / CACHE_NAME
    first, second = cache.read_text().splitlines()
    damaged = json.loads(first)
    damaged["result"]["p_a_wins"] = "abc"
    odd = json.loads(second)
    odd["result"]["p_a_wins"] = 7.5
    cache.write_text(json.dumps(damaged) + "\n" + json.dumps(odd) + "\nnot json\n")
    again = run_json("explore", str(sweep), "--out", str(out), "--workers", "1")
    assert (again["computed"], again["cached"]) == (2, 0)
    assert (out / "results.csv").read_bytes() == whole


def test_fresh_forgets_only_when_a_new_cell_is_kept(tmp_path: Path) -> None:
    kept = Result(0.5, 0.5, 0.0, 3.0, "exact")
    Cache(tmp_path).add([("one", kept)])
    fresh = Cache(tmp_path)
    fresh.clear()
    assert len(fresh) == 0
    assert "one" in Cache(tmp_path)  # nothing written yet: the file is whole
    fresh.add([("two", kept)])
    reread = Cache(tmp_path)
    assert "one" not in reread and reread["two"] == kept


def test_a_cache_that_cannot_be_written_is_said_plainly(
    write_sweep: WriteSweep, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    (out / CACHE_NAME).mkdir(parents=True)
    result = run("explore", str(write_sweep(SWEEP)), "--out", str(out), "--workers", "1")
    assert result.exit_code == 2
    assert f"error: cannot use the cache {out / CACHE_NAME}" in result.stderr
    assert "--out DIR" in result.stderr


@pytest.mark.slow
def test_a_lost_worker_is_said_plainly_and_the_cells_done_are_kept(
    write_sweep: WriteSweep, tmp_path: Path
) -> None:
    from tests.cli.test_cli import children_of

    text = """
    a = "guard.toml"
    b = "brawler.toml"
    n = 30000
    [[axes]]
    side = "a"
    key = "attack_bonus"
    range = [0, 9]
    [[axes]]
    side = "b"
    key = "armour_class"
    values = [8, 12]
    """
    out = tmp_path / "out"
    process = subprocess.Popen(
        [*SCRIPT, "explore", str(write_sweep(text)), "--out", str(out), "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    cache = out / CACHE_NAME
    while time.monotonic() < deadline and not (
        cache.exists() and len(children_of(process.pid)) >= 2
    ):
        time.sleep(0.02)
    victim = children_of(process.pid)[0]
    Path(f"/proc/{victim}").exists()
    import os

    os.kill(victim, signal.SIGKILL)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2, err
    assert "error: a worker stopped before its cells were done" in err
    assert "cells are kept in" in err and "Traceback" not in err
    kept = len(Cache(out))
    assert kept >= 1
    resumed = run_json("explore", str(out.parent / "sweep.toml"), "--out", str(out))
    assert (resumed["computed"], resumed["cached"]) == (20 - kept, kept)
