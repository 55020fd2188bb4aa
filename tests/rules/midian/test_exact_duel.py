"""Exact Midian duels (issue 40): the compiled chain sums every die of the duel the fast
duel engine plays. It equals an independent chain written with numpy (to 1e-12, round
by round), a brute-force enumeration of every die of a first round, and the exact odds
of one attack (``midian odds``); it agrees with the fast engine's millions of duels
within 4σ; a pair that can never hurt each other is a draw at the cap exactly; a pair
past the budget is refused at once, the limit named."""

from __future__ import annotations

import math
import time
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import affray
from affray.dice import Dice
from affray.errors import AffrayError
from affray.rulesystems.midian import exact_duel
from affray.rulesystems.midian import exact_duel_kernel as kernel
from affray.rulesystems.midian.character import Character, Encumbrance, Shield
from affray.rulesystems.midian.defence import DefencePool
from affray.rulesystems.midian.exact_duel import (
    QUICK_CELLS,
    Chain,
    chain_cells,
    exact_midian_duel,
    quick_midian_duel,
)
from affray.rulesystems.midian.odds import attack_odds
from affray.rulesystems.midian.sim.duels import (
    Batch,
    DiceRoller,
    MidianDuelModel,
    a_acts_next,
    play_round,
    simulate_midian_fast,
    slot_count,
)
from affray.sheets.combatants import resolve_reference
from tests.helpers import EXAMPLES, run, run_json
from tests.rules.midian.chain_oracle import exact_midian_duel as numpy_chain
from tests.rules.midian.chain_oracle import two_d20_at_most
from tests.rules.midian.helpers import character, weapon

pytestmark = pytest.mark.slow


def sheet(name: str) -> Character:
    found = resolve_reference(str(EXAMPLES / f"midian/{name}.toml")).sheet()
    assert isinstance(found, Character)
    return found


def giants() -> tuple[Character, Character]:
    """Two of many points: a chain of 2,179,872 cells, past what ``affray duel`` tries
    within a second."""
    a, b = (
        character(
            name,
            hit_points=60,
            life_points=30,
            attack_bonus=5,
            armour_class=12,
            weapon=weapon(damage="2d6", skill=1),
        )
        for name in ("A", "B")
    )
    return a, b


def small(retests: bool = False) -> tuple[Character, Character]:
    """Two fighters of few points and small weapons: a chain of thousands of states."""
    a = character(
        "A",
        hit_points=3,
        life_points=2,
        attack_bonus=2,
        armour_class=11,
        weapon=weapon(damage="1d2", skill=1),
        retests=("Lucky",) if retests else (),
    )
    b = character(
        "B", hit_points=4, life_points=2, attack_bonus=1, armour_class=10,
        weapon=weapon(damage="1d3", skill=1),
    )  # fmt: skip
    return a, b


def pairs() -> dict[str, tuple[Character, Character]]:
    """Pairs that reach every part of a round: retests of each kind, heroic armour's
    fatigue, a shield's free block and a costly dodge, two and three actions a round,
    resistance and reduction, serious wounds and bleeding, a low Willpower."""
    plain = small()
    lucky = small(retests=True)
    tired = (
        character(
            "Knight", hit_points=4, life_points=3, attack_bonus=13, armour_class=12,
            damage_bonus=8, initiative_bonus=12, armour_encumbrance=Encumbrance.HEROIC,
            weapon=weapon(damage="1d3", skill=1), shield=Shield(armour_class=1, skill=1),
            attributes={"willpower": 6},
        ),
        character(
            "Cutthroat", hit_points=3, life_points=3, attack_bonus=2, armour_class=9,
            dodge=3, initiative_bonus=14, weapon=weapon(damage="1d2", skill=0),
            retests=("Lucky", "Blessed"),
        ),
    )  # fmt: skip
    heavy = (
        character(
            "Ogre", hit_points=5, life_points=4, attack_bonus=0, armour_class=8,
            damage_bonus=9, weapon=weapon(damage="1d3", type="smashing", skill=0),
            system_shock=40,
        ),
        character(
            "Dwarf", hit_points=6, life_points=3, attack_bonus=2, armour_class=12,
            damage_reduction=1, resistances={"smashing": 50}, initiative_bonus=6,
            weapon=weapon(damage="1d3", skill=1),
        ),
    )  # fmt: skip
    return {"plain": plain, "retests": lucky, "fatigue-shield-fast": tired, "heavy": heavy}


