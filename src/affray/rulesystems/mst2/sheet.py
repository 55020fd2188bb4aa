"""MST-2 fighter sheets: keys (docs/sheets.md), validation and the Fighter they build."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from affray.errors import SheetError
from affray.rulesystems.mst2 import catalog
from affray.rulesystems.mst2.catalog import Grip, Missile, Reach, Weapon
from affray.rulesystems.mst2.fighter import Fighter, HitDice, parse_pool
from affray.sheets.validation import Name60, Name80, Problems, Strict, blame, name_or_table


class WeaponTable(Strict):
    """An inline weapon: ``{ name = "Greatsword", reach = "mid", power = "3d6", hands = 2 }``.

    ``two_handed_power`` makes a weapon usable either way: ``power`` is then its
    one-handed power (``hands`` must be 1).
    """

    name: Name60
    reach: Literal["close", "mid", "far"]
    power: str = Field(min_length=1, max_length=100)
    hands: Literal[1, 2] = 1
    two_handed_power: str | None = Field(default=None, min_length=1, max_length=100)


class MissileTable(Strict):
    """An inline missile: ``{ name = "Javelin", power = "1d8" }``."""

    name: Name60
    power: str = Field(min_length=1, max_length=100)


class Mst2Sheet(Strict):
    """The keys of an MST-2 fighter sheet (docs/sheets.md)."""

    system: Literal["mst2"]
    name: Name80
    skill: int = Field(default=0, ge=0, le=100)
    weapon: name_or_table(WeaponTable, "weapon") = "unarmed"  # type: ignore[valid-type]
    grip: Literal["one-handed", "two-handed"] | None = None
    armor: str = Field(default="none", min_length=1, max_length=40)
    shield: bool = False
    evasion_bonus: int = Field(default=0, ge=-20, le=20)
    hit_dice: str | None = Field(default=None, min_length=1, max_length=100)
    role: str | None = Field(default=None, min_length=1, max_length=40)
    species: str | None = Field(default=None, min_length=1, max_length=40)
    tenacity: str | None = Field(default=None, min_length=1, max_length=40)
    hit_dice_bonus: int | None = Field(default=None, ge=-20, le=100)
    extra_power: str | None = Field(default=None, min_length=1, max_length=100)
    missile: name_or_table(MissileTable, "missile") | None = None  # type: ignore[valid-type]


def mst2_fighter(sheet: Mst2Sheet, where: str | None) -> Fighter:
    problems = Problems(where)  # every problem of the sheet at once
    inline = sheet.weapon
    if isinstance(inline, WeaponTable):
        problems.blame("weapon.power", lambda: parse_pool(inline.power, "weapon power"))
        if inline.two_handed_power is not None:
            two = inline.two_handed_power
            problems.blame("weapon.two_handed_power", lambda: parse_pool(two, "two-handed power"))
    # an inline weapon's power said wrong is said once, not again as its weapon's
    weapon = None if problems.found else problems.blame("weapon", lambda: _weapon(sheet.weapon))
    grip = Grip(sheet.grip) if sheet.grip else None
    if weapon is not None:
        problems.blame("grip", lambda: _grip(weapon, grip, sheet.shield, where))
    armor = problems.blame("armor", lambda: catalog.armor(sheet.armor))
    hit_dice = problems.blame("hit_dice", lambda: _hit_dice(sheet, where))
    extra_text, missile_value = sheet.extra_power, sheet.missile
    extra = (
        problems.blame("extra_power", lambda: parse_pool(extra_text, "extra power"))
        if extra_text
        else ()
    )
    missile = problems.blame("missile", lambda: _missile(missile_value)) if missile_value else None
    problems.check()
    assert weapon is not None and armor is not None and hit_dice is not None
    return blame(
        where,
        "name",
        lambda: Fighter(
            name=sheet.name,
            skill=sheet.skill,
            weapon=weapon,
            armor=armor,
            hit_dice=hit_dice,
            grip=grip,
            shield=sheet.shield,
            evasion_bonus=sheet.evasion_bonus,
            extra_power=extra or (),
            missile=missile,
        ),
    )


def _grip(weapon: Weapon, grip: Grip | None, shield: bool, where: str | None) -> None:
    """Refuse a grip the weapon does not allow, or a shield without a free hand."""
    if grip is not None and grip not in weapon.grips:
        allowed = " or ".join(g.value for g in weapon.grips)
        raise SheetError(
            f"the {weapon.name} cannot be wielded {grip.value}",
            path=where,
            key="grip",
            hint=f"its grip is {allowed}",
        )
    if grip is Grip.TWO_HANDED and shield:
        raise SheetError(
            "a two-handed grip leaves no hand free for the shield",
            path=where,
            key="shield",
            hint='set shield = false or grip = "one-handed"',
        )
    if shield and grip is None and weapon.default_grip is Grip.TWO_HANDED:
        raise SheetError(
            f"the {weapon.name} needs both hands, leaving none for the shield",
            path=where,
            key="shield",
            hint="set shield = false or choose a one-handed weapon",
        )


def _weapon(value: str | WeaponTable) -> Weapon:
    if isinstance(value, str):
        return catalog.weapon(value)
    power = parse_pool(value.power, "weapon power")
    reach = Reach.named(value.reach)
    if value.two_handed_power is not None:
        if value.hands != 1:
            raise SheetError(
                "with two_handed_power, 'power' is the one-handed power, so hands must be 1"
            )
        return Weapon(
            value.name, reach, power, parse_pool(value.two_handed_power, "two-handed power")
        )
    if value.hands == 1:
        return Weapon(value.name, reach, power, None)
    return Weapon(value.name, reach, None, power)


def _missile(value: str | MissileTable) -> Missile:
    if isinstance(value, str):
        return catalog.missile(value)
    return Missile(value.name, parse_pool(value.power, "missile power"))


def _hit_dice(sheet: Mst2Sheet, where: str | None) -> HitDice:
    by_role = [
        k
        for k in ("role", "species", "tenacity", "hit_dice_bonus")
        if getattr(sheet, k) is not None
    ]
    if sheet.hit_dice is not None:
        if by_role:
            raise SheetError(
                "give either hit_dice or role/species with tenacity, not both "
                f"(also found: {', '.join(by_role)})",
                path=where,
                key="hit_dice",
                hint='e.g. hit_dice = "2d10+1", or role = "fighter", tenacity = "veteran", '
                "hit_dice_bonus = 1",
            )
        text = sheet.hit_dice
        return blame(where, "hit_dice", lambda: HitDice.parse(text))
    if sheet.role is not None and sheet.species is not None:
        raise SheetError("give role or species, not both", path=where, key="species")
    creature = sheet.role or sheet.species
    if creature is None:
        raise SheetError(
            "hit dice are missing",
            path=where,
            key="hit_dice",
            hint='add hit_dice = "2d10" or role = "fighter" (with optional tenacity = "veteran")',
        )
    die = blame(where, "role" if sheet.role else "species", lambda: catalog.hit_die(creature))
    count = blame(where, "tenacity", lambda: catalog.tenacity(sheet.tenacity or "standard"))
    return HitDice((die,) * count, sheet.hit_dice_bonus or 0)
