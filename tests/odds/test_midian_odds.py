"""Exact odds of one Midian attack against every die enumerated through the library's
own attack (``resolve_attack``), path by path."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from affray.dice import Dice
from affray.rulesystems.midian.character import Character, Shield
from affray.rulesystems.midian.injury import Health
from affray.rulesystems.midian.odds import attack_odds, enumerate_dice
from affray.rulesystems.midian.resolve import resolve_attack
from affray.sheets import load_sheet
from tests.helpers import EXAMPLES, run_json
from tests.rules.midian.helpers import character, weapon

BRAWLER = load_sheet(EXAMPLES / "midian/brawler.toml")
GUARD = load_sheet(EXAMPLES / "midian/guard.toml")
KNIFE = character(
    "Knife", attack_bonus=3, damage_bonus=1, weapon=weapon(name="Knife", damage="1d4", skill=2)
)
TARGET = character(
    "Target",
    armour_class=11,
    damage_reduction=1,
    resistances={"hacking": 25},
    weapon=weapon(name="Club", damage="1d6", type="smashing", skill=1),
    shield=Shield(armour_class=1, skill=1),
    dodge=1,
)


def brute_force(
    attacker: Character, defender: Character, health: Health, *, defend: bool
) -> dict[str, object]:
    """Every die of ``resolve_attack``, path by path: the SPEC's figures."""

    def play(dice: Dice) -> tuple[bool, bool, bool, bool, int, bool]:
        out = resolve_attack(attacker, defender, health, dice, defend=defend)
        down = not out.health.fighting
        return out.hit, out.critical, out.fumble, out.defended, out.damage, down

    paths = enumerate_dice(play, limit=1_000_000)

    def p(test: object) -> Fraction:
        return sum((q for key, q in paths.items() if test(key)), Fraction(0))  # type: ignore[operator]

    damage: dict[int, Fraction] = {}
    for key, q in paths.items():
        damage[key[4]] = damage.get(key[4], Fraction(0)) + q
    return {
        "p_hit": p(lambda k: k[0]),
        "p_critical": p(lambda k: k[1]),
        "p_fumble": p(lambda k: k[2]),
        "p_defended": p(lambda k: k[3]),
        "damage": {k: v for k, v in damage.items() if v},
        "p_defender_down": p(lambda k: k[5]),
    }


def exact(
    attacker: Character, defender: Character, health: Health, *, defend: bool
) -> dict[str, object]:
    odds = attack_odds(attacker, defender, health=health, defend=defend)
    return {
        "p_hit": odds.p_hit,
        "p_critical": odds.p_critical,
        "p_fumble": odds.p_fumble,
        "p_defended": odds.p_defended,
        "damage": dict(odds.damage),
        "p_defender_down": odds.p_defender_down,
    }


CASES = [
    # fresh defenders: no Willpower or system shock
    (BRAWLER, GUARD, None, True),
    (KNIFE, TARGET, None, True),
    (KNIFE, TARGET, None, False),
    # 2 hit points left: a Willpower check (2d20) when they are gone
    (KNIFE, TARGET, {"hit_points": 2}, False),
    # at 0 life points: system shock (d100) on any damage
    (KNIFE, TARGET, {"hit_points": 0, "life_points": 0}, False),
    pytest.param(KNIFE, TARGET, {"hit_points": 0, "life_points": -3}, True, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("attacker", "defender", "state", "defend"), CASES)
def test_exact_odds_equal_every_die_through_resolve_attack(
    attacker: Character, defender: Character, state: dict[str, int] | None, defend: bool
) -> None:
    health = replace(Health.fresh(defender), **(state or {}))
    assert exact(attacker, defender, health, defend=defend) == brute_force(
        attacker, defender, health, defend=defend
    )


def test_a_spent_pool_and_a_shaken_attacker_as_resolve_attack_has_them() -> None:
    """No free parry or block left (a defence costs the one action left), and the
    attacker at -3 from shock: every die through resolve_attack agrees."""
    from affray.rulesystems.midian.defence import DefencePool

    health = replace(Health.fresh(TARGET), hit_points=3, shock=2)
    pool = replace(DefencePool.fresh(TARGET), parries=0, blocks=0)
    odds = attack_odds(KNIFE, TARGET, health=health, pool=pool, attacker_penalty=3)

    def play(dice: Dice) -> tuple[bool, int, bool]:
        out = resolve_attack(KNIFE, TARGET, health, dice, pool=pool, attacker_penalty=3)
        return out.defended, out.damage, not out.health.fighting

    paths = enumerate_dice(play, limit=1_000_000)
    assert odds.p_defended == sum((q for k, q in paths.items() if k[0]), Fraction(0))
    assert odds.p_defender_down == sum((q for k, q in paths.items() if k[2]), Fraction(0))
    for points, p in odds.damage.items():
        assert p == sum((q for k, q in paths.items() if k[1] == points), Fraction(0))


def test_the_sums_and_a_golden_case() -> None:
    """Knife (+3, 1d4+1) on the target (AC 11 + shield 1): faces 9-18 hit (12 or more),
    19-20 are criticals, 1-2 fumble: 12 faces of 20 hit."""
    odds = attack_odds(KNIFE, TARGET, defend=False)
    assert odds.p_hit == Fraction(12, 20)
    assert odds.p_critical == Fraction(2, 20) and odds.p_fumble == Fraction(2, 20)
    assert odds.p_defended == 0
    assert sum(odds.damage.values()) == 1
    # a plain hit: 1d4+1 = 2..5, less ceil(25%) hacking resistance, less 1 reduction;
    # a 1 on the d4 (2 points) leaves nothing, unless the total is over 20 (face 18:
    # 21, one more point): faces 9-17, a quarter of the time; the 8 misses besides
    assert odds.damage[0] == Fraction(8, 20) + Fraction(9, 20) * Fraction(1, 4)


def test_midian_odds_cli_json() -> None:
    data = run_json(
        "midian",
        "odds",
        str(EXAMPLES / "midian/guard.toml"),
        str(EXAMPLES / "midian/brawler.toml"),
        "--hit-points",
        "3",
    )
    assert set(data) == {
        "p_hit",
        "p_critical",
        "p_fumble",
        "p_defended",
        "damage",
        "p_defender_down",
    }
    odds = attack_odds(GUARD, BRAWLER, health=replace(Health.fresh(BRAWLER), hit_points=3))
    assert data["p_defender_down"] == pytest.approx(float(odds.p_defender_down))
    assert sum(data["damage"].values()) == pytest.approx(1.0)  # type: ignore[union-attr]
