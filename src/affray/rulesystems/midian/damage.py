"""Damage (sections VI. Damage, and on damage resistance and reduction).

A rule decision (docs/rules/midian.md), in order:
weapon dice + damage bonus (+ a quarter of Strength
two-handed, or +1 where the grip is not made for two hands) + points over 20 +
extras; doubled on a critical; then each applicable resistance percentage removes
ceil(damage x % / 100) (percentages of the same type stack; 100% or more is
immunity); then damage reduction; never below 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from affray.dice import Dice, roll
from affray.rulesystems.midian.character import Character, Weapon
from affray.rulesystems.midian.equipment import armour_modifiers, two_handed_bonus
from affray.rulesystems.midian.events import DamageRolled
from affray.rulesystems.midian.initiative import first_combat
from affray.rulesystems.midian.modifiers import Modifier, nonzero, total


def resist(amount: int, percent: int) -> tuple[int, int]:
    """``(left, removed)`` after a resistance of ``percent``: it removes
    ceil(amount x percent / 100), all of it at 100% or more. Integer arithmetic:
    20 at 10% loses 2; 8 at 10% loses 1 (even 1% stops the first point)."""
    if amount <= 0 or percent <= 0:
        return max(amount, 0), 0
    if percent >= 100:
        return 0, amount
    removed = -(-amount * percent // 100)
    return amount - removed, removed


def damage_modifiers(
    attacker: Character,
    weapon: Weapon,
    *,
    over_20: int = 0,
    penalty: int = 0,
    extra: Sequence[Modifier] = (),
    untrained_brawl: bool = False,
) -> tuple[Modifier, ...]:
    """Everything added to the weapon's dice: the damage bonus, the two-handed bonus,
    points over 20, the weapon's own extra damage, armour and first-combat penalties,
    shock and fatigue, and any ``extra`` (a flame ...). An untrained brawler's fists
    do only the damage bonus (and points over 20)."""
    return (
        *nonzero(
            Modifier("damage bonus", attacker.damage_bonus),
            Modifier("two-handed", 0) if untrained_brawl else two_handed_bonus(attacker, weapon),
            Modifier("over 20", over_20),
            Modifier(f"{weapon.name} extra", 0 if untrained_brawl else weapon.extra_damage),
        ),
        *armour_modifiers(attacker, "damage"),
        *first_combat(attacker, "damage"),
        *nonzero(Modifier("shock and fatigue", -penalty)),
        *extra,
    )


def striking_dice(attacker: Character, *, untrained_brawl: bool = False) -> str:
    """The dice ``attacker``'s blows roll: its weapon's, none for an untrained brawler
    ("damage is only the strength bonus")."""
    return "0" if untrained_brawl or attacker.untrained_brawler else attacker.weapon.damage


@dataclass(frozen=True, slots=True)
class DamageOutcome:
    event: DamageRolled

    @property
    def rolled(self) -> int:
        return self.event.rolled

    @property
    def final(self) -> int:
        return self.event.final


def finish_damage(
    rolled: int,
    defender: Character,
    damage_type: str,
    *,
    critical: bool,
    extra_resistance: int = 0,
    multiplier: int = 1,
) -> tuple[int, tuple[tuple[str, int, int], ...], int]:
    """Double (critical; ``multiplier`` for a charge), resist, reduce:
    ``(final, resisted, reduction)``."""
    amount = max(rolled, 0) * (2 if critical else 1) * multiplier
    resisted: list[tuple[str, int, int]] = []
    percent = defender.resistance(damage_type) + extra_resistance
    if percent:
        amount, removed = resist(amount, percent)
        resisted.append((damage_type, percent, removed))
    reduction = min(defender.damage_reduction, amount)
    return amount - reduction, tuple(resisted), reduction


def roll_damage(
    attacker: Character,
    defender: Character,
    dice: Dice,
    *,
    critical: bool,
    modifiers: Sequence[Modifier],
    weapon: Weapon | None = None,
    damage_dice: str | None = None,
    damage_type: str | None = None,
    extra_resistance: int = 0,
    multiplier: int = 1,
) -> DamageOutcome:
    """Roll the weapon's damage and carry it through doubling, resistance and reduction."""
    arm = weapon or attacker.weapon
    result = roll(damage_dice or arm.damage, dice, f"{attacker.name}'s damage ({arm.name})")
    rolled = max(result.total + total(modifiers), 0)
    final, resisted, reduction = finish_damage(
        rolled,
        defender,
        damage_type or arm.type,
        critical=critical,
        extra_resistance=extra_resistance,
        multiplier=multiplier,
    )
    return DamageOutcome(
        DamageRolled(
            attacker.name,
            defender.name,
            result.rolls,
            tuple(modifiers),
            rolled,
            critical or multiplier > 1,
            resisted,
            reduction,
            final,
            (2 if critical else 1) * multiplier,
        )
    )