@pytest.mark.parametrize("name", sorted(pairs()))
def test_the_compiled_chain_equals_an_independent_numpy_chain(name: str) -> None:
    a, b = pairs()[name]
    model = MidianDuelModel.of(a, b)
    if name == "fatigue-shield-fast":  # the parts this pair is here for are there
        assert model.sides[0].fatigue > 0 and model.sides[0].blocks > 0
        assert model.sides[1].initiative >= 14 and model.sides[1].retests == 2
    for cap in (1, 2, 5):
        fast = exact_midian_duel(a, b, max_rounds=cap)
        slow = numpy_chain(a, b, max_rounds=cap)
        assert slow.unswept < 1e-14
        for mine, theirs in zip(fast.by_round, slow.by_round, strict=True):
            assert mine == pytest.approx(theirs, abs=1e-12)
        assert fast.p_a_wins == pytest.approx(slow.p_a_wins, abs=1e-12)
        assert fast.p_b_wins == pytest.approx(slow.p_b_wins, abs=1e-12)
        assert fast.p_draw == pytest.approx(slow.p_draw, abs=1e-12)
        assert fast.mean_rounds == pytest.approx(slow.mean_rounds, abs=1e-11)


@pytest.mark.parametrize("name", sorted(pairs()))
def test_rounds_from_kept_records_equal_rounds_walked_afresh(name: str) -> None:
    """A cell's round is walked once and kept while the rounds play alike: the duel is
    the one walked afresh every round. The knight's heroic armour tires him each round
    until more fatigue changes nothing (round 14): till then every round is walked
    anew, after it the records are kept."""
    a, b = pairs()[name]
    model = MidianDuelModel.of(a, b)
    kept, afresh = Chain(model), Chain(model, remember=False)
    mine, theirs = kept.run(by_round=True), afresh.run(by_round=True)
    assert mine.rounds == theirs.rounds
    for ours, fresh in zip(mine.by_round, theirs.by_round, strict=True):
        assert ours == pytest.approx(fresh, rel=1e-12, abs=1e-15)
    if name == "fatigue-shield-fast":
        assert kept.walked < afresh.walked
    else:
        assert kept.walked * 10 < afresh.walked


def test_whole_duels_equal_the_numpy_chain() -> None:
    a, b = small()
    slow = numpy_chain(a, b)
    pushed = exact_midian_duel(a, b, by_round=True)
    solved = exact_midian_duel(a, b)
    assert solved.solved_from == 1 and pushed.solved_from == 0
    assert pushed.unswept < 1e-15 and pushed.rounds == slow.rounds
    for fast in (pushed, solved):
        total = fast.p_a_wins + fast.p_b_wins + fast.p_draw + fast.unswept
        assert total == pytest.approx(1.0, abs=1e-13)
        assert (fast.p_a_wins, fast.p_b_wins, fast.p_draw) == pytest.approx(
            (slow.p_a_wins, slow.p_b_wins, slow.p_draw), abs=1e-13
        )
        assert fast.mean_rounds == pytest.approx(slow.mean_rounds, abs=1e-11)


def lingering() -> tuple[Character, Character]:
    """Two in heavy armour who hit each other only on a 19 or 20, for a point: most
    rounds change nothing (solved with a smaller ``z``)."""
    a, b = (
        character(
            name,
            hit_points=3,
            life_points=1,
            attack_bonus=0,
            armour_class=30,
            weapon=weapon(damage="1d2", skill=0),
        )
        for name in ("A", "B")
    )
    return a, b


