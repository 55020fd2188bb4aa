"""The fast simulator against the exact odds and the scalar engine; determinism."""

from __future__ import annotations

import math

import pytest

from affray.rulesystems.mst2.odds import duel_odds
from affray.rulesystems.mst2.sim import (
    CHUNK,
    DuelModel,
    simulate_chunk,
    simulate_duels,
    simulate_fast,
)
from affray.sim import DuelStats, wilson_interval
from tests.helpers import example, make_fighter

MATCHUPS = [
    ("sellsword.toml", "spearman.toml"),
    ("knight.json", "ogre.toml"),
    ("goblin.toml", "archer.toml"),
]


@pytest.mark.parametrize(("first", "second"), MATCHUPS)
def test_fast_agrees_with_exact_within_4_sigma(first: str, second: str) -> None:
    a, b = example(first), example(second)
    odds = duel_odds(a, b)
    stats, _ = simulate_fast(a, b, 200_000, seed=7)
    p = float(odds.p_a_wins)
    assert abs(stats.p_a_wins - p) < 4 * math.sqrt(p * (1 - p) / stats.n)
    assert stats.a_wins + stats.b_wins + stats.draws == stats.n
    assert stats.mean_rounds == pytest.approx(float(odds.mean_rounds), rel=0.02)


def test_fast_agrees_with_the_scalar_engine() -> None:
    a, b = example("spearman.toml"), example("goblin.toml")
    fast, _ = simulate_fast(a, b, 100_000, seed=1)
    scalar = simulate_duels(a, b, 4000, seed=1)
    p = fast.p_a_wins
    assert abs(scalar.p_a_wins - p) < 4 * math.sqrt(p * (1 - p) / scalar.n + p * (1 - p) / fast.n)


def test_same_seed_same_result_whatever_the_workers() -> None:
    a, b = example("sellsword.toml"), example("spearman.toml")
    n = 2 * CHUNK + 123
    one, entropy = simulate_fast(a, b, n, seed=99, workers=1)
    two, _ = simulate_fast(a, b, n, seed=99, workers=2)
    assert one == two
    assert entropy == 99
    other, _ = simulate_fast(a, b, n, seed=100)
    assert other != one


def test_chunk_boundaries_do_not_change_results() -> None:
    a, b = example("knight.json"), example("ogre.toml")
    model = DuelModel.of(a, b)
    whole, _ = simulate_fast(a, b, CHUNK + 10, seed=5)
    pieces = simulate_chunk(model, 5, 0, CHUNK) + simulate_chunk(model, 5, 1, 10)
    assert whole == pieces
    first_chunk, _ = simulate_fast(a, b, CHUNK, seed=5)
    assert first_chunk == simulate_chunk(model, 5, 0, CHUNK)


def test_draws_and_the_round_cap() -> None:
    ghost = make_fighter("Ghost", weapon_name="dagger", evasion_bonus=10)
    stats, _ = simulate_fast(ghost, ghost, 1000, seed=1)
    assert stats == DuelStats(1000, 0, 0, 1000, 0)
    a, b = example("sellsword.toml"), example("spearman.toml")
    capped, _ = simulate_fast(a, b, 5000, seed=3, max_rounds=1)
    assert capped.draws > 0
    assert capped.total_rounds == 5000  # every duel began exactly one round


def test_progress_reports_every_duel() -> None:
    seen: list[int] = []
    a, b = example("sellsword.toml"), example("spearman.toml")
    simulate_fast(a, b, CHUNK + 7, seed=1, progress=seen.append)
    assert sum(seen) == CHUNK + 7


def test_wilson_interval() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0
    assert wilson_interval(10, 10)[1] == pytest.approx(1)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_an_estimate_scales_the_pilot_to_the_run() -> None:
    from affray.sim import Estimate, estimate_run

    # a pilot of 100 duels in 0.5 s; 1000 duels are 10 chunks, which 4 workers share
    assert estimate_run(100, 0.5, 1000, 100, 4) == Estimate(0.005 * 1000 / 4, 1000, 4)
    # never more workers than chunks
    assert estimate_run(100, 0.5, 300, 100, 8) == Estimate(0.005 * 300 / 3, 300, 3)
    # a busy machine: 4 workers go as fast as the 1.5 cores left free, but never slower
    # than one
    assert estimate_run(100, 0.5, 1000, 100, 4, 1.5) == Estimate(0.005 * 1000 / 1.5, 1000, 4)
    assert estimate_run(100, 0.5, 1000, 100, 4, -2.0) == Estimate(0.005 * 1000, 1000, 4)


def test_a_run_that_estimates_gives_the_same_totals_and_a_measured_estimate() -> None:
    """The pilot fights duels of its own, timed: the totals do not change, and the
    estimate is of the order of the time the run really takes (loose bounds, for a
    busy machine)."""
    import time

    from affray.sim import Estimate

    a, b = example("sellsword.toml"), example("spearman.toml")
    n = 4 * CHUNK + 99
    # the numpy engine (the compiled one is timed in tests/sim/test_mst2_fast.py): a
    # pilot stops early for a run it finds quick, which the kernel makes this one
    plain, _ = simulate_fast(a, b, n, seed=11, workers=1, compiled=False)
    heard: list[Estimate] = []
    seen: list[int] = []
    stats, _ = simulate_fast(
        a, b, n, seed=11, workers=1, progress=seen.append, estimate=heard.append, compiled=False
    )
    started = time.perf_counter()
    simulate_fast(a, b, n, seed=11, workers=1, compiled=False)
    took = time.perf_counter() - started
    assert stats == plain and sum(seen) == n
    (estimate,) = heard
    assert (estimate.duels, estimate.workers) == (n, 1)
    assert took / 4 < estimate.seconds < took * 4


def test_the_pilot_of_a_slow_duel_is_one_duel() -> None:
    """A duel that takes longer than the pilot's time is timed on itself (twice: the
    first call may pay for loading), and the run's estimate is that duel's time for
    every duel."""
    import time

    from affray.sim.chunks import PILOT_SECONDS, pilot

    sizes: list[int] = []

    def slow(entropy: int, index: int, size: int) -> DuelStats:
        sizes.append(size)
        time.sleep(PILOT_SECONDS * size)
        return DuelStats(size, size, 0, 0, size)

    estimate = pilot(slow, 1, 200, 500, 1)
    assert sizes == [1, 1]
    assert 200 * PILOT_SECONDS <= estimate.seconds < 200 * PILOT_SECONDS * 4


def test_the_pilot_does_not_count_a_first_calls_loading() -> None:
    """A job whose first call in a process loads what it needs (machine code from the
    cache, a setup) is timed again: the run is estimated at its pace after that."""
    import time

    from affray.sim.chunks import PILOT_SECONDS, pilot

    calls: list[int] = []

    def loads_first(entropy: int, index: int, size: int) -> DuelStats:
        if not calls:
            time.sleep(PILOT_SECONDS * 4)  # the one-off load
        calls.append(size)
        return DuelStats(size, size, 0, 0, size)

    estimate = pilot(loads_first, 1, 2000, 500, 1)
    assert estimate.seconds < PILOT_SECONDS, estimate


def test_the_pilot_stops_as_soon_as_the_run_is_sure_to_be_quick() -> None:
    from affray.sim.chunks import PILOT_SECONDS, pilot

    sizes: list[int] = []

    def quick(entropy: int, index: int, size: int) -> DuelStats:
        sizes.append(size)
        return DuelStats(size, size, 0, 0, size)

    assert pilot(quick, 1, 200, 500, 1).seconds < PILOT_SECONDS
    assert sizes == [1]
