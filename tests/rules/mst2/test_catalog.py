"""The text's tables, pinned (sections Weapons, Armor, Hit dice, Ranged attacks,
Other types of damage and wounds)."""

from __future__ import annotations

import pytest

from affray.errors import RulesError
from affray.rulesystems.mst2 import (
    Grip,
    Reach,
    armor,
    circumstance,
    hit_die,
    largest_circumstance,
    missile,
    pool_text,
    tenacity,
    weapon,
)


@pytest.mark.parametrize(
    ("name", "reach", "one", "two"),
    [
        ("Unarmed", Reach.CLOSE, (6,), None),
        ("dagger", Reach.CLOSE, (6,), None),
        ("Club", Reach.MID, (8,), None),
        ("MACE", Reach.MID, (10,), None),
        ("battle axe", Reach.MID, (8,), (8, 8)),
        ("battle-axe", Reach.MID, (8,), (8, 8)),
        ("Sword", Reach.MID, (6, 6), (6, 6, 6)),
        ("Spear", Reach.FAR, (8, 8), None),
        ("Quarterstaff", Reach.FAR, None, (8,)),
        ("Polearm", Reach.FAR, None, (10, 10)),
    ],
)
def test_weapon_table(
    name: str, reach: Reach, one: tuple[int, ...] | None, two: tuple[int, ...] | None
) -> None:
    found = weapon(name)
    assert (found.reach, found.one_handed, found.two_handed) == (reach, one, two)


def test_grips() -> None:
    assert weapon("sword").default_grip is Grip.ONE_HANDED
    assert weapon("polearm").default_grip is Grip.TWO_HANDED
    with pytest.raises(RulesError, match="cannot be wielded two-handed"):
        weapon("spear").power(Grip.TWO_HANDED)


@pytest.mark.parametrize(
    ("name", "evasion", "protection"),
    [
        ("none", 15, 0),
        ("Leather", 13, 1),
        ("chain mail", 11, 2),
        ("brigandine", 9, 3),
        ("Plate Mail", 7, 4),
    ],
)
def test_armor_table(name: str, evasion: int, protection: int) -> None:
    assert (armor(name).evasion, armor(name).protection) == (evasion, protection)


@pytest.mark.parametrize(
    ("role", "sides"),
    [
        ("child", 4),
        ("Halfling", 4),
        ("halfing", 4),
        ("wizard", 6),
        ("giant spider", 8),
        ("yeti", 10),
        ("ogre", 12),
        ("Dragon", 20),
    ],
)
def test_hit_die_by_role_or_species(role: str, sides: int) -> None:
    assert hit_die(role) == sides


def test_tenacity_counts() -> None:
    names = ["standard", "veteran", "elite", "heroic", "legendary"]
    assert [tenacity(n) for n in names] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    ("name", "power"),
    [
        ("dart", "1d4"),
        ("dagger", "1d4"),
        ("axe", "1d6"),
        ("sling", "2d6"),
        ("short bow", "2d8"),
        ("Long Bow", "2d10"),
        ("crossbow", "2d12"),
    ],
)
def test_missile_table(name: str, power: str) -> None:
    assert pool_text(missile(name).power) == power


def test_only_the_largest_circumstance_applies_in_listed_order() -> None:
    listed = ["helpless", "sneak attack", "critical", "magical", "frenzy", "superior"]
    powers = [pool_text(circumstance(n).power) for n in listed]
    assert powers == ["2d20", "2d12", "1d12", "1d10", "1d8", "1d6"]
    chosen = largest_circumstance(
        (circumstance("frenzy"), circumstance("holy"), circumstance("superior"))
    )
    assert chosen is not None
    assert chosen.key == "magical"
    assert largest_circumstance(()) is None


@pytest.mark.parametrize(
    ("lookup", "name", "listed"),
    [
        (weapon, "laser", "polearm"),
        (armor, "kevlar", "plate mail"),
        (missile, "rock", "long bow"),
        (hit_die, "dentist", "owlbear"),
        (tenacity, "mythic", "legendary"),
        (circumstance, "lucky", "frenzy"),
    ],
)
def test_unknown_names_list_what_is_allowed(lookup: object, name: str, listed: str) -> None:
    with pytest.raises(RulesError, match=f'unknown .*"{name}"') as caught:
        lookup(name)  # type: ignore[operator]
    assert caught.value.hint is not None
    assert listed in caught.value.hint
