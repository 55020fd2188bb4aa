"""MST-2: Melee Fighting, as pure functions over immutable values.

The rules, one idea per module (``catalog``, ``fighter``, ``attacks``, ``shock``,
``reach``, ``ranged``, ``hazards``, ``healing``, ``duels``, ``ruleset``); beside them
the package holds all that is only MST-2's: its sheet model (``sheet``), exact odds
(``odds``), fast engines (``sim``), narration, CLI group (``cli``), bestiary,
question topics, tactics, and its entry (``system``).

affray's readings of the text, each with the words it comes from, are in
docs/rules/mst2.md; sheet keys in docs/sheets.md.
MST-2: Melee Fighting © 2021 Eiríkr Åsheim, licensed under CC BY 4.0.
"""

from typing import TYPE_CHECKING

from affray.lazy import exports

if TYPE_CHECKING:
    from affray.rulesystems.mst2.attacks import (
        COUNTER,
        MELEE,
        RANGED,
        AttackResult,
        attack,
        strike,
    )
    from affray.rulesystems.mst2.catalog import (
        ARMORS,
        CIRCUMSTANCES,
        MISSILES,
        WEAPONS,
        Armor,
        Circumstance,
        Grip,
        Missile,
        Pool,
        Reach,
        Weapon,
        armor,
        circumstance,
        hit_die,
        largest_circumstance,
        missile,
        pool_text,
        tenacity,
        weapon,
    )
    from affray.rulesystems.mst2.duels import (
        DuelResult,
        Turn,
        can_ever_wound,
        duel,
        duel_turns,
    )
    from affray.rulesystems.mst2.fighter import Fighter, HitDice, parse_pool
    from affray.rulesystems.mst2.hazards import HazardResult, burn, fall, poison
    from affray.rulesystems.mst2.healing import HealingResult, Setting, rest_one_day
    from affray.rulesystems.mst2.ranged import RangedResult, Target, ranged_attack
    from affray.rulesystems.mst2.reach import (
        ActionResult,
        Engagement,
        MeleeResult,
        flee,
        in_reach,
        melee_attack,
        non_combat_action,
        opening_distance,
        take_counter_attacks,
    )
    from affray.rulesystems.mst2.shock import WoundOutcome, shock_check, suffer_wounds
    from affray.rulesystems.mst2.state import Condition, FighterState, Lethality

_WHERE = {
    "attack": "affray.rulesystems.mst2.attacks",
    "duel": "affray.rulesystems.mst2.duels",
    "ARMORS": "affray.rulesystems.mst2.catalog",
    "ActionResult": "affray.rulesystems.mst2.reach",
    "Armor": "affray.rulesystems.mst2.catalog",
    "AttackResult": "affray.rulesystems.mst2.attacks",
    "CIRCUMSTANCES": "affray.rulesystems.mst2.catalog",
    "COUNTER": "affray.rulesystems.mst2.attacks",
    "Circumstance": "affray.rulesystems.mst2.catalog",
    "Condition": "affray.rulesystems.mst2.state",
    "DuelResult": "affray.rulesystems.mst2.duels",
    "Engagement": "affray.rulesystems.mst2.reach",
    "Fighter": "affray.rulesystems.mst2.fighter",
    "FighterState": "affray.rulesystems.mst2.state",
    "Grip": "affray.rulesystems.mst2.catalog",
    "HazardResult": "affray.rulesystems.mst2.hazards",
    "HealingResult": "affray.rulesystems.mst2.healing",
    "HitDice": "affray.rulesystems.mst2.fighter",
    "Lethality": "affray.rulesystems.mst2.state",
    "MELEE": "affray.rulesystems.mst2.attacks",
    "MISSILES": "affray.rulesystems.mst2.catalog",
    "MeleeResult": "affray.rulesystems.mst2.reach",
    "Missile": "affray.rulesystems.mst2.catalog",
    "Pool": "affray.rulesystems.mst2.catalog",
    "RANGED": "affray.rulesystems.mst2.attacks",
    "RangedResult": "affray.rulesystems.mst2.ranged",
    "Reach": "affray.rulesystems.mst2.catalog",
    "Setting": "affray.rulesystems.mst2.healing",
    "Target": "affray.rulesystems.mst2.ranged",
    "Turn": "affray.rulesystems.mst2.duels",
    "WEAPONS": "affray.rulesystems.mst2.catalog",
    "Weapon": "affray.rulesystems.mst2.catalog",
    "WoundOutcome": "affray.rulesystems.mst2.shock",
    "armor": "affray.rulesystems.mst2.catalog",
    "burn": "affray.rulesystems.mst2.hazards",
    "can_ever_wound": "affray.rulesystems.mst2.duels",
    "circumstance": "affray.rulesystems.mst2.catalog",
    "duel_turns": "affray.rulesystems.mst2.duels",
    "fall": "affray.rulesystems.mst2.hazards",
    "flee": "affray.rulesystems.mst2.reach",
    "hit_die": "affray.rulesystems.mst2.catalog",
    "in_reach": "affray.rulesystems.mst2.reach",
    "largest_circumstance": "affray.rulesystems.mst2.catalog",
    "melee_attack": "affray.rulesystems.mst2.reach",
    "missile": "affray.rulesystems.mst2.catalog",
    "non_combat_action": "affray.rulesystems.mst2.reach",
    "opening_distance": "affray.rulesystems.mst2.reach",
    "parse_pool": "affray.rulesystems.mst2.fighter",
    "poison": "affray.rulesystems.mst2.hazards",
    "pool_text": "affray.rulesystems.mst2.catalog",
    "ranged_attack": "affray.rulesystems.mst2.ranged",
    "rest_one_day": "affray.rulesystems.mst2.healing",
    "shock_check": "affray.rulesystems.mst2.shock",
    "strike": "affray.rulesystems.mst2.attacks",
    "suffer_wounds": "affray.rulesystems.mst2.shock",
    "take_counter_attacks": "affray.rulesystems.mst2.reach",
    "tenacity": "affray.rulesystems.mst2.catalog",
    "weapon": "affray.rulesystems.mst2.catalog",
}
"""Each name this package exports, and the module it is in (loaded on first use, so
that loading one module of the system, such as its CLI group, stays quick)."""

__getattr__ = exports(__name__, _WHERE)

__all__ = [
    "ARMORS",
    "CIRCUMSTANCES",
    "COUNTER",
    "MELEE",
    "MISSILES",
    "RANGED",
    "WEAPONS",
    "ActionResult",
    "Armor",
    "AttackResult",
    "Circumstance",
    "Condition",
    "DuelResult",
    "Engagement",
    "Fighter",
    "FighterState",
    "Grip",
    "HazardResult",
    "HealingResult",
    "HitDice",
    "Lethality",
    "MeleeResult",
    "Missile",
    "Pool",
    "RangedResult",
    "Reach",
    "Setting",
    "Target",
    "Turn",
    "Weapon",
    "WoundOutcome",
    "armor",
    "attack",
    "burn",
    "can_ever_wound",
    "circumstance",
    "duel",
    "duel_turns",
    "fall",
    "flee",
    "hit_die",
    "in_reach",
    "largest_circumstance",
    "melee_attack",
    "missile",
    "non_combat_action",
    "opening_distance",
    "parse_pool",
    "poison",
    "pool_text",
    "ranged_attack",
    "rest_one_day",
    "shock_check",
    "strike",
    "suffer_wounds",
    "take_counter_attacks",
    "tenacity",
    "weapon",
]
