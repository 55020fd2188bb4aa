"""The fast MST-2 engines: the compiled kernel duel for duel against the numpy engine,
both within 4 sigma of the exact odds and of the reference engine that rolls every
die; the generator; seeding, workers and chunks; the cache, the fallback, memory."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from affray.estimates import Estimate
from affray.rulesystems.mst2 import Fighter, Grip
from affray.rulesystems.mst2.odds.chances import duel_chances
from affray.rulesystems.mst2.sim.duels import (
    CHUNK,
    COMPILED_FROM,
    DuelModel,
    compiled_kernel,
    duel_counters,
    mix,
    simulate_chunk,
    simulate_fast,
    threshold,
)
from affray.rulesystems.mst2.sim.scalar import simulate_duels
from affray.stats import DuelStats
from tests.helpers import SLOWDOWN, ctrl_c_as_at_a_terminal, example, make_fighter


def stubborn() -> Fighter:
    """Rarely wounds a copy of itself and shrugs off what lands: duels of hundreds of
    rounds, where a low round cap decides many."""
    return make_fighter(
        "Stubborn", weapon_name="dagger", armor_name="plate mail", hit_dice="8d10", shield=True
    )


PAIRS: list[tuple[str, Fighter, Fighter, int]] = [
    ("sellsword-spearman", example("sellsword.toml"), example("spearman.toml"), 1000),
    ("knight-ogre", example("knight.json"), example("ogre.toml"), 1000),
    ("goblin-archer", example("goblin.toml"), example("archer.toml"), 1000),
    (
        "2h sword-polearm 3d10",
        make_fighter("A", skill=3, armor_name="chain mail", hit_dice="3d10", grip=Grip.TWO_HANDED),
        make_fighter("B", skill=4, weapon_name="polearm", armor_name="brigandine", hit_dice="3d10"),
        1000,
    ),
    (
        "dagger and shield-spear",
        make_fighter(
            "A",
            skill=5,
            weapon_name="dagger",
            armor_name="plate mail",
            hit_dice="3d10+2",
            shield=True,
        ),
        make_fighter("B", skill=2, weapon_name="spear", armor_name="leather", hit_dice="2d10"),
        1000,
    ),
    (
        "extra power-nimble",
        make_fighter("A", skill=1, weapon_name="polearm", hit_dice="2d8", extra_power=(6,)),
        make_fighter("B", skill=4, weapon_name="dagger", hit_dice="1d10", evasion_bonus=3),
        1000,
    ),
    ("stubborn, 40-round cap", stubborn(), stubborn(), 40),
]
IDS = [label for label, *_ in PAIRS]


def sigmas(observed: int, n: int, p: float) -> float:
    """How many standard errors ``observed / n`` lies from ``p``."""
    spread = math.sqrt(max(p * (1 - p), 1e-12) / n)
    return abs(observed / n - p) / spread


def test_the_kernel_is_there() -> None:
    """numba is a dependency: the tests below would check the numpy engine twice
    without it."""
    assert compiled_kernel() is not None


@pytest.mark.parametrize(("label", "a", "b", "cap"), PAIRS, ids=IDS)
def test_the_kernel_fights_the_numpy_engines_duels(
    label: str, a: Fighter, b: Fighter, cap: int
) -> None:
    """Same generator, same slots, same rules: the same totals, over a chunk boundary."""
    n = CHUNK + 1001
    compiled, _ = simulate_fast(a, b, n, seed=21, max_rounds=cap, compiled=True)
    vectorised, _ = simulate_fast(a, b, n, seed=21, max_rounds=cap, compiled=False)
    assert compiled == vectorised
    assert compiled.a_wins + compiled.b_wins + compiled.draws == n


@pytest.mark.parametrize("cap", [1, 2, 3])
def test_the_engines_agree_at_the_cap_itself(cap: int) -> None:
    a, b = example("sellsword.toml"), example("spearman.toml")
    compiled, _ = simulate_fast(a, b, 20_000, seed=4, max_rounds=cap, compiled=True)
    vectorised, _ = simulate_fast(a, b, 20_000, seed=4, max_rounds=cap, compiled=False)
    assert compiled == vectorised
    assert compiled.draws > 0


@pytest.mark.parametrize(("label", "a", "b", "cap"), PAIRS, ids=IDS)
def test_the_kernel_agrees_with_the_exact_odds_within_4_sigma(
    label: str, a: Fighter, b: Fighter, cap: int
) -> None:
    n = 400_000
    stats, _ = simulate_fast(a, b, n, seed=8, max_rounds=cap, compiled=True)
    exact = duel_chances(a, b, max_rounds=cap)
    assert sigmas(stats.a_wins, n, exact.p_a_wins) < 4
    assert sigmas(stats.b_wins, n, exact.p_b_wins) < 4
    assert sigmas(stats.draws, n, exact.p_draw) < 4
    assert stats.mean_rounds == pytest.approx(exact.mean_rounds, rel=0.01)


@pytest.mark.parametrize(("label", "a", "b", "cap"), PAIRS[:4], ids=IDS[:4])
def test_the_kernel_agrees_with_the_engine_that_rolls_every_die(
    label: str, a: Fighter, b: Fighter, cap: int
) -> None:
    """Within 4 sigma of the scalar reference engine (every die rolled, events and all)."""
    compiled, _ = simulate_fast(a, b, 200_000, seed=2, compiled=True)
    scalar = simulate_duels(a, b, 3000, seed=2)
    p, q = compiled.p_a_wins, scalar.p_a_wins
    spread = math.sqrt(p * (1 - p) / compiled.n + q * (1 - q) / scalar.n)
    assert abs(p - q) < 4 * spread


def test_same_seed_same_totals_whatever_the_workers_and_the_engine() -> None:
    a, b = example("knight.json"), example("ogre.toml")
    n = 2 * CHUNK + 123
    one, entropy = simulate_fast(a, b, n, seed=99, workers=1, compiled=True)
    two, _ = simulate_fast(a, b, n, seed=99, workers=2, compiled=True)
    vectorised, _ = simulate_fast(a, b, n, seed=99, workers=2, compiled=False)
    assert one == two == vectorised
    assert entropy == 99
    other, _ = simulate_fast(a, b, n, seed=100, compiled=True)
    assert other != one


def test_chunks_add_up_in_the_kernel() -> None:
    a, b = example("sellsword.toml"), example("spearman.toml")
    model = DuelModel.of(a, b)
    whole, _ = simulate_fast(a, b, CHUNK + 10, seed=5, compiled=True)
    pieces = simulate_chunk(model, 5, 0, CHUNK, compiled=True) + simulate_chunk(
        model, 5, 1, 10, compiled=True
    )
    assert whole == pieces


def test_a_long_run_takes_the_kernel_and_the_same_answer() -> None:
    """The engine is chosen by the length of the run; the totals do not show which."""
    a, b = example("goblin.toml"), example("archer.toml")
    default, _ = simulate_fast(a, b, COMPILED_FROM, seed=6)
    vectorised, _ = simulate_fast(a, b, COMPILED_FROM, seed=6, compiled=False)
    assert default == vectorised


def test_a_kernel_run_estimates_its_time_from_the_kernel_loaded() -> None:
    """The kernel is loaded before the pilot is timed: a pilot that paid for loading it
    (0.3 s and more) would make a run of half a second look like hours. (A run long
    enough for the pilot to time it whole chunks, not stop at "quick".)"""
    import time

    a, b = example("sellsword.toml"), example("spearman.toml")
    n = 24 * CHUNK
    heard: list[Estimate] = []
    stats, _ = simulate_fast(a, b, n, seed=11, compiled=True, estimate=heard.append)
    started = time.perf_counter()
    again, _ = simulate_fast(a, b, n, seed=11, compiled=True)
    took = time.perf_counter() - started
    (estimate,) = heard
    assert stats == again
    assert took / 4 < estimate.seconds < took * 4


def test_duels_no_one_can_win_are_draws_in_the_kernel() -> None:
    ghost = make_fighter("Ghost", weapon_name="dagger", evasion_bonus=10)
    stats, _ = simulate_fast(ghost, ghost, 1000, seed=1, compiled=True)
    assert stats == DuelStats(1000, 0, 0, 1000, 0)


def test_the_generator_is_splitmix64() -> None:
    """SplitMix64 seeded with 0 gives these first three numbers (Vigna's reference
    code); the numpy engine and the kernel compute the same."""
    from affray.rulesystems.mst2.sim import kernel

    expected = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert [int(x) for x in duel_counters(0, 3)] == expected
    gamma = 0x9E3779B97F4A7C15
    counters = [np.uint64(k * gamma % 2**64) for k in (1, 2, 3)]
    assert [int(kernel.mix(c)) for c in counters] == expected
    assert [int(x) for x in mix(np.array(counters, dtype=np.uint64))] == expected


def test_thresholds_reach_a_probability_exactly() -> None:
    """A 32-bit draw d stands for the uniform number d / 2**32, which reaches p exactly
    when d reaches threshold(p)."""
    assert threshold(Fraction(0)) == 0  # every draw reaches 0
    assert threshold(Fraction(1)) == 2**32  # no draw reaches 1
    assert threshold(Fraction(1, 2)) == 2**31
    third = threshold(Fraction(1, 3))
    assert Fraction(third - 1, 2**32) < Fraction(1, 3) <= Fraction(third, 2**32)


PEAKS = """
import json, sys, tracemalloc
from affray.sheets import load_sheet
from affray.rulesystems.mst2.sim.duels import CHUNK, simulate_fast
a, b = load_sheet(sys.argv[1]), load_sheet(sys.argv[2])
found = {}
for compiled in (True, False):
    simulate_fast(a, b, 10, seed=3, compiled=compiled)  # tables and kernel loaded
    for n in (CHUNK, 6 * CHUNK):
        peaks = []
        for _ in range(3):
            tracemalloc.start()
            simulate_fast(a, b, n, seed=3, compiled=compiled)
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        found[f"{compiled} {n // CHUNK}"] = min(peaks)
print(json.dumps(found))
"""


def test_memory_is_flat_in_n() -> None:
    """The peak of the memory traced while simulating, in a process of its own (in the
    test run's, a thread another test left behind, a server's or a pool's, may allocate
    meanwhile: CI saw 80 KB beside 6 KB), the least of three runs: six chunks of duels
    take no more than one."""
    knight, ogre = (
        Path(__file__).parents[2] / "examples" / "mst2" / f for f in ("knight.json", "ogre.toml")
    )
    out = subprocess.run(
        [sys.executable, "-c", PEAKS, str(knight), str(ogre)],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    peak = json.loads(out.stdout)
    for compiled in (True, False):
        assert peak[f"{compiled} 6"] < 1.25 * peak[f"{compiled} 1"]
    assert peak["True 6"] < peak["False 1"] / 10  # the kernel keeps no arrays


PROBE = """
import json, sys, time
from affray.sheets import load_sheet
from affray.rulesystems.mst2.sim.duels import compiled_kernel, simulate_fast
a, b = load_sheet(sys.argv[1]), load_sheet(sys.argv[2])
started = time.perf_counter()
stats, _ = simulate_fast(a, b, 50_000, seed=1, compiled=compiled_kernel() is not None)
print(json.dumps({"compiled": compiled_kernel() is not None, "a_wins": stats.a_wins,
                  "seconds": time.perf_counter() - started, "numba": "numba" in sys.modules}))
