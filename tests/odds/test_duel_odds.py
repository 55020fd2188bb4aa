"""The exact duel chain against an independent reading of the SPEC's duel rules
(float value iteration written here from the rules text) and against the scalar
duel engine (within 4 sigma)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from affray.rulesystems.mst2 import Fighter, Grip, HitDice, Reach, Weapon, armor
from affray.rulesystems.mst2.odds import duel_odds, rounds_distribution
from affray.rulesystems.mst2.sim import simulate_duels
from tests.helpers import example, make_fighter


def independent_odds(a: Fighter, b: Fighter, sweeps: int = 4000) -> float:
    """P(A wins), P(B wins) by value iteration over (wounds A, wounds B, distance, turn)."""

    def strike(x: Fighter, y: Fighter) -> tuple[float, list[float]]:
        p_hit = sum(f + x.skill > y.evasion for f in range(1, 21)) / 20
        dist = [1.0]
        for sides in x.melee_power:
            p = max(0, sides - y.protection) / sides
            new = [0.0] * (len(dist) + 1)
            for k, q in enumerate(dist):
                new[k] += q * (1 - p)
                new[k + 1] += q * p
            dist = new
        return 1 - p_hit, [p_hit * q for q in dist]

    def survive_table(y: Fighter) -> list[float]:
        totals = {y.hit_dice.bonus: 1.0}
        for sides in y.hit_dice.pool:
            nxt: dict[int, float] = {}
            for t, q in totals.items():
                for face in range(1, sides + 1):
                    nxt[t + face] = nxt.get(t + face, 0.0) + q / sides
            totals = nxt
        top = max(totals)
        return [sum(q for t, q in totals.items() if t > w) for w in range(top + 1)]

    fighters = {"a": a, "b": b}
    strikes = {"a": strike(a, b), "b": strike(b, a)}
    survive = {"a": survive_table(a), "b": survive_table(b)}  # survival of the one named
    limit = {s: len(survive[s]) for s in "ab"}
    distances = sorted({a.reach, b.reach})
    value: dict[tuple[int, int, Reach, str], float] = {}
    states = [
        (wa, wb, d, t)
        for wa in range(limit["a"])
        for wb in range(limit["b"])
        for d in distances
        for t in "ab"
    ]
    for state in states:
        value[state] = 0.0

    def after_wound(wa: int, wb: int, victim: str, k: int, d: Reach, nxt: str) -> float:
        # value of A winning after `victim` takes k wounds
        w = (wa if victim == "a" else wb) + k
        keep = survive[victim][w] if w < limit[victim] else 0.0
        out_value = 1.0 if victim == "b" else 0.0
        if keep == 0:
            return out_value
        na, nb = (w, wb) if victim == "a" else (wa, w)
        return keep * value[(na, nb, d, nxt)] + (1 - keep) * out_value

    for _ in range(sweeps):
        change = 0.0
        for wa, wb, d, turn in reversed(states):
            other = "b" if turn == "a" else "a"
            reach = fighters[turn].reach

            def attack_from(
                dist: Reach, wa: int = wa, wb: int = wb, turn: str = turn, other: str = other
            ) -> float:
                miss, hits = strikes[turn]
                v = miss * value[(wa, wb, dist, other)]
                for k, q in enumerate(hits):
                    v += q * (
                        value[(wa, wb, dist, other)]
                        if k == 0
                        else after_wound(wa, wb, other, k, dist, other)
                    )
                return v

            if reach == d:
                new = attack_from(d)
            else:
                miss, hits = strikes[other]
                new = miss * attack_from(reach)
                for k, q in enumerate(hits):
                    new += q * (
                        value[(wa, wb, d, other)]
                        if k == 0
                        else after_wound(wa, wb, turn, k, d, other)
                    )
            change = max(change, abs(new - value[(wa, wb, d, turn)]))
            value[(wa, wb, d, turn)] = new
        if change < 1e-14:
            break
    return value[(0, 0, max(a.reach, b.reach), "a")]


MATCHUPS = [
    ("sellsword.toml", "spearman.toml"),
    ("goblin.toml", "archer.toml"),
    ("spearman.toml", "goblin.toml"),
    ("knight.json", "sellsword.toml"),
]


@pytest.mark.parametrize(("first", "second"), MATCHUPS)
def test_exact_matches_independent_value_iteration(first: str, second: str) -> None:
    a, b = example(first), example(second)
    odds = duel_odds(a, b)
    assert float(odds.p_a_wins) == pytest.approx(independent_odds(a, b), abs=1e-9)
    assert odds.p_a_wins + odds.p_b_wins + odds.p_draw == 1
    assert odds.p_draw == 0


@pytest.mark.parametrize(("first", "second"), MATCHUPS[:3])
def test_exact_agrees_with_the_scalar_engine_within_4_sigma(first: str, second: str) -> None:
    a, b = example(first), example(second)
    odds = duel_odds(a, b)
    n = 3000
    stats = simulate_duels(a, b, n, seed=2024)
    p = float(odds.p_a_wins)
    sigma = math.sqrt(p * (1 - p) / n)
    assert abs(stats.p_a_wins - p) < 4 * sigma
    assert abs(stats.mean_rounds - float(odds.mean_rounds)) < 0.1 * float(odds.mean_rounds)


def test_winner_wounds_add_up_to_the_win_probabilities() -> None:
    odds = duel_odds(example("knight.json"), example("ogre.toml"))
    assert sum(odds.winner_wounds["a"].values()) == odds.p_a_wins
    assert sum(odds.winner_wounds["b"].values()) == odds.p_b_wins
    assert all(isinstance(p, Fraction) and p > 0 for p in odds.winner_wounds["a"].values())


def test_rounds_distribution_matches_the_exact_mean_and_odds() -> None:
    a, b = example("knight.json"), example("ogre.toml")
    odds = duel_odds(a, b)
    rounds = rounds_distribution(a, b)
    assert rounds.unfinished < 1e-12
    assert sum(rounds.a_wins.values()) == pytest.approx(float(odds.p_a_wins), abs=1e-10)
    mean = sum(r * p for r, p in rounds.ended().items())
    assert mean == pytest.approx(float(odds.mean_rounds), rel=1e-9)


def test_draw_when_neither_can_wound() -> None:
    ghost = make_fighter("Ghost", weapon_name="dagger", evasion_bonus=10)
    odds = duel_odds(ghost, ghost)
    assert (odds.p_a_wins, odds.p_b_wins, odds.p_draw, odds.mean_rounds) == (0, 0, 1, 0)


def test_lopsided_duel() -> None:
    knight = make_fighter(
        "Knight",
        skill=8,
        weapon_name="sword",
        grip=Grip.TWO_HANDED,
        armor_name="plate mail",
        hit_dice="3d10+2",
    )
    child = make_fighter("Child", weapon_name="unarmed", hit_dice="1d4")
    odds = duel_odds(knight, child)
    assert odds.p_a_wins > Fraction(999, 1000)
    assert odds.p_b_wins > 0  # a 6 on the d6 beats plate's 4: never impossible
    assert odds.p_a_wins + odds.p_b_wins == 1


def test_one_sided_wounding_can_still_loop_forever() -> None:
    # A (dagger) can wound B but never reaches it: B's counter always hits and
    # never wounds, so A's attacks are always prevented: a draw at the round cap.
    stick = Weapon("Long stick", Reach.FAR, (2,), None)
    b = Fighter("Keeper", 19, stick, armor("plate mail"), HitDice((6,)))
    a = make_fighter("Rusher", weapon_name="dagger", armor_name="plate mail", evasion_bonus=-20)
    odds = duel_odds(a, b)
    assert odds.p_draw == 1
    assert odds.mean_rounds == 1000
