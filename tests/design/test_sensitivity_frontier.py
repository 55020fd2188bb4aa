"""``affray sensitivity`` and ``affray frontier`` (issue 39, items 2 and 3): the
tornado's figures are ``affray duel --exact`` at each moved sheet, sorted by effect;
a dominated option is beaten by another against every opponent, and an option on the
frontier by none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from affray import registry
from affray.design.duels import Settings, moved, pair
from affray.design.frontier import beats, frontier
from affray.design.sensitivity import sensitivity, steps
from affray.duels import RunSpec, answer_duel
from affray.sheets import sheet_from_data
from tests.helpers import EXAMPLES, run


def exact(a: dict[str, object], b: dict[str, object]) -> float:
    """A's exact chance, worked out alone as ``affray duel --exact`` works it out."""
    first, second = sheet_from_data(a, "a"), sheet_from_data(b, "b")
    answer = answer_duel(registry.system_of(first), first, second, method="exact", run=RunSpec(1))
    return answer.p_a_wins


def test_the_tornados_figures_are_the_exact_duel_at_each_moved_sheet() -> None:
    knight, ogre = pair("mst2:knight", "ogre")
    found = sensitivity(knight, ogre, Settings("exact"))
    assert found.base.p == pytest.approx(exact(dict(knight.data), dict(ogre.data)), abs=1e-12)
    moves = {
        (side, one.key): (d, u)
        for side, s in (("a", knight), ("b", ogre))
        for one, d, u in steps(s)
    }
    assert {(r.side, r.key) for r in found.rows} == set(moves)
    checked = 0
    for row in found.rows:
        down, up = moves[(row.side, row.key)]
        for move, rung in ((row.down, down), (row.up, up)):
            assert (move is None) == (rung is None)
            if move is None or rung is None or move.chance.p is None:
                continue
            a = moved(knight.data, rung) if row.side == "a" else dict(knight.data)
            b = moved(ogre.data, rung) if row.side == "b" else dict(ogre.data)
            assert move.chance.p == pytest.approx(exact(a, b), abs=1e-12), (row.key, move.value)
            checked += 1
    assert checked >= 15
    effects = [row.effect(found.base.p or 0) for row in found.rows]
    assert effects == sorted(effects, reverse=True)  # the keys that matter most first
    skill = next(r for r in found.rows if (r.side, r.key) == ("a", "skill"))
    assert (skill.down and skill.down.value, skill.up and skill.up.value) == (4, 6)


def test_sensitivity_json_and_its_tornado(tmp_path: Path) -> None:
    plot = tmp_path / "tornado.png"
    result = run(
        "sensitivity", str(EXAMPLES / "mst2/sellsword.toml"), "ogre", "--plot", str(plot), "--json"
    )
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert set(found) >= {"base", "rows"}
    for row in found["rows"]:
        assert set(row) >= {"side", "key", "down", "up"}
        for move in (row["down"], row["up"]):
            assert move is None or set(move) >= {"value", "p"}
    assert plot.stat().st_size > 10_000 and plot.read_bytes().startswith(b"\x89PNG")


def test_a_dominated_weapon_is_beaten_against_every_opponent_and_the_frontier_by_none() -> None:
    sellsword, ogre = pair(str(EXAMPLES / "mst2/sellsword.toml"), "ogre")
    orc = pair(str(EXAMPLES / "mst2/sellsword.toml"), "orc")[1]
    knight = pair(str(EXAMPLES / "mst2/sellsword.toml"), "mst2:knight")[1]
    found = frontier(sellsword, "weapon", [ogre, orc, knight], Settings("exact"))
    assert found.opponents == ("Ogre", "Orc", "Knight")
    by_value = {o.value: o for o in found.options}
    dominated = [o for o in found.options if o.dominated_by]
    free = [o for o in found.options if not o.dominated_by]
    assert dominated and free
    for option in dominated:
        for value in option.dominated_by:
            other = by_value[value]
            mine = {n: c.p for n, c in option.against.items()}
            theirs = {n: c.p for n, c in other.against.items()}
            assert all(theirs[n] >= mine[n] - 1e-12 for n in mine)
            assert any(theirs[n] > mine[n] + 1e-12 for n in mine)
    for option in free:
        for other in found.options:
            assert other is option or not beats(other.against, option.against)
    # each figure is the duel with that weapon, worked out alone
    spear = by_value["spear"]
    data = moved(sellsword.data, next(r for r in _rungs(sellsword) if r.value == "spear"))
    assert spear.against["Orc"].p == pytest.approx(exact(data, dict(orc.data)), abs=1e-12)
    assert spear.mean == pytest.approx(sum(c.p or 0 for c in spear.against.values()) / 3)
    assert spear.worst == min(c.p or 0 for c in spear.against.values())


def _rungs(sheet):  # type: ignore[no-untyped-def]
    from affray.design.duels import ladder

    return ladder(sheet, "weapon").rungs


def test_frontier_json_of_a_midian_weapon(tmp_path: Path) -> None:
    plot = tmp_path / "frontier.png"
    result = run(
        "frontier", str(EXAMPLES / "midian/guard.toml"), "--vary", "weapon",
        "--against", "brawler", "--against", "rogue", "-n", "500", "--plot", str(plot), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert found["vary"] == "weapon"
    names = [o["value"] for o in found["options"]]
    assert "Claymore" in names and len(names) >= 4  # the bestiary's weapons
    for option in found["options"]:
        assert set(option) >= {"value", "p", "mean", "worst", "dominated_by"}
        assert set(option["p"]) == {"Brawler", "Rogue"}
    assert plot.read_bytes().startswith(b"\x89PNG")
