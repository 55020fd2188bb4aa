"""Fast MST-2 duel simulation against a plain Python loop that rolls every die, in one run.

Target (SPEC; issue 15, item 4): the fast engine at least 150x "a plain per-duel
Python loop that rolls every die", the way a person would write it, measured in
one run, whole process. The yardstick is such a loop (:func:`plain_loop`:
``random.Random.randint`` for the d20, each power die and each hit die of a shock
check). The loop the issue's earlier figure (56x) was measured against,
:func:`table_loop`, rolls no dice: it samples the fast engines' precomputed
outcome tables (one uniform number per attack outcome, one per shock check), so
it is faster than the plain loop; it is shown beside it, marked as such.

For each matchup, in this one run:

- the plain loop, the table loop, the numpy engine and the compiled kernel, in
  this process on one core (each engine forced);
- whole process: ``affray duel A B -n N --json`` in a fresh process, timed from
  outside (interpreter start-up, imports, loading the kernel from numba's cache,
  worker processes and all): 10^6 and 10^7 duels on 1 worker, 10^7 and 10^8 on 2
  (the machine's cores), with the peak resident memory of its largest process
  (memory flat in n: 10^8 duels need no more than 10^6).

The plain loop is timed in this process: its own start-up (a bare interpreter and
``import random``, some 20 ms) is under 2% of its run.
"""

from __future__ import annotations

import bisect
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path

import peak

from affray.answers import MAX_ROUNDS
from affray.rulesystems.mst2 import Fighter
from affray.rulesystems.mst2.odds.chances import duel_chances
from affray.rulesystems.mst2.odds.duel import Strike
from affray.rulesystems.mst2.sim import simulate_duels
from affray.rulesystems.mst2.sim.duels import DuelModel, compiled_kernel, simulate_fast
from affray.sheets import load_sheet
from affray.sim import DuelStats

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "mst2"
AFFRAY = Path(sys.executable).with_name("affray")
MATCHUPS = [("sellsword.toml", "spearman.toml"), ("knight.json", "ogre.toml")]
TARGET = 150
WHOLE_RUNS = [(10**6, 1), (10**7, 1), (10**7, 2), (10**8, 2)]
"""(duels, workers) of the whole-process runs."""


def plain_loop(a: Fighter, b: Fighter, n: int, seed: int = 1) -> DuelStats:
    """``n`` duels in plain Python, every die rolled: the d20 to hit, each power die
    against protection, each hit die of a shock check; a reach counter-attack where
    the attacker's reach differs from the distance (a hit prevents the attack); a
    draw after 1000 rounds. The fighters' numbers are read once, as a person timing
    a loop would."""
    rng = random.Random(seed)
    skill, evasion, protection = (
        (a.skill, b.skill),
        (a.evasion, b.evasion),
        (a.protection, b.protection),
    )
    power = (a.melee_power, b.melee_power)
    hit_dice = (a.hit_dice.pool, b.hit_dice.pool)
    bonus = (a.hit_dice.bonus, b.hit_dice.bonus)
    reach = (int(a.reach), int(b.reach))

    def attack(side: int, wounds: int) -> tuple[bool, int, bool]:
        """``side`` attacks the other: (hit, the defender's wounds now, defender out)."""
        other = 1 - side
        if rng.randint(1, 20) + skill[side] <= evasion[other]:
            return False, wounds, False
        new = sum(rng.randint(1, sides) > protection[other] for sides in power[side])
        if new == 0:
            return True, wounds, False
        wounds += new
        shock = sum(rng.randint(1, sides) for sides in hit_dice[other]) + bonus[other]
        return True, wounds, shock <= wounds

    wins = [0, 0]
    draws = rounds = 0
    for _ in range(n):
        wounds = [0, 0]
        distance = max(reach)
        winner = None
        round_number = 0
        while winner is None and round_number < MAX_ROUNDS:
            round_number += 1
            for side in (0, 1):
                other = 1 - side
                if distance != reach[side]:  # the defender's free counter-attack
                    hit, wounds[side], out = attack(other, wounds[side])
                    if out:
                        winner = other
                        break
                    if hit:
                        continue
                    distance = reach[side]
                _, wounds[other], out = attack(side, wounds[other])
                if out:
                    winner = side
                    break
        if winner is None:
            draws += 1
        else:
            wins[winner] += 1
        rounds += round_number
    return DuelStats(n, wins[0], wins[1], draws, rounds)


def table_loop(a: Fighter, b: Fighter, n: int, seed: int = 1) -> DuelStats:
    """``n`` duels in plain Python that roll no dice: each attack's outcome and each
    shock check is one uniform number against precomputed tables, as in the fast
    engines (the old bench's "lean loop")."""
    model = DuelModel.of(a, b)
    strikes = (Strike.of(a, b), Strike.of(b, a))
    cuts = tuple(_cumulative(s) for s in strikes)
    survive = tuple([*map(float, s.survive), 0.0] for s in reversed(strikes))  # of A, of B
    rng = random.Random(seed)
    reach = (model.reach_a, model.reach_b)
    wins = [0, 0]
    draws = rounds = 0
    for _ in range(n):
        wounds = [0, 0]
        distance = model.start
        winner = None
        round_number = 0
        while winner is None and round_number < model.max_rounds:
            round_number += 1
            for side in (0, 1):
                other = 1 - side
                if distance != reach[side]:
                    counter = bisect.bisect_right(cuts[other], rng.random())
                    if counter >= 1:
                        if counter > 1:
                            wounds[side] += counter - 1
                            table = survive[side]
                            if rng.random() >= table[min(wounds[side], len(table) - 1)]:
                                winner = other
                                break
                        continue
                    distance = reach[side]
                hit = bisect.bisect_right(cuts[side], rng.random())
                if hit > 1:
                    wounds[other] += hit - 1
                    table = survive[other]
                    if rng.random() >= table[min(wounds[other], len(table) - 1)]:
                        winner = side
                        break
        if winner is None:
            draws += 1
        else:
            wins[winner] += 1
        rounds += round_number
    return DuelStats(n, wins[0], wins[1], draws, rounds)


