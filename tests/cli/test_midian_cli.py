"""``affray midian ...`` through the CliRunner: the SPEC's JSON keys and dice order."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import EXAMPLES, run, run_json

GUARD = str(EXAMPLES / "midian" / "guard.toml")
BRAWLER = str(EXAMPLES / "midian" / "brawler.toml")
ELF = str(EXAMPLES / "midian" / "elf_archer.toml")
SHAMAN = str(EXAMPLES / "midian" / "ogre_shaman.toml")


def test_attack_json_keys_and_dice_order() -> None:
    # d20 14 (+2 = 16 vs AC 6+1 shield = 7); brawler parries (free, skill 3): 2+3 = 5 fails;
    # claymore 2d6 [6,6] + 1 damage + 3 two-handed = 16, -1 reduction = 15
    data = run_json("midian", "attack", GUARD, BRAWLER, "--rolls", "14,2,6,6")
    expected = {
        "natural": 14,
        "total": 16,
        "hit": True,
        "critical": False,
        "fumble": False,
        "defended": False,
        "damage_rolled": 16,
        "damage": 15,
        "defender": {"hit_points": 7, "life_points": 12, "conscious": True, "alive": True},
    }
    assert {k: data[k] for k in expected} == expected


def test_attack_defended() -> None:
    data = run_json("midian", "attack", GUARD, BRAWLER, "--rolls", "10,17")
    assert data["hit"] is True and data["defended"] is True
    assert data["damage"] == 0 and data["damage_rolled"] == 0


def test_attack_no_defence_and_resistance() -> None:
    # brawler hits the guard (AC 12): 15+4 = 19; fists 1d4 [4] + 2 = 6; 10% smashing → 5; DR 3 → 2
    data = run_json("midian", "attack", BRAWLER, GUARD, "--rolls", "15,4", "--no-defence")
    assert (data["damage_rolled"], data["damage"]) == (6, 2)


def test_attack_critical_then_willpower_then_system_shock_order() -> None:
    # critical 20: 22 → +2; 2d6 [6,6]+1+3+2 = 18, doubled 36, -1 = 35 on a brawler at 1 HP / 1 LP:
    # life 1 → -33: no Willpower (no life points left), no system shock (it was above 0)
    data = run_json(
        "midian",
        "attack",
        GUARD,
        BRAWLER,
        "--rolls",
        "20,6,6",
        "--hit-points",
        "1",
        "--life-points",
        "1",
    )
    assert data["critical"] is True and data["damage"] == 35
    defender = data["defender"]
    assert isinstance(defender, dict) and defender["life_points"] == -33
    # a brawler already at 0 life points rolls system shock when hit again
    data = run_json(
        "midian",
        "attack",
        GUARD,
        BRAWLER,
        "--rolls",
        "20,1,1,99",
        "--hit-points",
        "0",
        "--life-points",
        "0",
    )
    defender = data["defender"]
    assert isinstance(defender, dict) and defender["alive"] is False


def test_attack_narration() -> None:
    result = run("midian", "attack", GUARD, BRAWLER, "--rolls", "14,2,6,6")
    assert result.exit_code == 0
    assert (
        "Guard attacks Brawler (claymore): d20 14 +2 attack bonus = 16 vs AC 7 → hit"
        in result.stdout
    )
    assert "parry (free)" in result.stdout and "15 damage" in result.stdout


def test_check_save_initiative() -> None:
    data = run_json("midian", "check", GUARD, "strength", "--rolls", "5,6")
    assert (data["total"], data["effective"], data["success"]) == (11, 12, True)
    data = run_json(
        "midian", "check", GUARD, "strength", "--rolls", "10,10,5,5", "--retest", "lucky"
    )
    assert data["retests_used"] == 1 and data["success"] is True
    data = run_json(
        "midian", "save", GUARD, "poison", "--target", "15", "--rolls", "13", "--bonus", "2"
    )
    assert (data["natural"], data["total"], data["success"]) == (13, 15, True)
    data = run_json("midian", "initiative", GUARD, ELF, "--rolls", "5,9")
    rolls = data["rolls"]
    assert isinstance(rolls, list) and [r["total"] for r in rolls] == [5, 12]
    order = data["order"]
    assert isinstance(order, list)
    assert [(o["character"], o["initiative"]) for o in order] == [
        ("Elf archer", 12),
        ("Guard", 5),
        ("Elf archer", 2),
    ]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("midian", "attack", GUARD, BRAWLER, "--rolls", "14"), "ran out of scripted dice"),
        (("midian", "attack", GUARD, BRAWLER, "--rolls", "21"), "shows 1 to 20"),
        (
            ("midian", "attack", GUARD, str(EXAMPLES / "mst2" / "ogre.toml")),
            "is an MST-2 sheet, not a Midian one",
        ),
        (("midian", "check", GUARD, "charm"), "has no attribute 'charm'"),
        (("midian", "save", GUARD, " ", "--target", "10"), "a saving throw needs a name"),
        (("midian", "attack", GUARD, BRAWLER, "--cover", "95"), "Invalid value for '--cover'"),
        (("mst2", "attack", GUARD, BRAWLER), "is a Midian sheet, not an MST-2 one"),
        (("mst2", "attack", GUARD, BRAWLER), "Midian sheets go with affray's midian commands"),
    ],
)
def test_user_errors(args: tuple[str, ...], words: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert words in result.stderr


def test_midian_sheet_errors(tmp_path: Path) -> None:
    sheet = tmp_path / "bad.toml"
    sheet.write_text(
        'system = "midian"\nname = "X"\nhit_points = 5\nlife_points = 5\n'
        "attributes = { strength = 10, agility = 10, wits = 10, willpower = 10, stamina = 10 }\n"
        "resistances = { lightning = 10 }\n"
    )
    result = run("midian", "check", str(sheet), "wits")
    assert result.exit_code == 2
    assert "key 'resistances.lightning': unknown damage type" in result.stderr
    sheet.write_text(
        'system = "midian"\nname = "X"\nhit_points = 5\nlife_points = 5\nsystem_shock = 120\n'
        "attributes = { strength = 10, agility = 10, wits = 10, willpower = 10 }\n"
    )
    result = run("midian", "check", str(sheet), "wits")
    assert result.exit_code == 2
    assert "key 'attributes.stamina': is required" in result.stderr
    assert "key 'system_shock'" in result.stderr


def test_every_midian_example_loads() -> None:
    for path in sorted((EXAMPLES / "midian").glob("*.toml")):
        assert run("midian", "check", str(path), "wits", "--rolls", "1,1").exit_code == 0


CITY_WATCH = str(EXAMPLES / "encounters" / "city_watch.toml")


@pytest.mark.parametrize("name", ["city_watch", "roadside_ambush", "charge"])
def test_midian_fights_narrate_and_report(name: str) -> None:
    path = str(EXAMPLES / "encounters" / f"{name}.toml")
    result = run("fight", path, "--seed", "4")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "(midian)" in lines[0]
    assert any("initiative: d10" in line for line in lines)
    assert lines[-1].startswith(("Winner: ", "Draw"))
    data = run_json("fight", path, "--seed", "4")
    combatants = data["combatants"]
    assert isinstance(combatants, list)
    assert {
        "id",
        "side",
        "condition",
        "hit_points",
        "life_points",
        "conscious",
        "alive",
    } <= combatants[0].keys()


def test_midian_duel_monte_carlo_json() -> None:
    data = run_json("duel", GUARD, BRAWLER, "-n", "300", "--seed", "2")
    keys = {"method", "n", "a_wins", "b_wins", "draws", "p_a_wins", "ci95_a_wins", "mean_rounds"}
    assert keys <= data.keys()
    assert data["method"] == "monte-carlo" and data["n"] == 300
    low, high = data["ci95_a_wins"]  # type: ignore[misc]
    assert low <= data["p_a_wins"] <= high


def test_midian_duel_errors() -> None:
    archer = str(EXAMPLES / "midian" / "elf_archer.toml")  # a bow: not the chain's duel
    result = run("duel", GUARD, archer, "--exact")
    assert result.exit_code == 2 and "no exact odds of this Midian duel" in result.stderr
    result = run("duel", GUARD, str(EXAMPLES / "mst2" / "ogre.toml"))
    assert result.exit_code == 2 and "different rule systems" in result.stderr


def test_encounter_keys_of_the_other_system_are_errors(tmp_path: Path) -> None:
    path = tmp_path / "mixed.toml"
    path.write_text(
        'system = "midian"\nlethality = "high"\n[[sides]]\nname = "a"\nmembers = ["guard"]\n'
        '[[sides]]\nname = "b"\nmembers = ["bandit"]\n'
    )
    result = run("fight", str(path))
    assert result.exit_code == 2 and "key 'lethality': is an MST-2 option" in result.stderr
    path.write_text(
        'system = "midian"\n[[sides]]\nname = "a"\nmembers = ["guard"]\n'
        '[[sides]]\nname = "b"\nmembers = ["../x/goblin.toml"]\n'
    )
    result = run("fight", str(path))
    assert result.exit_code == 2 and "no such file" in result.stderr
    path.write_text(
        'system = "midian"\n[[sides]]\nname = "a"\nmembers = ["guard"]\n'
        f'[[sides]]\nname = "b"\nmembers = ["{EXAMPLES / "mst2" / "ogre.toml"}"]\n'
    )
    result = run("fight", str(path))
    assert result.exit_code == 2 and "is not a midian sheet" in result.stderr


def test_hazards_and_critical_effects() -> None:
    # Tiger-Tiger's first round in the burning grove: 8, saved at 8 → 4
    data = run_json("midian", "hazard", SHAMAN, "fire", "--rolls", "2,3,3,8")
    assert (data["rolled"], data["save_target"], data["saved"], data["damage"]) == (8, 8, True, 4)
    data = run_json(
        "midian", "hazard", SHAMAN, "fire", "--earlier", "8", "--continuous", "--rolls", "4,4,3,10"
    )
    assert (data["save_target"], data["saved"], data["damage"]) == (19, False, 11)
    data = run_json(
        "midian",
        "hazard",
        SHAMAN,
        "fall",
        "--feet",
        "30",
        "--surface",
        "rocks",
        "--rolls",
        "10,10,10,2",
    )
    assert (data["rolled"], data["saved"], data["damage"]) == (30, False, 30)
    data = run_json("midian", "critical", "Orc", "--rolls", "12")
    assert data["effect"] == "knocked down" and data["roll"] == 12
    data = run_json("midian", "critical", "--choose", "decapitated")
    assert data["effect"] == "decapitated" and data["roll"] is None
    result = run("midian", "critical", "--choose", "tickled")
    assert result.exit_code == 2 and "unknown critical effect" in result.stderr


def test_duel_narrate_tells_one_fight_for_either_system() -> None:
    result = run("duel", GUARD, BRAWLER, "--narrate", "--seed", "2")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Guard vs Brawler (midian)")
    assert lines[-1].startswith(("Winner: ", "Draw"))
    data = run_json(
        "duel",
        str(EXAMPLES / "mst2" / "knight.json"),
        str(EXAMPLES / "mst2" / "ogre.toml"),
        "--narrate",
        "--seed",
        "2",
    )
    assert data["method"] == "narrated" and data["winner"] in ("Knight", "Ogre", None)
    events = data["events"]
    assert isinstance(events, list) and events[-1]["event"] == "encounter_ended"
    # scripted dice work too: the knight's first blow takes the ogre out
    data = run_json(
        "duel",
        str(EXAMPLES / "mst2" / "knight.json"),
        str(EXAMPLES / "mst2" / "ogre.toml"),
        "--narrate",
        "--rolls",
        "20,6,6,1,1",
    )
    assert data["winner"] == "Knight" and data["rounds"] == 1


def test_any_saving_throw_the_game_master_names() -> None:
    data = run_json("midian", "save", GUARD, "Electricity", "--target", "13", "--rolls", "15")
    assert data["save"] == "electricity" and data["success"] is True


def test_a_fall_save_needs_half_the_distance_rounded_up() -> None:
    # 25 feet: 2d8 [4,4]; the save needs 12.5 or better, so 12 fails and 13 succeeds
    failed = run_json("midian", "hazard", GUARD, "fall", "--feet", "25", "--rolls", "4,4,12")
    saved = run_json("midian", "hazard", GUARD, "fall", "--feet", "25", "--rolls", "4,4,13")
    assert (failed["save_target"], failed["saved"], failed["damage"]) == (13, False, 8)
    assert (saved["saved"], saved["damage"]) == (True, 4)
