"""MST-2 events: every roll and every rule applied, as data."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from affray.dice import DieRoll
from affray.events import Event
from affray.rulesystems.mst2.state import Condition, Lethality


class AttackMode(StrEnum):
    """How an attack comes: a melee attack, a free counter-attack, a shot."""

    MELEE = "melee"
    COUNTER = "counter"
    RANGED = "ranged"


@dataclass(frozen=True, slots=True)
class AttackRolled(Event):
    """d20 + skill against evasion (section *Overview*)."""

    attacker: str
    defender: str
    mode: AttackMode
    weapon: str
    die: DieRoll
    skill: int
    total: int
    evasion: int
    hit: bool


@dataclass(frozen=True, slots=True)
class PowerRolled(Event):
    """Each power die above protection is one wound (sections *Overview*, *Armor*)."""

    attacker: str
    defender: str
    dice: tuple[DieRoll, ...]
    protection: int
    wounds: int
    circumstance: str | None = None


@dataclass(frozen=True, slots=True)
class Wounded(Event):
    fighter: str
    source: str
    wounds: int
    total_wounds: int


@dataclass(frozen=True, slots=True)
class ShockChecked(Event):
    """Hit dice + bonus must exceed total wounds to keep fighting (section *Overview*).

    ``check`` is 1 for the shock check, 2 for the optional system's second check.
    """

    fighter: str
    check: int
    dice: tuple[DieRoll, ...]
    bonus: int
    total: int
    wounds: int
    passed: bool


@dataclass(frozen=True, slots=True)
class Succumbed(Event):
    fighter: str
    condition: Condition
    lethality: Lethality


@dataclass(frozen=True, slots=True)
class CounterAttackGranted(Event):
    """A free counter-attack (sections *Reach and counter-attacks*, *Disengaging*,
    *Other actions in melee*, *Ranged attacks*). ``reason`` says which rule granted it."""

    by: str
    against: str
    reason: str


@dataclass(frozen=True, slots=True)
class AttackPrevented(Event):
    attacker: str
    by: str
    action: str


@dataclass(frozen=True, slots=True)
class DistanceChanged(Event):
    """The engagement distance between two fighters moved to the mover's reach."""

    mover: str
    other: str
    before: str
    after: str
    how: str


@dataclass(frozen=True, slots=True)
class OutOfReach(Event):
    """No counter-attack: ``foe``'s weapon cannot reach ``fighter`` at this distance."""

    foe: str
    fighter: str
    distance: str


@dataclass(frozen=True, slots=True)
class TargetScattered(Event):
    """An odd ranged roll: the actual target drawn among the intended one and those near it."""

    shooter: str
    intended: str
    actual: str
    candidates: tuple[str, ...]
    die: DieRoll | None


@dataclass(frozen=True, slots=True)
class Fled(Event):
    fighter: str


@dataclass(frozen=True, slots=True)
class ActionTaken(Event):
    """A non-combat action (spell, potion, ...) and whether it happened."""

    fighter: str
    action: str
    performed: bool


@dataclass(frozen=True, slots=True)
class HazardStruck(Event):
    """Damage from something other than an attack (falling, poison, fire)."""

    fighter: str
    hazard: str
    detail: str
    dice: tuple[DieRoll, ...]
    protection: int | None
    wounds: int


@dataclass(frozen=True, slots=True)
class BackOnFeet(Event):
    """A day of rest brings a fighter who was out of the last fight (knocked out by a
    failed shock check, or fled) back on their feet (docs/rules/mst2.md, *Healing*)."""

    fighter: str
    was: str


@dataclass(frozen=True, slots=True)
class Healed(Event):
    """A day of rest (section *Healing*)."""

    fighter: str
    setting: str
    dice: tuple[DieRoll, ...]
    total: int
    healed: int
    wounds: int
