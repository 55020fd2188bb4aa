"""Encounter state: who is there, on which side, who is engaged with whom.

Generic over rule systems: a combatant's sheet and per-fight state are whatever
its :class:`~affray.encounter.ruleset.Ruleset` uses; engagements map a pair of
combatants to a ruleset-defined distance. Values are immutable; every change
makes a new :class:`Encounter`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class Tactics:
    """How a simulated combatant fights (named in the encounter file).

    Attributes:
        target: target policy name (``weakest``, ``random``, ``nearest``, ``focus``).
        role: ``fighter`` (melee), or ``archer`` (shoots while no foe is on it).
        retreat_at: flee once wounds (MST-2) or points of damage (Midian) reach this
            many (``None``: never).
        stance: Midian stance for each round: ``normal``, ``defensive``,
            ``total defence`` or ``evasion`` (one dodge roll at -6 for every attack).
        defend_at: Midian: switch to total defence once damage taken reaches this.
    """

    target: str = "nearest"
    role: str = "fighter"
    retreat_at: int | None = None
    stance: str = "normal"
    defend_at: int | None = None


@dataclass(frozen=True, slots=True)
class Combatant:
    """One participant: a unique id (its display name), its side, sheet and tactics."""

    id: str
    side: str
    sheet: Any
    tactics: Tactics = field(default_factory=Tactics)


Pair = frozenset[str]


def pair(a: str, b: str) -> Pair:
    return frozenset((a, b))


@dataclass(frozen=True, slots=True)
class Encounter:
    """The whole state of a fight between rounds or between turns."""

    combatants: tuple[Combatant, ...]
    states: Mapping[str, Any]
    engagements: Mapping[Pair, Any] = field(default_factory=dict)
    round: int = 0

    def __post_init__(self) -> None:
        ids = [c.id for c in self.combatants]
        if len(set(ids)) != len(ids):
            raise ValueError(f"combatant ids must be unique: {ids}")

    # -- look-ups ----------------------------------------------------------------

    def combatant(self, cid: str) -> Combatant:
        for combatant in self.combatants:
            if combatant.id == cid:
                return combatant
        raise KeyError(cid)

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.side for c in self.combatants))

    def foes(self, cid: str) -> Iterator[Combatant]:
        side = self.combatant(cid).side
        return (c for c in self.combatants if c.side != side)

    def allies(self, cid: str) -> Iterator[Combatant]:
        side = self.combatant(cid).side
        return (c for c in self.combatants if c.side == side and c.id != cid)

    def engaged_with(self, cid: str) -> list[str]:
        """Ids engaged in melee with ``cid``, in listing order."""
        partners = {other for p in self.engagements if cid in p for other in p if other != cid}
        return [c.id for c in self.combatants if c.id in partners]

    def distance(self, a: str, b: str) -> Any:
        return self.engagements.get(pair(a, b))

    def cluster(self, cid: str) -> list[str]:
        """Everyone joined to ``cid`` through engagements (its melee), ``cid`` excluded."""
        seen = {cid}
        frontier = [cid]
        while frontier:
            current = frontier.pop()
            for other in self.engaged_with(current):
                if other not in seen:
                    seen.add(other)
                    frontier.append(other)
        return [c.id for c in self.combatants if c.id in seen and c.id != cid]

    # -- changes -----------------------------------------------------------------

    def with_state(self, cid: str, state: Any) -> Encounter:
        return replace(self, states={**self.states, cid: state})

    def engage(self, a: str, b: str, distance: Any) -> Encounter:
        return replace(self, engagements={**self.engagements, pair(a, b): distance})

    def release(self, cid: str) -> Encounter:
        """End every engagement of ``cid`` (it fell, fled or stepped away)."""
        return replace(
            self, engagements={p: d for p, d in self.engagements.items() if cid not in p}
        )

    def next_round(self) -> Encounter:
        return replace(self, round=self.round + 1)
