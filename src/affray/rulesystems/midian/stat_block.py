"""A Midian character's sheet as a game master or a player reads it: each line a
label and its value."""

from __future__ import annotations

from affray.rulesystems.midian.character import Character, Weapon


def _weapon(weapon: Weapon) -> str:
    hands = "two hands" if weapon.hands == 2 else "one hand"
    extra = f"+{weapon.extra_damage}" if weapon.extra_damage else ""
    ranged = f", {weapon.ranged}" if weapon.ranged else ""
    skill = f", skill {weapon.skill}" if weapon.skill else ""
    return f"{weapon.name}: {weapon.damage}{extra} {weapon.type}, {hands}{ranged}{skill}"


def stat_block(character: Character) -> tuple[tuple[str, str], ...]:
    """``(("attributes", "strength 12, agility 10, ..."), ("attack", "+2"), ...)``."""
    attributes = ", ".join(f"{k} {v}" for k, v in character.attributes.items())
    resist = ", ".join(f"{k} {v}%" for k, v in character.resistances.items())
    lines = [
        ("attributes", attributes),
        ("attack", f"{character.attack_bonus:+d}"),
        ("damage", f"{character.damage_bonus:+d}"),
        ("initiative", f"{character.initiative_bonus:+d}"),
        ("armour class", str(character.armour_class)),
        ("damage reduction", str(character.damage_reduction)),
        ("hit points", str(character.hit_points)),
        ("life points", str(character.life_points)),
        ("system shock", f"{character.system_shock}%"),
        ("weapon", _weapon(character.weapon)),
    ]
    if character.off_hand is not None:
        lines.append(("off hand", _weapon(character.off_hand)))
    if character.shield is not None:
        lines.append(
            ("shield", f"+{character.shield.armour_class} AC, skill {character.shield.skill}")
        )
    if resist:
        lines.append(("resistances", resist))
    if character.dodge:
        lines.append(("dodge", str(character.dodge)))
    lines.append(("experience", character.experience.value))
    return tuple(lines)
