"""The actions of a Midian combatant, as small typed values.

Attack, shoot, flee and hold are the encounter engine's own; the rest are
Midian's: grapple, disarm, set a weapon against a charge (and keep it set), keep
a hold, try to break one, stay on the defence the round's stance calls for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from affray.encounter import Action
from affray.rulesystems.midian.defence import Stance
from affray.rulesystems.midian.situations import CalledShot


@dataclass(frozen=True, slots=True)
class AimedAttack(Action):
    """A melee attack at one spot (an eye, a hand): a called shot, -2 easy or -5 hard;
    what a hit does there is the game master's to say."""

    difficulty: CalledShot = CalledShot.EASY
    kind: ClassVar[str] = "called shot"
    words: ClassVar[str] = "aims a called shot ({difficulty}) at {target}"

    @property
    def name(self) -> str:
        return f"{self.kind} {self.difficulty.name.lower()}"

    def announce(self) -> str:
        return self.words.format(difficulty=self.difficulty.name.lower(), target=self.target)


@dataclass(frozen=True, slots=True)
class BothWeapons(Action):
    """Strike with the weapon, then with the off-hand weapon, in one action (each with
    the two-weapon penalties)."""

    kind: ClassVar[str] = "both weapons"
    words: ClassVar[str] = "strikes at {target} with both weapons"


@dataclass(frozen=True, slots=True)
class Wait(Action):
    """Hold the action back until ``target`` has acted (the turn comes again after it)."""

    kind: ClassVar[str] = "wait"
    words: ClassVar[str] = "waits for {target} to act"


@dataclass(frozen=True, slots=True)
class Interrupt(Action):
    """Act just before ``target``'s action, with one of this round's actions."""

    kind: ClassVar[str] = "interrupt"
    words: ClassVar[str] = "interrupts {target}"


@dataclass(frozen=True, slots=True)
class PreEmpt(Action):
    """Having waited for ``target``, try to act before it after all (a Wits challenge)."""

    kind: ClassVar[str] = "pre-empt"
    words: ClassVar[str] = "tries to act before {target}"


@dataclass(frozen=True, slots=True)
class StrikeFirst(Action):
    """Meet ``target``'s charge with a blow first (longer reach), using an action."""

    kind: ClassVar[str] = "strike first"
    words: ClassVar[str] = "strikes first at the charging {target}"


@dataclass(frozen=True, slots=True)
class LetAct(Action):
    """Let ``target`` act (no interrupt)."""

    kind: ClassVar[str] = "let act"


@dataclass(frozen=True, slots=True)
class TendWounds(Action):
    """Bind the serious wounds of oneself or an ally: the bleeding stops."""

    kind: ClassVar[str] = "tend"
    words: ClassVar[str] = "binds {target}'s wounds"


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
