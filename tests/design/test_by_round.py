"""``duel --exact --by-round`` (issue 39, item 4): each side's chance to have won by the
end of each round; at the last round computed they are the duel's totals, they never
fall, and the chance the duel is over by round N agrees with simulated duels."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

from affray.cli.duel_command import DuelStart
from affray.sim.fights import simulate_fights
from tests.helpers import EXAMPLES, run


def test_by_round_sums_to_the_totals_and_agrees_with_simulation(tmp_path: Path) -> None:
    a, b = str(EXAMPLES / "mst2/sellsword.toml"), str(EXAMPLES / "mst2/spearman.toml")
    plot = tmp_path / "by-round.png"
    result = run("duel", a, b, "--exact", "--by-round", "--plot", str(plot), "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    rows = found["by_round"]
    assert [row["round"] for row in rows] == list(range(1, len(rows) + 1))
    for one, two in itertools.pairwise(rows):
        assert two["p_a_won"] >= one["p_a_won"] and two["p_b_won"] >= one["p_b_won"]
    assert abs(rows[-1]["p_a_won"] - found["p_a_wins"]) < 1e-9
    assert abs(rows[-1]["p_b_won"] - found["p_b_wins"]) < 1e-9
    assert plot.read_bytes().startswith(b"\x89PNG")
    n = 20_000
    fights = simulate_fights(DuelStart(a, b), n, seed=5, workers=1)
    ended = 0
    for row in rows[:12]:
        ended += fights.totals.rounds.get(row["round"], 0)
        p = row["p_a_won"] + row["p_b_won"]
        sigma = math.sqrt(max(p * (1 - p), 1e-6) / n)
        assert abs(ended / n - p) < 4 * sigma, (row["round"], ended / n, p)


def test_by_round_is_refused_where_there_are_no_exact_rounds() -> None:
    archer = str(EXAMPLES / "midian/elf_archer.toml")  # shoots: not the chain's plain duel
    midian = run("duel", str(EXAMPLES / "midian/guard.toml"), archer, "--by-round")
    assert midian.exit_code == 2 and "no exact odds of this Midian duel" in midian.stderr
    simulated = run("duel", "mst2:knight", "ogre", "-n", "100", "--by-round")
    assert simulated.exit_code == 2 and "--by-round goes with the exact odds" in simulated.stderr


def test_fights_by_round_agree_with_the_exact_duel_and_end_at_their_totals() -> None:
    """The fight simulator counted round by round, on the duel of the sellsword and
    the spearman: each side's chance to have won by each round within 4σ of the exact
    duel's; at the last round the chances are the fights' totals, and who stands after
    it is who stood at the end."""
    from affray.sim.by_round import simulate_by_round

    a, b = str(EXAMPLES / "mst2/sellsword.toml"), str(EXAMPLES / "mst2/spearman.toml")
    exact = json.loads(run("duel", a, b, "--exact", "--by-round", "--json").stdout)["by_round"]
    n = 4_000
    totals, _ = simulate_by_round(DuelStart(a, b), n, seed=11, workers=1)
    sides = ("Sellsword", "Spearman")
    rows = totals.rows(sides, sides)
    for row, known in zip(rows[:10], exact[:10], strict=True):
        for side, key in zip(sides, ("p_a_won", "p_b_won"), strict=True):
            p = known[key]
            sigma = math.sqrt(max(p * (1 - p), 1e-4) / n)
            assert abs(row["sides"][side] - p) < 4 * sigma, (row["round"], side)
    last = rows[-1]
    wins = {side: sum(c.get(side, 0) for c in totals.ended.values()) for side in sides}
    assert last["sides"] == {side: wins[side] / n for side in sides}
    standing = {cid: sum(c.get(cid, 0) for c in totals.final.values()) / n for cid in sides}
    assert last["standing"] == standing
    for one, two in itertools.pairwise(rows):
        assert all(two["sides"][s] >= one["sides"][s] for s in sides)


def test_fight_by_round_json(tmp_path: Path) -> None:
    plot = tmp_path / "rounds.png"
    result = run(
        "fight", str(EXAMPLES / "encounters/ford.toml"), "-n", "300", "--seed", "2",
        "--by-round", "--plot", str(plot), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert found["n"] == 300 and found["by_round"]
    # it adds by_round to the fight's own keys (those of fight -n --json), which are the
    # same fights counted whole: the last round's row is where they ended
    simulated = json.loads(
        run("fight", str(EXAMPLES / "encounters/ford.toml"), "-n", "9", "--json").stdout
    )
    assert set(simulated) - {"note"} <= set(found) == set(simulated) - {"note"} | {"by_round"}
    last = found["by_round"][-1]
    for side, odds in found["sides"].items():
        assert odds["p_wins"] == pytest.approx(last["sides"][side], abs=1e-12)
        assert odds["wins"] == round(odds["p_wins"] * 300)
    for cid, odds in found["combatants"].items():
        assert odds["p_standing"] == pytest.approx(last["standing"][cid], abs=1e-12)
    assert sum(found["rounds"].values()) == 300 and found["engine"] == "reference"
    mean = sum(int(r) * count for r, count in found["rounds"].items()) / 300
    assert found["mean_rounds"] == pytest.approx(mean, abs=1e-12)
    assert found["p_draw"] == pytest.approx(last["draw"], abs=1e-12)
    row = found["by_round"][0]
    assert set(row) == {"round", "sides", "draw", "standing"}
    assert set(row["sides"]) == {"Guards", "Bandits"}
    assert plot.read_bytes().startswith(b"\x89PNG")
    refused = run("fight", str(EXAMPLES / "encounters/ford.toml"), "--by-round")
    assert refused.exit_code == 2 and "--by-round goes with -n N" in refused.stderr
    both = run("fight", str(EXAMPLES / "encounters/ford.toml"), "--exact", "-n", "9", "--by-round")
    assert both.exit_code == 2 and "one of --exact and -n" in both.stderr


def test_an_exact_fight_by_round_ends_at_its_totals_and_agrees_with_simulation(
    tmp_path: Path,
) -> None:
    """``fight ENC --exact --by-round`` on the ford: each side's chance to have won by
    each round grows to the exact fight's totals (1e-9), who stands after the last
    round is who stands at the end; each round agrees with the reference engine's
    fights counted round by round within 4σ (sides and standing), and a fight capped
    at round 3 is row 3 of the uncapped one (a draw there is what is still going)."""
    ford = str(EXAMPLES / "encounters/ford.toml")
    plot = tmp_path / "exact.png"
    found = json.loads(
        run("fight", ford, "--exact", "--by-round", "--json", "--plot", str(plot)).stdout
    )
    assert found["method"] == "exact" and plot.read_bytes().startswith(b"\x89PNG")
    rows = found["by_round"]
    total = json.loads(run("fight", ford, "--exact", "--json").stdout)
    assert {k: v for k, v in found.items() if k != "by_round"} == total  # the fight's keys
    last = rows[-1]
    for side, odds in total["sides"].items():
        assert abs(last["sides"][side] - odds["p_wins"]) < 1e-9
    for cid, odds in total["combatants"].items():
        assert abs(last["standing"][cid] - odds["p_standing"]) < 1e-9
    for one, two in itertools.pairwise(rows):
        assert all(two["sides"][s] >= one["sides"][s] - 1e-12 for s in one["sides"])
        assert all(two["standing"][c] <= one["standing"][c] + 1e-12 for c in one["standing"])
    capped = json.loads(run("fight", ford, "--exact", "--max-rounds", "3", "--json").stdout)
    third = rows[2]
    assert third["round"] == 3
    for side, odds in capped["sides"].items():
        assert abs(third["sides"][side] - odds["p_wins"]) < 1e-12
    going = 1 - sum(third["sides"].values()) - third["draw"]
    assert abs(capped["p_draw"] - (third["draw"] + going)) < 1e-12
    n = 4_000
    simulated = json.loads(
        run("fight", ford, "-n", str(n), "--seed", "5", "--by-round", "--json").stdout
    )["by_round"]
    for row, known in zip(simulated[:8], rows[:8], strict=True):
        assert row["round"] == known["round"]
        for group in ("sides", "standing"):
            for key, p in known[group].items():
                sigma = math.sqrt(max(p * (1 - p), 1e-4) / n)
                assert abs(row[group][key] - p) < 4 * sigma, (row["round"], key)


def test_an_exact_fight_by_round_is_refused_where_there_is_none() -> None:
    brawl = str(EXAMPLES / "encounters/tavern_brawl.toml")
    result = run("fight", brawl, "--exact", "--by-round")
    assert result.exit_code == 2, result.output
    assert "no exact odds of this encounter" in result.stderr  # Midian's: of a duel only
    assert "8 combatants (the chain plays a duel)" in result.stderr
    assert "--by-round" in result.stderr and "Traceback" not in result.output