def _cumulative(strike: Strike) -> list[float]:
    """Cumulative chances of a miss, a hit with 0 wounds, 1 wound, ... (the last left out)."""
    top = max(strike.hit_wounds, default=0)
    outcomes = [strike.p_miss, *(strike.hit_wounds.get(k, 0) for k in range(top + 1))]
    return [float(p) for p in accumulate(outcomes)][:-1]


def rate(work: object, n: int) -> tuple[float, DuelStats]:
    """Duels a second of ``work(n)`` (which returns the totals), in this process."""
    started = time.perf_counter()
    stats = work(n)
    return n / (time.perf_counter() - started), stats


@dataclass(frozen=True, slots=True)
class WholeProcess:
    """``affray duel -n N`` in a fresh process: wall time and its largest process's peak
    resident memory (the command itself or a worker)."""

    n: int
    workers: int
    seconds: float
    rss_mib: float

    @property
    def rate(self) -> float:
        return self.n / self.seconds


def whole_process(first: Path, second: Path, n: int, workers: int) -> WholeProcess:
    """Run and time ``affray duel FIRST SECOND -n N --workers W --json``."""
    command = [str(AFFRAY), "duel", str(first), str(second), "-n", str(n), "--seed", "1"]
    found = peak.measure([*command, "--workers", str(workers), "--json"])
    assert json.loads(found.stdout)["n"] == n
    return WholeProcess(n, workers, found.seconds, found.rss_mib)


@dataclass(frozen=True, slots=True)
class Mst2Figures:
    """Everything measured for one matchup."""

    label: str
    mean_rounds: float
    plain: float
    table: float
    scalar: float
    numpy: float
    kernel: float | None
    runs: tuple[WholeProcess, ...]

    def whole(self, n: int, workers: int) -> WholeProcess:
        (run,) = (r for r in self.runs if (r.n, r.workers) == (n, workers))
        return run


def measure(first: str, second: str, say: Callable[[str], None] = print) -> Mst2Figures:
    """Measure one matchup, printing each figure as it comes."""
    a, b = load_sheet(EXAMPLES / first), load_sheet(EXAMPLES / second)
    exact = duel_chances(a, b)
    label = f"{a.name} vs {b.name}"
    say(f"== MST-2: {label} (exact: A wins {exact.p_a_wins:.4f}, {exact.mean_rounds:.2f} rounds)")

    def line(what: str, per_second: float, note: str = "") -> None:
        ratio = per_second / plain
        times = f"{ratio:.1f}x" if ratio < 10 else f"{ratio:,.0f}x"
        say(f"  {what:34s} {per_second:12,.0f} duels/s {times:>7s} plain  {note}".rstrip())

    plain, stats = rate(lambda n: plain_loop(a, b, n), 30_000)
    line("plain loop, every die rolled", plain, f"(A wins {stats.p_a_wins:.4f})")
    table, stats = rate(lambda n: table_loop(a, b, n), 60_000)
    line("loop on sampled tables, no dice", table, f"(A wins {stats.p_a_wins:.4f})")
    scalar, _ = rate(lambda n: simulate_duels(a, b, n, seed=1), 3_000)
    line("rules engine, with events", scalar)
    numpy, _ = rate(lambda n: simulate_fast(a, b, n, seed=1, compiled=False)[0], 1_000_000)
    line("numpy engine, 1 core", numpy)
    kernel = None
    if compiled_kernel() is not None:
        simulate_fast(a, b, 10, seed=1, compiled=True)  # loaded before the clock starts
        kernel, _ = rate(lambda n: simulate_fast(a, b, n, seed=1, compiled=True)[0], 10**7)
        line("compiled kernel, 1 core", kernel, f"({1e9 / kernel:.0f} ns a duel)")
    else:
        say("  compiled kernel: numba is not installed")
    runs = []
    for n, workers in WHOLE_RUNS:
        run = whole_process(EXAMPLES / first, EXAMPLES / second, n, workers)
        runs.append(run)
        what = f"whole process, 10^{len(str(n)) - 1}, {workers} worker{'s' * (workers > 1)}"
        line(what, run.rate, f"({run.seconds:.2f} s, peak RSS {run.rss_mib:.0f} MiB)")
    return Mst2Figures(label, exact.mean_rounds, plain, table, scalar, numpy, kernel, tuple(runs))


def main() -> None:
    for first, second in MATCHUPS:
        measure(first, second)


if __name__ == "__main__":
    main()
