"""What changes during an MST-2 fight: wounds and condition; and the lethality option.

Section *Wounds*: wounds only matter through the shock check; a fighter who
fails it succumbs, with a meaning chosen by the group (:class:`Lethality`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum


class Lethality(Enum):
    """How a failed shock check ends a fighter (section *Wounds*).

    ``HIGH``: every failed shock check kills. ``STANDARD``: the fighter is out
    of the fight (dead, unconscious or unable to go on, as the story says).
    ``OPTIONAL``: the text's second check: it succeeding leaves the fighter
    incapacitated; failing but above the first check, dying; otherwise dead.
    """

    HIGH = "high"
    STANDARD = "standard"
    OPTIONAL = "optional"


class Condition(Enum):
    FIGHTING = "fighting"
    OUT = "out"
    INCAPACITATED = "incapacitated"
    DYING = "dying"
    DEAD = "dead"
    FLED = "fled"

    @property
    def alive(self) -> bool:
        return self is not Condition.DEAD


@dataclass(frozen=True, slots=True)
class FighterState:
    """A fighter's wounds (cumulative) and condition."""

    wounds: int = 0
    condition: Condition = Condition.FIGHTING

    def __post_init__(self) -> None:
        if self.wounds < 0:
            raise ValueError(f"wounds cannot be negative, got {self.wounds}")

    @property
    def fighting(self) -> bool:
        return self.condition is Condition.FIGHTING

    def wounded(self, wounds: int) -> FighterState:
        return replace(self, wounds=self.wounds + wounds)

    def becomes(self, condition: Condition) -> FighterState:
        return replace(self, condition=condition)
