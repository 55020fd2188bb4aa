"""Encounter state: who is there, on which side, who is engaged with whom.

Generic over rule systems: ``Encounter[SheetT, StateT]`` holds combatants with
sheets of type ``SheetT`` (an MST-2 Fighter, a Midian Character, ...) and their
per-fight states of type ``StateT``; engagements map a pair of combatants to a
label the ruleset chooses (MST-2: the reach the pair fights at). Values are
immutable; every change makes a new :class:`Encounter`. How a combatant *decides*
is not part of the state: that is the job of whoever answers its questions
(:mod:`affray.encounter.questions`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Protocol, TypeVar, cast


class Named(Protocol):
    """What every sheet has: the name the rules use in their events."""

    @property
    def name(self) -> str: ...


SheetT = TypeVar("SheetT", bound=Named)
StateT = TypeVar("StateT")


def named(sheet: SheetT, name: str) -> SheetT:
    """The same sheet under another name (sheets are frozen dataclasses)."""
    return cast(SheetT, replace(cast(Any, sheet), name=name))


def told_apart(a: SheetT, b: SheetT) -> tuple[SheetT, SheetT]:
    """Two sheets as a duel names them: ``X (A)`` and ``X (B)`` when they share a name,
    so that every line of a report says which one it means."""
    if a.name != b.name:
        return a, b
    return named(a, f"{a.name} (A)"), named(b, f"{b.name} (B)")


@dataclass(frozen=True, slots=True)
class Combatant(Generic[SheetT]):
    """One participant: a unique id (its display name), its side and its sheet."""

    id: str
    side: str
    sheet: SheetT


Pair = frozenset[str]


def pair(a: str, b: str) -> Pair:
    return frozenset((a, b))


@dataclass(frozen=True, slots=True)
class Encounter(Generic[SheetT, StateT]):
    """The whole state of a fight between rounds or between turns."""

    combatants: tuple[Combatant[SheetT], ...]
    states: Mapping[str, StateT]
    engagements: Mapping[Pair, str] = field(default_factory=dict)
    round: int = 0
    queue: tuple[str, ...] = ()
    """The turns still to come this round, in order (a combatant may wait its turn)."""

    def __post_init__(self) -> None:
        ids = [c.id for c in self.combatants]
        if len(set(ids)) != len(ids):
            raise ValueError(f"combatant ids must be unique: {ids}")

    # -- look-ups ----------------------------------------------------------------

    def combatant(self, cid: str) -> Combatant[SheetT]:
        for combatant in self.combatants:
            if combatant.id == cid:
                return combatant
        raise KeyError(cid)

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.side for c in self.combatants))

    def sheet(self, cid: str) -> SheetT:
        return self.combatant(cid).sheet

    def state(self, cid: str) -> StateT:
        return self.states[cid]

    def foes(self, cid: str) -> Iterator[Combatant[SheetT]]:
        side = self.combatant(cid).side
        return (c for c in self.combatants if c.side != side)

    def allies(self, cid: str) -> Iterator[Combatant[SheetT]]:
        side = self.combatant(cid).side
        return (c for c in self.combatants if c.side == side and c.id != cid)

    def engaged_with(self, cid: str) -> list[str]:
        """Ids engaged in melee with ``cid``, in listing order."""
        partners = {other for p in self.engagements if cid in p for other in p if other != cid}
        return [c.id for c in self.combatants if c.id in partners]

    def distance(self, a: str, b: str) -> str | None:
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

    def with_state(self, cid: str, state: StateT) -> Encounter[SheetT, StateT]:
        return replace(self, states={**self.states, cid: state})

    def engage(self, a: str, b: str, distance: str) -> Encounter[SheetT, StateT]:
        return replace(self, engagements={**self.engagements, pair(a, b): distance})

    def release(self, cid: str) -> Encounter[SheetT, StateT]:
        """End every engagement of ``cid`` (it fell, fled or stepped away)."""
        return replace(
            self, engagements={p: d for p, d in self.engagements.items() if cid not in p}
        )

    def next_round(self) -> Encounter[SheetT, StateT]:
        return replace(self, round=self.round + 1, queue=())

    def queued(self, order: tuple[str, ...]) -> Encounter[SheetT, StateT]:
        """The round's turns, in order."""
        return replace(self, queue=order)

    def next_turn(self) -> tuple[str, Encounter[SheetT, StateT]]:
        """Whose turn comes now, and the encounter with it taken off the queue."""
        return self.queue[0], replace(self, queue=self.queue[1:])

    def take_turn_now(self, cid: str) -> Encounter[SheetT, StateT]:
        """``cid``'s next turn this round is used now (an interrupt, a pre-emptive blow):
        it comes off the queue (nothing changes if ``cid`` has no turn left)."""
        if cid not in self.queue:
            return self
        at = self.queue.index(cid)
        return replace(self, queue=(*self.queue[:at], *self.queue[at + 1 :]))

    def wait_for(self, cid: str, other: str) -> Encounter[SheetT, StateT]:
        """``cid`` waits: its turn comes again just after ``other``'s next turn."""
        if other not in self.queue:
            raise ValueError(f"{other} has no turn left this round")
        at = self.queue.index(other) + 1
        return replace(self, queue=(*self.queue[:at], cid, *self.queue[at:]))
