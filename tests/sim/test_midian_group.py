"""The fast Midian group engine against the reference engine: fight for fight with the
same dice (every die rolled, in the same order, to the same end) on every example
encounter, on random small encounters, from fights stopped half-way and after each
first action a table offers; within 4 sigma with its own dice; seeding, refusals and
the fallback to the reference engine."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from affray.dice import RandomDice
from affray.encounter import Answers, Phase
from affray.errors import NotModelledError
from affray.rulesystems.midian.sim.fights import (
    ENGINE,
    FIRST_ACTIONS,
    WAIT,
    MidianGroupFights,
    midian_fast_fights,
)
from affray.sim.fights import (
    REFERENCE,
    Fighting,
    FightTotals,
    encounter_file,
    fight_many,
    set_out,
    simulate_fights,
)
from tests.helpers import EXAMPLES
from tests.sim.test_mst2_group import _half_way, _reference, assert_agree

MIDIAN_ENCOUNTERS = [
    p
    for p in sorted((EXAMPLES / "encounters").glob("*.toml"))
    if 'system = "midian"' in p.read_text()
]
IDS = [p.stem for p in MIDIAN_ENCOUNTERS]


def _fast(fighting: Fighting) -> MidianGroupFights:
    return midian_fast_fights(fighting.ruleset, fighting.cursor, fighting.tactics, fighting.first)


def replays(fighting: Fighting, seeds: Iterable[int]) -> int:
    """Each seed's fight in the reference engine (its dice and the tactics AI's
    recorded), then in the fast engine with those dice: the same end (winner, rounds,
    who is standing), every die the same. Returns how many fights were replayed."""
    fast = _fast(fighting)
    count = 0
    for seed in seeds:
        dice = RandomDice(seed, record=True)
        choices = RandomDice(seed + 1_000_003, record=True)
        ai = fighting.system.ai(fighting.ruleset, fighting.tactics, dice=choices)
        reference = fight_many(fighting, Answers(dice, ai), 1)
        rolled = [(d.sides, d.face) for d in dice.log]
        got, same = fast.replay(rolled, [(d.sides, d.face) for d in choices.log])
        assert got == reference, f"seed {seed}: {got} against {reference}"
        assert same, f"seed {seed}: not the same dice"
        count += 1
    return count


@pytest.mark.parametrize("path", MIDIAN_ENCOUNTERS, ids=IDS)
def test_every_example_replays_the_reference_engine_fight_for_fight(path: Path) -> None:
    assert replays(set_out(encounter_file(path)), range(60)) == 60


@pytest.mark.slow
@pytest.mark.parametrize("path", MIDIAN_ENCOUNTERS, ids=IDS)
def test_every_example_agrees_with_the_reference_engine(path: Path) -> None:
    """In law, within 4σ (600 reference fights: the fight-for-fight replays above are
    the exact check; this one sees a drift of a few points in a side's wins)."""
    start = encounter_file(path)
    fast = simulate_fights(start, 40_000, seed=1)
    assert fast.engine == ENGINE and fast.note is None
    reference = simulate_fights(start, 600, seed=2, engine="reference")
    assert reference.engine == REFERENCE
    assert_agree(fast.totals, reference.totals, path.stem)


# -- random small encounters ------------------------------------------------------------

CATALOG = ["archer", "bandit", "brawler", "guard", "knight", "merchant", "pikeman", "rogue"]
FILES = ["brawler", "elf_archer", "guard", "ogre_shaman"]
BASE: dict[str, Any] = {
    "system": "midian",
    "attributes": {"strength": 12, "agility": 11, "wits": 10, "willpower": 11, "stamina": 12},
    "attack_bonus": 3,
    "damage_bonus": 1,
    "armour_class": 9,
    "hit_points": 12,
    "life_points": 8,
    "system_shock": 75,
    "weapon": {"name": "Sword", "damage": "1d8", "type": "hacking", "skill": 2},
}
MADE = {
    "lucky": {"retests": ["Divine blessing", "Lucky"], "interrupts": 1, "dodge": 2},
    "heroic": {
        "armour": {"encumbrance": "heroic", "trained": True},
        "armour_class": 16,
        "damage_reduction": 5,
        "hit_points": 20,
    },
    "wrestler": {
        "attributes": {"strength": 16, "agility": 13},
        "grappling": 3,
        "weapon": {
            "name": "Fists",
            "damage": "1d6",
            "type": "smashing",
            "skill": 1,
            "encumbrance": "none",
            "reach": "close",
        },
    },
    "slinger": {
        "retests": ["Sure shot"],
        "weapon": {
            "name": "Sling",
            "damage": "1d4+1",
            "type": "smashing",
            "skill": 1,
            "ranged": "hurled",
            "range_increment": 10,
        },
    },
    "greenhorn": {"experience": "never seen", "shield": {"armour_class": 2, "skill": 0}},
    "brute": {
        "hit_points": 30,
        "natural_armour_class": 8,
        "resistances": {"smashing": 50, "hacking": 10},
        "weapon": {
            "name": "Maul",
            "damage": "2d8",
            "type": "smashing",
            "hands": 2,
            "two_hand_grip": True,
            "skill": 1,
            "encumbrance": "heavy",
            "reach": "far",
        },
    },
}


def _made_sheets(folder: Path) -> dict[str, Path]:
    paths = {}
    for name, keys in MADE.items():
        data = {**BASE, **keys, "name": name.title()}
        data["attributes"] = {**BASE["attributes"], **keys.get("attributes", {})}
        paths[name] = folder / f"{name}.json"
        paths[name].write_text(json.dumps(data))
    return paths


def random_encounter(rng: random.Random, path: Path, made: dict[str, Path]) -> None:
    """A random Midian encounter of 2 to 4 combatants on 2 or 3 sides: catalog, example
    and made sheets (retests, heroic armour, grapplers, a sling, first combat, an
    unskilled shield, resistances), every role and target policy, retreats, every
    option (distance, hit rule, Willpower, critical effects, melee cover, surprise)."""
    lines = [
        'system = "midian"',
        f'name = "Random {path.stem}"',
        f"max_rounds = {rng.choice([5, 30, 100])}",
        f"distance = {rng.choice([0, 0, 10, 30, 40])}",
        f'hit_rule = "{rng.choice(["at-or-above", "exceed"])}"',
        f'willpower = "{rng.choice(["first", "each"])}"',
        f'willpower_shock = "{rng.choice(["earlier", "all"])}"',
        f"critical_effects = {rng.choice(['true', 'false'])}",
        f"melee_cover = {rng.choice([0, 0, 20])}",
    ]
    sides = rng.choice([2, 2, 2, 3])
    counts = [1] * sides
    for _ in range(rng.randint(0, 4 - sides)):
        counts[rng.randrange(sides)] += 1
    for s, count in enumerate(counts):
        lines += ["[[sides]]", f'name = "Side {s + 1}"']
        lines.append(f'tactics = "{rng.choice(["weakest", "random", "nearest", "focus"])}"')
        if rng.random() < 0.2:
            lines.append("surprised = true")
        members = []
        for _ in range(count):
            kind = rng.random()
            if kind < 0.5:
                sheet = f'"{rng.choice(CATALOG)}"'
            elif kind < 0.7:
                sheet = json.dumps(str(EXAMPLES / "midian" / f"{rng.choice(FILES)}.toml"))
            else:
                sheet = json.dumps(str(made[rng.choice(sorted(made))]))
            role = rng.choice(["fighter", "archer", "grappler", "pikeman", "disarmer"])
            extra = f', role = "{role}"' if role != "disarmer" or "wrestler" in sheet else ""
            if rng.random() < 0.3:
                extra += f", retreat_at = {rng.randint(4, 15)}"
            members.append(f"{{ sheet = {sheet}{extra} }}")
        lines.append(f"members = [{', '.join(members)}]")
    path.write_text("\n".join(lines) + "\n")


def _random_fights(folder: Path, count: int, seed: int) -> list[tuple[str, Fighting]]:
    rng = random.Random(seed)
    made = _made_sheets(folder)
    found = []
    for k in range(count):
        path = folder / f"random{k}.toml"
        random_encounter(rng, path, made)
        found.append((path.read_text(), set_out(encounter_file(path))))
    return found


def test_random_small_encounters_replay_the_reference_engine(tmp_path: Path) -> None:
    played = sum(replays(f, range(12)) for _, f in _random_fights(tmp_path, 40, 2026))
    assert played == 40 * 12


@pytest.mark.slow
def test_ten_random_small_encounters_agree_with_the_reference_engine(tmp_path: Path) -> None:
    for k, (text, fighting) in enumerate(_random_fights(tmp_path, 10, 7)):
        fast = _fast(fighting).fights(k, 0, 20_000)
        assert_agree(fast, _reference(fighting, 200, k), text)


# -- from a table ---------------------------------------------------------------------


def _half_ways() -> list[Fighting]:
    """Fights stopped in a turn of round 2 or 3: Tim holding a guard, the knights
    engaged after their charge, the ambush's second round."""
    return [
        _half_way(EXAMPLES / "encounters" / "city_watch.toml", 3, 8),
        _half_way(EXAMPLES / "encounters" / "charge.toml", 2, 14),
        _half_way(EXAMPLES / "encounters" / "roadside_ambush.toml", 1, 9),
    ]


def test_a_fight_stopped_half_way_goes_on_as_the_reference_engine_plays_it() -> None:
    fights = _half_ways()
    for fighting in fights:
        cursor = fighting.cursor
        assert cursor.phase(fighting.ruleset) is Phase.TURN and cursor.encounter.round >= 2
        assert cursor.encounter.engagements and cursor.encounter.queue
        assert replays(fighting, range(40)) == 40
    assert fights[0].cursor.encounter.states["Tim"].holding is not None
    over = _half_way(EXAMPLES / "encounters" / "city_watch.toml", 3, 10)
    assert over.cursor.phase(over.ruleset) is Phase.ROUND_OVER
    assert replays(over, range(20)) == 20


def test_a_turn_waiting_for_its_bookkeeping_goes_on_as_the_reference_engine_plays_it(
    tmp_path: Path,
) -> None:
    """One who may interrupt makes every foe's turn wait for its move (the question is
    asked then): the bookkeeping of that turn is the fast engine's to do."""
    made = _made_sheets(tmp_path)
    path = tmp_path / "lucky.toml"
    path.write_text(
        'system = "midian"\n[[sides]]\nname = "A"\nmembers = ["2 bandits"]\n'
        f'[[sides]]\nname = "B"\nmembers = [{json.dumps(str(made["lucky"]))}]\n'
    )
    waiting = 0
    for moves in range(1, 9):
        fighting = _half_way(path, 4, moves)
        if fighting.cursor.phase(fighting.ruleset) is not Phase.TURN:
            continue
        waiting += not fighting.cursor.begun
        replays(fighting, range(15))
    assert waiting >= 2


@pytest.mark.slow
def test_a_fight_stopped_half_way_agrees_with_the_reference_engine() -> None:
    for fighting in _half_ways():
        assert_agree(_fast(fighting).fights(1, 0, 40_000), _reference(fighting, 400, 2), "half")


def test_each_first_action_a_table_offers_replays_the_reference_engine() -> None:
    seen = set()
    for fighting in _half_ways():
        who = fighting.cursor.current
        assert who is not None
        for action in fighting.ruleset.actions(fighting.cursor.encounter, who):
            first = (action.name, action.target)
            if action.name not in FIRST_ACTIONS and action.name != WAIT:
                with pytest.raises(NotModelledError, match=f"first action '{action.name}'"):
                    _fast(replace(fighting, first=first))
                continue
            seen.add(action.name)
            replays(replace(fighting, first=first), range(10))
    assert {"attack", "called shot easy", "flee", "hold", "wait"} <= seen


# -- seeding, refusals, the fallback ----------------------------------------------------


def test_the_answer_depends_on_the_seed_and_n_only() -> None:
    start = encounter_file(EXAMPLES / "encounters" / "city_watch.toml")
    one = simulate_fights(start, 9000, seed=5, workers=1)
    two = simulate_fights(start, 9000, seed=5, workers=2)
    assert one.totals == two.totals and one.engine == ENGINE
    assert simulate_fights(start, 9000, seed=6).totals != one.totals
    totals: FightTotals = one.totals
    assert sum(totals.wins.values()) + totals.draws == totals.n == 9000
    assert sum(totals.rounds.values()) == 9000
    assert totals.total_rounds == sum(r * c for r, c in totals.rounds.items())


def test_what_it_does_not_play_it_refuses_and_the_reference_engine_plays(
    tmp_path: Path,
) -> None:
    path = tmp_path / "fumbles.toml"
    path.write_text(
        'system = "midian"\nfumble_effects = true\n'
        '[[sides]]\nname = "A"\nstance = "defensive"\nmembers = ["guard"]\n'
        '[[sides]]\nname = "B"\nrole = "disarmer"\nmembers = ["bandit"]\n'
    )
    fighting = set_out(encounter_file(path))
    with pytest.raises(NotModelledError) as refused:
        _fast(fighting)
    assert refused.value.engine == ENGINE
    assert refused.value.reasons == (
        "fumble effects (fumble_effects = true)",
        "Guard's stance (defensive)",
        "Bandit's role (disarmer)",
    )
    odds = simulate_fights(encounter_file(path), 20, seed=1)
    assert odds.engine == REFERENCE
    assert odds.note is not None and "fumble effects" in odds.note
    with pytest.raises(NotModelledError):
        simulate_fights(encounter_file(path), 20, seed=1, engine="fast")


def test_a_first_action_it_does_not_play_is_refused() -> None:
    fighting = _half_ways()[0]
    with pytest.raises(NotModelledError, match="first action 'dance'"):
        _fast(replace(fighting, first=("dance", None)))


PLAIN_PYTHON = """
from affray.rulesystems.midian.sim import fights_kernel as midian_group_kernel
from affray.sim.fights import encounter_file, set_out
from tests.helpers import EXAMPLES
from tests.sim.test_midian_group import _fast, replays
assert not midian_group_kernel.compiled()
fighting = set_out(encounter_file(EXAMPLES / "encounters" / "charge.toml"))
assert replays(fighting, range(5)) == 5
totals = _fast(fighting).fights(1, 0, 200)
assert totals.n == 200 and sum(totals.wins.values()) + totals.draws == 200
"""


def test_without_numba_it_plays_the_same_fights_as_plain_python() -> None:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    ran = subprocess.run(
        [sys.executable, "-c", PLAIN_PYTHON], env=env, capture_output=True, text=True, timeout=300
    )
    assert ran.returncode == 0, ran.stderr


def test_the_kernel_keeps_the_rules_constants() -> None:
    from affray.rulesystems.midian import injury, situations, state
    from affray.rulesystems.midian.sim import fights_kernel as kernel

    assert kernel.CHARGE_RUN_UP == state.CHARGE_RUN_UP
    assert kernel.KNOCKED_DOWN_ROUNDS == state.KNOCKED_DOWN_ROUNDS
    assert kernel.MAX_GANG == situations.MAX_GANG
    assert kernel.SERIOUS_WOUND == injury.SERIOUS_WOUND
    assert kernel.SHOCK_STEP == injury.SHOCK_STEP
    assert isinstance(kernel.needs_compiling(), bool)


def test_weapon_dice_it_cannot_roll_one_by_one_go_to_the_reference_engine(
    tmp_path: Path,
) -> None:
    """A weapon of the newer dice notation (keep/drop, exploding, rerolled, counted):
    the engine rolls plain dice one by one, so it refuses, and the fights are played."""
    guard = (EXAMPLES / "midian" / "guard.toml").read_text()
    (tmp_path / "lucky.toml").write_text(
        guard.replace('damage = "2d6"', 'damage = "2d6kh1"').replace('"Guard"', '"Lucky"')
    )
    path = tmp_path / "fight.toml"
    path.write_text(
        'system = "midian"\n[[sides]]\nname = "A"\nmembers = ["lucky.toml"]\n'
        '[[sides]]\nname = "B"\nmembers = ["guard"]\n'
    )
    with pytest.raises(NotModelledError, match=r"weapon dice \(2d6kh1\)"):
        simulate_fights(encounter_file(path), 20, seed=1, engine="fast")
    odds = simulate_fights(encounter_file(path), 60, seed=1)
    assert odds.engine == "reference engine" and odds.note and odds.n == 60
