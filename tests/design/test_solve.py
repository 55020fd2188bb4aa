"""``affray solve`` (issue 39, item 1): its answer against a brute sweep of every value
(each moved duel worked out alone by ``affray duel``'s own exact odds), its crossings
where the chance turns back, and simulated neighbours that cannot be told apart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from affray import registry
from affray.design.duels import Chance, Settings, load, moved, pair
from affray.design.solve import Point, crossings, monotonic, solve_duel
from affray.duels import RunSpec, answer_duel
from affray.ladders import Rung
from affray.sheets import sheet_from_data
from tests.helpers import EXAMPLES, run


def brute(a_ref: str, b_ref: str, key: str, values: list[object], side: str = "a") -> list[float]:
    """A's (or B's) exact chance with each value of ``a.KEY`` set, one duel at a time."""
    a, b = pair(a_ref, b_ref)
    system = registry.system(a.system)
    found = []
    for value in values:
        first = sheet_from_data({**a.data, key: value}, "a")
        second = sheet_from_data(b.data, "b")
        answer = answer_duel(system, first, second, method="exact", run=RunSpec(1))
        found.append(answer.p_a_wins if side == "a" else answer.p_b_wins)
    return found


def test_an_exact_answer_is_a_brute_sweep_of_every_value() -> None:
    """The knight's skill against the ogre, 0 to 10: every point equals the duel worked
    out alone (to 1e-12), and the crossing is where the brute chances pass 0.5."""
    knight, ogre = pair("mst2:knight", "ogre")
    solved = solve_duel(knight, ogre, "a.skill", 0.5, "a", Settings("exact"), span=(0, 10))
    expected = brute("mst2:knight", "ogre", "skill", list(range(11)))
    assert [p.value for p in solved.points] == list(range(11))
    for point, p in zip(solved.points, expected, strict=True):
        assert point.chance.p == pytest.approx(p, abs=1e-12)
        assert point.chance.n is None  # exact
    passes = [i for i in range(10) if (expected[i] >= 0.5) != (expected[i + 1] >= 0.5)]
    assert [(c.below.value, c.above.value) for c in solved.crossings] == [
        (i, i + 1) for i in passes
    ]
    for crossing in solved.crossings:
        low, high = crossing.below.chance.p, crossing.above.chance.p
        assert low is not None and high is not None and crossing.equivalent is not None
        assert crossing.below.value < crossing.equivalent < crossing.above.value
        share = crossing.equivalent - crossing.below.value
        assert low + share * (high - low) == pytest.approx(0.5, abs=1e-12)  # linear in p


def test_a_chance_that_turns_back_is_said_so_with_every_crossing() -> None:
    """The ogre's armour, for the sellsword's chance: armour takes evasion and gives
    protection, so the chance rises, then falls: two crossings of its middle."""
    sellsword, ogre = pair(str(EXAMPLES / "mst2/sellsword.toml"), "ogre")
    solved = solve_duel(sellsword, ogre, "b.armor", 0.5, "a", Settings("exact"))
    assert [p.value for p in solved.points] == [
        "none",
        "leather",
        "chain mail",
        "brigandine",
        "plate mail",
    ]
    for point in solved.points:
        alone = answer_duel(
            registry.system("mst2"),
            sheet_from_data(sellsword.data, "a"),
            sheet_from_data(moved(ogre.data, Rung(point.value, {"armor": point.value})), "b"),
            method="exact",
            run=RunSpec(1),
        )
        assert point.chance.p == pytest.approx(alone.p_a_wins, abs=1e-12)
    assert not solved.monotonic
    assert len(solved.crossings) == 2
    assert all(c.equivalent is None for c in solved.crossings)  # names: only neighbours


def point(value: int, p: float, half: float | None = None) -> Point:
    if half is None:
        return Point(value, Chance(p, p, p))
    return Point(value, Chance(p, p - half, p + half, 1000, 1))


def test_crossings_of_every_kind() -> None:
    # a rise through the target, then a fall back through it, then a rise again
    points = [point(0, 0.2), point(1, 0.6), point(2, 0.4), point(3, 0.5), point(4, 0.7)]
    found = crossings(points, 0.5, integer=True)
    assert [(c.below.value, c.above.value) for c in found] == [(0, 1), (1, 2), (2, 3)]
    assert found[0].equivalent == pytest.approx(0.75)
    assert found[2].equivalent == pytest.approx(3.0)  # exactly at the target: reached there
    assert not monotonic(points)
    assert monotonic([point(0, 0.2), point(1, 0.2), point(2, 0.9)])
    assert crossings([point(0, 0.2), point(1, 0.3)], 0.5, integer=True) == ()
    # an invalid value between two valid ones: its neighbours are neighbours
    gap = [point(0, 0.4), Point(1, Chance(None, error="bad")), point(2, 0.6)]
    assert [(c.below.value, c.above.value) for c in crossings(gap, 0.5, integer=True)] == [(0, 2)]


def test_simulated_neighbours_within_the_noise_cannot_be_told_apart() -> None:
    found = crossings([point(0, 0.49, 0.03), point(1, 0.51, 0.03)], 0.5, integer=True)
    assert len(found) == 1 and not found[0].told_apart
    apart = crossings([point(0, 0.40, 0.02), point(1, 0.60, 0.02)], 0.5, integer=True)
    assert apart[0].told_apart
    # a wobble within the noise is not a turn back
    assert monotonic([point(0, 0.40, 0.03), point(1, 0.42, 0.03), point(2, 0.41, 0.03)])


def test_a_simulated_point_is_repeated_by_affray_duel_with_its_seed(tmp_path: Path) -> None:
    guard = str(EXAMPLES / "midian/guard.toml")
    result = run(
        "solve", guard, "brawler", "--vary", "a.attack_bonus", "--target", "0.9",
        "-n", "2000", "--range", "0", "3", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    solved = json.loads(result.stdout)
    assert set(solved) >= {"vary", "target", "for", "method", "crossings", "points"}
    assert solved["method"] == "monte-carlo" and solved["for"] == "a"
    first = solved["points"][0]
    assert first["value"] == 0 and first["n"] == 2000
    path = tmp_path / "guard.json"
    path.write_text(json.dumps({**load(guard, "a").data, "attack_bonus": 0}))
    again = run("duel", str(path), "brawler", "-n", "2000", "--seed", str(first["seed"]), "--json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["p_a_wins"] == first["p"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--vary", "c.skill"], "is not SIDE.KEY"),
        (["--vary", "a.skil"], 'has no key "skil" to move'),
        (["--vary", "a.armor", "--range", "0", "3"], "--range counts numbers"),
        (["--vary", "a.armor", "--values", "mithril"], '"mithril" is not a value of armor'),
    ],
)
def test_a_bad_question_is_a_clear_error(args: list[str], said: str) -> None:
    result = run("solve", "mst2:knight", "ogre", "--target", "0.5", *args)
    assert result.exit_code == 2, result.output
    assert said in result.stderr and "Tip: " in result.stderr
    assert "Traceback" not in result.output
