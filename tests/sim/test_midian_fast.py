"""The fast Midian duel engine: die for die against the reference engine with the same
dice, within 4 sigma of it with its own dice, piece by piece against the rules
library's scalar functions with scripted dice; what it refuses, and the fallback;
seeding, chunks and memory."""

from __future__ import annotations

import math
import tracemalloc
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import product
from statistics import NormalDist

import numpy as np
import pytest

from affray.dice import RandomDice, ScriptedDice
from affray.encounter import Answers
from affray.encounter.engine import run_encounter
from affray.errors import NotModelledError
from affray.events import Event
from affray.registry import system
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.damage import finish_damage
from affray.rulesystems.midian.defence import Stance
from affray.rulesystems.midian.initiative import action_slots, order_slots
from affray.rulesystems.midian.injury import Health, Retest, RollKind, end_of_round
from affray.rulesystems.midian.injury import take_damage as take_damage_scalar
from affray.rulesystems.midian.ruleset import MidianRuleset
from affray.rulesystems.midian.sim.duels import (
    CHUNK,
    COSTLY,
    FREE_BLOCK,
    FREE_PARRY,
    NO_DEFENCE,
    Batch,
    DiceRoller,
    MidianDuelModel,
    a_acts_next,
    defends,
    end_round,
    play,
    simulate_chunk,
    simulate_midian_fast,
    slot_count,
    take_damage,
    unsupported,
)
from affray.rulesystems.midian.tactics import worth_an_action
from affray.sim.chunks import chunks, run_chunks
from affray.sim.encounters import duel_encounter, simulate_reference
from affray.stats import DuelStats
from tests.helpers import EXAMPLES, run
from tests.sim.midian_sheets import FORTRESS, LUCKY, PAIRS, example, sheet

IDS = [label for label, *_ in PAIRS]
SEEDS = 30


def reference_duels(
    a: Character, b: Character, seeds: Iterable[int], max_rounds: int
) -> tuple[DuelStats, list[tuple[int, ...]]]:
    """Duels through the encounter engine with the AI, one ``RandomDice(seed)`` each:
    the totals, and the dice each duel rolled."""
    ruleset = MidianRuleset()
    encounter = duel_encounter(a, b, ruleset)
    sides = {encounter.combatants[0].side: "a", encounter.combatants[1].side: "b"}
    totals = DuelStats()
    rolled = []
    for seed in seeds:
        dice = RandomDice(seed, record=True)
        chooser = system("midian").ai(ruleset, {}, dice=RandomDice(0))
        result = run_encounter(encounter, ruleset, Answers(dice, chooser), max_rounds=max_rounds)
        winner = sides.get(result.winner or "")
        won = (winner == "a", winner == "b", winner is None)
        totals = totals + DuelStats(1, *map(int, won), result.rounds)
        rolled.append(dice.recorded)
    return totals, rolled


@pytest.mark.parametrize(("label", "a", "b", "cap"), PAIRS, ids=IDS)
def test_plays_every_duel_as_the_reference_engine_does_with_the_same_dice(
    label: str, a: Character, b: Character, cap: int
) -> None:
    """The whole batch at once, each duel with its own dice: the same winners, rounds
    and dice rolled, die for die, as the encounter engine's duels with those dice."""
    reference, rolled = reference_duels(a, b, range(SEEDS), cap)
    model = MidianDuelModel.of(a, b, cap)
    streams = [RandomDice(seed, record=True) for seed in range(SEEDS)]
    dice = (model.sides[0].damage_dice, model.sides[1].damage_dice)  # bare fists: none
    fast = play(model, DiceRoller(list(streams), dice), SEEDS)
    assert fast == reference
    if model.can_hurt(0) or model.can_hurt(1):  # otherwise no die is needed to know
        assert [dice.recorded for dice in streams] == rolled


FAST_N = 40_000
REFERENCE_N = 400
VARIED = [
    label
    for label, a, b, cap in PAIRS
    if MidianDuelModel.of(a, b, cap).can_hurt(0) and MidianDuelModel.of(a, b, cap).can_hurt(1)
]
"""The pairs whose outcome varies (where one side cannot hurt the other, the replays
above say all there is to say)."""