@pytest.mark.parametrize("name", [*sorted(pairs()), "lingering"])
def test_a_duel_solved_at_once_is_the_duel_pushed_round_by_round(name: str) -> None:
    """Once its rounds play alike the rest of a duel is solved at once, from the last
    pairs of states to the first: the same odds and mean rounds as pushing it round by
    round until under 1e-15 is left (the knight's fatigue grows till round 20: the
    rounds before it are pushed)."""
    a, b = lingering() if name == "lingering" else pairs()[name]
    solved = exact_midian_duel(a, b)
    pushed = exact_midian_duel(a, b, by_round=True)
    assert solved.solved_from == (20 if name == "fatigue-shield-fast" else 1)
    assert pushed.solved_from == 0 and pushed.unswept < 1e-15
    assert len(solved.by_round) == solved.solved_from - 1
    assert solved.by_round == pushed.by_round[: len(solved.by_round)]
    found = (solved.p_a_wins, solved.p_b_wins, solved.p_draw, solved.unswept)
    assert found == pytest.approx((pushed.p_a_wins, pushed.p_b_wins, pushed.p_draw, 0.0), abs=2e-15)
    assert solved.mean_rounds == pytest.approx(pushed.mean_rounds, rel=1e-13)
    if name == "lingering":
        assert pushed.rounds > 100


def test_a_cap_that_may_matter_is_pushed_round_by_round() -> None:
    """The solve promises the cap plays no part only where its bound on the chance of
    a duel lasting past it is under 1e-15: at a cap of 5 rounds every round is pushed
    and what is left at the cap is a draw."""
    a, b = small()
    capped = exact_midian_duel(a, b, max_rounds=5)
    assert capped.solved_from == 0 and capped.rounds == 5
    assert capped.at_cap > 0.01
    assert capped.p_a_wins + capped.p_b_wins + capped.p_draw == pytest.approx(1.0, abs=1e-14)


def agree(exact: float, count: int, n: int) -> None:
    sigma = math.sqrt(max(exact * (1 - exact), 1e-9) / n)
    assert abs(count / n - exact) < 4 * sigma, (exact, count / n)


@pytest.mark.parametrize("retests", [False, True], ids=["plain", "retests"])
@pytest.mark.parametrize("cap", [1, 6])
def test_the_chain_agrees_with_the_fast_engine(retests: bool, cap: int) -> None:
    a, b = small(retests)
    exact = exact_midian_duel(a, b, max_rounds=cap)
    assert abs(exact.p_a_wins + exact.p_b_wins + exact.p_draw + exact.unswept - 1) < 1e-12
    n = 2_000_000
    stats, _ = simulate_midian_fast(a, b, n, seed=7 + cap, workers=2, max_rounds=cap)
    agree(exact.p_a_wins, stats.a_wins, n)
    agree(exact.p_b_wins, stats.b_wins, n)
    agree(exact.p_draw, stats.draws, n)
    mean = stats.total_rounds / n
    assert abs(mean - exact.mean_rounds) < 4 * math.sqrt(cap * cap / n) + 1e-9


@pytest.mark.parametrize(("first", "second"), [("dockhand", "guard"), ("dockhand", "brawler")])
def test_the_examples_agree_with_ten_million_fast_duels(first: str, second: str) -> None:
    a, b = sheet(first), sheet(second)
    exact = exact_midian_duel(a, b)
    n = 10_000_000
    stats, _ = simulate_midian_fast(a, b, n, seed=40, workers=2)
    agree(exact.p_a_wins, stats.a_wins, n)
    agree(exact.p_b_wins, stats.b_wins, n)
    agree(exact.p_draw, stats.draws, n)
    spread = math.sqrt(exact.mean_rounds * 4 / n)  # rounds vary by a few around the mean
    assert abs(stats.total_rounds / n - exact.mean_rounds) < 4 * spread


