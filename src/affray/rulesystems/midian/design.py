"""The keys of a Midian sheet a designer moves (:mod:`affray.ladders`): its bonuses,
armour class, damage reduction, hit and life points, dodge and weapon skill one point,
each attribute one point, system shock five, its weapon's damage one die size, and its
weapon among the weapons the bestiary's sheets carry (docs/design.md)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib.resources.abc import Traversable
from typing import Any

from affray.ladders import Ladder, Rung, die_sizes, numbers

INTEGERS: dict[str, tuple[int, int]] = {
    "attack_bonus": (-5, 15),
    "damage_bonus": (-3, 10),
    "initiative_bonus": (-3, 10),
    "armour_class": (5, 25),
    "damage_reduction": (0, 10),
    "hit_points": (1, 60),
    "life_points": (1, 30),
    "dodge": (0, 10),
}
"""Each number's ladder, wide enough for the bestiary's creatures (and the sheet's own
value, however far out, is added)."""
ATTRIBUTES = (3, 18)


def ladders(data: Mapping[str, Any]) -> tuple[Ladder, ...]:
    """The ladders of a Midian sheet's data (its keys as the file gives them)."""
    defaults = {"armour_class": 5, "damage_reduction": 0, "dodge": 0}
    found = [
        numbers(key, int(data.get(key, defaults.get(key, 0))), low, high)
        for key, (low, high) in INTEGERS.items()
    ]
    attributes = data.get("attributes")
    if isinstance(attributes, Mapping):
        found += [
            numbers(f"attributes.{name}", int(value), *ATTRIBUTES)
            for name, value in attributes.items()
            if isinstance(value, int) and not isinstance(value, bool)
        ]
    shock = int(data.get("system_shock", 80))
    rungs = tuple(Rung(v, {"system_shock": v}) for v in range(0, 101, 5))
    at = shock // 5 if shock % 5 == 0 else None
    found.append(Ladder("system_shock", "integer", rungs, at))
    weapon = data.get("weapon")
    if isinstance(weapon, Mapping):
        if isinstance(weapon.get("damage"), str):
            sizes = die_sizes("weapon.damage", weapon["damage"])
            if sizes is not None:
                found.append(sizes)
        skill = weapon.get("skill", 0)
        if isinstance(skill, int):
            found.append(numbers("weapon.skill", skill, 0, 10))
        found.append(weapons(weapon))
    return tuple(found)


def weapons(now: Mapping[str, Any] | None) -> Ladder:
    """The weapons of the bestiary's sheets (and the sheet's own), by their mean damage,
    lowest first: a frontier's options."""
    from importlib import resources

    seen: dict[str, Mapping[str, Any]] = {}
    if now is not None:
        seen[str(now.get("name", "weapon"))] = now
    for weapon in _bestiary_weapons(resources.files(__package__) / "bestiary"):
        seen.setdefault(str(weapon["name"]), weapon)
    order = sorted(seen.items(), key=lambda item: (_mean(item[1]), item[0]))
    # the character's own skill goes with whatever it wields: the weapons are weighed,
    # not the bestiary's skills with them
    skill = {"skill": now.get("skill", 0)} if now is not None else {}
    rungs = tuple(Rung(name, {"weapon": {**dict(table), **skill}}) for name, table in order)
    mine = None if now is None else str(now.get("name", "weapon"))
    at = next((i for i, (name, _) in enumerate(order) if name == mine), None)
    return Ladder("weapon", "ordered", rungs, at)


def _bestiary_weapons(folder: Traversable) -> list[Mapping[str, Any]]:
    import tomllib

    found: list[Mapping[str, Any]] = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        data = tomllib.loads(entry.read_text("utf-8"))
        weapon = data.get("weapon")
        if isinstance(weapon, dict) and "name" in weapon and not weapon.get("ranged"):
            found.append(weapon)
    return found


def _mean(weapon: Mapping[str, Any]) -> float:
    from affray.ladders import dice_parts

    parts = dice_parts(str(weapon.get("damage", "")))
    if parts is None:
        return 0.0
    count, sides, bonus = parts
    return count * (sides + 1) / 2 + bonus + float(weapon.get("extra_damage", 0))
