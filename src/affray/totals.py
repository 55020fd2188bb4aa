"""What a batch of whole fights adds up to, and the door of a system's fast engine.

Types alone, below :mod:`affray.powers` (a system's powers name them) and
:mod:`affray.sim` (which plays fights through the registry and adds them up), so that
the powers import them without importing what imports the powers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

First = tuple[str, str | None]
"""An action by its name and target (``("attack", "Ogre")``, ``("flee", None)``)."""


@dataclass(frozen=True, slots=True)
class FightTotals:
    """Totals of a batch of fights; batches add up (``+``)."""

    n: int = 0
    wins: Mapping[str, int] = field(default_factory=dict)
    draws: int = 0
    total_rounds: int = 0
    rounds: Mapping[int, int] = field(default_factory=dict)
    """How many fights lasted each number of rounds (the round the fight ended in)."""
    standing: Mapping[str, int] = field(default_factory=dict)
    """How many fights each combatant was still in at the end."""

    def __add__(self, other: FightTotals) -> FightTotals:
        return FightTotals(
            self.n + other.n,
            dict(Counter(self.wins) + Counter(other.wins)),
            self.draws + other.draws,
            self.total_rounds + other.total_rounds,
            dict(Counter(self.rounds) + Counter(other.rounds)),
            dict(Counter(self.standing) + Counter(other.standing)),
        )

    @property
    def mean_rounds(self) -> float:
        return self.total_rounds / self.n if self.n else 0.0


class FastFights(Protocol):
    """Fights of one starting point made ready for a system's fast engine.

    A system's ``fast_fights(ruleset, cursor, tactics, first)`` makes one (raising
    :class:`~affray.errors.NotModelledError`, naming what it does not play, when it
    cannot); it must be picklable, since it crosses to worker processes.

    Attributes:
        engine: the engine's name for people ("fast MST-2 group engine").
        chunk: fights per seeded chunk (the unit of seeding: the answer for a seed
            depends on it, never on the number of workers).
    """

    @property
    def engine(self) -> str: ...

    @property
    def chunk(self) -> int: ...

    def fights(self, entropy: int, index: int, size: int) -> FightTotals:
        """``size`` fights of chunk ``index`` of a run seeded with ``entropy`` (drawing
        from ``SeedSequence(entropy, spawn_key=(index,))``), counted as the reference
        engine counts them: the side left fighting wins; none left, or the round cap
        reached, is a draw; ``rounds`` is the cursor's round at the end; ``standing``
        names those for whom the ruleset's ``fighting`` is true at the end."""
        ...


class ExactFights(Protocol):
    """Exact odds of a whole fight from where it stands (a system's ``exact_fights``).

    Attributes:
        p_wins: each side's chance to win (every side listed).
        p_draw: no one left fighting, or the round cap reached.
        mean_rounds: the expected round the fight ends in.
        p_standing: each combatant's chance to be fighting at the end.
        p_going: the chance the fight is still going at the round cap (a part of
            ``p_draw``).
    """

    @property
    def p_wins(self) -> Mapping[str, float]: ...

    @property
    def p_going(self) -> float: ...

    @property
    def p_draw(self) -> float: ...

    @property
    def mean_rounds(self) -> float: ...

    @property
    def p_standing(self) -> Mapping[str, float]: ...

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``affray fight --exact`` (docs/encounters.md)."""
        ...
