"""Actions: what a combatant can do on its turn, as small typed values.

A ruleset lists the legal actions of a combatant (each with its target, if it
has one) and performs the one chosen; the choice itself is a question
(:mod:`affray.encounter.questions`) that a person, the tactics AI or a replay
answers. Every rule system has :class:`Attack`; the rest are its own subclasses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class Action:
    """Base of all actions.

    Class attributes:
        kind: the action's name in events, JSON and ``--choose`` (``attack``, ``flee``).
        words: how narration announces it (``{target}`` is filled in); empty for
            actions whose dice announce them (attacks).
    """

    target: str | None = None
    kind: ClassVar[str] = "action"
    words: ClassVar[str] = ""

    @property
    def name(self) -> str:
        """The action's name (its kind, unless a subclass says more)."""
        return self.kind

    @property
    def label(self) -> str:
        """What a person types or picks: the name, then the target if any."""
        return f"{self.name} {self.target}" if self.target else self.name

    def announce(self) -> str:
        """The narration of choosing this action ("" when its dice say it all)."""
        return self.words.format(target=self.target or "")

    @property
    def explain(self) -> str:
        """What the action does, in a line for a person choosing it (the first
        paragraph of its class's description)."""
        text = (type(self).__doc__ or "").strip().split("\n\n")[0]
        text = text.replace("``target``", self.target or "the target").replace("``", "")
        return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Strike a foe in melee (engaging it first if need be)."""

    kind: ClassVar[str] = "attack"


@dataclass(frozen=True, slots=True)
class Shoot(Action):
    """Shoot or throw at a foe."""

    kind: ClassVar[str] = "shoot"


@dataclass(frozen=True, slots=True)
class Flee(Action):
    """Leave the fight."""

    kind: ClassVar[str] = "flee"
    words: ClassVar[str] = "tries to flee"


@dataclass(frozen=True, slots=True)
class Hold(Action):
    """Do nothing this turn."""

    kind: ClassVar[str] = "hold"
    words: ClassVar[str] = "holds"
