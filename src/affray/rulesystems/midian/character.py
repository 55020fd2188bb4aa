"""A Midian character as the engine sees it: totals from the sheet, no derivations.

The Midian text gives no tables from attributes to bonuses, so a sheet states
its totals (attack, damage and initiative bonuses, armour class, hit and life
points, system shock); the engine adds situational modifiers. Section
references are to ``midian-combat.txt``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from affray.errors import RulesError
from affray.quoting import quoted

ATTRIBUTES = ("strength", "agility", "wits", "willpower", "stamina")
OPTIONAL_ATTRIBUTES = ("speed", "awareness", "grace", "appearance", "intellect", "luck")

DAMAGE_TYPES = (
    "hacking",
    "stabbing",
    "smashing",
    "fire",
    "heat",
    "cold",
    "acid",
    "electricity",
    "poison",
    "radiation",
    "magic",
)


class Encumbrance(Enum):
    """Encumbrance levels of armour and weapons (section on armour and weapon encumbrance)."""

    NONE = "none"
    LIGHT = "light"
    MEDIUM = "medium"
    HEAVY = "heavy"
    VERY_HEAVY = "very heavy"
    HEROIC = "heroic"

    @property
    def rank(self) -> int:
        return list(Encumbrance).index(self)

    @classmethod
    def named(cls, name: str) -> Encumbrance:
        key = name.strip().lower().replace("-", " ").replace("_", " ")
        for level in cls:
            if level.value == key:
                return level
        raise RulesError(
            f"unknown encumbrance {quoted(name)}", hint=f"one of: {', '.join(e.value for e in cls)}"
        )


class Experience(Enum):
    """First-combat penalties (section on first combat): never seen battle, only
    observed it, or fought before."""

    NEVER_SEEN = "never seen"
    OBSERVED = "observed"
    VETERAN = "veteran"


@dataclass(frozen=True, slots=True)
class Weapon:
    """A Midian weapon.

    Attributes:
        damage: dice expression of the weapon's damage (``2d6``).
        type: damage type (hacking, stabbing, smashing, fire, ...).
        hands: how it is wielded now (1 or 2).
        two_hand_grip: whether its handle is made for two hands.
        skill: the wielder's skill level with it (parries, +1 per level to parry).
        encumbrance: weapon encumbrance.
        reach: 1 (close), 2 (mid) or 3 (far): who strikes first against a charge.
        ranged: ``None`` for melee, ``"hurled"`` or ``"device"`` for ranged weapons.
        range_increment: feet per range increment (ranged weapons).
        extra_damage: added to the total (a flame +2, a jagged edge ...).
    """

    name: str
    damage: str
    type: str
    hands: int = 1
    two_hand_grip: bool = False
    skill: int = 0
    encumbrance: Encumbrance = Encumbrance.LIGHT
    reach: int = 2
    ranged: str | None = None
    range_increment: int | None = None
    extra_damage: int = 0

    def __post_init__(self) -> None:
        if self.type not in DAMAGE_TYPES:
            raise RulesError(
                f"unknown damage type {quoted(self.type)}",
                hint=f"one of: {', '.join(DAMAGE_TYPES)}",
            )
        if self.hands not in (1, 2):
            raise RulesError(f"a weapon is wielded with 1 or 2 hands, not {self.hands}")
        if self.hands == 1 and self.encumbrance.rank >= Encumbrance.HEAVY.rank:
            raise RulesError(
                f"the {self.name} is {self.encumbrance.value}: it must be used in both hands",
                hint="set hands = 2",
            )
        if self.ranged not in (None, "hurled", "device"):
            raise RulesError(f'ranged is "hurled" or "device", not {quoted(self.ranged)}')
        if self.ranged and not self.range_increment:
            raise RulesError(f"the ranged weapon {self.name} needs a range_increment in feet")


@dataclass(frozen=True, slots=True)
class Shield:
    """A shield: armour-class bonus and the wielder's shield skill level."""

    armour_class: int = 1
    skill: int = 0
    encumbrance: Encumbrance = Encumbrance.LIGHT


UNARMED = Weapon("Unarmed", "1d2", "smashing", hands=1, encumbrance=Encumbrance.NONE, reach=1)


@dataclass(frozen=True, slots=True)
class Character:
    """A Midian combatant's fixed statistics (its changing health is separate)."""

    name: str
    attributes: Mapping[str, int]
    attack_bonus: int = 0
    damage_bonus: int = 0
    initiative_bonus: int = 0
    armour_class: int = 5
    damage_reduction: int = 0
    resistances: Mapping[str, int] = field(default_factory=dict)
    hit_points: int = 10
    life_points: int = 10
    system_shock: int = 80
    weapon: Weapon = UNARMED
    dodge: int = 0
    shield: Shield | None = None
    experience: Experience = Experience.VETERAN
    armour_encumbrance: Encumbrance = Encumbrance.NONE
    armour_trained: bool = True
    grappling: int = 0
    ambidextrous: bool = False
    regenerates: bool = False
    natural_armour_class: int = 5
    retests: tuple[str, ...] = ()
    """Sources of retests (traits such as "Divine blessing"); each rerolls a failed roll
    once per kind of roll in a battle."""
    interrupts: int = 0
    """Interrupts a round (from skills or traits): act just before a foe's action."""
    off_hand: Weapon | None = None
    """A second weapon, in the other hand (one-handed, light enough to pair)."""
    two_weapon_style: bool = False
    """Trained to fight with two weapons (a Florentine-style skill): no penalty."""
    melee_evasion: bool = False
    """A skill that allows evasion in melee (otherwise it stands against shots only)."""

    def __post_init__(self) -> None:
        missing = [a for a in ATTRIBUTES if a not in self.attributes]
        if missing:
            raise RulesError(f"{self.name}: missing attributes {', '.join(missing)}")
        if not 0 <= self.system_shock <= 100:
            raise RulesError(f"{self.name}: system shock is a percentage, at most 100")
        if self.off_hand is not None and (self.weapon.hands != 1 or self.off_hand.hands != 1):
            raise RulesError(
                f"{self.name}: two weapons must each be wielded in one hand",
                hint="set hands = 1 on both, or drop the off_hand weapon",
            )
        # private copies (plain dicts, so that characters pickle for worker processes)
        object.__setattr__(self, "attributes", dict(self.attributes))
        object.__setattr__(self, "resistances", dict(self.resistances))

    def attribute(self, name: str) -> int:
        try:
            return self.attributes[name]
        except KeyError:
            known = ", ".join(sorted(self.attributes))
            raise RulesError(
                f"{self.name} has no attribute {name!r}", hint=f"known: {known}"
            ) from None

    @property
    def strength(self) -> int:
        return self.attributes["strength"]

    @property
    def wits(self) -> int:
        return self.attributes["wits"]

    @property
    def willpower(self) -> int:
        return self.attributes["willpower"]

    def resistance(self, damage_type: str) -> int:
        return self.resistances.get(damage_type, 0)

    @property
    def untrained_brawler(self) -> bool:
        """Whether it fights with bare hands it has no training with: a sheet without a
        weapon (or one whose weapon is lost, :func:`affray.rulesystems.midian.state.armed`).
        "Those untrained in fighting hand-to-hand roll to attack using only their attack
        bonuses from Agility & traits … but damage is only the strength bonus (if any).
        Untrained brawlers use up an action to parry with their bare hands." Fists on a
        sheet (a brawler's, with their skill and dice) are a trained fighter's."""
        return self.weapon == UNARMED
