"""The Midian combat chapter, as pure functions over immutable values.

The most used pieces are re-exported here; each module owns one idea
(``checks``, ``initiative``, ``attack``, ``defence``, ``damage``, ``injury``,
``equipment``, ``situations``, ``hazards``, ``criticals``, ``resolve``,
``ruleset``); beside them the package holds all that is only Midian's: its sheet
model (``sheet``), odds, fast engines (``sim``), narration, CLI group (``cli``),
bestiary, question topics, tactics, and its entry (``system``).

The text is the Midian combat chapter (README, Credits); affray's readings of it, each with
the words it comes from, are in docs/rules/midian.md; sheet keys in docs/sheets.md.
"""

from typing import TYPE_CHECKING

from affray.lazy import exports

if TYPE_CHECKING:
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
    from affray.rulesystems.midian.resolve import AttackOutcome, Readings, Situation, resolve_attack
    from affray.rulesystems.midian.ruleset import MidianRuleset
    from affray.rulesystems.midian.state import MidianOptions, MidianState
    from affray.rulesystems.midian.tactics import MidianAI, MidianTactics

_WHERE = {
    "ATTRIBUTES": "affray.rulesystems.midian.character",
    "AttackOutcome": "affray.rulesystems.midian.resolve",
    "Character": "affray.rulesystems.midian.character",
    "DAMAGE_TYPES": "affray.rulesystems.midian.character",
    "DefencePool": "affray.rulesystems.midian.defence",
    "EFFECTS": "affray.rulesystems.midian.criticals",
    "Encumbrance": "affray.rulesystems.midian.character",
    "Experience": "affray.rulesystems.midian.character",
    "Health": "affray.rulesystems.midian.injury",
    "HitRule": "affray.rulesystems.midian.attack",
    "MidianAI": "affray.rulesystems.midian.tactics",
    "MidianOptions": "affray.rulesystems.midian.state",
    "MidianRuleset": "affray.rulesystems.midian.ruleset",
    "MidianState": "affray.rulesystems.midian.state",
    "MidianTactics": "affray.rulesystems.midian.tactics",
    "Modifier": "affray.rulesystems.midian.modifiers",
    "Readings": "affray.rulesystems.midian.resolve",
    "SaveType": "affray.rulesystems.midian.checks",
    "Shield": "affray.rulesystems.midian.character",
    "Situation": "affray.rulesystems.midian.resolve",
    "Stance": "affray.rulesystems.midian.defence",
    "UNARMED": "affray.rulesystems.midian.character",
    "Weapon": "affray.rulesystems.midian.character",
    "action_slots": "affray.rulesystems.midian.initiative",
    "armour_class": "affray.rulesystems.midian.attack",
    "burn": "affray.rulesystems.midian.hazards",
    "catches_fire": "affray.rulesystems.midian.hazards",
    "challenge": "affray.rulesystems.midian.checks",
    "check": "affray.rulesystems.midian.checks",
    "check_with_retests": "affray.rulesystems.midian.checks",
    "critical_effect": "affray.rulesystems.midian.criticals",
    "damage_modifiers": "affray.rulesystems.midian.damage",
    "description_bonus": "affray.rulesystems.midian.attack",
    "end_of_round": "affray.rulesystems.midian.injury",
    "evade": "affray.rulesystems.midian.defence",
    "fall": "affray.rulesystems.midian.hazards",
    "flaming": "affray.rulesystems.midian.hazards",
    "free_parries": "affray.rulesystems.midian.defence",
    "heal": "affray.rulesystems.midian.injury",
    "initiative_modifiers": "affray.rulesystems.midian.initiative",
    "order_slots": "affray.rulesystems.midian.initiative",
    "over_twenty": "affray.rulesystems.midian.attack",
    "repeat_penalty": "affray.rulesystems.midian.checks",
    "resist": "affray.rulesystems.midian.damage",
    "resolve_attack": "affray.rulesystems.midian.resolve",
    "roll_attack": "affray.rulesystems.midian.attack",
    "roll_damage": "affray.rulesystems.midian.damage",
    "roll_initiative": "affray.rulesystems.midian.initiative",
    "saving_throw": "affray.rulesystems.midian.checks",
    "system_shock_chance": "affray.rulesystems.midian.injury",
    "take_damage": "affray.rulesystems.midian.injury",
    "tend_wounds": "affray.rulesystems.midian.injury",
    "torch": "affray.rulesystems.midian.hazards",
}
"""Each name this package exports, and the module it is in (loaded on first use, so
that loading one module of the system, such as its CLI group, stays quick)."""

__getattr__ = exports(__name__, _WHERE)

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
    "Readings",
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
