"""Varied Midian sheets for checking the fast duel engine against the reference engine.

Each sheet goes through the sheet validator (as a file would), from a base fighter
with a few keys changed, so that the pairs below cover what the fast engine plays:
armour class and shields (skilled: free blocks; unskilled: a block costs an action),
reduction, resistances (partial, stacking with criticals, immunity), hit and life
points (none, few, many), weapons (dice, types, grips, encumbrance, extra damage,
bare hands), dodge, initiative (several actions; totals of 0 or less), Wits on ties,
Willpower, system shock, first combat, armour encumbrance (heroic: fatigue),
retests, and keys the AI never uses in a duel (interrupts, grappling, evasion).
"""

from __future__ import annotations

from typing import Any

from affray.registry import system
from affray.rulesystems.midian.character import Character
from tests.helpers import EXAMPLES

BASE: dict[str, Any] = {
    "system": "midian",
    "name": "Fighter",
    "attributes": {"strength": 12, "agility": 11, "wits": 10, "willpower": 11, "stamina": 12},
    "attack_bonus": 3,
    "damage_bonus": 1,
    "armour_class": 10,
    "damage_reduction": 1,
    "hit_points": 14,
    "life_points": 8,
    "system_shock": 80,
    "weapon": {"name": "Sword", "damage": "1d8", "type": "hacking", "skill": 2},
}


def sheet(name: str, **keys: Any) -> Character:
    """The base fighter with ``keys`` changed (``attributes`` merged; None drops a key),
    validated."""
    data = {**BASE, **keys, "name": name}
    data = {key: value for key, value in data.items() if value is not None}
    data["attributes"] = {**BASE["attributes"], **keys.get("attributes", {})}
    built: Character = system("midian").read_sheet(data, where=f"<{name}>")
    return built


def example(name: str) -> Character:
    from affray.sheets import load_sheet

    loaded: Character = load_sheet(EXAMPLES / "midian" / f"{name}.toml")
    return loaded


KNIGHT = sheet(
    "Knight",
    armour_class=15,
    damage_reduction=4,
    resistances={"hacking": 30, "stabbing": 20},
    armour={"encumbrance": "heavy", "trained": True},
    weapon={"name": "Longsword", "damage": "1d10", "type": "hacking", "skill": 3},
    shield={"armour_class": 2, "skill": 3},
    hit_points=20,
    life_points=10,
)
BERSERKER = sheet(
    "Berserker",
    attributes={"strength": 17, "willpower": 7},
    attack_bonus=5,
    armour_class=8,
    hit_points=24,
    life_points=12,
    initiative_bonus=3,
    experience="observed",
    weapon={
        "name": "Greataxe",
        "damage": "2d8",
        "type": "hacking",
        "hands": 2,
        "two_hand_grip": True,
        "skill": 1,
        "encumbrance": "heavy",
    },
)
DUELLIST = sheet(
    "Duellist",
    initiative_bonus=14,
    attributes={"wits": 14},
    weapon={"name": "Rapier", "damage": "1d6", "type": "stabbing", "skill": 4},
    dodge=3,
    armour_class=9,
    hit_points=8,
    life_points=6,
)
OGRE = sheet(
    "Ogre",
    attributes={"strength": 20, "wits": 5, "stamina": 18},
    attack_bonus=1,
    damage_bonus=4,
    initiative_bonus=-3,
    armour_class=7,
    damage_reduction=2,
    hit_points=40,
    life_points=20,
    system_shock=95,
    weapon={
        "name": "Club",
        "damage": "2d6",
        "type": "smashing",
        "skill": 0,
        "encumbrance": "medium",
    },
)
SPEEDSTER = sheet(
    "Speedster",
    initiative_bonus=25,
    weapon={"name": "Knife", "damage": "1d4", "type": "stabbing", "skill": 0},
    hit_points=10,
    life_points=7,
)
TANK = sheet(
    "Tank",
    armour_class=16,
    damage_reduction=2,
    resistances={"stabbing": 25},
    hit_points=22,
    life_points=12,
    initiative_bonus=-4,
    weapon={"name": "Hammer", "damage": "1d6+1", "type": "smashing", "skill": 1},
)
SHIELD_NOVICE = sheet(
    "Shield novice",
    shield={"armour_class": 2, "skill": 0},
    weapon={"name": "Mace", "damage": "1d6", "type": "smashing", "skill": 0},
    hit_points=12,
)
AMBIDEXTROUS_NOVICE = sheet(
    "Ambidextrous novice",
    ambidextrous=True,
    shield={"armour_class": 1, "skill": 0},
    dodge=2,
    hit_points=6,
    life_points=9,
)
IRONCLAD = sheet(
    "Ironclad",
    armour_class=20,
    damage_reduction=8,
    armour={"encumbrance": "heroic", "trained": True},
    damage_bonus=9,
    hit_points=18,
    weapon={"name": "Spear", "damage": "1d8", "type": "stabbing", "skill": 3},
)
UNTRAINED_PLATE = sheet(
    "Untrained plate",
    armour_class=16,
    damage_reduction=5,
    armour={"encumbrance": "very heavy", "trained": False},
    initiative_bonus=8,
    attack_bonus=12,
    damage_bonus=8,
    weapon={"name": "Flail", "damage": "3d6", "type": "smashing", "skill": 2},
)
RECRUIT = sheet("Recruit", experience="never seen", attack_bonus=4, hit_points=12)
VETERAN = sheet("Veteran", experience="observed", attributes={"wits": 12})
GLASS = sheet(
    "Glass",
    hit_points=0,
    life_points=14,
    attributes={"willpower": 5},
    system_shock=20,
    weapon={"name": "Maul", "damage": "3d10", "type": "smashing", "hands": 2, "skill": 1},
)
BUTCHER = sheet(
    "Butcher",
    weapon={
        "name": "Cleaver",
        "damage": "2d10",
        "type": "hacking",
        "skill": 1,
        "extra_damage": 3,
    },
    damage_bonus=2,
    hit_points=10,
    life_points=10,
)
LUCKY = sheet(
    "Lucky",
    retests=["lucky", "divine blessing"],
    attributes={"willpower": 9},
    system_shock=60,
    hit_points=9,
)
TOUGH = sheet("Tough", retests=["survival instincts"], hit_points=16, life_points=10)
STONE = sheet("Stone", resistances={"smashing": 100, "hacking": 50}, damage_reduction=3)
BRUISER = sheet(
    "Bruiser",
    weapon={"name": "Cudgel", "damage": "1d6", "type": "smashing", "skill": 2},
    attack_bonus=5,
)
TWIN_A = sheet("Twin", attributes={"wits": 9})
TWIN_B = sheet("Twin", attributes={"wits": 11})
SLUGGARD = sheet("Sluggard", initiative_bonus=-15, attack_bonus=6)
BRAWLER_BARE = sheet(
    "Bare hands",
    weapon=None,
    damage_bonus=3,
    attack_bonus=4,
    dodge=4,
    hit_points=16,
)
TROLLOP = sheet(
    "Heavy hitter",
    weapon={
        "name": "Zweihander",
        "damage": "2d6",
        "type": "hacking",
        "hands": 2,
        "two_hand_grip": False,
        "skill": 2,
        "encumbrance": "very heavy",
    },
    hit_points=20,
)
HEROIC_AXE = sheet(
    "Giant's axe",
    attributes={"strength": 22},
    weapon={
        "name": "Heroic axe",
        "damage": "3d8",
        "type": "hacking",
        "hands": 2,
        "two_hand_grip": True,
        "skill": 1,
        "encumbrance": "heroic",
    },
    damage_bonus=-2,
    hit_points=25,
)
TRICKSTER = sheet(
    "Trickster",
    interrupts=2,
    grappling=3,
    melee_evasion=True,
    dodge=5,
    shield={"armour_class": 1, "skill": 4},
    weapon={"name": "Short sword", "damage": "1d6", "type": "stabbing", "skill": 0},
)
STOIC = sheet("Stoic", attributes={"willpower": 20}, hit_points=4, life_points=14)
WALL = sheet("Wall", damage_reduction=14, armour_class=20)
FORTRESS = sheet("Fortress", damage_reduction=40, armour_class=20)
GIANT_A = sheet("Giant", hit_points=400, life_points=100, damage_reduction=4)
GIANT_B = sheet("Colossus", hit_points=380, life_points=120, damage_reduction=5)

