"""``duel --exact --by-round`` (issue 39, item 4): each side's chance to have won by the
end of each round; at the last round computed they are the duel's totals, they never
fall, and the chance the duel is over by round N agrees with simulated duels."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

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
    midian = run("duel", str(EXAMPLES / "midian/guard.toml"), "brawler", "--by-round")
    assert midian.exit_code == 2 and "no exact odds round by round" in midian.stderr
    simulated = run("duel", "mst2:knight", "ogre", "-n", "100", "--by-round")
    assert simulated.exit_code == 2 and "--by-round goes with the exact odds" in simulated.stderr
