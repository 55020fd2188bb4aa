"""The actions of a Midian combatant, as small typed values.

Attack, shoot, flee and hold are the encounter engine's own; the rest are
Midian's: grapple, disarm, set a weapon against a charge (and keep it set), keep
a hold, try to break one, stay on the defence the round's stance calls for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from affray.encounter import Action
from affray.rules.midian.defence import Stance


@dataclass(frozen=True, slots=True)
class Grapple(Action):
    """Seize a foe (a touch attack); a hold squeezes at the end of each round."""

    kind: ClassVar[str] = "grapple"
    words: ClassVar[str] = "tries to grapple {target}"


@dataclass(frozen=True, slots=True)
class Disarm(Action):
    """Strike a foe's weapon from its hands (a contest of rolls)."""

    kind: ClassVar[str] = "disarm"
    words: ClassVar[str] = "tries to disarm {target}"


@dataclass(frozen=True, slots=True)
class SetAgainstCharge(Action):
    """Brace a weapon against a charge (only before the melee, with room to charge)."""

    kind: ClassVar[str] = "set"
    words: ClassVar[str] = "sets against a charge"


@dataclass(frozen=True, slots=True)
class KeepSet(Action):
    """Keep the weapon set and wait for the charge."""

    kind: ClassVar[str] = "keep set"
    words: ClassVar[str] = "holds the spear set"


@dataclass(frozen=True, slots=True)
class KeepHold(Action):
    """Keep a held foe in the hold."""

    kind: ClassVar[str] = "keep hold"
    words: ClassVar[str] = "keeps {target} in a hold"


@dataclass(frozen=True, slots=True)
class Squeeze(Action):
    """What a hold does at the end of a round (no one chooses it)."""

    kind: ClassVar[str] = "squeeze"
    words: ClassVar[str] = "squeezes {target} in the hold"


@dataclass(frozen=True, slots=True)
class Escape(Action):
    """Try to break the hold one is in (the only thing a held combatant can do)."""

    kind: ClassVar[str] = "escape"
    words: ClassVar[str] = "tries to break {target}'s hold"


@dataclass(frozen=True, slots=True)
class Defend(Action):
    """Spend the turn on the round's defensive stance (total defence or evasion)."""

    stance: Stance = Stance.TOTAL_DEFENCE
    kind: ClassVar[str] = "defend"

    @property
    def name(self) -> str:
        return self.stance.value

    def announce(self) -> str:
        if self.stance is Stance.EVASION:
            return "weaves and dodges (evasion)"
        return "stays on total defence"


DEFENDING = (Stance.TOTAL_DEFENCE, Stance.EVASION)
"""Stances that spend the turn on defence."""