class _Odometer(Dice):
    """Faces from ``prefix``, then 1s; keeps every die's size and face."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        super().__init__()
        self.prefix = prefix
        self.faces: list[int] = []
        self.sides: list[int] = []

    def _face(self, sides: int, purpose: str) -> int:
        at = len(self.faces)
        face = self.prefix[at] if at < len(self.prefix) else 1
        self.faces.append(face)
        self.sides.append(sides)
        return face


def brute_force_round(
    model: MidianDuelModel, initiative: tuple[int, int]
) -> dict[tuple[int, ...], float]:
    """Every die of round 1 after the initiative faces ``initiative`` (A's, B's), each
    path of faces played by the fast engine's own round (a batch of every path at once,
    the paths found like an odometer's): the chance of each end, ``(points lost by A, by
    B, shock carried by A, by B, A fights, B fights)``."""
    found: dict[tuple[int, ...], Fraction] = defaultdict(Fraction)
    frontier: list[tuple[int, ...]] = [initiative]
    weapons = (model.sides[0].damage_dice, model.sides[1].damage_dice)
    while frontier:
        streams = [_Odometer(prefix) for prefix in frontier]
        duels = Batch.fresh(model, len(streams))
        play_round(model, duels, DiceRoller(list(streams), weapons), (0, 0))
        lost = [
            model.sides[s].hit_points
            + model.sides[s].life_points
            - duels.hit_points[s]
            - duels.life_points[s]
            for s in (0, 1)
        ]
        fighting = [duels.fighting(s) for s in (0, 1)]
        nxt: list[tuple[int, ...]] = []
        for i, (prefix, dice) in enumerate(zip(frontier, streams, strict=True)):
            weight = Fraction(1, math.prod(dice.sides[2:]))  # the initiative faces are given
            end = (
                int(lost[0][i]), int(lost[1][i]), int(duels.carried[0][i]),
                int(duels.carried[1][i]), int(fighting[0][i]), int(fighting[1][i]),
            )  # fmt: skip
            found[end] += weight
            for at in range(len(prefix), len(dice.faces)):
                for face in range(2, dice.sides[at] + 1):
                    nxt.append((*dice.faces[:at], face))
        frontier = nxt
    return {end: float(p) for end, p in found.items()}


def opening_of(
    model: MidianDuelModel, faces: tuple[int, int], carried: tuple[int, int] = (0, 0)
) -> tuple[int, ...]:
    """The opening the fast engine's own functions make of these initiative faces and
    last round's shock: each side's action slots and the order of the turns."""
    totals = [
        np.array([faces[s] + model.sides[s].initiative - model.sides[s].fatigue - carried[s]])
        for s in (0, 1)
    ]
    slots = [slot_count(t) for t in totals]
    used = np.zeros((2, 1), dtype=np.int32)
    order = []
    while (used[0] < slots[0]).any() or (used[1] < slots[1]).any():
        s = 0 if a_acts_next(totals, used, slots, model.a_first_on_ties)[0] else 1
        used[s] += 1
        order.append(s)
    return (int(slots[0][0]), int(slots[1][0]), *order)


def next_openings(model: MidianDuelModel, carried: tuple[int, int]) -> dict[tuple[int, ...], float]:
    """Round 2's openings after this shock, each of the 100 initiative faces'."""
    found: dict[tuple[int, ...], float] = defaultdict(float)
    for face_a in range(1, 11):
        for face_b in range(1, 11):
            found[opening_of(model, (face_a, face_b), carried)] += 0.01
    return found


def chain_opening(chain: Chain, opening: tuple[int, ...]) -> int:
    """The chain's index of an opening."""
    found = chain.openings
    for o in range(found.count):
        slots = (int(found.slots[o, 0]), int(found.slots[o, 1]))
        order = tuple(int(t) for t in found.order[o, : found.turns[o]])
        if (*slots, *order) == opening:
            return o
    raise AssertionError(f"the chain has no opening {opening}")