def z_score(fast: int, n_fast: int, reference: int, n_reference: int) -> float:
    """How many standard deviations the reference engine's count is from what the fast
    engine's proportion (pooled with it) expects: the exact binomial tail of the count,
    as the normal deviate with the same tail. Draws are rare (about 1 %, a handful in
    500 duels), where the normal approximation overstates the tails; for A's wins the
    two agree. 0 when the pooled proportion is 0 or 1 and both agree on it."""
    pooled = (fast + reference) / (n_fast + n_reference)
    if pooled in (0.0, 1.0):
        return 0.0
    expected = n_reference * pooled
    counts = range(reference, n_reference + 1) if reference > expected else range(reference + 1)
    tail = math.fsum(
        math.exp(
            math.lgamma(n_reference + 1)
            - math.lgamma(k + 1)
            - math.lgamma(n_reference - k + 1)
            + k * math.log(pooled)
            + (n_reference - k) * math.log1p(-pooled)
        )
        for k in counts
    )
    if tail >= 0.5:
        return 0.0
    if tail == 0.0:
        return math.inf
    return -NormalDist().inv_cdf(tail)


def compare(index: int) -> tuple[float, float]:
    """The z-scores of A's wins and of draws for pair ``index``: the fast engine
    (40,000 duels) against the reference engine (400 duels)."""
    _, a, b, cap = PAIRS[index]
    fast, _ = simulate_midian_fast(a, b, FAST_N, seed=11 + index, max_rounds=cap)
    reference, _ = simulate_reference(
        a, b, MidianRuleset(), REFERENCE_N, seed=12 + index, max_rounds=cap
    )
    return (
        z_score(fast.a_wins, fast.n, reference.a_wins, reference.n),
        z_score(fast.draws, fast.n, reference.draws, reference.n),
    )


@pytest.fixture(scope="module")
def agreement() -> dict[str, tuple[float, float]]:
    """Each pair's z-scores, the pairs shared out between two processes."""
    with ProcessPoolExecutor(max_workers=2) as pool:
        found = pool.map(compare, [IDS.index(label) for label in VARIED])
        return dict(zip(VARIED, found, strict=True))


@pytest.mark.slow
@pytest.mark.parametrize("label", VARIED)
def test_agrees_with_the_reference_engine_within_4_sigma(
    label: str, agreement: dict[str, tuple[float, float]]
) -> None:
    wins, draws = agreement[label]
    assert wins < 4 and draws < 4


@pytest.mark.slow
def test_no_drift_across_all_pairs(agreement: dict[str, tuple[float, float]]) -> None:
    """A small bias common to every pair shows in the sum of squared z-scores: a
    chi-square with one degree of freedom per pair, over its 1-in-10,000 quantile
    (Wilson and Hilferty's approximation) only by chance."""
    pairs = len(agreement)
    assert pairs >= 20
    limit = pairs * (1 - 2 / (9 * pairs) + 3.719 * math.sqrt(2 / (9 * pairs))) ** 3
    assert sum(wins * wins for wins, _ in agreement.values()) < limit


# -- the pieces against the rules library -----------------------------------------------


def test_action_slots_and_their_order_are_the_rules() -> None:
    totals = range(-12, 38)
    pairs = list(product(totals, totals))
    initiative = [np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])]
    slots = [slot_count(t) for t in initiative]
    assert [int(n) for n in slots[0]] == [len(action_slots(t)) for t, _ in pairs]
    for wits, a_first in (((10, 10), True), ((12, 10), True), ((9, 10), False)):
        used = np.zeros((2, len(pairs)), dtype=np.int64)
        orders: list[list[str]] = [[] for _ in pairs]
        while True:
            turn = (used[0] < slots[0]) | (used[1] < slots[1])
            if not turn.any():
                break
            a_turn = turn & a_acts_next(initiative, used, slots, a_first)
            for index in np.flatnonzero(turn):
                orders[index].append("A" if a_turn[index] else "B")
            used[0] += a_turn
            used[1] += turn & ~a_turn
        for (first, second), order in zip(pairs, orders, strict=True):
            entries = [("A", first, wits[0]), ("B", second, wits[1])]
            assert order == [slot.character for slot in order_slots(entries)], (first, second)


