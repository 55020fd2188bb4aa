"""Events of the encounter engine itself (the rule systems add their own)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from affray.encounter.actions import Action
from affray.events import Event


@dataclass(frozen=True, slots=True)
class EncounterStarted(Event):
    name: str
    system: str
    sides: tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int
    order: tuple[str, ...]

    told_before_its_dice: ClassVar[bool] = True  # the order comes of the initiative after it


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    """A combatant whose turn came but who can no longer act."""

    combatant: str
    reason: str


@dataclass(frozen=True, slots=True)
class Engaged(Event):
    """Two combatants meet in melee at ``distance``."""

    a: str
    b: str
    distance: str


@dataclass(frozen=True, slots=True)
class Disengaged(Event):
    combatant: str
    from_: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class EncounterEnded(Event):
    """``winner`` is the side left fighting, or ``None`` for a draw."""

    winner: str | None
    reason: str
    rounds: int
    standing: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ActionChosen(Event):
    """What a combatant sets out to do this turn (its tactics' choice, or a person's)."""

    combatant: str
    action: Action

    @property
    def target(self) -> str | None:
        return self.action.target

    def to_dict(self) -> dict[str, Any]:
        """``{"event": "action_chosen", "combatant", "action": name, "target"}``."""
        return {
            "event": self.kind,
            "combatant": self.combatant,
            "action": self.action.name,
            "target": self.action.target,
        }