@pytest.mark.parametrize(
    ("defended", "initiative"),
    [(False, (10, 3)), (False, (2, 9)), (True, (10, 1)), (True, (4, 4))],
    ids=["open-A-twice", "open-B-first", "parried-A-twice", "parried-tie"],
)
def test_the_first_round_equals_a_brute_force_enumeration_of_its_dice(
    defended: bool, initiative: tuple[int, int]
) -> None:
    """Tiny sheets (d2 weapons, one with two actions on a 10, one that parries or not;
    hit points enough that no check is rolled in a first round, whose 2d20 would
    multiply the paths by 400): from the initiative faces given, every path of the
    round's dice played by the fast engine, summed; against the chain's cells after
    round 1 from that opening."""
    a = character(
        "A", hit_points=9, life_points=3, attack_bonus=1, armour_class=14,
        initiative_bonus=1, weapon=weapon(damage="1d2", skill=0), system_shock=70,
    )  # fmt: skip
    b = character(
        "B", hit_points=9, life_points=2, attack_bonus=4, armour_class=13,
        weapon=weapon(damage="1d2", skill=1 if defended else 0),
        attributes={"willpower": 9},
    )  # fmt: skip
    model = MidianDuelModel.of(a, b, 1)
    assert (model.sides[1].parries > 0) == defended
    opening = opening_of(model, initiative)
    brute = brute_force_round(model, initiative)
    assert sum(brute.values()) == pytest.approx(1.0, abs=1e-12)
    # what the brute force expects of the chain: the ended mass, and each state going
    # on, by (lost A, lost B, next opening)
    ended = [0.0, 0.0, 0.0]
    expected: dict[tuple[int, ...], float] = defaultdict(float)
    for (lost_a, lost_b, carried_a, carried_b, fights_a, fights_b), p in brute.items():
        if fights_a and fights_b:
            for following, q in next_openings(model, (carried_a, carried_b)).items():
                expected[(lost_a, lost_b, *following)] += p * q
        else:
            ended[0 if fights_a else 1 if fights_b else 2] += p
    chain = Chain(model)
    fresh = chain.start()
    ja, jb = (int(j[0]) for j in np.nonzero(fresh.any(axis=2)))
    start = np.zeros_like(fresh)
    start[ja, jb, chain_opening(chain, opening)] = 1.0
    cells, mass_ended = chain.step(start, 1)
    assert list(mass_ended) == pytest.approx(ended, abs=1e-13)
    decode = chain.tables["decode"]
    openings = chain.openings
    got: dict[tuple[int, ...], float] = defaultdict(float)
    for ja, jb, o in zip(*np.nonzero(cells), strict=True):
        order = [int(t) for t in openings.order[o, : openings.turns[o]]]
        slots = (int(openings.slots[o, 0]), int(openings.slots[o, 1]))
        got[(int(decode[0, ja, 0]), int(decode[1, jb, 0]), *slots, *order)] += cells[ja, jb, o]
    assert set(got) == {k for k, p in expected.items() if p > 0}
    for key, p in expected.items():
        assert got[key] == pytest.approx(p, abs=1e-13), key


@pytest.mark.parametrize(("attacker", "defender"), [("guard", "brawler"), ("brawler", "guard")])
def test_the_chains_first_blow_equals_the_odds_of_one_attack(attacker: str, defender: str) -> None:
    """``affray midian odds``' damage of one attack on a fresh defender equals the
    chain's blow with no shock and a fresh pool."""
    a, b = sheet(attacker), sheet(defender)
    chain = Chain(MidianDuelModel.of(a, b))
    pool = DefencePool.fresh(b)
    key = 4 * (pool.parries > 0) + 2 * (pool.blocks > 0) + 1
    mine = chain.blow(0, pool_key=key)
    odds = attack_odds(a, b)
    assert set(mine) == {k for k, p in odds.damage.items() if p > 0}
    for amount, p in odds.damage.items():
        assert mine[amount] == pytest.approx(float(p), abs=1e-14)


@pytest.mark.parametrize("name", ["retests", "fatigue-shield-fast"])
def test_a_round_finished_from_any_of_its_starts_is_the_round(name: str) -> None:
    """``Chain.finish`` (the rest of a round from a state within it, the door a table's
    fight from mid-round comes in by) from each start of round 2 and its opening's
    turns, weighted by the start's mass, sums to the round ``Chain.step`` plays."""
    from affray.rulesystems.midian import exact_duel_kernel as kernel

    chain = Chain(MidianDuelModel.of(*pairs()[name]))
    cur, _ = chain.step(chain.start(), 1)
    whole, ended = chain.step(cur, 2)
    decode, sides, openings = chain.tables["decode"], chain.tables["sides"], chain.openings
    summed = np.zeros_like(whole)
    summed_ended = np.zeros(3)
    for ia, ib, o in zip(*np.nonzero(cur), strict=True):
        row = np.zeros(kernel.FIELDS, dtype=np.int64)
        for s, i in ((0, ia), (1, ib)):
            at = kernel.F * s
            lost, serious, checked, ra, rw, rs = decode[s, i]
            row[at + kernel.LOST], row[at + kernel.SERIOUS] = lost, serious
            row[at + kernel.CHECKED] = checked
            row[at + kernel.CONSCIOUS] = row[at + kernel.ALIVE] = 1
            row[at + kernel.ACTIONS] = openings.slots[o, s]
            row[at + kernel.PARRIES] = sides[s, kernel.FREE_PARRIES]
            row[at + kernel.BLOCKS] = sides[s, kernel.FREE_BLOCKS]
            row[at + kernel.RET_ATTACK], row[at + kernel.RET_WILL] = ra, rw
            row[at + kernel.RET_SHOCK] = rs
        order = openings.order[o, : openings.turns[o]].copy()
        cells, mass = chain.finish(row, order, (int(decode[0, ia, 0]), int(decode[1, ib, 0])), 2)
        summed += cur[ia, ib, o] * cells
        summed_ended += cur[ia, ib, o] * mass
    assert np.abs(summed - whole).max() < 1e-15
    assert summed_ended == pytest.approx(ended, abs=1e-15)


