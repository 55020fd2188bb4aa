"""The attack roll (section IV. Attack Roll, and the notes on criticals, first
combat and the game master's description bonus).

A rule decision (docs/rules/midian.md):
the attack hits when its total is **at or above** the defender's
armour class (the text says so twice and "higher than" once; ``exceed`` is the
option for the other reading). Unarmoured: 5 in melee, 8 at range. A natural 1-2
is a fumble and always misses; a natural 19-20 is a critical: it always hits and
cannot be defended. Points of the total above 20 add to damage.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from affray.dice import Dice, Purpose
from affray.errors import RulesError
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.equipment import armour_modifiers, weapon_modifiers
from affray.rulesystems.midian.events import AttackRolled
from affray.rulesystems.midian.initiative import first_combat
from affray.rulesystems.midian.modifiers import Modifier, nonzero, total

UNARMOURED_MELEE = 5
UNARMOURED_RANGED = 8
TOTAL_DEFENCE_AC = 2
MAX_DESCRIPTION_BONUS = 5


class HitRule(Enum):
    AT_OR_ABOVE = "at-or-above"
    EXCEED = "exceed"


def description_bonus(
    *,
    simple: bool = False,
    graphic: bool = False,
    reacting: bool = False,
    environment: bool = False,
    position: bool = False,
) -> Modifier:
    """The game master's bonus for describing the attack: +1 for more than "I hit", +2
    for a truly graphic description instead, +1 for reacting to the others' actions,
    +1 for using the surroundings, +1 for an advantageous position; at most +5."""
    value = (2 if graphic else 1 if simple else 0) + reacting + environment + position
    return Modifier("description", min(value, MAX_DESCRIPTION_BONUS))


def attack_modifiers(
    attacker: Character,
    *,
    penalty: int = 0,
    situational: Sequence[Modifier] = (),
    unarmed_untrained: bool = False,
) -> tuple[Modifier, ...]:
    """The attacker's own modifiers: the sheet's attack bonus (without the weapon skill
    for an untrained brawler), weapon and armour encumbrance, first combat, the shock
    and fatigue ``penalty``, then the situation's."""
    bonus = attacker.attack_bonus - (attacker.weapon.skill if unarmed_untrained else 0)
    return (
        *nonzero(Modifier("attack bonus", bonus)),
        *weapon_modifiers(attacker.weapon, "attack"),
        *armour_modifiers(attacker, "attack"),
        *first_combat(attacker, "attack"),
        *nonzero(Modifier("shock and fatigue", -penalty)),
        *situational,
    )


def armour_class(
    defender: Character,
    *,
    ranged: bool = False,
    touch: bool = False,
    total_defence: bool = False,
    shield: bool = True,
) -> int:
    """The number an attack total must reach.

    Args:
        ranged: a missile needs at least 8 even against the unarmoured.
        touch: the attack need not pass armour (a grapple, a shove): only the
            defender's natural armour class counts.
        total_defence: +2 for a defender doing nothing but defend.
        shield: whether a carried shield's armour class adds (it does unless
            the attack comes from where the shield cannot cover).
    """
    value = defender.natural_armour_class if touch else defender.armour_class
    if shield and not touch and defender.shield is not None:
        value += defender.shield.armour_class
    if total_defence:
        value += TOTAL_DEFENCE_AC
    return max(value, UNARMOURED_RANGED) if ranged else value


def roll_attack(
    attacker: Character,
    defender: Character,
    dice: Dice,
    *,
    modifiers: Sequence[Modifier],
    target: int,
    rule: HitRule = HitRule.AT_OR_ABOVE,
) -> AttackRolled:
    """Roll the d20 and decide hit, critical and fumble against armour class ``target``."""
    if target < 0:
        raise RulesError(f"armour class {target} is impossible")
    die = dice.roll(20, Purpose("{who}'s attack on {about}", attacker.name, defender.name))
    result = die.face + total(modifiers)
    fumble = die.face <= 2
    critical = die.face >= 19
    if fumble:
        hit = False
    elif critical:
        hit = True
    else:
        hit = result >= target if rule is HitRule.AT_OR_ABOVE else result > target
    return AttackRolled(
        attacker.name,
        defender.name,
        attacker.weapon.name,
        die,
        tuple(modifiers),
        result,
        target,
        hit,
        critical,
        fumble,
    )


def over_twenty(attack_total: int) -> int:
    """Points of the attack total above 20, added to damage before any doubling."""
    return max(0, attack_total - 20)
