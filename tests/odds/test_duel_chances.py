"""The float duel sweep: the exact fractions to 1e-12, and the round cap honoured as
the simulators honour it."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from affray.rulesystems.mst2 import Fighter, Grip
from affray.rulesystems.mst2.odds import duel_odds
from affray.rulesystems.mst2.odds.chances import NEGLIGIBLE, _capped, _outlasting, duel_chances
from affray.rulesystems.mst2.odds.duel import _Chain
from affray.rulesystems.mst2.sim.duels import simulate_fast
from tests.helpers import EXAMPLES, example, make_fighter, run, run_json

PAIRS = [
    (example("sellsword.toml"), example("spearman.toml")),
    (example("knight.json"), example("ogre.toml")),
    (example("goblin.toml"), example("archer.toml")),
    (
        make_fighter("A", skill=3, armor_name="chain mail", hit_dice="3d10", grip=Grip.TWO_HANDED),
        make_fighter("B", skill=4, weapon_name="polearm", armor_name="brigandine", hit_dice="3d10"),
    ),
    (
        make_fighter(
            "A",
            skill=5,
            weapon_name="dagger",
            armor_name="plate mail",
            hit_dice="3d10+2",
            shield=True,
        ),
        make_fighter("B", skill=2, weapon_name="spear", armor_name="leather", hit_dice="2d10"),
    ),
]


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_the_floats_are_the_exact_fractions(a: Fighter, b: Fighter) -> None:
    chances = duel_chances(a, b)
    exact = duel_odds(a, b)
    assert not chances.capped
    assert chances.p_a_wins == pytest.approx(float(exact.p_a_wins), abs=1e-12)
    assert chances.p_b_wins == pytest.approx(float(exact.p_b_wins), abs=1e-12)
    assert chances.p_draw == pytest.approx(float(exact.p_draw), abs=1e-12)
    assert chances.mean_rounds == pytest.approx(float(exact.mean_rounds), abs=1e-9)
    for side in "ab":
        assert set(chances.winner_wounds[side]) <= set(exact.winner_wounds[side])
        for w, p in exact.winner_wounds[side].items():
            assert chances.winner_wounds[side].get(w, 0.0) == pytest.approx(float(p), abs=1e-12)


def stubborn() -> tuple[Fighter, Fighter]:
    """Two who rarely wound each other and shrug off what lands: duels run for
    hundreds of rounds (265 on average), so a cap of a few hundred decides many."""
    a = make_fighter(
        "A", weapon_name="dagger", armor_name="plate mail", hit_dice="8d10", shield=True
    )
    b = make_fighter(
        "B", weapon_name="dagger", armor_name="plate mail", hit_dice="8d10", shield=True
    )
    return a, b


def within(observed: float, p: float, n: int, sigmas: float = 4.0) -> bool:
    return abs(observed - p) <= sigmas * math.sqrt(max(p * (1 - p), 1e-12) / n) + 1e-9


@pytest.mark.parametrize("cap", [3, 40, 200])
def test_the_round_cap_is_a_draw_as_in_the_simulator(cap: int) -> None:
    a, b = stubborn()
    chances = duel_chances(a, b, max_rounds=cap)
    assert chances.capped
    assert chances.p_a_wins + chances.p_b_wins + chances.p_draw == pytest.approx(1.0)
    n = 20_000
    stats, _ = simulate_fast(a, b, n, seed=11, max_rounds=cap)
    assert within(stats.a_wins / n, chances.p_a_wins, n)
    assert within(stats.draws / n, chances.p_draw, n)
    assert stats.mean_rounds == pytest.approx(chances.mean_rounds, rel=0.05)


def test_ordinary_duels_are_far_from_the_cap() -> None:
    chain = _Chain(example("knight.json"), example("ogre.toml"))
    assert _outlasting(chain, 1000) < NEGLIGIBLE
    assert _outlasting(chain, 3) > 0.9  # most duels last more than 3 rounds


BOUNDED = [
    ("stubborn", *stubborn()),
    ("knight-ogre", example("knight.json"), example("ogre.toml")),
    ("sellsword-spearman", example("sellsword.toml"), example("spearman.toml")),
    (
        "3d10",
        make_fighter("A", skill=3, armor_name="chain mail", hit_dice="3d10", grip=Grip.TWO_HANDED),
        make_fighter("B", skill=4, weapon_name="polearm", armor_name="brigandine", hit_dice="3d10"),
    ),
    (
        "dagger in plate-polearm",
        make_fighter(
            "A", weapon_name="dagger", armor_name="plate mail", hit_dice="4d10", shield=True
        ),
        make_fighter("B", weapon_name="polearm", armor_name="leather", hit_dice="2d6"),
    ),
]


@pytest.mark.parametrize(("label", "a", "b"), BOUNDED, ids=[label for label, *_ in BOUNDED])
def test_the_bound_on_outlasting_the_cap_is_a_bound(label: str, a: Fighter, b: Fighter) -> None:
    """At every cap, the chance of still fighting (worked out round by round) is at most
    the bound (give or take the floats' rounding), and the bound is at most 1."""
    chain = _Chain(a, b)
    for cap in (1, 2, 5, 20, 60, 200):
        still = _capped(a, b, cap).p_draw
        bound = _outlasting(chain, cap)
        assert still - 1e-13 <= bound <= 1.0, cap


def test_an_extreme_duel_whose_cap_hardly_matters_is_answered_by_the_sweep() -> None:
    """13d10 fighters in plate with a shield and a dagger rarely wound each other: duels
    last some 460 rounds. Counting the shock checks each wound brings shows that the
    1000-round cap weighs under 1e-13, so the sweep answers (it was refused: a bound
    that counted wounds only, up to both fighters' highest totals, could not tell)."""
    a, b = (
        make_fighter(
            name, weapon_name="dagger", armor_name="plate mail", hit_dice="13d10", shield=True
        )
        for name in "AB"
    )
    chances = duel_chances(a, b)
    assert not chances.capped and chances.p_draw < 1e-12
    n = 40_000
    stats, _ = simulate_fast(a, b, n, seed=3)
    assert stats.draws == 0
    assert within(stats.a_wins / n, chances.p_a_wins, n)
    assert stats.mean_rounds == pytest.approx(chances.mean_rounds, rel=0.02)


def test_duel_rational_prints_the_fractions_too() -> None:
    data = run_json(
        "duel", str(EXAMPLES / "mst2/knight.json"), str(EXAMPLES / "mst2/ogre.toml"), "--rational"
    )
    exact = duel_odds(example("knight.json"), example("ogre.toml"))
    assert data["exact"] == {
        "p_a_wins": str(exact.p_a_wins),
        "p_b_wins": str(exact.p_b_wins),
        "p_draw": str(exact.p_draw),
        "mean_rounds": str(exact.mean_rounds),
    }
    assert data["p_a_wins"] == pytest.approx(float(exact.p_a_wins), abs=1e-12)


def test_a_certain_win_is_a_chance_of_one_not_above_it(tmp_path: Path) -> None:
    """Issue 26, item 10: float sums of a certain win came to 1.0000000000000002."""
    knight = json.loads((EXAMPLES / "mst2" / "knight.json").read_text())
    knight.update(skill=0, armor="leather")
    a = tmp_path / "knight.json"
    a.write_text(json.dumps(knight))
    b = tmp_path / "ogre.toml"
    b.write_text((EXAMPLES / "mst2" / "ogre.toml").read_text() + "evasion_bonus = 7\n")
    odds = run_json("duel", str(a), str(b))
    chances = [odds["p_a_wins"], odds["p_b_wins"], odds["p_draw"]]
    assert all(isinstance(p, float) and 0.0 <= p <= 1.0 for p in chances), chances
    assert odds["p_b_wins"] == 1.0 and sum(chances) == 1.0
    wounds = odds["winner_wounds"]
    assert isinstance(wounds, dict)
    assert all(0.0 <= p <= 1.0 for side in wounds.values() for p in side.values())


@pytest.mark.parametrize(
    ("p_a", "p_b"),
    [(0.0, 1.0000000000000002), (0.7, 0.30000000000000027), (-1e-17, 0.5), (0.25, 0.25)],
)
def test_float_chances_are_made_chances_where_they_are_summed(p_a: float, p_b: float) -> None:
    from affray.rulesystems.mst2.odds.chances import chances

    a, b, draw = chances(p_a, p_b)
    assert min(a, b, draw) >= 0.0 and max(a, b, draw) <= 1.0
    assert a + b + draw <= 1.0 and math.isclose(a + b + draw, 1.0)
    assert math.isclose(a, max(p_a, 0.0), abs_tol=1e-15)


def test_a_tiny_draw_on_the_cap_is_reported_as_the_chain_holds_it(tmp_path: Path) -> None:
    """Issue 41, item 2: the knight and the archer capped at 140 rounds draw with a
    chance of about 1.06e-13, real mass on the cap, that was once zeroed as rounding
    (under 1e-12, from ``1 - p_a - p_b``). It is the mass the chain itself holds at the
    cap, and the exact encounter chain (another implementation) finds the same."""

    from affray.sheets.combatants import resolve_reference

    knight = resolve_reference("mst2:knight").sheet()
    archer = resolve_reference("mst2:archer").sheet()
    found = duel_chances(knight, archer, max_rounds=140)
    assert found.capped and 1e-13 < found.p_draw < 1.1e-13
    assert abs(found.p_a_wins + found.p_b_wins + found.p_draw - 1.0) < 1e-15
    encounter = tmp_path / "ka.toml"
    encounter.write_text(
        'name = "KA"\nsystem = "mst2"\nmax_rounds = 140\n[[sides]]\nname = "A"\n'
        'members = ["knight"]\n[[sides]]\nname = "B"\nmembers = ["archer"]\n'
    )
    other = run_json("fight", str(encounter), "--exact")
    assert abs(other["p_draw"] - found.p_draw) < 1e-6 * found.p_draw
    assert abs(other["sides"]["A"]["p_wins"] - found.p_a_wins) < 1e-12


def test_duel_rational_text_shortens_the_fractions_and_digits_gives_them_whole() -> None:
    """Issue 56: 200-digit fractions in the text are shown by their first and last
    digits, their length and their value; --digits prints every digit (as --json does)."""
    knight, ogre = str(EXAMPLES / "mst2/knight.json"), str(EXAMPLES / "mst2/ogre.toml")
    exact = duel_odds(example("knight.json"), example("ogre.toml"))
    whole = str(exact.p_a_wins)
    top, bottom = whole.split("/")
    short = run("duel", knight, ogre, "--rational").stdout
    line = next(ln for ln in short.splitlines() if ln.strip().startswith("Knight wins ="))
    assert line.strip() == (
        f"Knight wins = {top[:8]}…{top[-8:]}/{bottom[:8]}…{bottom[-8:]} "
        f"({len(top)}/{len(bottom)} digits) ≈ {float(exact.p_a_wins):.9g}"
    )
    assert f"Knight wins = {whole}" in run("duel", knight, ogre, "--rational", "--digits").stdout
    refused = run("duel", knight, ogre, "--digits")
    assert refused.exit_code == 2 and "add --rational" in refused.stderr