def test_a_pair_that_can_never_hurt_each_other_is_a_draw_at_the_cap() -> None:
    a = character("A", armour_class=30, weapon=weapon(damage="1d2"), damage_reduction=20)
    b = character("B", armour_class=30, weapon=weapon(damage="1d2"), damage_reduction=20)
    exact = exact_midian_duel(a, b, max_rounds=50)
    assert (exact.p_a_wins, exact.p_b_wins, exact.p_draw) == (0.0, 0.0, 1.0)
    assert exact.mean_rounds == 50.0


def test_a_pair_past_the_budget_is_refused_at_once_with_the_limit_named() -> None:
    guard, brawler = sheet("guard"), sheet("brawler")
    assert chain_cells(guard, brawler) == 300_000
    started = time.perf_counter()
    with pytest.raises(AffrayError, match="300,000 states, more than 100,000"):
        exact_midian_duel(guard, brawler, max_cells=100_000)
    assert time.perf_counter() - started < 5


def test_the_quick_try_answers_only_within_its_time() -> None:
    a, b = small()
    exact_midian_duel(a, b, max_rounds=1)  # its machine code compiled
    assert quick_midian_duel(a, b, seconds=5.0) == exact_midian_duel(a, b)
    assert quick_midian_duel(a, b, seconds=0.0) is None  # out of time after a round
    guard, brawler = sheet("guard"), sheet("brawler")
    assert quick_midian_duel(guard, brawler, seconds=30.0) == exact_midian_duel(guard, brawler)
    started = time.perf_counter()
    assert quick_midian_duel(*giants()) is None  # past its cells
    assert quick_midian_duel(guard, sheet("elf_archer")) is None  # not played
    assert time.perf_counter() - started < 1.0
    started = time.perf_counter()
    assert quick_midian_duel(guard, brawler, seconds=0.05) is None  # out of time
    assert time.perf_counter() - started < 0.5


def write(tmp_path: Path, a: Character, b: Character) -> tuple[str, str]:
    """Two sheets of these fighters' figures, as files."""
    paths = []
    for who in (a, b):
        path = tmp_path / f"{who.name}.toml"
        path.write_text(
            f'system = "midian"\nname = "{who.name}"\n'
            "attributes = { strength = 12, agility = 12, wits = 10, willpower = 11, "
            "stamina = 12 }\n"
            f"attack_bonus = {who.attack_bonus}\narmour_class = {who.armour_class}\n"
            f"hit_points = {who.hit_points}\nlife_points = {who.life_points}\n"
            f'weapon = {{ name = "Knife", damage = "{who.weapon.damage}", '
            f'type = "hacking", skill = {who.weapon.skill} }}\n'
        )
        paths.append(str(path))
    return paths[0], paths[1]


