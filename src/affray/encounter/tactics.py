"""Target policies for the tactics AI, shared by every rule system.

A policy picks one of ``candidates`` (foe ids) for ``actor``. Policies see the
encounter and ask the ruleset how weak a combatant is, so they serve every rule
system. Random choices go through the Dice source, so a scripted or seeded
fight repeats exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from affray.dice import Dice
from affray.encounter.model import Encounter, SheetT, StateT
from affray.encounter.ruleset import Ruleset
from affray.errors import RulesError


class Targeting(Enum):
    """How the tactics AI picks a target (``tactics = "..."`` in encounter files).

    ``weakest``: the foe closest to falling (ties: first listed). ``random``: any
    foe, uniformly (one die with a side per candidate). ``nearest``: a foe engaged
    with the actor, else one engaged with an ally (come to the rescue), else the
    first listed. ``focus``: the foe most allies are already fighting (ties: the
    weakest).
    """

    WEAKEST = "weakest"
    RANDOM = "random"
    NEAREST = "nearest"
    FOCUS = "focus"

    @classmethod
    def named(cls, name: str) -> Targeting:
        try:
            return cls(name)
        except ValueError:
            raise RulesError(
                f"unknown target policy {name!r}",
                hint=f"one of: {', '.join(t.value for t in cls)}",
            ) from None

    def pick(
        self,
        encounter: Encounter[SheetT, StateT],
        ruleset: Ruleset[SheetT, StateT],
        actor: str,
        candidates: Sequence[str],
        dice: Dice,
    ) -> str:
        """One of ``candidates`` for ``actor``."""
        if not candidates:
            raise ValueError(f"{actor} has no one to target")
        match self:
            case Targeting.WEAKEST:
                return max(candidates, key=lambda cid: ruleset.weakness(encounter, cid))
            case Targeting.RANDOM:
                if len(candidates) == 1:
                    return candidates[0]
                roll = dice.roll(len(candidates), f"{actor} picks a target at random")
                return candidates[roll.face - 1]
            case Targeting.NEAREST:
                return _nearest(encounter, actor, candidates)
            case Targeting.FOCUS:
                allies = {c.id for c in encounter.allies(actor)}

                def pressure(cid: str) -> tuple[int, float]:
                    engaged = set(encounter.engaged_with(cid))
                    return (len(allies & engaged), ruleset.weakness(encounter, cid))

                return max(candidates, key=pressure)
        raise AssertionError(self)  # pragma: no cover


def _nearest(encounter: Encounter[SheetT, StateT], actor: str, candidates: Sequence[str]) -> str:
    mine = set(encounter.engaged_with(actor))
    for cid in candidates:
        if cid in mine:
            return cid
    allies = {c.id for c in encounter.allies(actor)}
    for cid in candidates:
        if allies & set(encounter.engaged_with(cid)):
            return cid
    return candidates[0]
