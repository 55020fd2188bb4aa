"""``affray solve ENC`` (issue 39, item 1): a member's count or sheet key moved in an
encounter; exact points equal ``affray fight --exact`` of each moved file, simulated
points are ``affray fight -n N --seed SEED`` of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import EXAMPLES, run


def ford(tmp_path: Path, bandits: int, skill: int | None = None) -> Path:
    """The ford with this many bandits (and this skill), written out."""
    bandit: dict[str, object] = {"sheet": "bandit", "count": bandits}
    if skill is not None:
        bandit = {"sheet": str(tmp_path / "bandit.json"), "count": bandits}
        from affray.sheets.combatants import resolve_reference

        data = {**resolve_reference("mst2:bandit").data, "skill": skill}
        (tmp_path / "bandit.json").write_text(json.dumps(data))
    encounter = {
        "name": "The ford",
        "system": "mst2",
        "sides": [
            {
                "name": "Guards",
                "tactics": "nearest",
                "members": [
                    str(EXAMPLES / "mst2/sellsword.toml"),
                    str(EXAMPLES / "mst2/spearman.toml"),
                ],
            },
            {"name": "Bandits", "tactics": "focus", "members": [bandit]},
        ],
    }
    path = tmp_path / f"ford-{bandits}-{skill}.json"
    path.write_text(json.dumps(encounter))
    return path


def test_an_exact_count_is_fight_exact_of_each_moved_file(tmp_path: Path) -> None:
    result = run(
        "solve", str(EXAMPLES / "encounters/ford.toml"), "--vary", "Bandits.count",
        "--target", "0.5", "--for", "Guards", "--range", "1", "3", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    solved = json.loads(result.stdout)
    assert solved["method"] == "exact" and solved["for"] == "Guards"
    assert [p["value"] for p in solved["points"]] == [1, 2, 3]
    for point in solved["points"]:
        alone = run("fight", str(ford(tmp_path, point["value"])), "--exact", "--json")
        assert alone.exit_code == 0, alone.output
        assert point["p"] == pytest.approx(
            json.loads(alone.stdout)["sides"]["Guards"]["p_wins"], abs=1e-12
        )
    ps = [p["p"] for p in solved["points"]]
    crossing = [i for i in range(2) if (ps[i] >= 0.5) != (ps[i + 1] >= 0.5)]
    assert [(c["below"]["value"], c["above"]["value"]) for c in solved["crossings"]] == [
        (i + 1, i + 2) for i in crossing
    ]


def test_a_simulated_sheet_key_is_fight_n_of_each_moved_file(tmp_path: Path) -> None:
    result = run(
        "solve", str(EXAMPLES / "encounters/ford.toml"), "--vary", "Bandits.skill",
        "--target", "0.5", "--for", "bandits", "-n", "300", "--values", "1,4", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    solved = json.loads(result.stdout)
    assert solved["method"] == "monte-carlo" and solved["for"] == "Bandits"
    for point in solved["points"]:
        path = ford(tmp_path, 2, point["value"])
        alone = run("fight", str(path), "-n", "300", "--seed", str(point["seed"]), "--json")
        assert alone.exit_code == 0, alone.output
        assert point["p"] == json.loads(alone.stdout)["sides"]["Bandits"]["p_wins"]
        assert point["n"] == 300 and point["ci95"][0] <= point["p"] <= point["ci95"][1]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--vary", "Gobbos.count", "--for", "Guards"], 'has no side called "Gobbos"'),
        (["--vary", "Bandits.3.count", "--for", "Guards"], "has no member 3"),
        (["--vary", "Bandits.count", "--for", "Orcs"], 'has no side called "Orcs"'),
        (["--vary", "Bandits.count"], "--for SIDE"),
    ],
)
def test_a_bad_encounter_question_is_a_clear_error(args: list[str], said: str) -> None:
    result = run("solve", str(EXAMPLES / "encounters/ford.toml"), "--target", "0.5", *args)
    assert result.exit_code == 2, result.output
    assert said in result.stderr
    assert "Traceback" not in result.output


def test_an_encounters_sensitivity_is_fight_exact_of_each_moved_file(tmp_path: Path) -> None:
    result = run("sensitivity", str(EXAMPLES / "encounters/ford.toml"), "--for", "Guards", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    base = json.loads(
        run("fight", str(EXAMPLES / "encounters/ford.toml"), "--exact", "--json").stdout
    )
    assert found["base"] == pytest.approx(base["sides"]["Guards"]["p_wins"], abs=1e-12)
    rows = {(row["member"], row["key"]): row for row in found["rows"]}
    count = rows[("Bandit", "count")]
    assert (count["down"]["value"], count["up"]["value"]) == (1, 3)
    for move in (count["down"], count["up"]):
        alone = run("fight", str(ford(tmp_path, move["value"])), "--exact", "--json")
        p = json.loads(alone.stdout)["sides"]["Guards"]["p_wins"]
        assert move["p"] == pytest.approx(p, abs=1e-12)
    skill = rows[("Bandit", "skill")]
    alone = run("fight", str(ford(tmp_path, 2, skill["up"]["value"])), "--exact", "--json")
    assert skill["up"]["p"] == pytest.approx(
        json.loads(alone.stdout)["sides"]["Guards"]["p_wins"], abs=1e-12
    )
    effects = [
        max(abs((m or {"p": found["base"]})["p"] - found["base"]) for m in (r["down"], r["up"]))
        for r in found["rows"]
        if all(m is None or m["p"] is not None for m in (r["down"], r["up"]))
    ]
    assert effects == sorted(effects, reverse=True)


def test_a_count_past_the_exact_chain_says_why_it_is_simulated() -> None:
    """Exact odds asked, and a count past the chain's limit: that value is simulated,
    and the answer says so and why (in words and in the JSON)."""
    args = [
        "solve", str(EXAMPLES / "encounters/ford.toml"), "--vary", "Bandits.count",
        "--for", "Guards", "--target", "0.5", "--values", "2,4",
    ]  # fmt: skip
    words = run(*args)
    assert words.exit_code == 0, words.output
    assert "exact where the exact odds reach, else simulated" in words.stdout
    assert "Simulated at 4: exact odds refused" in words.stdout
    assert "at most 5 combatants" in words.stdout
    found = json.loads(run(*args, "--json").stdout)
    two, four = found["points"]
    assert "note" not in two and "n" not in two
    assert "at most 5 combatants" in four["note"] and four["n"] > 0
