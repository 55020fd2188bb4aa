"""Exact Midian duels against the reference engine (issue 40): 30 random pairs of small
fighters, each pair's exact odds against 4,000 duels of the encounter engine with the
tactics AI (not the fast engine the chain mirrors: an independent implementation of
the rules), within 4σ on A's wins and on draws, and no drift over all the pairs.

4,000 duels a pair (120,000 in all; 600,000 before issue 56, which took most of the
suite's time) still see a pair off by 3.2 points of its chance at 4σ, and the drift
check over the 30 pairs a bias of about 1 point shared by all of them. The same pairs
are held to the fast engine with 100,000 duels each (it is cheap): a pair off by 0.6
points there is seen."""

from __future__ import annotations

import math
import random
from concurrent.futures import ProcessPoolExecutor
from statistics import NormalDist

import pytest

from affray.rulesystems.midian.character import Character, Encumbrance, Shield
from affray.rulesystems.midian.exact_duel import exact_midian_duel
from affray.rulesystems.midian.ruleset import MidianRuleset
from affray.rulesystems.midian.sim.duels import simulate_midian_fast
from affray.sim.encounters import simulate_reference
from tests.rules.midian.helpers import character, weapon

pytestmark = pytest.mark.slow

PAIRS = 30
DUELS = 4_000
FAST_DUELS = 100_000

Agreement = tuple[float, float, float, float, float, float]
"""A pair's z-scores: the reference engine's A wins, draws and mean rounds; the exact
A wins; the fast engine's A wins and draws."""
RETESTS = ("Lucky", "Blessed", "Fated")
TYPES = ("hacking", "stabbing", "smashing")


def fighter(rng: random.Random, name: str) -> Character:
    """A small fighter drawn at random: few points and a small weapon (so that its
    duels are short), and any of what the chain plays: a shield, a dodge, heroic
    armour, reduction and resistance, several actions a round, retests, a low
    Willpower or system shock, a damage bonus past the weapon's dice."""
    kind = rng.choice(TYPES)
    return character(
        name,
        hit_points=rng.randint(2, 7),
        life_points=rng.randint(1, 4),
        attack_bonus=rng.randint(0, 7),
        armour_class=rng.randint(8, 15),
        damage_bonus=rng.choice((0, 0, 1, 3)),
        initiative_bonus=rng.choice((0, 0, 3, 8)),
        damage_reduction=rng.choice((0, 0, 1)),
        resistances={rng.choice(TYPES): rng.choice((25, 50))} if rng.random() < 0.3 else {},
        system_shock=rng.randint(30, 60),
        dodge=rng.choice((0, 0, 2, 4)),
        armour_encumbrance=Encumbrance.HEROIC if rng.random() < 0.15 else Encumbrance.NONE,
        shield=Shield(armour_class=1, skill=rng.randint(0, 1)) if rng.random() < 0.3 else None,
        weapon=weapon(damage=f"1d{rng.choice((2, 3, 4, 6))}", type=kind, skill=rng.randint(0, 2)),
        retests=tuple(rng.sample(RETESTS, rng.choice((0, 0, 1)))),
        attributes={"willpower": rng.randint(5, 15), "wits": rng.randint(8, 12)},
    )


def pairs() -> list[tuple[Character, Character, int]]:
    """The pairs, each with its round cap (some low: the draws at the cap count too)."""
    rng = random.Random(40)
    return [
        (fighter(rng, f"A{k}"), fighter(rng, f"B{k}"), rng.choice((3, 6, 1000)))
        for k in range(PAIRS)
    ]


def z(count: int, n: int, p: float) -> float:
    """How many standard deviations ``count`` of ``n`` is from the exact chance ``p``:
    the exact binomial tail, as the normal deviate with the same tail (draws are rare,
    where the normal approximation overstates the tails)."""
    if p in (0.0, 1.0):
        return 0.0 if count == round(n * p) else math.inf
    expected = n * p
    counts = range(count, n + 1) if count > expected else range(count + 1)
    tail = math.fsum(
        math.exp(
            math.lgamma(n + 1)
            - math.lgamma(k + 1)
            - math.lgamma(n - k + 1)
            + k * math.log(p)
            + (n - k) * math.log1p(-p)
        )
        for k in counts
    )
    if tail >= 0.5:
        return 0.0
    return math.inf if tail == 0.0 else -NormalDist().inv_cdf(tail)


def compare(index: int) -> Agreement:
    """Pair ``index``: the z-scores of the reference engine's A wins and draws against
    the exact odds, and its mean rounds' against the exact mean (and the exact A wins;
    then the fast engine's z-scores of A wins and draws)."""
    a, b, cap = pairs()[index]
    exact = exact_midian_duel(a, b, max_rounds=cap)
    fast, _ = simulate_midian_fast(a, b, FAST_DUELS, seed=800 + index, max_rounds=cap)
    played, _ = simulate_reference(a, b, MidianRuleset(), DUELS, seed=400 + index, max_rounds=cap)
    # a duel's rounds spread by less than its cap and by less than their mean times 3
    spread = min(cap, 3 * exact.mean_rounds) / math.sqrt(DUELS)
    rounds = (played.total_rounds / DUELS - exact.mean_rounds) / spread
    return (
        z(played.a_wins, DUELS, exact.p_a_wins),
        z(played.draws, DUELS, exact.p_draw),
        rounds,
        exact.p_a_wins,
        z(fast.a_wins, FAST_DUELS, exact.p_a_wins),
        z(fast.draws, FAST_DUELS, exact.p_draw),
    )


@pytest.fixture(scope="module")
def agreement() -> list[Agreement]:
    with ProcessPoolExecutor(max_workers=2) as pool:
        return list(pool.map(compare, range(PAIRS)))


def test_the_pairs_reach_every_part_of_the_chain() -> None:
    found = [who for a, b, _ in pairs() for who in (a, b)]
    assert any(f.shield is not None for f in found)
    assert any(f.armour_encumbrance is Encumbrance.HEROIC for f in found)
    assert any(f.retests for f in found)
    assert any(f.dodge > 0 for f in found) and any(f.resistances for f in found)
    assert any(cap == 3 for *_, cap in pairs()) and any(cap == 1000 for *_, cap in pairs())


@pytest.mark.parametrize("index", range(PAIRS))
def test_each_pair_agrees_with_the_reference_engine_within_4_sigma(
    agreement: list[Agreement], index: int
) -> None:
    wins, draws, rounds, _, fast_wins, fast_draws = agreement[index]
    assert abs(wins) < 4 and abs(draws) < 4 and abs(rounds) < 4, agreement[index]
    assert abs(fast_wins) < 4 and abs(fast_draws) < 4, agreement[index]


def test_no_drift_over_all_pairs(agreement: list[Agreement]) -> None:
    """The squared z-scores of A's wins sum as a chi-square of 30 degrees of freedom
    would: under 70 (its 99.99th percentile is 66.6); and the odds are not all alike."""
    assert sum(min(w * w, 100.0) for w, *_ in agreement) < 70
    assert sum(min(row[4] ** 2, 100.0) for row in agreement) < 70
    chances = [row[3] for row in agreement]
    assert min(chances) < 0.3 and max(chances) > 0.7
