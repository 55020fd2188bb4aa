"""MST-2 catalog data: the text's tables, as values.

Sections of ``mst2-melee-fighting.txt``: *Weapons*, *Armor*, *Hit dice*,
*Ranged attacks* (missile table) and *Other types of damage and wounds*
(circumstantial extra power). Look-ups are case-insensitive and forgiving of
spaces, hyphens and underscores.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import TypeVar

from affray.errors import RulesError
from affray.quoting import quoted

_T = TypeVar("_T")


class Reach(IntEnum):
    """A weapon's optimal range, ordered so that ``CLOSE < MID < FAR``."""

    CLOSE = 1
    MID = 2
    FAR = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def named(cls, name: str) -> Reach:
        try:
            return cls[name.strip().upper()]
        except KeyError:
            raise RulesError(
                f"unknown reach {quoted(name)}", hint="reach is one of: close, mid, far"
            ) from None


class Grip(Enum):
    ONE_HANDED = "one-handed"
    TWO_HANDED = "two-handed"

    @property
    def hands(self) -> int:
        return 1 if self is Grip.ONE_HANDED else 2


Pool = tuple[int, ...]
"""A pool of dice, each given by its number of sides: ``(6, 6, 6)`` is 3d6."""


def pool_text(pool: Pool) -> str:
    """``(6, 6, 8)`` → ``"2d6+1d8"``."""
    if not pool:
        return "none"
    parts: list[str] = []
    for sides in dict.fromkeys(pool):
        parts.append(f"{pool.count(sides)}d{sides}")
    return "+".join(parts)


@dataclass(frozen=True, slots=True)
class Weapon:
    """A melee weapon. ``one_handed``/``two_handed`` hold the power of each grip it allows."""

    name: str
    reach: Reach
    one_handed: Pool | None
    two_handed: Pool | None

    def __post_init__(self) -> None:
        if self.one_handed is None and self.two_handed is None:
            raise RulesError(f"weapon {quoted(self.name)} must be usable with one or two hands")

    @property
    def grips(self) -> tuple[Grip, ...]:
        return tuple(
            grip
            for grip, power in (
                (Grip.ONE_HANDED, self.one_handed),
                (Grip.TWO_HANDED, self.two_handed),
            )
            if power is not None
        )

    @property
    def default_grip(self) -> Grip:
        """The only grip, or one-handed for weapons usable either way (docs/rules/mst2.md)."""
        return self.grips[0]

    def power(self, grip: Grip) -> Pool:
        power = self.one_handed if grip is Grip.ONE_HANDED else self.two_handed
        if power is None:
            allowed = " or ".join(g.value for g in self.grips)
            raise RulesError(
                f"the {self.name} cannot be wielded {grip.value}", hint=f"its grip is {allowed}"
            )
        return power


@dataclass(frozen=True, slots=True)
class Armor:
    name: str
    evasion: int
    protection: int


@dataclass(frozen=True, slots=True)
class Missile:
    name: str
    power: Pool


@dataclass(frozen=True, slots=True)
class Circumstance:
    """A circumstance that adds power dice to an attack; lower ``rank`` is larger."""

    key: str
    description: str
    power: Pool
    rank: int

    @property
    def label(self) -> str:
        return self.key


def _key(name: str) -> str:
    return " ".join(name.strip().lower().replace("-", " ").replace("_", " ").split())


WEAPONS: dict[str, Weapon] = {
    _key(w.name): w
    for w in (
        Weapon("Unarmed", Reach.CLOSE, (6,), None),
        Weapon("Dagger", Reach.CLOSE, (6,), None),
        Weapon("Club", Reach.MID, (8,), None),
        Weapon("Mace", Reach.MID, (10,), None),
        Weapon("Battle Axe", Reach.MID, (8,), (8, 8)),
        Weapon("Sword", Reach.MID, (6, 6), (6, 6, 6)),
        Weapon("Spear", Reach.FAR, (8, 8), None),
        Weapon("Quarterstaff", Reach.FAR, None, (8,)),
        Weapon("Polearm", Reach.FAR, None, (10, 10)),
    )
}

ARMORS: dict[str, Armor] = {
    _key(a.name): a
    for a in (
        Armor("None", 15, 0),
        Armor("Leather", 13, 1),
        Armor("Chain mail", 11, 2),
        Armor("Brigandine", 9, 3),
        Armor("Plate mail", 7, 4),
    )
}