"""


def probe(env: dict[str, str]) -> dict[str, object]:
    knight, ogre = (
        Path(__file__).parents[2] / "examples" / "mst2" / f for f in ("knight.json", "ogre.toml")
    )
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(knight), str(ogre)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **env},
        timeout=120,
    )
    assert out.stderr == ""
    found: dict[str, object] = json.loads(out.stdout)
    return found


def test_a_cold_cache_compiles_and_then_serves_the_next_process(tmp_path: Path) -> None:
    """A fresh machine (an empty cache) compiles the kernel on first use and keeps it;
    the next process loads it, faster, and fights the same duels."""
    cache = tmp_path / "numba-cache"
    cold = probe({"NUMBA_CACHE_DIR": str(cache)})
    assert cold["compiled"] is True
    assert any(cache.rglob("*.nbi")) and any(cache.rglob("*.nbc"))
    warm = probe({"NUMBA_CACHE_DIR": str(cache)})
    assert warm["a_wins"] == cold["a_wins"]
    assert warm["seconds"] < cold["seconds"]  # type: ignore[operator]


def test_without_the_jit_the_numpy_engine_answers_the_same() -> None:
    jitless = probe({"NUMBA_DISABLE_JIT": "1"})
    assert jitless["compiled"] is False
    vectorised, _ = simulate_fast(
        example("knight.json"), example("ogre.toml"), 50_000, seed=1, compiled=False
    )
    assert jitless["a_wins"] == vectorised.a_wins


def test_numba_is_loaded_only_for_the_kernel() -> None:
    code = (
        "import sys, affray.cli.main, affray.rulesystems.mst2.sim.duels as fast;"
        "from affray.sheets import load_sheet;"
        f"a = load_sheet({str(Path(__file__).parents[2] / 'examples/mst2/knight.json')!r});"
        "fast.simulate_fast(a, a, 1000, seed=1);"
        "print('numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


INTERRUPTED = """
from affray.rulesystems.mst2 import Fighter, HitDice, armor, weapon
from affray.rulesystems.mst2.sim.duels import CHUNK, simulate_fast
tank = Fighter(
    "Tank", 0, weapon("dagger"), armor("plate mail"), HitDice.parse("30d20+100"), shield=True
)
simulate_fast(tank, tank, 10, seed=1, compiled=True)  # the kernel loaded
print("ready", flush=True)
try:
    simulate_fast(tank, tank, 4 * CHUNK, seed=1, workers=1, compiled=True, max_rounds=5000)
except KeyboardInterrupt:
    print("stopped", flush=True)
"""


def test_ctrl_c_stops_the_kernel_within_a_second() -> None:
    """Python sees a Ctrl-C only between calls of the kernel: a chunk of these duels
    (some 3,000 rounds each) takes several seconds, a slice of it a fraction of one."""
    import signal
    import time

    process = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    assert process.stdout is not None
    assert process.stdout.readline() == "ready\n"
    time.sleep(0.5)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=60)
    assert out == "stopped\n"
    assert time.monotonic() - sent < 1.0 * SLOWDOWN  # measured in bench/ctrl_c.py
