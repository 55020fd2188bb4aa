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