SHIELD_EVASION = -1
SHIELD_PROTECTION = 1

HIT_DIE_BY_ROLE: dict[str, int] = {
    **dict.fromkeys(("child", "kobold", "halfling", "halfing"), 4),
    **dict.fromkeys(("civilian", "wizard", "goblin"), 6),
    **dict.fromkeys(("adventurer", "orc", "giant spider"), 8),
    **dict.fromkeys(("fighter", "gnoll", "yeti"), 10),
    **dict.fromkeys(("barbarian", "ogre", "zombie"), 12),
    **dict.fromkeys(("owlbear", "dragon", "manticore"), 20),
}
"""Role or species → hit die type. The text's "Halfing" is accepted as written too."""

HIT_DICE_BY_TENACITY: dict[str, int] = {
    "standard": 1,
    "veteran": 2,
    "elite": 3,
    "heroic": 4,
    "legendary": 5,
}

_MISSILE_ROWS: tuple[tuple[tuple[str, ...], str, Pool], ...] = (
    (("dagger", "dart"), "Dagger/Dart", (4,)),
    (("axe", "spear"), "Axe/Spear", (6,)),
    (("sling", "sling bullet"), "Sling bullet", (6, 6)),
    (("short bow", "shortbow", "arrow (short bow)"), "Arrow (Short Bow)", (8, 8)),
    (("long bow", "longbow", "arrow (long bow)"), "Arrow (Long Bow)", (10, 10)),
    (("crossbow", "crossbow bolt"), "Crossbow Bolt", (12, 12)),
)
MISSILES: dict[str, Missile] = {
    alias: Missile(name, power) for aliases, name, power in _MISSILE_ROWS for alias in aliases
}

CIRCUMSTANCES: dict[str, Circumstance] = {
    c.key: c
    for c in (
        Circumstance("helpless", "helpless opponent", (20, 20), 1),
        Circumstance("sneak attack", "sneak attack", (12, 12), 2),
        Circumstance("critical", "critical hit or powerful blow", (12,), 3),
        Circumstance("magical", "magical or holy weapon", (10,), 4),
        Circumstance("frenzy", "battle frenzy", (8,), 5),
        Circumstance("superior", "superior weapon quality", (6,), 6),
    )
}
_CIRCUMSTANCE_ALIASES = {
    "powerful blow": "critical",
    "critical hit": "critical",
    "holy": "magical",
    "battle frenzy": "frenzy",
    "superior quality": "superior",
    "sneak": "sneak attack",
}


def _lookup(table: dict[str, _T], name: str, what: str, shown: list[str]) -> _T:
    try:
        return table[_key(name)]
    except KeyError:
        from affray.sheets.validation import did_you_mean

        raise RulesError(
            f"unknown {what} {quoted(name)}{did_you_mean(_key(name), shown)}",
            hint=f"{what} is one of: {', '.join(shown)}",
        ) from None


def weapon(name: str) -> Weapon:
    """Catalog weapon by name (case-insensitive)."""
    return _lookup(WEAPONS, name, "weapon", [w.name.lower() for w in WEAPONS.values()])


def armor(name: str) -> Armor:
    """Catalog armour by name (case-insensitive)."""
    return _lookup(ARMORS, name, "armor", [a.name.lower() for a in ARMORS.values()])


def missile(name: str) -> Missile:
    """Catalog missile by name: ``long bow``, ``crossbow``, ``dart``, ..."""
    return _lookup(MISSILES, name, "missile", list(MISSILES))


def hit_die(role: str) -> int:
    """Hit die type for a role or species."""
    return _lookup(HIT_DIE_BY_ROLE, role, "role or species", list(HIT_DIE_BY_ROLE))


def tenacity(name: str) -> int:
    """Number of hit dice for a tenacity rating."""
    return _lookup(HIT_DICE_BY_TENACITY, name, "tenacity", list(HIT_DICE_BY_TENACITY))


def circumstance(name: str) -> Circumstance:
    """A circumstance that adds power (``helpless``, ``sneak attack``, ``critical``, ...)."""
    key = _key(name)
    return _lookup(
        CIRCUMSTANCES, _CIRCUMSTANCE_ALIASES.get(key, key), "circumstance", list(CIRCUMSTANCES)
    )


def largest_circumstance(circumstances: tuple[Circumstance, ...]) -> Circumstance | None:
    """Only the largest circumstantial bonus applies, in the order the text lists them."""
    return min(circumstances, key=lambda c: c.rank, default=None)
