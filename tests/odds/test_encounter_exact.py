"""The exact encounter chain against the exact duel, against brute force through the
reference engine (every die enumerated), and against the Monte Carlo."""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from affray.dice import Dice
from affray.encounter import Answers, Combatant, Cursor, Encounter, Phase, Targeting
from affray.encounter.cursor import act, proceed, sides_fighting
from affray.encounter.model import pair
from affray.errors import NotModelledError, RulesError
from affray.rulesystems.mst2 import Fighter, HitDice, armor
from affray.rulesystems.mst2.catalog import Reach, Weapon
from affray.rulesystems.mst2.odds.chances import duel_chances
from affray.rulesystems.mst2.odds.encounter import ExactFightOdds, exact_fight, exact_limit
from affray.rulesystems.mst2.ruleset import Mst2Ruleset, TurnOrder
from affray.rulesystems.mst2.state import Condition, FighterState
from affray.rulesystems.mst2.tactics import Mst2AI, Mst2Tactics
from affray.sheets import load_encounter
from affray.sim.fights import encounter_file, simulate_fights
from tests.helpers import EXAMPLES

MST2 = EXAMPLES / "mst2"


def _file(
    tmp_path: Path, name: str, sides: Iterable[tuple[str, list[str], str]], **options: object
) -> Path:
    lines = ['system = "mst2"', *(f"{k} = {v!r}".replace("'", '"') for k, v in options.items())]
    for side, members, tactics in sides:
        listed = ", ".join(f'"{MST2 / m}"' for m in members)
        lines += [
            "[[sides]]",
            f'name = "{side}"',
            f'tactics = "{tactics}"',
            f"members = [{listed}]",
        ]
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _exact(path: Path) -> ExactFightOdds:
    setup = load_encounter(path)
    return exact_fight(setup.ruleset, Cursor(setup.encounter, setup.max_rounds), setup.tactics)


# -- against the exact duel -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "rounds"),
    [
        ("knight.json", "ogre.toml", 100),
        ("sellsword.toml", "spearman.toml", 1000),  # reach: the sword closes in on the spear
        ("archer.toml", "ogre.toml", 100),  # a dagger against a club: counter-attacks
        ("spearman.toml", "goblin.toml", 30),
    ],
)
def test_a_one_on_one_file_is_the_exact_duel(tmp_path: Path, a: str, b: str, rounds: int) -> None:
    path = _file(
        tmp_path, "pair", [("A", [a], "nearest"), ("B", [b], "weakest")], max_rounds=rounds
    )
    setup = load_encounter(path)
    first, second = (c.sheet for c in setup.encounter.combatants)
    duel = duel_chances(first, second, max_rounds=rounds)
    odds = _exact(path)
    assert odds.p_wins["A"] == pytest.approx(duel.p_a_wins, abs=1e-12)
    assert odds.p_wins["B"] == pytest.approx(duel.p_b_wins, abs=1e-12)
    assert odds.p_draw == pytest.approx(duel.p_draw, abs=1e-12)
    assert odds.mean_rounds == pytest.approx(duel.mean_rounds, rel=1e-10)
    ids = [c.id for c in setup.encounter.combatants]
    assert odds.p_standing[ids[0]] == pytest.approx(duel.p_a_wins + duel.p_draw, abs=1e-12)


def test_the_answer_has_the_spec_keys(tmp_path: Path) -> None:
    path = _file(
        tmp_path, "pair", [("A", ["knight.json"], "nearest"), ("B", ["ogre.toml"], "nearest")]
    )
    data = _exact(path).to_dict()
    assert set(data) == {"method", "sides", "p_draw", "mean_rounds", "combatants"}
    assert data["method"] == "exact"
    assert set(data["sides"]) == {"A", "B"}
    assert set(data["combatants"]) == {"Knight", "Ogre"}
    total = sum(s["p_wins"] for s in data["sides"].values()) + data["p_draw"]
    assert total == pytest.approx(1.0, abs=1e-12)


