"""Midian character sheets: keys (docs/sheets.md), validation and the Character they build."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from affray.dice import parse
from affray.errors import SheetError
from affray.quoting import quoted
from affray.rulesystems.midian.character import (
    DAMAGE_TYPES,
    UNARMED,
    Character,
    Encumbrance,
    Experience,
)
from affray.rulesystems.midian.character import Shield as MidianShield
from affray.rulesystems.midian.character import Weapon as MidianWeapon
from affray.sheets.validation import Name60, Name80, Strict, blame


class MidianAttributes(Strict):
    strength: int = Field(ge=1, le=100)
    agility: int = Field(ge=1, le=100)
    wits: int = Field(ge=1, le=100)
    willpower: int = Field(ge=1, le=100)
    stamina: int = Field(ge=1, le=100)
    speed: int | None = Field(default=None, ge=0, le=100)
    awareness: int | None = Field(default=None, ge=1, le=100)
    grace: int | None = Field(default=None, ge=1, le=100)
    appearance: int | None = Field(default=None, ge=1, le=100)
    intellect: int | None = Field(default=None, ge=1, le=100)
    luck: int | None = Field(default=None, ge=1, le=100)


Encumbrances = Literal["none", "light", "medium", "heavy", "very heavy", "heroic"]


class MidianWeaponTable(Strict):
    """``{ name = "Claymore", damage = "2d6", type = "hacking", hands = 2, ... }``."""

    name: Name60
    damage: str = Field(min_length=1, max_length=100)
    type: str = Field(min_length=1, max_length=30)
    hands: Literal[1, 2] = 1
    two_hand_grip: bool = False
    skill: int = Field(default=0, ge=0, le=20)
    encumbrance: Encumbrances = "light"
    reach: Literal["close", "mid", "far"] = "mid"
    ranged: Literal["hurled", "device"] | None = None
    range_increment: int | None = Field(default=None, ge=1, le=10_000)
    extra_damage: int = Field(default=0, ge=-50, le=100)


class MidianShieldTable(Strict):
    armour_class: int = Field(default=1, ge=0, le=10)
    skill: int = Field(default=0, ge=0, le=20)
    encumbrance: Encumbrances = "light"


class MidianArmourTable(Strict):
    encumbrance: Encumbrances = "none"
    trained: bool = True


class MidianSheet(Strict):
    """The keys of a Midian character sheet (docs/sheets.md)."""

    system: Literal["midian"]
    name: Name80
    attributes: MidianAttributes
    attack_bonus: int = Field(default=0, ge=-50, le=50)
    damage_bonus: int = Field(default=0, ge=-50, le=100)
    initiative_bonus: int = Field(default=0, ge=-50, le=50)
    armour_class: int = Field(default=5, ge=0, le=60)
    damage_reduction: int = Field(default=0, ge=0, le=100)
    resistances: dict[str, int] = Field(default_factory=dict, max_length=20)
    hit_points: int = Field(ge=0, le=10_000)
    life_points: int = Field(ge=1, le=10_000)
    system_shock: int = Field(default=80, ge=0, le=100)
    weapon: MidianWeaponTable | None = None
    dodge: int = Field(default=0, ge=0, le=20)
    shield: MidianShieldTable | None = None
    experience: Literal["never seen", "observed", "veteran"] = "veteran"
    armour: MidianArmourTable | None = None
    grappling: int = Field(default=0, ge=0, le=20)
    ambidextrous: bool = False
    regenerates: bool = False
    natural_armour_class: int = Field(default=5, ge=0, le=60)
    retests: list[Annotated[str, Field(min_length=1, max_length=60)]] = Field(
        default_factory=list, max_length=10
    )
    """Traits that grant a retest (each rerolls a failed roll once per kind of roll)."""
    interrupts: int = Field(default=0, ge=0, le=10)
    off_hand: MidianWeaponTable | None = None
    two_weapon_style: bool = False
    melee_evasion: bool = False


def midian_character(sheet: MidianSheet, where: str | None) -> Character:
    for damage_type, percent in sheet.resistances.items():
        if damage_type not in DAMAGE_TYPES:
            raise SheetError(
                f"unknown damage type {quoted(damage_type)}",
                path=where,
                key=f"resistances.{damage_type}",
                hint=f"damage types are: {', '.join(DAMAGE_TYPES)}",
            )
        if not 0 <= percent <= 1000:
            raise SheetError(
                f"resistance {percent}% is not 0 to 1000",
                path=where,
                key=f"resistances.{damage_type}",
                hint="100 or more is immunity",
            )
    table = sheet.weapon
    if table is not None:
        damage = table.damage
        blame(where, "weapon.damage", lambda: parse(damage))
    weapon = blame(where, "weapon", lambda: _midian_weapon(table)) if table else UNARMED
    second = sheet.off_hand
    if second is not None:
        blame(where, "off_hand.damage", lambda: parse(second.damage))
    off_hand = blame(where, "off_hand", lambda: _midian_weapon(second)) if second else None
    if off_hand is not None:
        if table is None:
            raise SheetError(
                "an off-hand weapon needs a weapon in the main hand",
                path=where,
                key="off_hand",
                hint="add a weapon table, or make this the weapon",
            )
        if sheet.shield is not None:
            raise SheetError(
                "a shield and two weapons need three hands",
                path=where,
                key="off_hand",
                hint="drop the shield or the off-hand weapon",
            )
        blame(where, "off_hand", lambda: _pair(weapon, off_hand))
    shield = (
        MidianShield(
            sheet.shield.armour_class,
            sheet.shield.skill,
            Encumbrance.named(sheet.shield.encumbrance),
        )
        if sheet.shield
        else None
    )
    attributes = {k: v for k, v in sheet.attributes.model_dump().items() if v is not None}
    armour = sheet.armour or MidianArmourTable()
    return blame(
        where,
        "name",
        lambda: Character(
            name=sheet.name,
            attributes=attributes,
            attack_bonus=sheet.attack_bonus,
            damage_bonus=sheet.damage_bonus,
            initiative_bonus=sheet.initiative_bonus,
            armour_class=sheet.armour_class,
            damage_reduction=sheet.damage_reduction,
            resistances=dict(sheet.resistances),
            hit_points=sheet.hit_points,
            life_points=sheet.life_points,
            system_shock=sheet.system_shock,
            weapon=weapon,
            dodge=sheet.dodge,
            shield=shield,
            experience=Experience(sheet.experience),
            armour_encumbrance=Encumbrance.named(armour.encumbrance),
            armour_trained=armour.trained,
            grappling=sheet.grappling,
            ambidextrous=sheet.ambidextrous,
            regenerates=sheet.regenerates,
            natural_armour_class=sheet.natural_armour_class,
            retests=tuple(dict.fromkeys(sheet.retests)),
            interrupts=sheet.interrupts,
            off_hand=off_hand,
            two_weapon_style=sheet.two_weapon_style,
            melee_evasion=sheet.melee_evasion,
        ),
    )


def _midian_weapon(table: MidianWeaponTable) -> MidianWeapon:
    return MidianWeapon(
        name=table.name,
        damage=table.damage,
        type=table.type,
        hands=table.hands,
        two_hand_grip=table.two_hand_grip,
        skill=table.skill,
        encumbrance=Encumbrance.named(table.encumbrance),
        reach={"close": 1, "mid": 2, "far": 3}[table.reach],
        ranged=table.ranged,
        range_increment=table.range_increment,
        extra_damage=table.extra_damage,
    )


def _pair(weapon: MidianWeapon, off_hand: MidianWeapon) -> None:
    """Two weapons: each in one hand, light enough to wield together."""
    from affray.errors import RulesError
    from affray.rulesystems.midian.equipment import check_two_weapons

    if weapon.hands != 1 or off_hand.hands != 1:
        raise RulesError(
            "two weapons must each be wielded in one hand",
            hint="set hands = 1 on weapon and off_hand, or drop the off_hand weapon",
        )
    check_two_weapons(weapon, off_hand)