def test_affray_duel_gives_the_chains_odds(tmp_path: Path) -> None:
    a, b = small()
    first, second = write(tmp_path, a, b)
    exact = exact_midian_duel(*(resolve_reference(p).sheet() for p in (first, second)))  # type: ignore[arg-type]
    for args in ((), ("--exact",)):
        data = run_json("duel", first, second, *args)
        assert data["method"] == "exact"
        assert data["p_a_wins"] == exact.p_a_wins
        assert data["p_draw"] == exact.p_draw
        assert data["mean_rounds"] == exact.mean_rounds
    rows = run_json("duel", first, second, "--by-round")["by_round"]
    assert isinstance(rows, list)
    pushed = exact_midian_duel(a, b, by_round=True)
    assert len(rows) == len(pushed.by_round) == pushed.rounds
    assert rows[0]["p_a_won"] == pytest.approx(pushed.by_round[0][0], abs=1e-15)
    refused = run("duel", first, second, "--rational")
    assert refused.exit_code == 2
    assert "floating point" in refused.output and "leave out --rational" in refused.output


def test_a_big_chain_is_simulated_unless_asked_for(tmp_path: Path) -> None:
    guard, brawler = (str(EXAMPLES / f"midian/{n}.toml") for n in ("guard", "brawler"))
    result = run("duel", guard, brawler, "--json", "-n", "1000", "--seed", "1")
    assert result.exit_code == 0 and '"method": "monte-carlo"' in result.stdout
    quick = run_json("duel", guard, brawler)  # the chain answers within a second
    assert quick["method"] == "exact"
    assert quick["p_a_wins"] == exact_midian_duel(sheet("guard"), sheet("brawler")).p_a_wins
    first, second = write(tmp_path, *giants())
    assert chain_cells(*giants()) > QUICK_CELLS
    default = run("duel", first, second, "--json", "--seed", "1", "-n", "2000")
    assert default.exit_code == 0, default.output
    assert '"method": "monte-carlo"' in default.stdout
    unasked = run("duel", first, second, "--json", "--seed", "1")
    assert unasked.exit_code == 0, unasked.output
    assert '"method": "monte-carlo"' in unasked.stdout
    assert "would take more than a second" in unasked.stderr
    archer = str(EXAMPLES / "midian/elf_archer.toml")
    refused = run("duel", guard, archer, "--exact")
    assert refused.exit_code == 2
    assert "no exact odds of this Midian duel" in refused.output and "ranged" in refused.output


def test_the_python_api_gives_the_chain_quickly_or_when_asked(tmp_path: Path) -> None:
    """``affray.duel(a, b)``: the chain's odds when they come within a second, else
    simulated with a note; ``exact=True`` waits for them (refused with ``n``)."""
    a, b = small()
    first, second = (affray.load(path) for path in write(tmp_path, a, b))
    exact = exact_midian_duel(first, second)  # type: ignore[arg-type]
    for answer in (affray.duel(first, second), affray.duel(first, second, exact=True)):
        assert answer.method == "exact" and answer.p_a_wins == exact.p_a_wins
    guard, brawler = (affray.load(EXAMPLES / f"midian/{n}.toml") for n in ("guard", "brawler"))
    assert affray.duel(guard, brawler).method == "exact"  # within a second
    big = (affray.load(path) for path in write(tmp_path, *giants()))
    simulated = affray.duel(*big, seed=1)
    assert simulated.method == "monte-carlo" and simulated.n == 10_000
    assert simulated.note is not None and "more than a second" in simulated.note
    with pytest.raises(AffrayError, match="two answers"):
        affray.duel(first, second, 100, exact=True)


def test_without_numba_a_big_chain_is_refused_and_a_duel_simulated() -> None:
    """As plain Python the chain would take hours: past a small one it is refused,
    saying what to install; a duel asked no method is simulated at once."""
    import os
    import subprocess
    import sys

    guard, brawler = (str(EXAMPLES / f"midian/{n}.toml") for n in ("guard", "brawler"))
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    command = [sys.executable, "-m", "affray", "duel", guard, brawler]
    refused = subprocess.run([*command, "--exact"], env=env, capture_output=True, text=True)
    assert refused.returncode == 2, refused.stderr
    assert "need numba" in refused.stderr and "affray[fast]" in refused.stderr
    simulated = subprocess.run(
        [*command, "--json", "--seed", "1"], env=env, capture_output=True, text=True
    )
    assert simulated.returncode == 0 and '"method": "monte-carlo"' in simulated.stdout


def test_two_d20_at_most_counts_the_pairs() -> None:
    assert list(two_d20_at_most(np.array([1, 2, 3, 21, 40, 41]))) == [
        0.0,
        1 / 400,
        3 / 400,
        0.525,
        1.0,
        1.0,
    ]


