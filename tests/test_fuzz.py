"""Fuzz: random sheets the validator accepts, of both systems, through the real console
script. Every command answers (exit 0), or refuses with one error and a tip (exit 2),
or says up front that it will take long (and then stops at Ctrl-C, exit 130); never a
traceback, never a silent wait."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from affray.rulesystems.midian.character import DAMAGE_TYPES
from affray.rulesystems.mst2.catalog import (
    ARMORS,
    HIT_DICE_BY_TENACITY,
    HIT_DIE_BY_ROLE,
    MISSILES,
    WEAPONS,
)
from affray.sheets import sheet_from_data
from tests.helpers import SCRIPT, ctrl_c_as_at_a_terminal

LOOSE_SECONDS = 900
"""How long a command may go without a word before it counts as hung: hundreds of
times what the slowest random duel takes on an idle machine (2.6 s), so that a busy
machine (a CI runner with every core at the suite, pytest-xdist) never fails it (180 s
did once); a hang is still caught."""
ESTIMATE = re.compile(r"about .+ for [\d,]+ duels? on \d+ workers?; Ctrl-C stops")

names = st.text(
    st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zl", "Zp")), min_size=1, max_size=80
).filter(lambda name: name.strip() != "")


def pool(most_dice: int, most_sides: int) -> st.SearchStrategy[str]:
    """Dice text such as ``2d6+1d8``: at most ``most_dice`` dice in all."""
    terms = st.lists(
        st.tuples(st.integers(1, most_dice), st.integers(2, most_sides)), min_size=1, max_size=4
    ).filter(lambda terms: sum(count for count, _ in terms) <= most_dice)
    return terms.map(lambda terms: "+".join(f"{count}d{sides}" for count, sides in terms))


@st.composite
def mst2_sheets(draw: st.DrawFn) -> dict[str, Any]:
    sheet: dict[str, Any] = {
        "system": "mst2",
        "name": draw(names),
        "skill": draw(st.integers(0, 100)),
        "armor": draw(st.sampled_from(sorted(ARMORS))),
        "evasion_bonus": draw(st.integers(-20, 20)),
    }
    if draw(st.booleans()):
        sheet["weapon"] = draw(st.sampled_from(sorted(WEAPONS)))
    else:
        weapon: dict[str, Any] = {
            "name": draw(names.map(lambda name: name[:60].strip() or "W")),
            "reach": draw(st.sampled_from(["close", "mid", "far"])),
            "power": draw(pool(20, 100)),
            "hands": draw(st.sampled_from([1, 2])),
        }
        if weapon["hands"] == 1 and draw(st.booleans()):
            weapon["two_handed_power"] = draw(pool(20, 100))
        sheet["weapon"] = weapon
    sheet["shield"] = draw(st.booleans())
    if draw(st.booleans()):
        bonus = draw(st.integers(-20, 100))
        sheet["hit_dice"] = draw(pool(30, 20)) + (f"{bonus:+d}" if bonus else "")
    else:
        sheet["role"] = draw(st.sampled_from(sorted(HIT_DIE_BY_ROLE)))
        sheet["tenacity"] = draw(st.sampled_from(sorted(HIT_DICE_BY_TENACITY)))
        sheet["hit_dice_bonus"] = draw(st.integers(-20, 100))
    if draw(st.booleans()):
        sheet["extra_power"] = draw(pool(20, 100))
    if draw(st.booleans()):
        sheet["missile"] = draw(st.sampled_from(sorted(MISSILES)))
    return sheet


encumbrances = st.sampled_from(["none", "light", "medium", "heavy", "very heavy", "heroic"])


@st.composite
def midian_weapons(draw: st.DrawFn) -> dict[str, Any]:
    weapon: dict[str, Any] = {
        "name": draw(names.map(lambda name: name[:60].strip() or "W")),
        "damage": draw(pool(60, 100)) + draw(st.sampled_from(["", "+2", "-1"])),
        "type": draw(st.sampled_from(DAMAGE_TYPES)),
        "hands": draw(st.sampled_from([1, 2])),
        "two_hand_grip": draw(st.booleans()),
        "skill": draw(st.integers(0, 20)),
        "encumbrance": draw(encumbrances),
        "reach": draw(st.sampled_from(["close", "mid", "far"])),
        "extra_damage": draw(st.integers(-50, 100)),
    }
    if draw(st.integers(0, 3)) == 0:
        weapon["ranged"] = draw(st.sampled_from(["hurled", "device"]))
        weapon["range_increment"] = draw(st.integers(1, 10_000))
    return weapon


@st.composite
def midian_sheets(draw: st.DrawFn) -> dict[str, Any]:
    attribute = st.integers(1, 100)
    sheet: dict[str, Any] = {
        "system": "midian",
        "name": draw(names),
        "attributes": {
            key: draw(attribute) for key in ("strength", "agility", "wits", "willpower", "stamina")
        },
        "attack_bonus": draw(st.integers(-50, 50)),
        "damage_bonus": draw(st.integers(-50, 100)),
        "initiative_bonus": draw(st.integers(-50, 50)),
        "armour_class": draw(st.integers(0, 60)),
        "damage_reduction": draw(st.integers(0, 100)),
        "resistances": draw(
            st.dictionaries(st.sampled_from(DAMAGE_TYPES), st.integers(0, 1000), max_size=4)
        ),
        "hit_points": draw(st.integers(0, 10_000)),
        "life_points": draw(st.integers(1, 10_000)),
        "system_shock": draw(st.integers(0, 100)),
        "dodge": draw(st.integers(0, 20)),
        "experience": draw(st.sampled_from(["never seen", "observed", "veteran"])),
        "grappling": draw(st.integers(0, 20)),
        "ambidextrous": draw(st.booleans()),
        "regenerates": draw(st.booleans()),
        "natural_armour_class": draw(st.integers(0, 60)),
        "retests": draw(st.lists(st.sampled_from(["Divine blessing", "Luck"]), max_size=2)),
        "interrupts": draw(st.integers(0, 10)),
        "two_weapon_style": draw(st.booleans()),
        "melee_evasion": draw(st.booleans()),
    }
    if draw(st.booleans()):
        sheet["weapon"] = draw(midian_weapons())
    if draw(st.booleans()):
        sheet["shield"] = {
            "armour_class": draw(st.integers(0, 10)),
            "skill": draw(st.integers(0, 20)),
            "encumbrance": draw(encumbrances),
        }
    elif "weapon" in sheet and draw(st.booleans()):
        sheet["off_hand"] = draw(midian_weapons())
    if draw(st.booleans()):
        sheet["armour"] = {"encumbrance": draw(encumbrances), "trained": draw(st.booleans())}
    return sheet


def answers(args: list[str]) -> str:
    """Run the console script; return how it answered: ``ok``, ``refused`` or
    ``announced`` (a long run said so first, then stopped at Ctrl-C)."""
    with (
        tempfile.TemporaryFile("w+") as out,
        subprocess.Popen(
            [*SCRIPT, *args],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=ctrl_c_as_at_a_terminal,
            start_new_session=True,  # its own process group, to clean up after a failure
        ) as process,
    ):
        assert process.stderr is not None
        deadline = time.monotonic() + LOOSE_SECONDS
        said: list[str] = []
        while True:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([process.stderr], [], [], max(left, 0))
            if not ready:
                os.killpg(process.pid, signal.SIGKILL)
                pytest.fail(f"no answer within {LOOSE_SECONDS} s: affray {' '.join(args)}")
            line = process.stderr.readline()
            if not line:
                break
            said.append(line)
            if ESTIMATE.fullmatch(line.rstrip("\n")):
                process.send_signal(signal.SIGINT)
                try:
                    _, rest = process.communicate(timeout=LOOSE_SECONDS)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    raise
                assert process.returncode == 130, f"{args}: {rest}"
                assert rest.strip() == "interrupted", f"{args}: {rest}"
                return "announced"
        code = process.wait(timeout=max(deadline - time.monotonic(), 1))
        err = "".join(said)
        out.seek(0)
        output = out.read()
    assert "Traceback" not in err and "internal error" not in err, f"{args}:\n{err}"
    if code == 2:
        assert err.startswith("error: ") and "\nTip: " in err, f"{args}:\n{err}"
        return "refused"
    assert code == 0, f"{args} exited {code}:\n{err}"
    assert output.strip(), f"{args}: no output"
    return "ok"


def write_pair(folder: Path, first: dict[str, Any], second: dict[str, Any]) -> tuple[str, str]:
    paths = []
    for index, sheet in enumerate((first, second)):
        sheet_from_data(sheet)  # the validator accepts it: the point of this test
        path = folder / f"sheet{index}.json"
        path.write_text(json.dumps(sheet), encoding="utf-8")
        paths.append(str(path))
    return paths[0], paths[1]


def accepted(sheet: dict[str, Any]) -> bool:
    """Whether the validator and the rules accept the sheet (a grip or a pair of
    weapons the rules refuse is not what this test is after)."""
    try:
        sheet_from_data(sheet)
    except ValueError:
        return False
    return True


def run_all(commands: list[list[str]]) -> list[str]:
    with ThreadPoolExecutor(max_workers=len(commands)) as pool:
        return list(pool.map(answers, commands))


FUZZ = settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.mark.slow
@FUZZ
@given(
    mst2_sheets().filter(accepted),
    mst2_sheets().filter(accepted),
    st.integers(0, 100),
    st.integers(0, 100),
)
def test_random_mst2_sheets_get_an_answer(
    first: dict[str, Any], second: dict[str, Any], low: int, high: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        a, b = write_pair(Path(folder), first, second)
        skills = f"{min(low, high)}-{max(low, high)}"
        outcomes = run_all(
            [
                ["mst2", "odds", a, b, "--json"],
                ["duel", a, b, "--json"],
                ["duel", a, b, "-n", "200", "--json"],
                ["mst2", "table", "--attacker", a, "--skills", skills, "--format", "csv"],
            ]
        )
    assert outcomes[0] == "ok"  # one attack's odds always answer
    assert outcomes[3] == "ok"


@pytest.mark.slow
@FUZZ
@given(midian_sheets().filter(accepted), midian_sheets().filter(accepted))
def test_random_midian_sheets_get_an_answer(first: dict[str, Any], second: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        a, b = write_pair(Path(folder), first, second)
        run_all(
            [
                ["duel", a, b, "--json"],
                ["duel", a, b, "-n", "200", "--json"],
                ["midian", "attack", a, b, "--seed", "1", "--json"],
            ]
        )
