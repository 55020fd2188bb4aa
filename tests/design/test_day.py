"""``affray day`` (issue 39, item 5): a day of one fight is that fight (``fight -n``,
within 4σ); each fight is reached as often as the one before is won; a saved party
brings its wounds; the answer depends on the seed, never on the workers; bad days are
refused before any fight."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from affray.cli.main import cli
from tests.helpers import EXAMPLES, run

DAYS = EXAMPLES / "days"


def day(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "day.toml"
    path.write_text(text.replace("DAYS", DAYS.as_posix()).replace("EX", EXAMPLES.as_posix()))
    return path


def day_json(*args: str) -> dict[str, Any]:
    result = run("day", *args, "--json")
    assert result.exit_code == 0, result.output
    found: dict[str, Any] = json.loads(result.stdout)
    return found


def test_a_day_of_one_fight_is_that_fight(tmp_path: Path) -> None:
    path = day(
        tmp_path,
        '[[members]]\nsheet = "EX/mst2/sellsword.toml"\n'
        '[[steps]]\nencounter = "DAYS/bandits.toml"\n',
    )
    n = 600
    found = day_json(str(path), "-n", str(n), "--seed", "3", "--workers", "1")
    (step,) = found["steps"]
    assert found["n"] == n and step["p_reached"] == 1.0
    assert found["p_survive"] == step["p_won"]
    fought = json.loads(run("fight", str(DAYS / "bandits.toml"), "-n", "20000", "--json").stdout)
    p = fought["sides"]["party"]["p_wins"]
    sigma = math.sqrt(p * (1 - p) / n + p * (1 - p) / 20000)
    assert abs(step["p_won"] - p) < 4 * max(sigma, 1e-3), (step["p_won"], p)
    standing = found["members"]["Sellsword"]["p_standing"]
    assert standing <= found["p_survive"] + 1e-12  # the only member: standing means won


def test_each_fight_is_reached_as_often_as_the_one_before_is_won() -> None:
    found = day_json(str(DAYS / "road.toml"), "-n", "200", "--seed", "5")
    fights = [s for s in found["steps"] if s["kind"] == "fight"]
    assert fights[0]["p_reached"] == 1.0
    for before, after in itertools.pairwise(fights):
        assert after["p_reached"] == before["p_won"]
    assert found["p_survive"] == fights[-1]["p_won"]
    assert any(s["kind"] == "rest" for s in found["steps"])
    # the first fight's party is fresh; the second carries what the first left
    assert all(not any(values.values()) for values in fights[0]["carried"].values())
    assert any(values.get("wounds", 0) > 0 for values in fights[1]["carried"].values())
    for member in found["members"].values():
        assert 0.0 <= member["p_standing"] <= 1.0


def test_the_workers_never_change_the_answer() -> None:
    one = day_json(str(DAYS / "road.toml"), "-n", "60", "--seed", "9", "--workers", "1")
    two = day_json(str(DAYS / "road.toml"), "-n", "60", "--seed", "9", "--workers", "2")
    assert one == two


def test_a_saved_party_brings_its_wounds(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")

    def at(*args: str) -> Any:
        result = CliRunner().invoke(cli, [*args, "--db", db], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result

    at("party", "new", "The Company", "--system", "mst2")
    at("party", "add", "the-company", str(EXAMPLES / "mst2/sellsword.toml"))
    at("table", "new", "Camp", "--system", "mst2")
    at("table", "add", "camp", "party:the-company")
    at("table", "set", "camp", "Sellsword", "wounds=2")
    at("table", "end", "camp")
    path = day(tmp_path, 'party = "The Company"\n[[steps]]\nencounter = "DAYS/wolves.toml"\n')
    result = CliRunner().invoke(
        cli, ["day", str(path), "-n", "40", "--seed", "1", "--db", db, "--json"]
    )
    assert result.exit_code == 0, result.output
    (step,) = json.loads(result.stdout)["steps"]
    assert step["carried"] == {"Sellsword": {"wounds": 2.0}}


def test_a_bad_day_is_refused_before_any_fight(tmp_path: Path) -> None:
    cases = [
        ('[[members]]\nsheet = "EX/mst2/sellsword.toml"\n[[steps]]\nencounter = '
         '"EX/encounters/ambush.toml"\n', 'has no side named "party"'),
        ('[[members]]\nsheet = "EX/mst2/sellsword.toml"\n[[steps]]\nencounter = '
         '"DAYS/wolves.toml"\n[[steps]]\nrest = 1\noptions = { setting = "tended" }\n',
         "setting"),
        ('[[steps]]\nencounter = "DAYS/wolves.toml"\n', "give either party"),
        ('[[members]]\nsheet = "EX/mst2/sellsword.toml"\n[[steps]]\nrest = 2\n', "needs a fight"),
    ]  # fmt: skip
    for text, said in cases:
        result = run("day", str(day(tmp_path, text)), "-n", "5")
        assert result.exit_code == 2, result.output
        assert said in result.stderr, result.stderr
        assert "Traceback" not in result.output


def _sigma(p: float, n: int, m: int) -> float:
    return math.sqrt(p * (1 - p) / n + p * (1 - p) / m)


def _agree(fast: float, reference: float, n: int, m: int) -> None:
    p = (fast * n + reference * m) / (n + m)
    assert abs(fast - reference) < 4 * max(_sigma(p, n, m), 2e-3), (fast, reference)


def test_the_fast_engine_plays_the_day_the_reference_engine_plays() -> None:
    """Every fight of every day on the fast MST-2 group engine, each from the wounds
    its party carries: each fight's chance to be won, each member's to be standing,
    and the wounds carried agree with the reference engine's days within 4σ."""
    n, m = 20_000, 1_500
    fast = day_json(str(DAYS / "road.toml"), "-n", str(n), "--seed", "21", "--engine", "fast")
    slow = day_json(str(DAYS / "road.toml"), "-n", str(m), "--seed", "22", "--engine", "reference")
    assert fast["engine"] == "fast MST-2 group engine"
    assert slow["engine"] == "reference engine"
    _agree(fast["p_survive"], slow["p_survive"], n, m)
    for quick, played in zip(fast["steps"], slow["steps"], strict=True):
        if quick["kind"] == "rest":
            continue
        _agree(quick["p_won"], played["p_won"], n, m)
        for member, values in played["carried"].items():
            for key in ("wounds", "condition: out"):
                if key in values or key in quick["carried"][member]:
                    a = quick["carried"][member].get(key, 0.0)
                    b = values.get(key, 0.0)
                    assert abs(a - b) < 0.25 + 0.1 * abs(b), (member, key, a, b)
    for member, found in slow["members"].items():
        _agree(fast["members"][member]["p_standing"], found["p_standing"], n, m)


