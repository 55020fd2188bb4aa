"""A duel's answer, as data: :class:`DuelAnswer` (exact or simulated, with the JSON
``affray duel --json`` prints), how to simulate (:class:`RunSpec`), how long duels
last (:class:`RoundsDistribution`), and the round cap: a duel still going after
:data:`MAX_ROUNDS` rounds is a draw, for every system and engine. Where the answer
is decided is :mod:`affray.duels`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from affray.estimates import Estimate
from affray.stats import DuelStats

MAX_ROUNDS = 1000
"""A duel still going after this many rounds is a draw (exact odds and simulations alike)."""
DEFAULT_DUELS = 10_000
"""How many duels are simulated when no number is asked for (a system without exact
odds)."""

Method = Literal["exact", "monte-carlo"]
Engine = Literal["fast", "reference"]
ENGINES: tuple[Engine, ...] = ("fast", "reference")
Progress = Callable[[int], None]
"""Hears how many more duels of a run are done."""
Announce = Callable[[Estimate], None]
"""Hears, before a long run starts, how long it will take."""


@dataclass(frozen=True, slots=True)
class RunSpec:
    """How to simulate duels.

    Attributes:
        n: how many.
        seed: seeds the dice; None for a fresh seed (the answer says which).
        workers: processes (the results do not depend on it).
        progress: hears how many more duels are done.
        announce: hears, before a long run starts, how long it will take.
        max_rounds: a duel still going after this many rounds is a draw.
    """

    n: int
    seed: int | None = None
    workers: int = 1
    progress: Progress | None = None
    announce: Announce | None = None
    max_rounds: int = MAX_ROUNDS


@dataclass(frozen=True, slots=True)
class RoundsDistribution:
    """P(the duel ends in round r) for each side, computed numerically (floats).

    Attributes:
        a_wins, b_wins: ``{round: probability}`` for the duels each side wins.
        unfinished: probability the duel is still going after the last round computed.
        rounds: the last round computed.
    """

    a_wins: dict[int, float]
    b_wins: dict[int, float]
    unfinished: float
    rounds: int

    def ended(self) -> dict[int, float]:
        """P(the duel ends in round r), whoever wins."""
        keys = sorted(set(self.a_wins) | set(self.b_wins))
        return {r: self.a_wins.get(r, 0.0) + self.b_wins.get(r, 0.0) for r in keys}

    def by_round(self) -> list[dict[str, float]]:
        """For each round from the first to the last computed: each side's chance to
        have won by its end (``{"round", "p_a_won", "p_b_won"}``, cumulative)."""
        found = []
        a = b = 0.0
        for r in range(1, self.rounds + 1):
            a += self.a_wins.get(r, 0.0)
            b += self.b_wins.get(r, 0.0)
            found.append({"round": r, "p_a_won": a, "p_b_won": b})
        return found


@dataclass(frozen=True, slots=True)
class DuelAnswer:
    """Who wins a duel of A (attacking first) and B: exact odds, or the count of
    simulated duels with a 95 % interval for A winning.

    Attributes:
        method: ``exact`` or ``monte-carlo``.
        p_a_wins, p_b_wins, p_draw, mean_rounds: the odds (the shares, simulated).
        ci95_a_wins: the 95 % interval for A winning (exact: the point itself).
        n, a_wins, b_wins, draws: the count of simulated duels (0 when exact).
        engine: the engine that played them, ``fast`` or ``reference`` (None: exact).
        seed: the seed that repeats them (None: exact).
        note: why the reference engine played when the fast one was asked for, or
            why a duel asked exact was simulated.
        winner_wounds: exact, where the system has them: for each side (``a``,
            ``b``), the chance it wins with so many wounds (``{"3": p}``).
        fractions: exact, when asked (``rational``): ``p_a_wins``, ``p_b_wins``,
            ``p_draw`` and ``mean_rounds`` as exact fractions, in text.
    """

    method: Method
    p_a_wins: float
    p_b_wins: float
    p_draw: float
    mean_rounds: float
    ci95_a_wins: tuple[float, float]
    n: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    engine: Engine | None = None
    seed: int | None = None
    note: str | None = None
    winner_wounds: Mapping[str, Mapping[str, float]] | None = field(
        default=None, hash=False, repr=False
    )
    fractions: Mapping[str, str] | None = field(default=None, hash=False, repr=False)

    @classmethod
    def exact(
        cls,
        p_a_wins: float,
        p_b_wins: float,
        p_draw: float,
        mean_rounds: float,
        *,
        winner_wounds: Mapping[str, Mapping[str, float]] | None = None,
        fractions: Mapping[str, str] | None = None,
    ) -> DuelAnswer:
        """Exact odds (a draw at the round cap or when neither can ever win)."""
        return cls(
            "exact",
            p_a_wins,
            p_b_wins,
            p_draw,
            mean_rounds,
            (p_a_wins, p_a_wins),
            winner_wounds=winner_wounds,
            fractions=fractions,
        )

    @classmethod
    def simulated(
        cls, stats: DuelStats, *, engine: Engine, seed: int, note: str | None = None
    ) -> DuelAnswer:
        """The count of simulated duels."""
        return cls(
            "monte-carlo",
            stats.p_a_wins,
            stats.p_b_wins,
            stats.p_draw,
            stats.mean_rounds,
            stats.ci95_a_wins,
            stats.n,
            stats.a_wins,
            stats.b_wins,
            stats.draws,
            engine,
            seed,
            note,
        )

    def noted(self, note: str | None) -> DuelAnswer:
        """This answer, with ``note`` before its own."""
        from dataclasses import replace

        if note is None:
            return self
        return replace(self, note="; ".join(t for t in (note, self.note) if t))

    def to_json(self) -> dict[str, object]:
        """What ``affray duel --json`` prints (docs/systems.md lists its keys)."""
        if self.method == "exact":
            data: dict[str, object] = {
                "method": "exact",
                "p_a_wins": self.p_a_wins,
                "p_b_wins": self.p_b_wins,
                "p_draw": self.p_draw,
                "mean_rounds": self.mean_rounds,
            }
            if self.winner_wounds is not None:
                data["winner_wounds"] = {k: dict(v) for k, v in self.winner_wounds.items()}
            if self.fractions is not None:
                data["exact"] = dict(self.fractions)
            return data
        low, high = self.ci95_a_wins
        return {
            "method": "monte-carlo",
            "n": self.n,
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "draws": self.draws,
            "p_a_wins": self.p_a_wins,
            "ci95_a_wins": [low, high],
            "mean_rounds": self.mean_rounds,
            "engine": self.engine,
            "seed": self.seed,
        }
