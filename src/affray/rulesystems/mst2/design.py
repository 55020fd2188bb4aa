"""The keys of an MST-2 sheet a designer moves (:mod:`affray.ladders`): skill and the
evasion bonus one point, armour one row of the armour table, the shield on or off, a
weapon of the weapon table (each grip it allows), hit dice one die (or one step of
tenacity), an inline weapon's power one die size (docs/design.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from affray.ladders import Ladder, Rung, dice_counts, die_sizes, names, numbers
from affray.rulesystems.mst2 import catalog

SKILL = (0, 20)
"""Skill from none to a d20's worth: past it every attack hits what it can."""
EVASION_BONUS = (-5, 5)


def ladders(data: Mapping[str, Any]) -> tuple[Ladder, ...]:
    """The ladders of an MST-2 sheet's data (its keys as the file gives them)."""
    found = [
        numbers("skill", int(data.get("skill", 0)), *SKILL),
        numbers("evasion_bonus", int(data.get("evasion_bonus", 0)), *EVASION_BONUS),
        names(
            "armor",
            data.get("armor", "none"),
            [a.name.lower() for a in catalog.ARMORS.values()],
            catalog.armor,
        ),
        names("shield", bool(data.get("shield", False)), [False, True], bool),
    ]
    weapon = data.get("weapon", "unarmed")
    if isinstance(weapon, str):
        found.append(weapons(weapon, data.get("grip"), bool(data.get("shield", False))))
    elif isinstance(weapon, Mapping) and isinstance(weapon.get("power"), str):
        sizes = die_sizes("weapon.power", weapon["power"])
        if sizes is not None:
            found.append(sizes)
    hit_dice = data.get("hit_dice")
    if isinstance(hit_dice, str):
        counted = dice_counts("hit_dice", hit_dice)
        if counted is not None:
            found.append(counted)
    elif data.get("role") is not None or data.get("species") is not None:
        found.append(
            names(
                "tenacity",
                str(data.get("tenacity", "standard")).lower(),
                list(catalog.HIT_DICE_BY_TENACITY),
            )
        )
    return tuple(found)


def weapons(now: str, grip: str | None, shield: bool) -> Ladder:
    """Every weapon of the table with each grip it allows (one-handed only beside a
    shield), in the table's order: ``sword (two-handed)`` sets weapon and grip."""
    rungs: list[Rung] = []
    at = None
    mine = catalog.weapon(now)
    held = grip or mine.default_grip.value
    for weapon in catalog.WEAPONS.values():
        for one in weapon.grips:
            if shield and one is catalog.Grip.TWO_HANDED:
                continue
            name = weapon.name.lower()
            label = name if len(weapon.grips) == 1 else f"{name} ({one.value})"
            if weapon is mine and one.value == held:
                at = len(rungs)
            rungs.append(Rung(label, {"weapon": name, "grip": one.value}))
    return Ladder("weapon", "ordered", tuple(rungs), at)
