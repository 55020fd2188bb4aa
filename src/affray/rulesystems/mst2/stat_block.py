"""An MST-2 fighter's sheet as a game master or a player reads it: each line a label
and its value, with what the sheet derives (evasion and protection with the shield)."""

from __future__ import annotations

from affray.rulesystems.mst2.catalog import pool_text
from affray.rulesystems.mst2.fighter import Fighter


def stat_block(fighter: Fighter) -> tuple[tuple[str, str], ...]:
    """``(("skill", "+2"), ("weapon", "spear, one-handed 2d8, far reach"), ...)``."""
    extra = f" + {pool_text(fighter.extra_power)} extra" if fighter.extra_power else ""
    weapon = (
        f"{fighter.weapon.name.lower()}, {fighter.wielded.value} "
        f"{pool_text(fighter.weapon_power)}{extra}, {fighter.reach.label} reach"
    )
    shield = " and shield" if fighter.shield else ""
    lines = [
        ("skill", f"{fighter.skill:+d}"),
        ("weapon", weapon),
        ("armour", f"{fighter.armor.name.lower()}{shield}"),
        ("evasion", str(fighter.evasion)),
        ("protection", str(fighter.protection)),
        ("hit dice", fighter.hit_dice.text),
    ]
    if fighter.missile is not None:
        lines.append(
            ("missile", f"{fighter.missile.name.lower()} {pool_text(fighter.missile.power)}")
        )
    lines.extend(("note", note) for note in fighter.notes)
    return tuple(lines)
