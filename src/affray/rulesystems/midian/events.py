"""Midian events: every roll and every rule applied, as data."""

from __future__ import annotations

from dataclasses import dataclass

from affray.dice import DieRoll
from affray.events import Event
from affray.rulesystems.midian.modifiers import Modifier


@dataclass(frozen=True, slots=True)
class CheckRolled(Event):
    """An ability check: 2d20 at or under the effective attribute (attribute + modifiers)."""

    character: str
    attribute: str
    dice: tuple[DieRoll, ...]
    total: int
    score: int
    modifiers: tuple[Modifier, ...]
    effective: int
    success: bool
    purpose: str = "check"


@dataclass(frozen=True, slots=True)
class ChallengeResolved(Event):
    """An ability challenge: highest roll without going over wins; tie or both failing is
    undetermined (``winner`` None)."""

    characters: tuple[str, str]
    totals: tuple[int, int]
    winner: str | None


@dataclass(frozen=True, slots=True)
class RetestUsed(Event):
    character: str
    source: str
    situation: str = ""


@dataclass(frozen=True, slots=True)
class SaveRolled(Event):
    """A saving throw: d20 + bonuses at or above the target; natural 1-2 fail, 19-20 succeed."""

    character: str
    save: str
    die: DieRoll
    modifiers: tuple[Modifier, ...]
    total: int
    target: int
    success: bool


@dataclass(frozen=True, slots=True)
class HazardRolled(Event):
    """A hazard's damage (a fall, a round in flames): its dice, the total, what fire
    resistance took off and what is taken (after the save, rolled beside it)."""

    character: str
    hazard: str
    detail: str
    dice: tuple[DieRoll, ...]
    rolled: int
    resisted: int
    taken: int


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    character: str
    die: DieRoll
    modifiers: tuple[Modifier, ...]
    total: int
    slots: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AttackRolled(Event):
    attacker: str
    defender: str
    weapon: str
    die: DieRoll
    modifiers: tuple[Modifier, ...]
    total: int
    armour_class: int
    hit: bool
    critical: bool
    fumble: bool


@dataclass(frozen=True, slots=True)
class DefenceRolled(Event):
    """A parry, block or dodge: d20 + bonuses at or above the attack total stops it."""

    defender: str
    defence: str
    die: DieRoll
    modifiers: tuple[Modifier, ...]
    total: int
    against: int
    success: bool
    cost: str


@dataclass(frozen=True, slots=True)
class DamageRolled(Event):
    """Damage before and after doubling, resistance and reduction."""

    attacker: str
    defender: str
    dice: tuple[DieRoll, ...]
    modifiers: tuple[Modifier, ...]
    rolled: int
    doubled: bool
    resisted: tuple[tuple[str, int, int], ...]
    reduction: int
    final: int
    times: int = 1
    """What the damage was multiplied by: 2 for a critical or a charge, 4 for both."""


@dataclass(frozen=True, slots=True)
class DamageTaken(Event):
    character: str
    amount: int
    source: str
    hit_points: int
    life_points: int
    serious_wounds: int
    shock: int


@dataclass(frozen=True, slots=True)
class SystemShockRolled(Event):
    """d100 at or under the system shock chance (5% less per life point below zero)."""

    character: str
    die: DieRoll
    chance: int
    success: bool
    reason: str


@dataclass(frozen=True, slots=True)
class StatusChanged(Event):
    """Conscious/unconscious/coma/dead changes, with the rule that caused them."""

    character: str
    status: str
    reason: str


@dataclass(frozen=True, slots=True)
class Bled(Event):
    character: str
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class WoundsTended(Event):
    character: str


@dataclass(frozen=True, slots=True)
class CriticalEffect(Event):
    character: str
    effect: str
    detail: str
    die: DieRoll | None
    rounds: int | None = None
    """How many rounds it lasts, where the text gives a die for it."""


@dataclass(frozen=True, slots=True)
class Evaded(Event):
    """An attack that the defender's evasion roll of the round stands against."""

    defender: str
    evasion: int
    attack: int


@dataclass(frozen=True, slots=True)
class Regenerated(Event):
    """A regenerating creature's wounds close: life points back at the end of a round."""

    character: str
    points: int
    life_points: int
    woke: bool