def test_a_sure_win_summed_in_floats_is_a_chance_of_one() -> None:
    """A pair of the reference tests whose A always wins (heroic armour: rounds pushed
    till round 21, the rest solved) summed to 1 + 2e-16: chances stay within [0, 1]."""
    from tests.rules.midian.test_exact_duel_reference import pairs as reference_pairs

    a, b, cap = reference_pairs()[22]
    solved = exact_midian_duel(a, b, max_rounds=cap)
    assert solved.solved_from == 21
    assert solved.p_a_wins == 1.0 and solved.p_b_wins == 0.0 and solved.p_draw == 0.0
    pushed = exact_midian_duel(a, b, max_rounds=cap, by_round=True)  # 1e-15 let go
    assert 1.0 - 1e-15 < pushed.p_a_wins <= 1.0


def big_blows() -> tuple[Character, Character]:
    """Few points but blows of many outcomes (2d10 + 4, two kinds of retests): one blow
    pushes hundreds of rows on the walk's stack (3 and 2 points: 6 and 3 pushed as many
    and took eight times as long)."""
    a, b = (
        character(
            name,
            hit_points=3,
            life_points=2,
            attack_bonus=4,
            armour_class=12,
            damage_bonus=4,
            weapon=weapon(damage="2d10", skill=1),
            retests=("Lucky", "Blessed"),
        )
        for name in ("A", "B")
    )
    return a, b


def kept_entries(chain: Chain) -> int:
    """The entries of the records the chain holds, counted record by record."""
    at = chain._at[chain._at >= 0]
    return int((kernel.HEAD + chain._dest[at]).sum())


@pytest.mark.parametrize("name", ["retests", "big blows"])
def test_many_threads_small_tables_and_a_small_stack_give_the_same_duel(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight threads walking a few cells each, from a stack and a table of ends far too
    small (grown as the walks overflow, once however many threads overflow at once):
    the odds of one thread with the tables as they come, and records kept without gaps
    between the threads' stretches."""
    a, b = big_blows() if name == "big blows" else pairs()[name]
    model = MidianDuelModel.of(a, b)
    plain = Chain(model)
    plain.threads = 1
    expected = plain.run()
    monkeypatch.setattr(exact_duel, "THREAD_CELLS", 2)
    crowded = Chain(model)
    crowded.threads, crowded.stack, crowded.local = 8, 64, 16
    found = crowded.run()
    assert (found.p_a_wins, found.p_b_wins, found.p_draw) == pytest.approx(
        (expected.p_a_wins, expected.p_b_wins, expected.p_draw), abs=1e-15
    )
    assert found.mean_rounds == pytest.approx(expected.mean_rounds, rel=1e-14)
    assert crowded._kept == kept_entries(crowded) == kept_entries(plain) == plain._kept
    # grown as far as the walks needed, no further (from 16 the table grows through
    # 4,096, where the plain chain's starts)
    assert 16 < crowded.local <= plain.local and crowded.stack <= plain.stack
    if name == "big blows":  # a blow pushes more than 64 rows
        assert crowded.stack > 64 and plain.local > kernel.LOCAL


def test_a_chain_run_again_from_any_cell_is_a_new_chain_from_it() -> None:
    """A chain keeps its records: run again from another start (as the table's odds
    do) it solves only the cells that start reaches."""
    a, b = pairs()["retests"]
    model = MidianDuelModel.of(a, b)
    chain = Chain(model)
    chain.run()
    walked = np.flatnonzero(chain._at >= 0)
    for cell in np.random.default_rng(1).choice(walked, 12, replace=False):
        start = np.zeros(chain.shape)
        start.reshape(-1)[cell] = 1.0
        again, fresh = chain.run(cells=start, first=3), Chain(model).run(cells=start, first=3)
        assert again.solved_from == fresh.solved_from == 3
        assert (again.p_a_wins, again.p_b_wins, again.p_draw) == pytest.approx(
            (fresh.p_a_wins, fresh.p_b_wins, fresh.p_draw), abs=1e-15
        )
        assert again.mean_rounds == pytest.approx(fresh.mean_rounds, rel=1e-14)
