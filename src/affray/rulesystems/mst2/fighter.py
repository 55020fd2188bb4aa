"""An MST-2 combatant and the statistics derived from its equipment.

Sections *Overview*, *Armor* (evasion, protection, shield) and *Hit dice*.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from affray.dice import DiceTerm, parse
from affray.dice.syntax import constant_total, dice_terms
from affray.errors import RulesError
from affray.quoting import quoted
from affray.rulesystems.mst2.catalog import (
    SHIELD_EVASION,
    SHIELD_PROTECTION,
    Armor,
    Grip,
    Missile,
    Pool,
    Reach,
    Weapon,
    pool_text,
)

MAX_HIT_DICE = 30
MAX_HIT_DIE_SIDES = 20
"""Hit dice are at most 30 dice of at most 20 sides: far past any fighter in the text,
and small enough that every shock check answers at once."""

MAX_POWER_DICE = 20
MAX_POWER_SIDES = 100
"""A power pool (a weapon's, a missile's, extra power) is at most 20 dice of at most
100 sides: the text's weapons roll one to three dice of d4 to d20, and every attack's
exact odds stay instant (its wound outcomes are the pool's dice plus one)."""


@dataclass(frozen=True, slots=True)
class HitDice:
    """Hit dice (``2d10``) plus a flat bonus (``+1`` for especially tough characters)."""

    pool: Pool
    bonus: int = 0

    def __post_init__(self) -> None:
        if not self.pool:
            raise RulesError("hit dice need at least one die", hint="e.g. 1d8 or 2d10+1")
        if len(self.pool) > MAX_HIT_DICE or max(self.pool) > MAX_HIT_DIE_SIDES:
            raise RulesError(
                f"hit dice {pool_text(self.pool)} are more than affray handles: at most "
                f"{MAX_HIT_DICE} dice of at most {MAX_HIT_DIE_SIDES} sides",
                hint="fighters in the text have a few d6, d8 or d10 (e.g. 3d10+2)",
            )

    @property
    def text(self) -> str:
        bonus = f"{self.bonus:+d}" if self.bonus else ""
        return pool_text(self.pool) + bonus

    @classmethod
    def parse(cls, text: str) -> HitDice:
        """``"2d10+1"`` → ``HitDice((10, 10), 1)``: dice added together plus a constant."""
        tree = parse(text)
        terms = dice_terms(tree)
        if not terms or any(sign < 0 for sign, _ in terms):
            raise RulesError(
                f"hit dice {quoted(text)} must add one or more dice and an optional bonus",
                hint="e.g. 2d10 or 2d10+1",
            )
        return cls(_pool_of(terms), constant_total(tree))


def parse_pool(text: str, what: str = "power") -> Pool:
    """``"2d8"`` or ``"1d6+1d8"`` → a pool of dice. Constants make no sense in a pool."""
    tree = parse(text)
    terms = dice_terms(tree)
    if not terms or constant_total(tree) != 0 or any(sign < 0 for sign, _ in terms):
        raise RulesError(
            f"{what} {quoted(text)} must be dice only, each of which can inflict a wound",
            hint="e.g. 2d8, or 1d6+1d8 for mixed dice; no constants or minus signs",
        )
    pool = _pool_of(terms)
    check_pool(pool, what)
    return pool


def check_pool(pool: Pool, what: str = "power") -> None:
    """Refuse, at once, a power pool past :data:`MAX_POWER_DICE` dice of
    :data:`MAX_POWER_SIDES` sides.

    Raises:
        RulesError: the pool is too large, with the limit named.
    """
    if len(pool) > MAX_POWER_DICE or max(pool, default=0) > MAX_POWER_SIDES:
        raise RulesError(
            f"{what} {pool_text(pool)} is more than affray handles: at most "
            f"{MAX_POWER_DICE} dice of at most {MAX_POWER_SIDES} sides",
            hint="weapons in the text roll one to three dice, d4 to d20 (e.g. 2d8); "
            "extra power adds a die or two",
        )


def _pool_of(terms: list[tuple[int, DiceTerm]]) -> Pool:
    return tuple(term.sides for _, term in terms for _ in range(term.count))


@dataclass(frozen=True, slots=True)
class Fighter:
    """An MST-2 combatant. Immutable: wounds and condition live in ``FighterState``.

    Raises:
        RulesError: an impossible combination (a two-handed grip with a shield,
            a grip the weapon does not allow, a negative skill).
    """

    name: str
    skill: int
    weapon: Weapon
    armor: Armor
    hit_dice: HitDice
    grip: Grip | None = None
    shield: bool = False
    evasion_bonus: int = 0
    extra_power: Pool = ()
    missile: Missile | None = None
    notes: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if self.skill < 0:
            raise RulesError(f"{self.name}: skill is {self.skill}, but it is +0 or higher")
        if self.grip is None:
            object.__setattr__(self, "grip", self.weapon.default_grip)
        check_pool(self.weapon.power(self.wielded), "weapon power")  # the grip is allowed
        check_pool(self.extra_power, "extra power")
        if self.missile is not None:
            check_pool(self.missile.power, "missile power")
        if self.shield and self.wielded is Grip.TWO_HANDED:
            raise RulesError(
                f"{self.name}: a shield needs a free hand, but the {self.weapon.name} "
                "is held two-handed",
                hint="drop the shield or use a one-handed grip",
            )

    @property
    def wielded(self) -> Grip:
        """The grip in use (resolved from the weapon's default when none was given)."""
        assert self.grip is not None
        return self.grip

    @property
    def evasion(self) -> int:
        """Armour evasion, -1 with a shield, plus any nimbleness bonus."""
        return self.armor.evasion + (SHIELD_EVASION if self.shield else 0) + self.evasion_bonus

    @property
    def protection(self) -> int:
        """Armour protection, +1 with a shield."""
        return self.armor.protection + (SHIELD_PROTECTION if self.shield else 0)

    @property
    def reach(self) -> Reach:
        return self.weapon.reach

    @property
    def weapon_label(self) -> str:
        """The weapon's name, marked ``2h`` when a weapon usable either way is held in
        both hands (``2h Sword``)."""
        if len(self.weapon.grips) > 1 and self.wielded is Grip.TWO_HANDED:
            return f"2h {self.weapon.name}"
        return self.weapon.name

    @property
    def weapon_power(self) -> Pool:
        return self.weapon.power(self.wielded)

    @property
    def melee_power(self) -> Pool:
        """Weapon power dice followed by extra power dice, in rolling order."""
        return self.weapon_power + self.extra_power

    def describe(self) -> str:
        """One line: ``Sellsword: skill +3, sword two-handed 3d6 (mid), chain mail...``."""
        gear = f"{self.weapon.name.lower()} {self.wielded.value} {pool_text(self.weapon_power)}"
        extra = f" +{pool_text(self.extra_power)} extra" if self.extra_power else ""
        shield = " + shield" if self.shield else ""
        missile = (
            f", {self.missile.name.lower()} {pool_text(self.missile.power)}" if self.missile else ""
        )
        return (
            f"{self.name}: skill +{self.skill}, {gear}{extra} ({self.reach.label} reach){missile}, "
            f"{self.armor.name.lower()}{shield} (evasion {self.evasion}, protection "
            f"{self.protection}), hit dice {self.hit_dice.text}"
        )
