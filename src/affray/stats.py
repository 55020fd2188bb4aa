"""Counting duel results and the uncertainty of the estimates.

Below :mod:`affray.answers` (a simulated :class:`~affray.answers.DuelAnswer` is made
from a :class:`DuelStats`) and :mod:`affray.sim` (whose runs add them up)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import sqrt

Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default).

    Better than the normal approximation near 0 and 1, where balance questions
    often live (a lopsided matchup won 9,998 times in 10,000).
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class DuelStats:
    """Totals of a batch of duels. Batches add up (``+``), so chunks and workers combine."""

    n: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    total_rounds: int = 0

    def __add__(self, other: DuelStats) -> DuelStats:
        return DuelStats(
            self.n + other.n,
            self.a_wins + other.a_wins,
            self.b_wins + other.b_wins,
            self.draws + other.draws,
            self.total_rounds + other.total_rounds,
        )

    @property
    def p_a_wins(self) -> float:
        return self.a_wins / self.n if self.n else 0.0

    @property
    def p_b_wins(self) -> float:
        return self.b_wins / self.n if self.n else 0.0

    @property
    def p_draw(self) -> float:
        return self.draws / self.n if self.n else 0.0

    @property
    def ci95_a_wins(self) -> tuple[float, float]:
        return wilson_interval(self.a_wins, self.n)

    @property
    def mean_rounds(self) -> float:
        return self.total_rounds / self.n if self.n else 0.0


def tally(
    fight: Callable[[], tuple[str | None, int]],
    n: int,
    *,
    progress: Callable[[int], None] | None = None,
    report_every: int = 1000,
) -> DuelStats:
    """Run ``fight`` (which returns the winner "a", "b" or None, and the rounds) ``n``
    times and count; ``progress`` hears how many finished since its last call."""
    wins = {"a": 0, "b": 0, None: 0}
    rounds = 0
    for index in range(1, n + 1):
        winner, length = fight()
        wins[winner] += 1
        rounds += length
        if progress is not None and index % report_every == 0:
            progress(report_every)
    if progress is not None and n % report_every:
        progress(n % report_every)
    return DuelStats(n, wins["a"], wins["b"], wins[None], rounds)