def test_defends_when_the_ai_would() -> None:
    costs, actions, hit_points, likely = [], [], [], []
    for cost, left, hp, mean in product(
        (NO_DEFENCE, FREE_PARRY, FREE_BLOCK, COSTLY), (0, 1, 2, 3), range(12), (0.5, 4.0, 7.5)
    ):
        costs.append(cost)
        actions.append(left)
        hit_points.append(hp)
        likely.append(mean)
    for mean in (0.5, 4.0, 7.5):
        chosen = defends(np.array(costs), np.array(actions), np.array(hit_points), mean)
        for index, cost in enumerate(costs):
            if likely[index] != mean:
                continue
            expected = cost in (FREE_PARRY, FREE_BLOCK) or (
                cost == COSTLY
                and worth_an_action(actions[index], Stance.NORMAL, mean, hit_points[index])
            )
            assert bool(chosen[index]) == expected


def test_final_damage_is_the_rules_resistance_and_reduction() -> None:
    rolled = np.arange(0, 61)
    attacker = sheet("Axeman")
    for percent, reduction in product((0, 1, 10, 25, 33, 50, 99, 100, 150), (0, 3, 11)):
        defender = sheet("Target", resistances={"hacking": percent}, damage_reduction=reduction)
        model = MidianDuelModel.of(attacker, defender)
        for critical in (False, True):
            found = model.final_damage(0, rolled * (2 if critical else 1))
            expected = [
                finish_damage(int(r), defender, "hacking", critical=critical)[0] for r in rolled
            ]
            assert found.tolist() == expected, (percent, reduction, critical)


def spend_each_once(sources: Sequence[str]) -> Retest:
    """A retest answerer like the AI's: each source once a fight for each kind of roll."""
    spent: set[tuple[str, RollKind]] = set()

    def ask(kind: RollKind, failed: Event) -> str | None:
        for source in sources:
            if (source, kind) not in spent:
                spent.add((source, kind))
                return source
        return None

    return ask


WILLPOWER_FACES = [
    (20, 20, 20, 20, 20, 20),
    (1, 1, 1, 1, 1, 1),
    (12, 1, 3, 2, 20, 20),
    (10, 10, 15, 6, 2, 3),
    (11, 12, 1, 1, 1, 1),
]
SHOCK_FACES = [(100, 100, 100), (1, 1, 1), (95, 30, 99), (61, 59, 58), (30, 95, 97)]
"""Dice for a Willpower check (2d20, and 2d20 again for each retest) or for system
shock (d100, and again for each retest): whichever the damage calls for."""


