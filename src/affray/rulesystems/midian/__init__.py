"""The Midian combat chapter, as pure functions over immutable values.

The most used pieces are re-exported here; each module owns one idea
(``checks``, ``initiative``, ``attack``, ``defence``, ``damage``, ``injury``,
``equipment``, ``situations``, ``hazards``, ``criticals``, ``resolve``,
``ruleset``).
"""

from affray.rulesystems.midian.attack import (
    HitRule,
    armour_class,
    description_bonus,
    over_twenty,
    roll_attack,
)
from affray.rulesystems.midian.character import (
    ATTRIBUTES,
    DAMAGE_TYPES,
    UNARMED,
    Character,
    Encumbrance,
    Experience,
    Shield,
    Weapon,
)
from affray.rulesystems.midian.checks import (
    SaveType,
    challenge,
    check,
    check_with_retests,
    repeat_penalty,
    saving_throw,
)
from affray.rulesystems.midian.criticals import EFFECTS, critical_effect
from affray.rulesystems.midian.damage import damage_modifiers, resist, roll_damage
from affray.rulesystems.midian.defence import DefencePool, Stance, evade, free_parries
from affray.rulesystems.midian.hazards import burn, catches_fire, fall, flaming, torch
from affray.rulesystems.midian.initiative import (
    action_slots,
    initiative_modifiers,
    order_slots,
    roll_initiative,
)
from affray.rulesystems.midian.injury import (
    Health,
    end_of_round,
    heal,
    system_shock_chance,
    take_damage,
    tend_wounds,
)
from affray.rulesystems.midian.modifiers import Modifier
from affray.rulesystems.midian.resolve import AttackOutcome, Rules, Situation, resolve_attack
from affray.rulesystems.midian.ruleset import MidianRuleset
from affray.rulesystems.midian.state import MidianOptions, MidianState
from affray.rulesystems.midian.tactics import MidianAI, MidianTactics

__all__ = [
    "ATTRIBUTES",
    "DAMAGE_TYPES",
    "EFFECTS",
    "UNARMED",
    "AttackOutcome",
    "Character",
    "DefencePool",
    "Encumbrance",
    "Experience",
    "Health",
    "HitRule",
    "MidianAI",
    "MidianOptions",
    "MidianRuleset",
    "MidianState",
    "MidianTactics",
    "Modifier",
    "Rules",
    "SaveType",
    "Shield",
    "Situation",
    "Stance",
    "Weapon",
    "action_slots",
    "armour_class",
    "burn",
    "catches_fire",
    "challenge",
    "check",
    "check_with_retests",
    "critical_effect",
    "damage_modifiers",
    "description_bonus",
    "end_of_round",
    "evade",
    "fall",
    "flaming",
    "free_parries",
    "heal",
    "initiative_modifiers",
    "order_slots",
    "over_twenty",
    "repeat_penalty",
    "resist",
    "resolve_attack",
    "roll_attack",
    "roll_damage",
    "roll_initiative",
    "saving_throw",
    "system_shock_chance",
    "take_damage",
    "tend_wounds",
    "torch",
]