# -- against brute force through the reference engine --------------------------------------------


class _NeedError(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Prefix(Dice):
    """The faces given, then a request for the next die (to enumerate it)."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__()
        self.faces = faces
        self.used = 0

    def _face(self, sides: int, purpose: str) -> int:
        if self.used == len(self.faces):
            raise _NeedError(sides)
        self.used += 1
        return self.faces[self.used - 1]


def _key(cursor: Cursor[Any, Any]) -> object:
    e = cursor.encounter
    return (
        e.round,
        e.queue,
        cursor.current,
        cursor.closed,
        cursor.started,
        tuple(sorted((c, s.wounds, s.condition.value) for c, s in e.states.items())),
        tuple(sorted((tuple(sorted(p)), d) for p, d in e.engagements.items())),
    )


def _brute(
    ruleset: Mst2Ruleset,
    cursor: Cursor[Any, Any],
    tactics: Mapping[str, Mst2Tactics],
    first: str | None = None,
) -> dict[str, float]:
    """Every die of every move enumerated through the reference engine (the cursor's
    moves with the tactics AI), states seen twice solved once."""
    seen: dict[object, dict[str, float]] = {}
    ids = [c.id for c in cursor.encounter.combatants]

    def value(cursor: Cursor[Any, Any], pick: str | None = None) -> dict[str, float]:
        key = _key(cursor)
        if pick is None and key in seen:
            return seen[key]
        if cursor.phase(ruleset) is Phase.OVER:
            e = cursor.encounter
            left = sides_fighting(e, ruleset)
            found = {f"win:{s}": float(left == [s]) for s in e.sides}
            found["draw"] = float(len(left) != 1)
            found["rounds"] = float(cursor.round)
            found.update({f"up:{c}": float(ruleset.fighting(e, c)) for c in ids})
        else:
            found = {}
            stack: list[tuple[list[int], float]] = [([], 1.0)]
            while stack:
                faces, weight = stack.pop()
                dice = _Prefix(faces)
                answers: Answers[Any, Any] = Answers(dice, Mst2AI(ruleset, dice, tactics))
                try:
                    if pick is not None:
                        chosen = next(
                            a
                            for a in ruleset.actions(cursor.encounter, cursor.current or "")
                            if a.label == pick
                        )
                        after, _ = act(cursor, ruleset, answers, lambda _e, chosen=chosen: chosen)
                    else:
                        after, _ = proceed(cursor, ruleset, answers)
                except _NeedError as need:
                    stack.extend(
                        ([*faces, f], weight / need.sides) for f in range(1, need.sides + 1)
                    )
                    continue
                for k, v in value(after).items():
                    found[k] = found.get(k, 0.0) + weight * v
        if pick is None:
            seen[key] = found
        return found

    return value(cursor, first)


def _tiny(
    name: str, *, skill: int, power: tuple[int, ...], hit_dice: str, reach: Reach = Reach.MID
) -> Fighter:
    return Fighter(
        name=name,
        skill=skill,
        weapon=Weapon("Stick", reach, power, None),
        armor=armor("none"),
        hit_dice=HitDice.parse(hit_dice),
    )


def _mid_fight(
    fighters: list[tuple[str, str, Fighter, int]],
    *,
    engaged: Mapping[tuple[str, str], str],
    rounds: tuple[int, int],
    current: str,
    queue: tuple[str, ...],
) -> Cursor[Any, Any]:
    encounter: Encounter[Any, Any] = Encounter(
        tuple(Combatant(cid, side, sheet) for cid, side, sheet, _ in fighters),
        {cid: FighterState(w) for cid, _, _, w in fighters},
        {pair(a, b): d for (a, b), d in engaged.items()},
        round=rounds[0],
        queue=queue,
    )
    order = (current, *queue)
    return Cursor(encounter, rounds[1], started=True, order=order, current=current)


def _same(odds: ExactFightOdds, brute: Mapping[str, float], ids: Iterable[str]) -> None:
    for side, p in odds.p_wins.items():
        assert p == pytest.approx(brute[f"win:{side}"], abs=1e-12)
    assert odds.p_draw == pytest.approx(brute["draw"], abs=1e-12)
    assert odds.mean_rounds == pytest.approx(brute["rounds"], abs=1e-11)
    for cid in ids:
        assert odds.p_standing[cid] == pytest.approx(brute[f"up:{cid}"], abs=1e-12)


def test_from_a_mid_fight_state_near_the_cap_the_chain_is_brute_force() -> None:
    """Round 2 of 3, in the middle of the round, two against one with wounds and an
    engagement already; fights still going when round 3 closes are draws."""
    a = _tiny("Ann", skill=2, power=(4,), hit_dice="1d4+1")
    b = _tiny("Bob", skill=1, power=(4,), hit_dice="1d4")
    c = _tiny("Cid", skill=4, power=(4, 4), hit_dice="1d6")
    fighters = [("Ann", "Left", a, 1), ("Bob", "Left", b, 0), ("Cid", "Right", c, 2)]
    cursor = _mid_fight(
        fighters, engaged={("Ann", "Cid"): "mid"}, rounds=(2, 3), current="Bob", queue=("Cid",)
    )
    ruleset = Mst2Ruleset()
    tactics = {"Cid": Mst2Tactics(Targeting.WEAKEST)}
    odds = exact_fight(ruleset, cursor, tactics)
    assert odds.method == "rounds"  # the cap decides much of it
    _same(odds, _brute(ruleset, cursor, tactics), ["Ann", "Bob", "Cid"])


def test_a_first_action_is_taken_then_the_tactics_play_on() -> None:
    a = _tiny("Ann", skill=2, power=(4,), hit_dice="1d4+1")
    b = _tiny("Bob", skill=1, power=(4,), hit_dice="1d4")
    c = _tiny("Cid", skill=4, power=(4, 4), hit_dice="1d6")
    fighters = [("Ann", "Left", a, 1), ("Bob", "Left", b, 0), ("Cid", "Right", c, 2)]
    cursor = _mid_fight(
        fighters, engaged={("Ann", "Cid"): "mid"}, rounds=(3, 3), current="Cid", queue=()
    )
    ruleset = Mst2Ruleset()
    for label, first in [("attack Bob", ("attack", "Bob")), ("hold", ("hold", None))]:
        odds = exact_fight(ruleset, cursor, {}, first)
        _same(odds, _brute(ruleset, cursor, {}, label), ["Ann", "Bob", "Cid"])
    assert exact_fight(ruleset, cursor, {}, ("attack", "Nobody")) == exact_fight(
        ruleset, cursor, {}
    )


def test_fights_that_always_end_are_swept_and_equal_brute_force() -> None:
    """Every blow lands and wounds: no loops, so the sweep answers (the cap cannot
    matter), from a state with wounds, in the middle of round 5."""
    a = _tiny("Ann", skill=20, power=(4,), hit_dice="1d4")
    b = _tiny("Bob", skill=20, power=(3,), hit_dice="1d4+1")
    c = _tiny("Cid", skill=20, power=(4,), hit_dice="1d6", reach=Reach.MID)
    fighters = [("Ann", "Left", a, 0), ("Bob", "Left", b, 1), ("Cid", "Right", c, 1)]
    cursor = _mid_fight(fighters, engaged={}, rounds=(5, 100), current="Bob", queue=("Cid",))
    ruleset = Mst2Ruleset()
    tactics = {"Ann": Mst2Tactics(Targeting.FOCUS), "Cid": Mst2Tactics(Targeting.WEAKEST)}
    odds = exact_fight(ruleset, cursor, tactics)
    assert odds.method == "sweep"
    _same(odds, _brute(ruleset, cursor, tactics), ["Ann", "Bob", "Cid"])


def test_a_fight_already_over_is_decided() -> None:
    a = _tiny("Ann", skill=2, power=(4,), hit_dice="1d4")
    b = _tiny("Bob", skill=1, power=(4,), hit_dice="1d4")
    encounter: Encounter[Any, Any] = Encounter(
        (Combatant("Ann", "L", a), Combatant("Bob", "R", b)),
        {"Ann": FighterState(2), "Bob": FighterState(3, Condition.OUT)},
        round=4,
    )
    odds = exact_fight(Mst2Ruleset(), Cursor(encounter, 10, started=True, closed=True), {})
    assert odds.p_wins == {"L": 1.0, "R": 0.0}
    assert odds.mean_rounds == 4.0
    assert odds.p_standing == {"Ann": 1.0, "Bob": 0.0}


# -- against the Monte Carlo ---------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sides", "options"),
    [
        (
            [
                ("Pair", ["spearman.toml", "sellsword.toml"], "nearest"),
                ("Ogre", ["ogre.toml"], "weakest"),
            ],
            {},
        ),
        (
            [
                ("Goblins", ["goblin.toml", "goblin.toml"], "weakest"),
                ("Pair", ["spearman.toml", "goblin.toml"], "focus"),
            ],
            {},
        ),
    ],
)
def test_group_fights_agree_with_the_reference_engine(
    tmp_path: Path, sides: list[tuple[str, list[str], str]], options: dict[str, object]
) -> None:
    path = _file(tmp_path, "group", sides, **options)
    odds = _exact(path)
    n = 3000
    sim = simulate_fights(encounter_file(path), n, seed=5, engine="reference")
    for side, p in odds.p_wins.items():
        sigma = math.sqrt(max(p * (1 - p), 1e-4) / n)
        assert abs(sim.p_wins(side) - p) < 4 * sigma
    for cid, p in odds.p_standing.items():
        sigma = math.sqrt(max(p * (1 - p), 1e-4) / n)
        assert abs(sim.p_standing(cid) - p) < 4 * sigma
    spread = math.sqrt(
        sum(c * (r - sim.totals.mean_rounds) ** 2 for r, c in sim.totals.rounds.items()) / n
    )
    assert abs(sim.totals.mean_rounds - odds.mean_rounds) < 4 * spread / math.sqrt(n) + 1e-9


# -- refusals ------------------------------------------------------------------------------


def test_too_many_combatants_are_refused_at_once(tmp_path: Path) -> None:
    goblins = ["goblin.toml"] * 3
    path = _file(tmp_path, "six", [("A", goblins, "nearest"), ("B", goblins, "weakest")])
    setup = load_encounter(path)
    cursor = Cursor(setup.encounter, setup.max_rounds)
    began = time.perf_counter()
    with pytest.raises(RulesError, match="at most 5 combatants") as refused:
        exact_limit(setup.ruleset, cursor, setup.tactics)
    assert time.perf_counter() - began < 5
    assert refused.value.hint is not None and "-n" in refused.value.hint


def test_another_rule_system_is_not_modelled() -> None:
    setup = load_encounter(EXAMPLES / "encounters" / "city_watch.toml")
    with pytest.raises(NotModelledError):
        exact_limit(setup.ruleset, Cursor(setup.encounter, setup.max_rounds), setup.tactics)


def test_two_against_two_runs_in_listed_and_shuffled_order(
    tmp_path: Path,
) -> None:
    for order in (TurnOrder.LISTED.value, TurnOrder.SHUFFLED.value):
        path = _file(
            tmp_path,
            f"g{order}",
            [
                ("G", ["goblin.toml", "goblin.toml"], "nearest"),
                ("S", ["spearman.toml", "goblin.toml"], "random"),
            ],
            order=order,
        )
        odds = _exact(path)
        assert sum(odds.p_wins.values()) + odds.p_draw == pytest.approx(1.0, abs=1e-12)


# -- 2 against 2 with 3d10 hit dice, and the two sweeps --------------------------------------


def test_the_compiled_and_numpy_sweeps_agree(tmp_path: Path) -> None:
    """The kernel's blocks (a DAG and the round states' loop) against the numpy sweep's
    dense solves, on every component (probability, rounds, bounds)."""
    from affray.rulesystems.mst2.odds.encounter import answers, sweep
    from affray.rulesystems.mst2.odds.encounter import plan as planning

    for order in (TurnOrder.LISTED.value, TurnOrder.SHUFFLED.value):
        path = _file(
            tmp_path,
            f"s{order}",
            [
                ("A", ["sellsword.toml", "goblin.toml"], "weakest"),
                ("B", ["spearman.toml"], "focus"),
            ],
            order=order,
        )
        setup = load_encounter(path)
        cursor = Cursor(setup.encounter, setup.max_rounds)
        found = []
        for kernel in (True, False):
            plan = planning._plan(setup.ruleset, cursor, setup.tactics)
            bounds = [sweep._z_limit(plan) ** f for f in answers.BOUND_EXPONENTS]
            found.append(sweep._sweep(plan, bounds, kernel=kernel, floor_total=0.0))
        compiled, dense = found
        assert compiled[:, :2] == pytest.approx(dense[:, :2], abs=1e-12)
        assert compiled[:, 2:] == pytest.approx(dense[:, 2:], rel=1e-9)


def test_any_number_of_threads_gives_the_same_answer_to_the_last_bit(tmp_path: Path) -> None:
    """A grid of 23,064 cells is swept a layer per thread in turn: every block gets its
    mass added in the same order, and every outcome is summed layer by layer, so the
    answer does not depend on how many threads there are."""
    path = _file(
        tmp_path,
        "kko",
        [("K", ["knight.json", "knight.json"], "nearest"), ("O", ["ogre.toml"], "weakest")],
        order=TurnOrder.SHUFFLED.value,
    )
    setup = load_encounter(path)
    cursor = Cursor(setup.encounter, setup.max_rounds)
    answers = [exact_fight(setup.ruleset, cursor, setup.tactics, threads=t) for t in (1, 2, 3)]
    assert answers[1] == answers[0]
    assert answers[2] == answers[0]
    assert sum(answers[0].p_wins.values()) + answers[0].p_draw == pytest.approx(1.0, abs=1e-12)

    from affray.rulesystems.mst2.odds.encounter import answers, sweep
    from affray.rulesystems.mst2.odds.encounter import plan as planning

    found = []
    runs = ((True, 2, answers.FLOOR_TOTAL), (True, 2, 0.0), (False, None, 0.0))
    for kernel, threads, floor in runs:  # and the numpy sweep's dense solves
        plan = planning._plan(setup.ruleset, cursor, setup.tactics)
        bounds = [sweep._z_limit(plan) ** f for f in answers.BOUND_EXPONENTS]
        found.append(sweep._sweep(plan, bounds, kernel=kernel, threads=threads, floor_total=floor))
        assert plan.dropped <= answers.FLOOR_TOTAL * (floor > 0)
    pruned, compiled, dense = found
    assert pruned[:, 0] == pytest.approx(dense[:, 0], abs=1e-12)
    assert compiled[:, :2] == pytest.approx(dense[:, :2], abs=1e-12)
    assert compiled[:, 2:] == pytest.approx(dense[:, 2:], rel=1e-9)


def test_mass_put_in_any_state_marks_its_group_for_the_kernel(tmp_path: Path) -> None:
    """An entry (a table's state, or a first action's outcomes) may be in any state of
    any family: its block's mask must name that state's group, or the kernel never
    reads it (the compiled layout puts states in their groups' order)."""
    from affray.rulesystems.mst2.odds.encounter import plan as planning
    from affray.rulesystems.mst2.odds.encounter import sweep

    path = _file(
        tmp_path,
        "marks",
        [("A", ["sellsword.toml", "goblin.toml"], "random"), ("B", ["spearman.toml"], "focus")],
        order=TurnOrder.SHUFFLED.value,
    )
    setup = load_encounter(path)
    plan = planning._plan(setup.ruleset, Cursor(setup.encounter, setup.max_rounds), setup.tactics)
    checked = 0
    for family, fam in plan.fams.items():
        bits, ordered, _ = fam.groups()
        for state in range(len(fam.shapes)):
            buffer = sweep._Buffer.of(plan, sweep.COMPS, kernel=True)
            buffer.add(plan, family, 0, state, np.ones(sweep.COMPS))
            mask = int(buffer.touched[buffer.tbase[family]])
            assert mask & int(bits[state]), (sorted(family), state)
            slot = buffer.base[family] + int(fam.laid()[state]) * sweep.COMPS
            assert buffer.mass[slot] == 1.0 and ordered[fam.laid()[state]] == state
            checked += int(fam.laid()[state] != state)
    assert checked  # some states do move in the compiled layout


@pytest.mark.slow
def test_more_engagements_than_a_mask_has_bits_agree_with_the_fast_engine(
    tmp_path: Path,
) -> None:
    """Three goblins against a spearman and a goblin, every target at random and the
    order shuffled: 160 sets of engagements, past the 62 a block's mask has bits for
    (the rest share its last bit), and the chain still plays what the engine plays."""
    from affray.rulesystems.mst2.odds.encounter import plan as planning
    from affray.rulesystems.mst2.odds.encounter_kernel import SPILL

    path = _file(
        tmp_path,
        "spill",
        [
            ("A", ["goblin.toml", "goblin.toml", "goblin.toml"], "random"),
            ("B", ["spearman.toml", "goblin.toml"], "random"),
        ],
        order=TurnOrder.SHUFFLED.value,
    )
    setup = load_encounter(path)
    cursor = Cursor(setup.encounter, setup.max_rounds)
    plan = planning._plan(setup.ruleset, cursor, setup.tactics)
    assert max(fam.groups()[2].shape[0] for fam in plan.fams.values()) > SPILL
    odds = _exact(path)
    assert sum(odds.p_wins.values()) + odds.p_draw == pytest.approx(1.0, abs=1e-12)
    _agree_with_the_fast_engine(path, odds)


@pytest.mark.parametrize(
    ("order", "seconds"), [(TurnOrder.LISTED.value, 10), (TurnOrder.SHUFFLED.value, 40)]
)
def test_two_knights_against_an_ogre_and_a_sellsword_agree_with_the_fast_engine(
    tmp_path: Path, order: str, seconds: float
) -> None:
    path = _file(
        tmp_path,
        f"k{order}",
        [
            ("K", ["knight.json", "knight.json"], "nearest"),
            ("O", ["ogre.toml", "sellsword.toml"], "weakest"),
        ],
        order=order,
    )
    began = time.process_time()
    odds = _exact(path)
    # listed: 0.1 s on a quiet machine; shuffled: some 1.7 s of CPU (the grid fills)
    assert time.process_time() - began < seconds
    n = 200_000
    sim = simulate_fights(encounter_file(path), n, seed=1)
    for side, p in odds.p_wins.items():
        sigma = math.sqrt(max(p * (1 - p), 1e-4) / n)
        assert abs(sim.p_wins(side) - p) < 4 * sigma
    p = odds.p_draw
    assert abs(sim.p_draw - p) < 4 * math.sqrt(max(p * (1 - p), 1e-4) / n)
    for cid, p in odds.p_standing.items():
        sigma = math.sqrt(max(p * (1 - p), 1e-4) / n)
        assert abs(sim.p_standing(cid) - p) < 4 * sigma
    spread = math.sqrt(
        sum(c * (r - sim.totals.mean_rounds) ** 2 for r, c in sim.totals.rounds.items()) / n
    )
    assert abs(sim.totals.mean_rounds - odds.mean_rounds) < 4 * spread / math.sqrt(n) + 1e-9


def test_the_ford_is_answered(tmp_path: Path) -> None:
    odds = _exact(EXAMPLES / "encounters" / "ford.toml")
    assert odds.method == "sweep"
    n = 200_000
    sim = simulate_fights(encounter_file(EXAMPLES / "encounters" / "ford.toml"), n, seed=1)
    for side, p in odds.p_wins.items():
        sigma = math.sqrt(max(p * (1 - p), 1e-4) / n)
        assert abs(sim.p_wins(side) - p) < 4 * sigma


def _agree_with_the_fast_engine(path: Path, odds: ExactFightOdds) -> None:
    n = 200_000
    sim = simulate_fights(encounter_file(path), n, seed=1)
    for side, p in odds.p_wins.items():
        sigma = math.sqrt(max(p * (1 - p), 1e-4) / n)
        assert abs(sim.p_wins(side) - p) < 4 * sigma
    p = odds.p_draw
    assert abs(sim.p_draw - p) < 4 * math.sqrt(max(p * (1 - p), 1e-4) / n)
    spread = math.sqrt(
        sum(c * (r - sim.totals.mean_rounds) ** 2 for r, c in sim.totals.rounds.items()) / n
    )
    assert abs(sim.totals.mean_rounds - odds.mean_rounds) < 4 * spread / math.sqrt(n) + 1e-9


def test_four_knights_last_to_the_cap_and_are_swept_round_by_round(tmp_path: Path) -> None:
    """Four knights fight some 45 rounds, 16 % of them past round 60: the cap of 100
    matters, and the sweep of round-by-round distributions answers."""
    path = _file(
        tmp_path,
        "knights",
        [
            ("A", ["knight.json", "knight.json"], "nearest"),
            ("B", ["knight.json", "knight.json"], "focus"),
        ],
    )
    began = time.process_time()
    odds = _exact(path)
    assert time.process_time() - began < 10  # under 1 s on a quiet machine
    assert odds.method == "rounds"
    assert 0 < odds.p_draw < 1e-3
    _agree_with_the_fast_engine(path, odds)


@pytest.mark.parametrize(("order", "cap"), [("listed", 4), ("shuffled", 3)])
def test_a_small_cap_swept_round_by_round_is_the_turn_by_turn_push(
    tmp_path: Path, order: str, cap: int
) -> None:
    """Round-by-round distributions through the sweep against the push turn by turn
    (and brute force), from a fresh encounter whose cap cuts most fights short."""
    from affray.rulesystems.mst2.odds.encounter import door, forward
    from affray.rulesystems.mst2.odds.encounter import plan as planning

    path = _file(
        tmp_path,
        f"c{order}",
        [
            ("A", ["sellsword.toml", "goblin.toml"], "weakest"),
            ("B", ["spearman.toml", "goblin.toml"], "focus"),
        ],
        order=order,
        max_rounds=cap,
    )
    setup = load_encounter(path)
    cursor = Cursor(setup.encounter, setup.max_rounds)
    odds = exact_fight(setup.ruleset, cursor, setup.tactics)
    assert odds.method == "rounds"
    plan = planning._plan(setup.ruleset, cursor, setup.tactics)
    pushed = door._answer(plan.game, forward._forward(plan), "rounds", 0)
    for side, p in odds.p_wins.items():
        assert p == pytest.approx(pushed.p_wins[side], abs=1e-12)
    assert odds.p_draw == pytest.approx(pushed.p_draw, abs=1e-12)
    assert odds.mean_rounds == pytest.approx(pushed.mean_rounds, abs=1e-11)
    for cid, p in odds.p_standing.items():
        assert p == pytest.approx(pushed.p_standing[cid], abs=1e-12)