@pytest.mark.parametrize(
    "fighter", [sheet("Plain", system_shock=80), LUCKY], ids=["plain", "lucky"]
)
def test_taking_damage_is_the_rules(fighter: Character) -> None:
    """Willpower (once a fight, earlier shock and fatigue), system shock at 0 or below,
    serious wounds and shock, with and without retests, against ``take_damage``."""
    cases = list(
        product(
            (0, 2, 9), (-4, 0, 1, 6), (1, 2, 9, 10, 23), (False, True), (0, 5), range(5), (0, 2)
        )
    )
    model = MidianDuelModel.of(fighter, fighter)
    duels = Batch.fresh(model, len(cases))
    for column, (hp, life, _, checked, shock, _, _) in enumerate(cases):
        duels.hit_points[1, column] = hp
        duels.life_points[1, column] = life
        duels.checked[1, column] = checked
        duels.shock[1, column] = shock

    def faces(life: int, variant: int) -> tuple[int, ...]:
        return (SHOCK_FACES if life <= 0 else WILLPOWER_FACES)[variant]

    streams = [ScriptedDice(faces(case[1], case[5])) for case in cases]
    roller = DiceRoller(list(streams), (fighter.weapon.damage, fighter.weapon.damage))
    for fatigue in (0, 2):
        columns = np.array([i for i, case in enumerate(cases) if case[-1] == fatigue])
        damage = np.array([cases[i][2] for i in columns])
        take_damage(model, duels, roller, 1, columns, damage, fatigue)
    for column, (hp, life, amount, checked, shock, variant, fatigue) in enumerate(cases):
        health = Health(
            hp,
            life,
            fighter.life_points,
            shock=shock,
            fatigue=fatigue,
            willpower_checked=checked,
        )
        dice = ScriptedDice(faces(life, variant))
        retest = spend_each_once(fighter.retests)
        after = take_damage_scalar(fighter, health, amount, dice, source="test", retest=retest)
        after = after.health
        found = (
            int(duels.hit_points[1, column]),
            int(duels.life_points[1, column]),
            int(duels.serious[1, column]),
            int(duels.shock[1, column]),
            bool(duels.checked[1, column]),
            bool(duels.conscious[1, column]),
            bool(duels.alive[1, column]),
            len(streams[column].remaining),
        )
        expected = (
            after.hit_points,
            after.life_points,
            after.serious_wounds,
            after.shock,
            after.willpower_checked,
            after.conscious,
            after.alive,
            len(dice.remaining),
        )
        assert found == expected, cases[column]


def test_the_end_of_a_round_is_the_rules() -> None:
    """Bleeding (below 0, serious wounds), system shock at 0 or below, shock carried to
    the next initiative, for A then B, down or not, against ``end_of_round``."""
    fighter = sheet("Bleeder", system_shock=70, hit_points=5, life_points=6)
    states = list(product((0, 3), (-3, -1, 0, 2), (0, 1, 3), (0, 4), (True, False)))
    cases = list(product(states, SHOCK_FACES))
    model = MidianDuelModel.of(fighter, fighter)
    duels = Batch.fresh(model, len(cases))
    for column, ((hp, life, serious, shock, conscious), _) in enumerate(cases):
        for side in (0, 1):
            duels.hit_points[side, column] = hp
            duels.life_points[side, column] = life + side  # B a point better off
            duels.serious[side, column] = serious
            duels.shock[side, column] = shock
            duels.conscious[side, column] = conscious
    streams = [ScriptedDice(faces) for _, faces in cases]
    end_round(model, duels, DiceRoller(list(streams), ("1d8", "1d8")))
    for column, ((hp, life, serious, shock, conscious), faces) in enumerate(cases):
        dice = ScriptedDice(faces)
        for side in (0, 1):
            health = Health(
                hp,
                life + side,
                fighter.life_points,
                conscious=conscious,
                serious_wounds=serious,
                shock=shock,
            )
            after = end_of_round(fighter, health, dice)[0]
            found = (
                int(duels.hit_points[side, column]),
                int(duels.life_points[side, column]),
                bool(duels.alive[side, column]),
                bool(duels.conscious[side, column]),
                int(duels.carried[side, column]),
                int(duels.shock[side, column]),
            )
            expected = (
                after.hit_points,
                after.life_points,
                after.alive,
                after.conscious,
                after.carried_shock,
                after.shock,
            )
            assert found == expected, (cases[column], side)
        assert streams[column].remaining == dice.remaining


# -- what it refuses ----------------------------------------------------------------------


