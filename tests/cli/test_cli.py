"""The CLI through click's CliRunner: the SPEC's JSON keys and exit codes."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.helpers import EXAMPLES, SCRIPT, ctrl_c_as_at_a_terminal, run, run_json

SELLSWORD = str(EXAMPLES / "mst2" / "sellsword.toml")
SPEARMAN = str(EXAMPLES / "mst2" / "spearman.toml")
OGRE = str(EXAMPLES / "mst2" / "ogre.toml")


def test_roll_json() -> None:
    data = run_json("roll", "3d6+2", "--seed", "1")
    assert {"expression", "total", "rolls"} <= data.keys()
    assert data["expression"] == "3d6+2"
    rolls = data["rolls"]
    assert isinstance(rolls, list) and len(rolls) == 3
    assert data["total"] == sum(rolls) + 2
    assert run_json("roll", "3d6+2", "--seed", "1") == data


def test_roll_text() -> None:
    result = run("roll", "2d6", "--seed", "3")
    assert result.exit_code == 0 and "2d6 →" in result.stdout


def test_odds_json() -> None:
    data = run_json("odds", "2d6")
    assert data["expression"] == "2d6"
    distribution = data["distribution"]
    assert isinstance(distribution, dict)
    assert list(distribution) == [str(n) for n in range(2, 13)]
    assert distribution["7"] == pytest.approx(1 / 6)
    assert data["mean"] == 7.0


def test_odds_text_table() -> None:
    result = run("odds", "3d6")
    assert result.exit_code == 0 and "mean 10.5" in result.stdout


def test_mst2_attack_json_keys_and_values() -> None:
    data = run_json("mst2", "attack", SELLSWORD, SPEARMAN, "--rolls", "14,5,2,6,3")
    expected = {
        "natural": 14,
        "total": 17,
        "hit": True,
        "power_rolls": [5, 2, 6],
        "wounds_inflicted": 2,
        "defender_wounds": 2,
        "shock_total": 3,
        "defender_out": False,
    }
    assert {k: data[k] for k in expected} == expected


def test_mst2_attack_miss_has_null_shock() -> None:
    data = run_json("mst2", "attack", SELLSWORD, SPEARMAN, "--rolls", "2", "--wounds", "4")
    assert data["hit"] is False and data["shock_total"] is None
    assert data["power_rolls"] == [] and data["defender_wounds"] == 4
    assert data["defender_out"] is False


def test_mst2_attack_with_prior_wounds_takes_the_defender_out() -> None:
    data = run_json("mst2", "attack", SELLSWORD, SPEARMAN, "--wounds", "3", "--rolls", "20,6,1,1,4")
    assert data["defender_wounds"] == 4 and data["shock_total"] == 4
    assert data["defender_out"] is True


def test_mst2_attack_seeded_is_reproducible() -> None:
    first = run_json("mst2", "attack", OGRE, SPEARMAN, "--seed", "9")
    assert first == run_json("mst2", "attack", OGRE, SPEARMAN, "--seed", "9")


def test_mst2_attack_narrates() -> None:
    result = run("mst2", "attack", SELLSWORD, SPEARMAN, "--rolls", "14,5,2,6,3")
    assert result.exit_code == 0
    assert "Sellsword attacks Spearman (2h sword): d20 14+3=17 vs evasion 12 → hit" in result.stdout
    assert "power 3d6 [5,2,6] vs protection 2 → 2 wounds" in result.stdout
    assert "shock 1d10 [3]=3 > 2 → keeps fighting" in result.stdout


def test_mst2_attack_lethality_and_circumstance() -> None:
    data = run_json(
        "mst2",
        "attack",
        SELLSWORD,
        SPEARMAN,
        "--rolls",
        "20,1,1,1,12,1,1,1",
        "--circumstance",
        "sneak attack",
        "--lethality",
        "optional",
    )
    assert data["power_rolls"] == [1, 1, 1, 12, 1]
    assert data["wounds_inflicted"] == 1 and data["defender_out"] is True
    assert data["defender_condition"] == "dead"  # second check 1 does not exceed the first, 1


def test_mst2_odds_json() -> None:
    data = run_json("mst2", "odds", SELLSWORD, SPEARMAN, "--wounds", "2")
    assert data["p_hit"] == pytest.approx(0.55)
    wounds = data["wounds"]
    assert isinstance(wounds, dict) and list(wounds) == ["0", "1", "2", "3"]
    assert sum(wounds.values()) == pytest.approx(1)
    assert 0 < data["p_defender_out"] < 1  # type: ignore[operator]


def test_exchange_narrates_a_whole_duel() -> None:
    result = run("mst2", "exchange", SELLSWORD, SPEARMAN, "--seed", "7")
    assert result.exit_code == 0
    assert "Round 1" in result.stdout and "Winner: " in result.stdout
    assert "odds of Sellsword against Spearman if the attack goes ahead: hit 55.0%" in result.stdout
    data = run_json("mst2", "exchange", SELLSWORD, SPEARMAN, "--seed", "7")
    assert data["winner"] in ("Sellsword", "Spearman")
    assert isinstance(data["turns"], list) and data["turns"]
    first = data["turns"][0]
    assert first["combatant"] == "Sellsword" and first["action"] == "attack"
    assert first["odds"]["p_hit"] == pytest.approx(0.55)
    # the same duel as duel --narrate, told the same way
    told = run("duel", SELLSWORD, SPEARMAN, "--narrate", "--seed", "7").stdout.splitlines()
    assert [line for line in result.stdout.splitlines() if "odds of" not in line] == told


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("roll", "1000000d1000000"), "2 to 1000 sides"),
        (("roll", "(" * 5000 + "1" + ")" * 5000), "parentheses deep"),
        (("roll", "9" * 5000), "5000-digit number"),
        (("roll", "2d"), "number of sides"),
        (("odds", "1000d1000"), "too large"),
        (("roll", "2d6", "--seed", "x"), "Invalid value for '--seed'"),
        (("mst2", "attack", SELLSWORD, SPEARMAN, "--rolls", "14,5"), "ran out of scripted dice"),
        (("mst2", "attack", SELLSWORD, SPEARMAN, "--rolls", "21"), "shows 1 to 20"),
        (("mst2", "attack", SELLSWORD, SPEARMAN, "--rolls", "a,b"), "not a die face"),
        (("mst2", "attack", SELLSWORD, SPEARMAN, "--wounds", "-1"), "Invalid value for '--wounds'"),
        (("mst2", "attack", SELLSWORD, "missing.toml"), "no such file"),
        (
            ("mst2", "attack", SELLSWORD, SPEARMAN, "--circumstance", "lucky"),
            "unknown circumstance",
        ),
        (("mst2", "odds", SELLSWORD), "Missing argument"),
        (("fly",), "No such command"),
    ],
)
def test_user_errors_exit_2_with_a_message(args: tuple[str, ...], words: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert words in result.stderr
    assert "Traceback" not in result.output


def test_bad_sheet_names_file_and_key(tmp_path: Path) -> None:
    sheet = tmp_path / "bad.toml"
    sheet.write_text('system = "mst2"\nname = "X"\nhit_dice = "1d6"\nskill = -3\n')
    result = run("mst2", "attack", str(sheet), SPEARMAN)
    assert result.exit_code == 2
    assert f"error: {sheet}: key 'skill'" in result.stderr


def test_unused_scripted_faces_are_reported() -> None:
    result = run("mst2", "attack", SELLSWORD, SPEARMAN, "--rolls", "2,4,4")
    assert result.exit_code == 0
    assert "2 scripted faces were not needed: 4,4" in result.stderr


def test_help_lists_the_commands() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for command in ("roll", "odds", "mst2"):
        assert command in result.stdout


KNIGHT = str(EXAMPLES / "mst2" / "knight.json")


def test_duel_exact_json() -> None:
    data = run_json("duel", SELLSWORD, SPEARMAN, "--exact")
    assert data["method"] == "exact"
    assert {"p_a_wins", "p_b_wins", "p_draw", "mean_rounds"} <= data.keys()
    total = data["p_a_wins"] + data["p_b_wins"] + data["p_draw"]  # type: ignore[operator]
    assert total == pytest.approx(1)
    assert run_json("duel", SELLSWORD, SPEARMAN) == data  # exact is the default


def test_duel_monte_carlo_json() -> None:
    data = run_json("duel", SELLSWORD, SPEARMAN, "-n", "2000", "--seed", "5")
    keys = {"method", "n", "a_wins", "b_wins", "draws", "p_a_wins", "ci95_a_wins", "mean_rounds"}
    assert keys <= data.keys()
    assert data["method"] == "monte-carlo" and data["n"] == 2000
    assert data["engine"] == "fast" and data["seed"] == 5
    assert data["a_wins"] + data["b_wins"] + data["draws"] == 2000  # type: ignore[operator]
    low, high = data["ci95_a_wins"]  # type: ignore[misc]
    assert low < data["p_a_wins"] < high
    exact = run_json("duel", SELLSWORD, SPEARMAN)
    assert low < exact["p_a_wins"] < high


def test_duel_text_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "rounds.png"
    result = run("duel", KNIGHT, OGRE, "--plot", str(plot))
    assert result.exit_code == 0
    assert "Knight wins" in result.stdout and "exact odds" in result.stdout
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_mst2_odds_plot(tmp_path: Path) -> None:
    plot = tmp_path / "wounds.png"
    result = run("mst2", "odds", SELLSWORD, KNIGHT, "--plot", str(plot))
    assert result.exit_code == 0
    assert "shock check" in result.stdout
    assert plot.stat().st_size > 1000


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("duel", SELLSWORD, SPEARMAN, "--exact", "-n", "10"), "choose one of --exact and -n"),
        (("duel", SELLSWORD, SPEARMAN, "-n", "0"), "Invalid value for '-n'"),
        (("duel", SELLSWORD, SPEARMAN, "--plot", "out.jpg"), "must end in .png"),
        (("duel", SELLSWORD, SPEARMAN, "--plot", "/no/such/dir/x.png"), "no folder"),
        (("mst2", "table", "--skills", "9-3"), "not a range of skills"),
        (("mst2", "table", "--weapon", "laser"), "unknown weapon"),
        (("mst2", "table", "--hit-dice", "2d6+"), "expression ends"),
        (("mst2", "table", "--weapon", "spear", "--grip", "two-handed"), "cannot be wielded"),
    ],
)
def test_more_user_errors(args: tuple[str, ...], words: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert words in result.stderr


def test_table_formats() -> None:
    csv_out = run("mst2", "table", "--skills", "0-1", "--format", "csv").stdout.splitlines()
    assert csv_out[0] == "skill,armor,shield,p_hit,p_wound,p_out"
    assert len(csv_out) == 1 + 2 * 10
    assert csv_out[1].startswith("0,none,False,0.25,0.25,")
    data = run_json("mst2", "table", "--skills", "3-3", "--weapon", "polearm")
    rows = data["rows"]
    assert isinstance(rows, list) and len(rows) == 10
    plate = next(r for r in rows if r["armor"] == "plate mail" and not r["shield"])
    assert plate["p_hit"] == pytest.approx(16 / 20)  # 3 + d20 > 7 on faces 5..20
    markdown = run("mst2", "table", "--skills", "0-2", "--measure", "hit", "--format", "markdown")
    assert "| +2 |" in markdown.stdout and "P(hit)" in markdown.stdout


def test_duel_reference_engine_is_reachable() -> None:
    data = run_json(
        "duel", SELLSWORD, SPEARMAN, "-n", "300", "--seed", "1", "--engine", "reference"
    )
    assert data["engine"] == "reference" and data["n"] == 300


def test_duel_workers_do_not_change_results() -> None:
    one = run_json("duel", KNIGHT, OGRE, "-n", "300000", "--seed", "4", "--workers", "1")
    two = run_json("duel", KNIGHT, OGRE, "-n", "300000", "--seed", "4", "--workers", "2")
    assert one == two


AMBUSH = str(EXAMPLES / "encounters" / "ambush.toml")


def test_fight_narrates_line_by_line() -> None:
    result = run("fight", AMBUSH, "--seed", "2")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Ambush on the forest road (mst2)")
    assert any(line.startswith("— Round 1 —") for line in lines)
    assert lines[-1].startswith(("Winner: ", "Draw"))


def test_fight_json_has_outcome_and_event_log() -> None:
    data = run_json("fight", AMBUSH, "--seed", "2")
    assert {"name", "system", "winner", "rounds", "reason", "combatants", "events"} <= data.keys()
    events = data["events"]
    assert isinstance(events, list)
    assert events[0]["event"] == "encounter_started" and events[-1]["event"] == "encounter_ended"
    assert events[-1]["winner"] == data["winner"]
    assert run_json("fight", AMBUSH, "--seed", "2") == data


def test_fight_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('system = "mst2"\nsides = []\n')
    result = run("fight", str(bad))
    assert result.exit_code == 2 and "key 'sides'" in result.stderr
    result = run("fight", AMBUSH, "--rolls", "3")
    assert result.exit_code == 2 and "ran out of scripted dice" in result.stderr


def test_odds_text_of_a_large_pool_is_banded() -> None:
    result = run("odds", "100d100")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) < 70
    assert any("≤ " in line for line in lines) and any("≥ " in line for line in lines)
    data = run_json("odds", "100d100")
    distribution = data["distribution"]
    assert isinstance(distribution, dict) and len(distribution) == 9901


ARCHER = str(EXAMPLES / "mst2" / "archer.toml")


def test_shoot_scatters_to_someone_near() -> None:
    # odd 13: d2 → 2 picks the sellsword (evasion 11): 15 hits; long bow 2d10 [4,4] vs 2 → 2 wounds;
    # the sellsword's shock 2d10+1 [5,5] = 11 > 2
    data = run_json("mst2", "shoot", ARCHER, OGRE, "--near", SELLSWORD, "--rolls", "13,2,4,4,5,5")
    assert (data["victim"], data["hit"], data["wounds_inflicted"], data["shock_total"]) == (
        1,
        True,
        2,
        11,
    )
    assert data["prevented"] is False


def test_shoot_while_engaged_is_prevented_by_a_hit() -> None:
    data = run_json("mst2", "shoot", ARCHER, OGRE, "--engaged", OGRE, "--rolls", "20,1,1,1,8,8")
    assert data["prevented"] is True and data["natural"] is None


def test_hazard_and_heal() -> None:
    data = run_json("mst2", "hazard", KNIGHT, "fall", "--feet", "35", "--rolls", "3,3,3")
    assert (data["wounds_inflicted"], data["shock_total"], data["wounds"]) == (3, 10, 3)
    data = run_json(
        "mst2", "hazard", KNIGHT, "poison", "--toxicity", "2", "--wounds", "20", "--rolls", "1,1,1"
    )
    assert data["out"] is True and data["wounds"] == 22
    data = run_json("mst2", "hazard", KNIGHT, "burned", "--rolls", "5")
    assert data["wounds_inflicted"] == 0  # 5 is not above plate and shield's protection 5
    data = run_json(
        "mst2", "heal", KNIGHT, "--wounds", "8", "--days", "2", "--rolls", "1,1,1,5,5,5"
    )
    assert data["wounds"] == 7
    data = run_json(
        "mst2", "heal", KNIGHT, "--wounds", "8", "--setting", "high", "--rolls", "1,1,1"
    )
    assert data["wounds"] == 4


def test_fight_with_live_odds() -> None:
    result = run("fight", str(EXAMPLES / "encounters" / "ogre.toml"), "--seed", "3", "--odds")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    first = next(i for i, line in enumerate(lines) if "odds of Sellsword against Ogre" in line)
    assert "hit 50.0%" in lines[first]  # d20 + 3 beats the ogre's evasion 13 on 11..20
    assert lines[first + 2].startswith("Sellsword attacks Ogre")
    midian = run("fight", str(EXAMPLES / "encounters" / "city_watch.toml"), "--seed", "1", "--odds")
    assert midian.exit_code == 0 and not midian.stderr
    odds = [line for line in midian.stdout.splitlines() if "odds of" in line]
    # engaged foes only, and the situation as a strike resolves it: Tim is ganged up on
    # by two guards (+2 to hit: 80 % becomes 90 %), and can only dodge
    assert "odds of Guard 2 against Tim: hit 90.0%, defended 0.0%" in midian.stdout
    assert all("takes down" in line for line in odds)


def run_script(*args: str) -> subprocess.CompletedProcess[str]:
    """The real console script in a fresh process (its own error handling included)."""
    return subprocess.run([*SCRIPT, *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("roll", "d0"), "2 to 1000 sides"),
        (("roll", "3d6+"), "expression ends"),
        (("roll", "(("), "expression ends"),
        (("duel", SELLSWORD, SPEARMAN, "-n", "0"), "Invalid value for '-n'"),
        (("nosuch",), "No such command"),
    ],
)
def test_every_user_error_has_one_line_and_a_tip(args: tuple[str, ...], words: str) -> None:
    result = run_script(*args)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0].startswith("error: ") and words in lines[0]
    assert lines[1].startswith("Tip: ") and len(lines) == 2
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--narrate", "-n", "10"), "--narrate tells one duel"),
        (("--rolls", "1,2,3"), "add --narrate"),
        (("--narrate", "--plot", "x.png"), "leave out --narrate"),
    ],
)
def test_duel_refuses_options_it_would_ignore_before_any_work(
    args: tuple[str, ...], words: str
) -> None:
    result = run("duel", SELLSWORD, SPEARMAN, *args)
    assert result.exit_code == 2 and words in result.output


def test_a_simulated_duel_always_reports_a_short_seed_that_repeats_it() -> None:
    guard = str(EXAMPLES / "midian" / "guard.toml")
    brawler = str(EXAMPLES / "midian" / "brawler.toml")
    first = run_json("duel", guard, brawler, "-n", "200", "--workers", "1")
    assert isinstance(first["seed"], int) and 0 <= first["seed"] < 1_000_000
    again = run_json(
        "duel", guard, brawler, "-n", "200", "--workers", "1", "--seed", str(first["seed"])
    )
    assert again["a_wins"] == first["a_wins"] and again["mean_rounds"] == first["mean_rounds"]


def test_a_duel_of_namesakes_tells_them_apart() -> None:
    knight = str(EXAMPLES / "mst2" / "knight.json")
    result = run("duel", knight, knight)
    assert "Knight (A) wins" in result.stdout and "Knight (B) wins" in result.stdout


def test_repeated_members_are_numbered_across_sides(tmp_path: Path) -> None:
    path = tmp_path / "wolves.toml"
    path.write_text(
        'system = "mst2"\n'
        '[[sides]]\nname = "North"\nmembers = ["2 wolves"]\n'
        '[[sides]]\nname = "South"\nmembers = ["2 wolves"]\n'
    )
    data = run_json("fight", str(path), "--seed", "1")
    assert [c["id"] for c in data["combatants"]] == ["Wolf 1", "Wolf 2", "Wolf 3", "Wolf 4"]


@pytest.mark.parametrize(
    "args",
    [
        ("duel", KNIGHT, str(EXAMPLES / "mst2" / "ogre.toml"), "-n", "100000000", "--workers", "2"),
        (
            "duel",
            str(EXAMPLES / "midian" / "guard.toml"),
            str(EXAMPLES / "midian" / "brawler.toml"),
            "-n",
            "1000000000",
            "--workers",
            "2",
        ),
        (
            "duel",
            str(EXAMPLES / "midian" / "guard.toml"),
            str(EXAMPLES / "midian" / "brawler.toml"),
            "-n",
            "10000000",
            "--workers",
            "2",
            "--engine",
            "reference",
        ),
        (
            "fight",
            str(EXAMPLES / "encounters" / "ambush.toml"),
            "-n",
            "100000000",
            "--workers",
            "2",
        ),
    ],
    ids=["mst2 fast", "midian fast", "midian reference", "fight"],
)
def test_ctrl_c_stops_a_long_run_and_its_workers_at_once(args: tuple[str, ...]) -> None:
    import signal
    import time

    with subprocess.Popen(
        [*SCRIPT, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "AFFRAY_ESTIMATE_SECONDS": "0"},  # announce the run, however short
        preexec_fn=ctrl_c_as_at_a_terminal,
    ) as process:
        try:
            # a guard against a hang, not a measure of speed: a fresh machine compiles
            # the fast engines first, and a busy one slowly
            announced = first_line_of_stderr(process, within=600)
            assert announced.startswith("about ") and announced.endswith("; Ctrl-C stops")
            time.sleep(1)  # the announcement comes as the workers start: now they work
            assert process.poll() is None, "the run ended before it was interrupted"
            sent = time.monotonic()
            process.send_signal(signal.SIGINT)
            _, err = process.communicate(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
    assert time.monotonic() - sent < 10  # loose: the target is well under a second
    assert process.returncode == 130
    assert err.strip() == "interrupted"


def first_line_of_stderr(process: subprocess.Popen[str], within: float) -> str:
    """The first line on stderr after the note that a fast engine compiles first (on a
    fresh machine: once, before any run)."""
    import select
    import time

    assert process.stderr is not None
    until = time.monotonic() + within
    while True:
        ready, _, _ = select.select([process.stderr], [], [], max(until - time.monotonic(), 0))
        if not ready:
            process.kill()
            process.wait()
            raise AssertionError(f"nothing on stderr within {within} s")
        line = process.stderr.readline().rstrip("\n")
        if not line.startswith("compiling the "):
            return line


HARMLESS = (
    'system = "midian"\nname = "{name}"\nhit_points = 10\nlife_points = 1\n'
    "damage_bonus = -20\narmour_class = 60\n"
    "attributes = { strength = 1, agility = 1, wits = 1, willpower = 1, stamina = 1 }\n"
)
"""A Midian fighter who can never hurt anyone: a duel of two lasts all its 1000 rounds
(most of a second), so a chunk of such duels takes minutes."""


@pytest.mark.slow
def test_ctrl_c_as_the_workers_start_stops_them_all(tmp_path: Path) -> None:
    """A Ctrl-C that landed while a worker was being started could leave that worker
    unknown to the pool: it fought on through its chunk and the program waited for it
    (about one try in fifteen). Ctrl-C is now held while a worker starts."""
    import signal
    import time

    sheets = []
    for name in "AB":
        path = tmp_path / f"{name}.toml"
        path.write_text(HARMLESS.replace("{name}", name))
        sheets.append(str(path))
    for _ in range(8):
        with subprocess.Popen(
            [*SCRIPT, "duel", *sheets, "-n", "10000", "--workers", "2", "--engine", "reference"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=ctrl_c_as_at_a_terminal,
            start_new_session=True,  # its own process group, to clean up after a failure
        ) as process:
            announced = first_line_of_stderr(process, within=600)  # a guard, not a measure
            assert announced.endswith("; Ctrl-C stops")
            process.send_signal(signal.SIGINT)  # as the workers start
            sent = time.monotonic()
            try:
                _, err = process.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                raise
            assert time.monotonic() - sent < 10
            assert process.returncode == 130 and err.strip() == "interrupted"


KNIGHT_VS_OGRE = (KNIGHT, str(EXAMPLES / "mst2" / "ogre.toml"))


def test_a_long_run_says_how_long_it_will_take_before_it_starts() -> None:
    """Not at a terminal, a run estimated over the threshold (10 s; lowered here so
    that a quick run qualifies) prints one line on stderr before any result."""
    result = subprocess.run(
        [*SCRIPT, "duel", *KNIGHT_VS_OGRE, "-n", "400000", "--seed", "1", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # one stream, in the order written
        text=True,
        timeout=120,
        env={**os.environ, "AFFRAY_ESTIMATE_SECONDS": "0"},
    )
    assert result.returncode == 0, result.stdout
    first, rest = result.stdout.split("\n", 1)
    assert re.fullmatch(
        r"about (\d+ s|\d+ min( \d+ s)?) for 400,000 duels on [1-3] workers?; Ctrl-C stops",
        first,
    ), first
    assert json.loads(rest)["n"] == 400_000


def test_a_quick_run_says_nothing_before_its_result() -> None:
    result = subprocess.run(
        [*SCRIPT, "duel", *KNIGHT_VS_OGRE, "-n", "400000", "--seed", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        env={k: v for k, v in os.environ.items() if k != "AFFRAY_ESTIMATE_SECONDS"},
    )
    assert result.returncode == 0 and result.stderr == ""
    assert json.loads(result.stdout)["n"] == 400_000


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (0.2, "1 s"),
        (12.4, "12 s"),
        (59.6, "1 min"),
        (130, "2 min 10 s"),
        (3599.4, "59 min 59 s"),
        (3600, "1 h"),
        (12_000, "3 h 20 min"),
        (86_399, "1 day"),
        (2 * 86_400 + 4 * 3600 + 60, "2 days 4 h"),
    ],
)
def test_durations_are_said_to_their_two_largest_units(seconds: float, said: str) -> None:
    from affray.cli.estimates import duration

    assert duration(seconds) == said


def test_the_estimate_line() -> None:
    from affray.cli.estimates import estimate_line
    from affray.sim import Estimate

    line = estimate_line(Estimate(130.2, 100_000_000, 4))
    assert line == "about 2 min 10 s for 100,000,000 duels on 4 workers; Ctrl-C stops"
    assert estimate_line(Estimate(11, 1, 1)) == "about 11 s for 1 duel on 1 worker; Ctrl-C stops"


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting to be reaped is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def long_duel_at_work() -> tuple[subprocess.Popen[str], list[int]]:
    """A duel of 10^10 on 2 workers in the real console script, once its workers are
    at work; and their process ids."""
    import time

    process = subprocess.Popen(
        [*SCRIPT, "duel", SELLSWORD, SPEARMAN, "-n", "10000000000", "--workers", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "AFFRAY_ESTIMATE_SECONDS": "0"},
    )
    assert first_line_of_stderr(process, within=60).startswith("about ")
    deadline = time.monotonic() + 30
    while len(workers := children_of(process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(workers) >= 2
    time.sleep(0.5)  # the workers have started (and asked for their signals)
    return process, workers


def gone(pids: list[int], within: float = 10) -> bool:
    """Whether all these processes end within ``within`` seconds."""
    import time

    deadline = time.monotonic() + within
    while any(running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(running(pid) for pid in pids)


@pytest.mark.slow
def test_sigterm_stops_a_long_duel_and_its_workers() -> None:
    """``kill`` (SIGTERM) used to end the main process alone: its pool workers fought
    on, orphaned. Now it unwinds as Ctrl-C does (exit code 143)."""
    import signal

    process, workers = long_duel_at_work()
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 143, err
    assert "Traceback" not in err
    assert gone(workers)


@pytest.mark.slow
def test_workers_end_with_a_main_process_killed_outright() -> None:
    """``kill -9`` leaves the main process no chance to stop its workers: the kernel
    ends them (Linux's parent-death signal), so none fights on, orphaned."""
    import signal

    process, workers = long_duel_at_work()
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    assert process.stderr is not None
    process.stderr.close()
    assert gone(workers)
