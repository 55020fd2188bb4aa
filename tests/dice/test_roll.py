"""Rolling with seeded and scripted dice sources."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from affray.dice import RandomDice, ScriptedDice, distribution, parse_faces, roll
from affray.errors import ScriptedDiceError


def test_scripted_roll_uses_faces_in_reading_order() -> None:
    dice = ScriptedDice([3, 4, 6, 2], record=True)
    result = roll("2d6+1d8-(1d4)+5", dice)
    assert result.faces == (3, 4, 6, 2)
    assert result.total == 3 + 4 + 6 - 2 + 5
    assert [r.sides for r in result.rolls] == [6, 6, 8, 4]
    assert all("d" in r.purpose for r in result.rolls)
    assert dice.log == list(result.rolls)


def test_seeded_rolls_repeat_and_stay_in_range() -> None:
    first = [roll("3d6", RandomDice(42)).total for _ in range(5)]
    second = [roll("3d6", RandomDice(42)).total for _ in range(5)]
    assert first == second
    dice = RandomDice(random.Random(7))
    totals = {roll("3d6", dice).total for _ in range(2000)}
    assert totals <= set(range(3, 19))
    assert totals == set(distribution("3d6").outcomes)


def test_random_dice_do_not_touch_global_state() -> None:
    random.seed(123)
    expected = random.random()
    random.seed(123)
    roll("10d6", RandomDice(5))
    assert random.random() == expected


def test_scripted_dice_run_out_with_a_clear_error() -> None:
    dice = ScriptedDice([3])
    with pytest.raises(ScriptedDiceError, match="ran out of scripted dice: roll 2 is a d6"):
        roll("2d6", dice)


def test_scripted_face_must_fit_the_die() -> None:
    with pytest.raises(ScriptedDiceError, match="is 7, but it is a d6"):
        roll("d6", ScriptedDice([7]))
    with pytest.raises(ScriptedDiceError, match="is 0"):
        roll("d6", ScriptedDice([0]))


def test_remaining_faces() -> None:
    dice = ScriptedDice([1, 2, 3])
    roll("d6", dice)
    assert dice.remaining == (2, 3)


@pytest.mark.parametrize(
    ("text", "faces"), [("14,5,2,6", (14, 5, 2, 6)), (" 1 , 2 3", (1, 2, 3)), ("20", (20,))]
)
def test_parse_faces(text: str, faces: tuple[int, ...]) -> None:
    assert parse_faces(text) == faces


@pytest.mark.parametrize("text", ["", ",", "1,x", "-1", "1.5", "1" * 30, "٣"])
def test_parse_faces_rejects_garbage(text: str) -> None:
    with pytest.raises(ScriptedDiceError):
        parse_faces(text)


def test_a_source_keeps_no_log_unless_asked_to_record() -> None:
    quiet = RandomDice(5)
    for _ in range(1000):
        roll("3d6", quiet)
    assert quiet.log == []
    recording = RandomDice(5, record=True)
    rolled = [roll("3d6", recording) for _ in range(10)]
    assert recording.recorded == tuple(f for r in rolled for f in r.faces)
    replayed = ScriptedDice(recording.recorded)
    assert [roll("3d6", replayed).total for _ in range(10)] == [r.total for r in rolled]


def test_odds_compares_a_total_with_a_number_several_expressions_and_rolls_n_times(
    tmp_path: Path,
) -> None:
    """Issue 41, item 6: ``odds "d20+5>=15"``, ``odds 2d6 1d12``, ``roll 4d6kh3 -n 6``
    and ``odds --plot``."""
    from tests.helpers import run, run_json

    reach = run_json("odds", "d20+5>=15")
    assert (reach["p"], reach["fraction"]) == (0.55, "11/20")
    low = run_json("odds", "2d6+1<=4")
    assert low["fraction"] == "1/12"  # 2d6 at most 3: 3 of 36
    assert "d20+5 >= 15: 55.0% (11/20)" in run("odds", "d20+5>=15").stdout
    pool = run_json("odds", "6d10>=8")  # still a pool's threshold: successes counted
    assert set(pool["distribution"]) == {str(k) for k in range(7)}
    both = run_json("odds", "2d6", "1d12")
    first, second = both["expressions"]  # type: ignore[misc]
    assert first["distribution"]["7"] == pytest.approx(6 / 36)
    assert second["distribution"]["1"] == pytest.approx(1 / 12) and second["mean"] == 6.5
    assert run_json("odds", "2d6", "+", "1")["mean"] == 8  # words of one expression still one
    rolled = run_json("roll", "4d6kh3", "-n", "6", "--seed", "3")
    totals = [r["total"] for r in rolled["rolls"]]  # type: ignore[union-attr]
    assert len(totals) == 6 and all(3 <= t <= 18 for t in totals)
    assert run_json("roll", "4d6kh3", "-n", "6", "--seed", "3") == rolled
    plot = tmp_path / "odds.png"
    drawn = run("odds", "2d6", "1d12", "--plot", str(plot))
    assert drawn.exit_code == 0 and plot.read_bytes().startswith(b"\x89PNG")
    bad = run("odds", "d20+5>=x")
    assert bad.exit_code == 2 and "Traceback" not in bad.output
