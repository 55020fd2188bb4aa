"""Armour and weapon encumbrance, two weapons, shields (the text's equipment guidelines).

Every function returns labelled :class:`Modifier` values for the roll in question.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from affray.errors import RulesError
from affray.rulesystems.midian.character import Character, Encumbrance, Weapon
from affray.rulesystems.midian.modifiers import Modifier, nonzero


@dataclass(frozen=True, slots=True)
class ArmourEncumbrance:
    """One row of an armour encumbrance table."""

    initiative: int = 0
    attack: int = 0
    damage: int = 0
    speed_lost: Fraction = Fraction(0)
    skill: int = 0
    fatigue_per_round: int = 0
    skill_penalty: bool = False


E = Encumbrance
TRAINED: dict[Encumbrance, ArmourEncumbrance] = {
    E.NONE: ArmourEncumbrance(),
    E.LIGHT: ArmourEncumbrance(skill_penalty=True),
    E.MEDIUM: ArmourEncumbrance(speed_lost=Fraction(1, 4), skill_penalty=True),
    E.HEAVY: ArmourEncumbrance(initiative=-2, speed_lost=Fraction(1, 2), skill_penalty=True),
    E.VERY_HEAVY: ArmourEncumbrance(-8, -8, -5, Fraction(2, 3), -12, 0, True),
    E.HEROIC: ArmourEncumbrance(-12, -10, -8, Fraction(1), -20, 1, True),
}
"""Trained wearers: the armour's own skill penalty applies from light encumbrance on;
``skill`` is the *additional* skill penalty. Heroic: "barely able to move"."""

UNTRAINED: dict[Encumbrance, ArmourEncumbrance] = {
    E.NONE: ArmourEncumbrance(),
    E.LIGHT: ArmourEncumbrance(attack=-2, skill=-3, skill_penalty=True),
    E.MEDIUM: ArmourEncumbrance(-2, -3, 0, Fraction(1, 4), -5, 0, True),
    E.HEAVY: ArmourEncumbrance(-5, -5, -2, Fraction(1, 2), -8, 0, True),
    E.VERY_HEAVY: ArmourEncumbrance(-10, -12, -7, Fraction(2, 3), -15, 0, True),
    E.HEROIC: ArmourEncumbrance(-15, -12, -10, Fraction(1), -25, 1, True),
}


def armour_row(character: Character) -> ArmourEncumbrance:
    table = TRAINED if character.armour_trained else UNTRAINED
    return table[character.armour_encumbrance]


def armour_modifiers(character: Character, roll: str) -> tuple[Modifier, ...]:
    """Armour encumbrance modifiers for ``roll``: initiative, attack or damage."""
    row = armour_row(character)
    value = {"initiative": row.initiative, "attack": row.attack, "damage": row.damage}.get(roll, 0)
    trained = "trained" if character.armour_trained else "untrained"
    return nonzero(Modifier(f"{character.armour_encumbrance.value} armour ({trained})", value))


def weapon_modifiers(weapon: Weapon, roll: str) -> tuple[Modifier, ...]:
    """Weapon encumbrance: medium one-handed -2 initiative; very heavy -2 initiative and
    -1 attack; heroic -5 initiative and -3 attack. Training does not matter."""
    initiative = attack = 0
    if weapon.encumbrance is E.MEDIUM and weapon.hands == 1:
        initiative = -2
    elif weapon.encumbrance is E.VERY_HEAVY:
        initiative, attack = -2, -1
    elif weapon.encumbrance is E.HEROIC:
        initiative, attack = -5, -3
    value = {"initiative": initiative, "attack": attack}.get(roll, 0)
    label = f"{weapon.encumbrance.value} weapon" + (" in one hand" if weapon.hands == 1 else "")
    return nonzero(Modifier(label, value))


def two_handed_bonus(character: Character, weapon: Weapon) -> Modifier:
    """Damage from a two-handed grip: a quarter of Strength (rounded down) if the handle
    is made for both hands, else +1; nothing for heroic weapons or device-propelled
    missiles (bows, pistols), nor when wielded in one hand."""
    if weapon.hands != 2 or weapon.encumbrance is E.HEROIC or weapon.ranged == "device":
        return Modifier("two-handed", 0)
    if weapon.two_hand_grip:
        return Modifier("two-handed (¼ Strength)", character.strength // 4)
    return Modifier("two-handed (grip not made for it)", 1)


def two_weapon_penalties(
    *,
    ambidextrous: bool,
    style_skill: bool,
    skilled: bool,
    off_hand: bool,
    shield: bool = False,
) -> tuple[Modifier, ...]:
    """Attacking with two weapons: -3 to both and -3 more off-hand; ambidexterity makes it
    -3 for both; a two-weapon style skill (or, for weapon and shield, the shield skill)
    removes the penalty; no proficiency adds -5 (up to -11 in all)."""
    modifiers: list[Modifier] = []
    if not (style_skill or shield):
        modifiers.append(Modifier("two weapons", -3))
        if off_hand and not ambidextrous:
            modifiers.append(Modifier("off hand", -3))
    if not skilled:
        modifiers.append(Modifier("unskilled", -5))
    return tuple(modifiers)


def check_two_weapons(primary: Weapon, secondary: Weapon) -> None:
    """Both light (or lighter), or one medium with the other light; each usable one-handed.

    Raises:
        RulesError: the pair is too heavy to wield together.
    """
    ranks = sorted((primary.encumbrance.rank, secondary.encumbrance.rank))
    light, medium = E.LIGHT.rank, E.MEDIUM.rank
    if ranks[1] > medium or (ranks[1] == medium and ranks[0] > light):
        raise RulesError(
            f"the {primary.name} and {secondary.name} are too heavy to wield together",
            hint="both light, or one medium and one light",
        )


def shield_block_modifiers(
    character: Character, *, primary_hand: bool = False
) -> tuple[Modifier, ...]:
    """A block: +1 per level of shield skill; unskilled -11 (-8 ambidextrous or in the
    primary hand: -5 unskilled, -3 two items, -3 off hand)."""
    shield = character.shield
    if shield is None:
        raise RulesError(f"{character.name} has no shield to block with")
    if shield.skill > 0:
        return (Modifier(f"shield skill {shield.skill}", shield.skill),)
    penalty = -8 if (character.ambidextrous or primary_hand) else -11
    return (Modifier("unskilled shield", penalty),)


def free_blocks(character: Character) -> int:
    """One block per round for every two levels of shield skill (rounded up)."""
    return 0 if character.shield is None else -(-character.shield.skill // 2)


def can_shield_punch(character: Character) -> bool:
    """A shield punch needs a shield of medium encumbrance or less (medium only
    alongside a light weapon)."""
    shield = character.shield
    if shield is None or shield.encumbrance.rank > E.MEDIUM.rank:
        return False
    return shield.encumbrance is not E.MEDIUM or character.weapon.encumbrance.rank <= E.LIGHT.rank