PAIRS: list[tuple[str, Character, Character, int]] = [
    ("guard vs brawler", example("guard"), example("brawler"), 1000),
    ("knight vs berserker", KNIGHT, BERSERKER, 1000),
    ("duellist vs ogre", DUELLIST, OGRE, 1000),
    ("speedster vs tank", SPEEDSTER, TANK, 1000),
    ("shield novice vs ambidextrous novice", SHIELD_NOVICE, AMBIDEXTROUS_NOVICE, 1000),
    ("ironclad vs untrained plate", IRONCLAD, UNTRAINED_PLATE, 1000),
    ("recruit vs veteran", RECRUIT, VETERAN, 1000),
    ("glass vs butcher", GLASS, BUTCHER, 1000),
    ("lucky vs tough", LUCKY, TOUGH, 1000),
    ("stone vs bruiser", STONE, BRUISER, 1000),
    ("twins (Wits decides ties)", TWIN_A, TWIN_B, 1000),
    ("sluggard vs speedster", SLUGGARD, SPEEDSTER, 1000),
    ("bare hands vs heavy hitter", BRAWLER_BARE, TROLLOP, 1000),
    ("giant's axe vs trickster", HEROIC_AXE, TRICKSTER, 1000),
    ("stoic vs lucky", STOIC, LUCKY, 1000),
    ("glass vs glass", GLASS, sheet("Glass", system_shock=40), 1000),
    ("ogre vs knight", OGRE, KNIGHT, 1000),
    ("tank vs berserker", TANK, BERSERKER, 1000),
    ("butcher vs duellist", BUTCHER, DUELLIST, 1000),
    ("guard vs trickster", example("guard"), TRICKSTER, 1000),
    ("wall vs bruiser (only criticals hurt the wall)", WALL, BRUISER, 1000),
    ("giants, capped at 3 rounds", GIANT_A, GIANT_B, 3),
    ("ogre vs knight, capped at 6 rounds", OGRE, KNIGHT, 6),
    ("fortress vs fortress (nothing ever hurts)", FORTRESS, FORTRESS, 5),
]
"""(label, A, B, round cap) of each matchup."""
