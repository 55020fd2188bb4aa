"""The designers' questions at their edges: a Midian weapon moved in an encounter, a key
an encounter's member cannot move, values asked out of order, a target never crossed,
a sheet given where an encounter is wanted, an empty saved party."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from affray.rulesystems.midian.design import ladders
from tests.helpers import EXAMPLES, run


def test_a_midian_weapon_moves_in_an_encounter_by_its_name() -> None:
    result = run(
        "solve", str(EXAMPLES / "encounters/tavern_brawl.toml"), "--vary", "Sailors.2.weapon",
        "--for", "Sailors", "-n", "40", "--target", "0.5", "--values", "Dagger,Claymore", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    points = json.loads(result.stdout)["points"]
    assert [p["value"] for p in points] == ["Dagger", "Claymore"]
    assert all(p["p"] is not None for p in points)


def test_a_weapon_and_its_grip_move_together_in_an_encounter(tmp_path: Path) -> None:
    """An MST-2 weapon sets its grip too: solved in an encounter, each point is the
    exact fight with both set (the ford's bandits with a two-handed battle axe equal
    that fight written out), and the encounter's sensitivity moves the weapon."""
    ford = str(EXAMPLES / "encounters/ford.toml")
    found = json.loads(
        run(
            "solve", ford, "--vary", "Bandits.weapon", "--for", "Bandits", "--target", "0.5",
            "--values", "club,battle axe (two-handed)", "--json",
        ).stdout
    )  # fmt: skip
    points = {p["value"]: p["p"] for p in found["points"]}
    assert set(points) == {"club", "battle axe (two-handed)"} and found["method"] == "exact"
    bandit = tmp_path / "axe-bandit.toml"
    bandit.write_text(
        'system = "mst2"\nname = "Bandit"\nskill = 1\nweapon = "battle axe"\n'
        'grip = "two-handed"\narmor = "leather"\nrole = "civilian"\n'
    )
    written = tmp_path / "ford.toml"
    written.write_text(
        (EXAMPLES / "encounters/ford.toml")
        .read_text()
        .replace('"../mst2/', f'"{(EXAMPLES / "mst2").as_posix()}/')
        .replace('["2 bandits"]', f'["{bandit.as_posix()}", "{bandit.as_posix()}"]')
    )
    fought = json.loads(run("fight", str(written), "--exact", "--json").stdout)
    assert abs(points["battle axe (two-handed)"] - fought["sides"]["Bandits"]["p_wins"]) < 1e-12
    plain = json.loads(run("fight", ford, "--exact", "--json").stdout)
    assert abs(points["club"] - plain["sides"]["Bandits"]["p_wins"]) < 1e-12
    sensitivity = json.loads(run("sensitivity", ford, "--for", "Bandits", "--json").stdout)
    assert any(row["key"] == "weapon" for row in sensitivity["rows"]), sensitivity["rows"]


def test_a_midian_weapon_is_weighed_with_the_sheets_own_skill() -> None:
    guard = tomllib.loads((EXAMPLES / "midian/guard.toml").read_text())
    weapon = next(one for one in ladders(guard) if one.key == "weapon")
    assert {rung.patch["weapon"]["skill"] for rung in weapon.rungs} == {2}


def test_values_are_tried_in_the_ladders_order_once_each() -> None:
    found = json.loads(
        run(
            "solve", "mst2:knight", "ogre", "--vary", "a.skill", "--target", "0.8",
            "--values", "10,0,5,5", "--json",
        ).stdout
    )  # fmt: skip
    assert [p["value"] for p in found["points"]] == [0, 5, 10]
    assert [(c["below"]["value"], c["above"]["value"]) for c in found["crossings"]] == [(0, 5)]
    armour = json.loads(
        run(
            "solve", "mst2:knight", "ogre", "--vary", "b.armor", "--target", "0.8",
            "--values", "plate mail,none", "--json",
        ).stdout
    )  # fmt: skip
    assert [p["value"] for p in armour["points"]] == ["none", "plate mail"]
    empty = run(
        "solve", "mst2:knight", "ogre", "--vary", "a.skill", "--target", "0.5", "--values", ",,"
    )
    assert empty.exit_code == 2 and "names no value" in empty.stderr


def test_a_target_never_crossed_says_on_which_side_it_stays() -> None:
    told = run(
        "solve", "mst2:knight", "ogre", "--vary", "a.skill", "--target", "0.5", "--range", "5", "8"
    )
    assert "stays above 50.0%" in told.stdout


def test_a_sheet_alone_is_not_an_encounter() -> None:
    for verb in ("solve", "sensitivity"):
        args = ["--vary", "a.skill", "--target", "0.5"] if verb == "solve" else []
        result = run(verb, str(EXAMPLES / "mst2/sellsword.toml"), *args, "--for", "a")
        assert result.exit_code == 2 and "is a sheet, not an encounter file" in result.stderr


def test_an_empty_saved_party_says_so(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from affray.cli.main import cli

    db = str(tmp_path / "t.db")
    CliRunner().invoke(cli, ["party", "new", "Crew", "--system", "mst2", "--db", db])
    day = tmp_path / "day.toml"
    day.write_text(
        f'party = "Crew"\n[[steps]]\nencounter = "{(EXAMPLES / "days/wolves.toml").as_posix()}"\n'
    )
    result = CliRunner().invoke(cli, ["day", str(day), "-n", "5", "--db", db])
    assert result.exit_code == 2 and "has no members" in result.stderr