def test_the_fast_engine_draws_the_lethalitys_second_check(tmp_path: Path) -> None:
    """With the optional lethality, who falls is incapacitated, dying or dead by the
    text's second check: the fast engine's days carry each as often as the reference
    engine's (within 4σ)."""
    encounter = tmp_path / "lethal.toml"
    encounter.write_text(
        (DAYS / "bandits.toml")
        .read_text()
        .replace('system = "mst2"', 'system = "mst2"\nlethality = "optional"')
        .replace('"../', f'"{DAYS.as_posix()}/../')
    )
    path = day(
        tmp_path,
        '[[members]]\nsheet = "EX/mst2/sellsword.toml"\n[[members]]\nsheet = '
        f'"EX/mst2/archer.toml"\n[[steps]]\nencounter = "{encounter.as_posix()}"\n'
        f'[[steps]]\nencounter = "{encounter.as_posix()}"\n',
    )
    n, m = 20_000, 2_000
    fast = day_json(str(path), "-n", str(n), "--seed", "4", "--engine", "fast")
    slow = day_json(str(path), "-n", str(m), "--seed", "5", "--engine", "reference")
    carried = fast["steps"][1]["carried"]["Archer"]
    conditions = [k for k in carried if k.startswith("condition: ")]
    assert {"condition: incapacitated", "condition: dead"} <= set(conditions), carried
    reached_fast = fast["steps"][1]["p_reached"]
    reached_slow = slow["steps"][1]["p_reached"]
    for key in conditions:
        a = carried[key] * reached_fast  # of every day, not of those that reached it
        b = slow["steps"][1]["carried"]["Archer"].get(key, 0.0) * reached_slow
        _agree(a, b, n, m)


def test_a_system_without_a_fast_day_engine_is_said(tmp_path: Path) -> None:
    """Midian's days are the reference engine's; asking for a fast one is refused
    clearly, and the default plays them."""
    encounter = tmp_path / "brawl.toml"
    encounter.write_text(
        'name = "A brawl"\nsystem = "midian"\n[[sides]]\nname = "party"\nmembers = '
        f'["{EXAMPLES.as_posix()}/midian/guard.toml"]\n[[sides]]\nname = "Dockers"\n'
        f'members = ["{EXAMPLES.as_posix()}/midian/brawler.toml"]\n'
    )
    path = day(
        tmp_path,
        '[[members]]\nsheet = "EX/midian/guard.toml"\n'
        f'[[steps]]\nencounter = "{encounter.as_posix()}"\n',
    )
    result = run("day", str(path), "-n", "5", "--engine", "fast")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert "a day of Midian fights" in result.stderr, result.stderr
    found = day_json(str(path), "-n", "5", "--seed", "1")
    assert found["engine"] == "reference engine" and found["n"] == 5


def test_a_day_past_its_budget_is_refused_before_it_starts() -> None:
    """A run estimated past ``--budget`` (on a few days first) is refused at once,
    saying how long it would take; so is a question's."""
    result = run(
        "day", str(DAYS / "road.toml"), "-n", "10000000", "--engine", "reference",
        "--budget", "1",
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "this would take about" in result.stderr and "past the budget of 1.0 s" in result.stderr
    assert "Ctrl-C" not in result.stderr and "Traceback" not in result.output
    solve = run(
        "solve", str(EXAMPLES / "encounters/ford.toml"), "--vary", "Bandits.count", "--for",
        "Guards", "--target", "0.5", "-n", "5000000", "--budget", "1",
    )  # fmt: skip
    assert solve.exit_code == 2, solve.output
    assert "past the budget of 1.0 s" in solve.stderr