def test_refuses_what_it_does_not_model() -> None:
    archer = example("elf_archer")
    twin_blades = sheet(
        "Twin blades",
        weapon={"name": "Sabre", "damage": "1d6", "type": "hacking", "skill": 2},
        off_hand={"name": "Dirk", "damage": "1d4", "type": "stabbing", "skill": 1},
    )
    troll = sheet("Troll", regenerates=True)
    assert unsupported(archer, twin_blades) == (
        "Elf archer's ranged weapon (Long bow)",
        "Twin blades's two weapons",
    )
    assert unsupported(troll, example("guard")) == ("Troll's regeneration",)
    assert unsupported(example("guard"), example("brawler")) == ()
    with pytest.raises(NotModelledError) as refused:
        simulate_midian_fast(example("guard"), troll, 10, seed=1)
    assert refused.value.reasons == ("Troll's regeneration",)
    assert "fast Midian duel engine does not model Troll's regeneration" in str(refused.value)
    assert "--engine reference" in str(refused.value)
    doom = sheet("Doom", weapon={"name": "Doom", "damage": "1000d1000", "type": "hacking"})
    with pytest.raises(NotModelledError, match=r"Doom's weapon dice \(1000d1000\): too many"):
        MidianDuelModel.of(doom, example("guard"))  # its exact distribution is past the budget


def test_duel_falls_back_to_the_reference_engine_with_a_note() -> None:
    archer = str(EXAMPLES / "midian" / "elf_archer.toml")
    guard = str(EXAMPLES / "midian" / "guard.toml")
    result = run("duel", archer, guard, "-n", "300", "--seed", "4", "--json")
    assert result.exit_code == 0
    assert '"engine": "reference"' in result.stdout and '"n": 300' in result.stdout
    assert result.stderr == (
        "note: the fast Midian duel engine does not model Elf archer's ranged weapon "
        "(Long bow): the reference engine plays these duels\n"
    )
    asked = run(
        "duel", archer, guard, "-n", "300", "--seed", "4", "--json", "--engine", "reference"
    )
    assert asked.stdout == result.stdout and asked.stderr == ""
    plain = run("duel", guard, str(EXAMPLES / "midian" / "brawler.toml"), "-n", "3000", "--json")
    assert '"engine": "fast"' in plain.stdout and plain.stderr == ""


# -- seeding, chunks, memory ----------------------------------------------------------------


def test_same_seed_same_result_whatever_the_workers() -> None:
    a, b = example("guard"), example("brawler")
    n = 2 * CHUNK + 321
    one, entropy = simulate_midian_fast(a, b, n, seed=99, workers=1)
    two, _ = simulate_midian_fast(a, b, n, seed=99, workers=2)
    assert one == two and one.n == n
    assert entropy == 99
    assert simulate_midian_fast(a, b, n, seed=100)[0] != one


def test_chunk_boundaries_do_not_change_results() -> None:
    a, b = example("guard"), example("brawler")
    model = MidianDuelModel.of(a, b)
    whole, _ = simulate_midian_fast(a, b, CHUNK + 10, seed=5)
    assert whole == simulate_chunk(model, 5, 0, CHUNK) + simulate_chunk(model, 5, 1, 10)


def test_draws_at_the_round_cap_and_when_nothing_can_hurt() -> None:
    assert simulate_midian_fast(FORTRESS, FORTRESS, 1000, seed=1, max_rounds=7)[0] == DuelStats(
        1000, 0, 0, 1000, 7000
    )
    capped, _ = simulate_midian_fast(example("guard"), example("brawler"), 5000, max_rounds=1)
    assert capped.draws > 4000 and capped.total_rounds == 5000


def test_chunks_are_made_as_they_are_needed() -> None:
    """``-n 10**10`` never makes its chunks up front: stopping after three chunks, only
    three were made and fought."""
    made = chunks(10**10, CHUNK)
    assert next(made) == (0, CHUNK) and next(made) == (1, CHUNK)
    fought: list[int] = []

    def job(entropy: int, index: int, size: int) -> DuelStats:
        fought.append(index)
        return DuelStats(size, size, 0, 0, size)

    def progress(done: int) -> None:
        if len(fought) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_chunks(job, 10**10, CHUNK, seed=1, progress=progress)
    assert fought == [0, 1, 2]


def test_memory_is_flat_in_n() -> None:
    a, b = example("guard"), example("brawler")

    def peak(n: int) -> int:
        tracemalloc.start()
        try:
            simulate_midian_fast(a, b, n, seed=3)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    one, six = peak(CHUNK), peak(6 * CHUNK)
    assert six < 1.25 * one
