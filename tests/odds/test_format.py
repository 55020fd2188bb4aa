"""Odds as text for people: percentages and the one-line summary of an attack."""

from __future__ import annotations

from fractions import Fraction

import pytest

from affray.odds import percent
from affray.rulesystems.mst2.odds import attack_odds
from tests.helpers import make_fighter


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (Fraction(0), "0.0%"),
        (Fraction(1), "100.0%"),
        (Fraction(1, 3), "33.3%"),
        (Fraction(1, 1000), "0.1%"),
        (Fraction(1, 2160), "0.0463%"),  # below 0.1%: three significant digits
        (0.25, "25.0%"),
    ],
)
def test_percent(p: Fraction | float, text: str) -> None:
    assert percent(p) == text


def test_cli_output_percent_is_the_library_one() -> None:
    from affray.cli.output import percent as cli_percent

    assert cli_percent(Fraction(1, 2160)) == "0.0463%"
    assert cli_percent(Fraction(5, 12)) == percent(Fraction(5, 12))


def test_attack_summary_by_hand() -> None:
    # Skill +3 against leather (evasion 13): d20 + 3 > 13 on faces 11..20, so 1/2.
    # A dagger's d6 beats protection 1 on 2..6: wound 1/2 * 5/6 = 5/12.
    # One wound takes out a 1d6 defender who rolls a 1: 5/12 * 1/6 = 5/72.
    attacker = make_fighter("A", skill=3, weapon_name="dagger")
    defender = make_fighter("D", armor_name="leather", hit_dice="1d6")
    odds = attack_odds(attacker, defender)
    assert (odds.p_hit, odds.p_wound, odds.p_out) == (
        Fraction(1, 2),
        Fraction(5, 12),
        Fraction(5, 72),
    )
    assert odds.summary() == "hit 50.0%, wound 41.7%, takes out 6.9%"


def test_attack_summary_of_a_sure_hit_on_plate_and_shield() -> None:
    # Skill +20 always beats evasion 7 - 1 = 6; the d6 beats protection 4 + 1 = 5 only on a 6,
    # and that one wound takes out a 1d6 defender who rolls a 1: 1/6 * 1/6 = 1/36.
    attacker = make_fighter("A", skill=20, weapon_name="dagger")
    defender = make_fighter("D", armor_name="plate mail", shield=True)
    odds = attack_odds(attacker, defender)
    assert (odds.p_hit, odds.p_wound, odds.p_out) == (Fraction(1), Fraction(1, 6), Fraction(1, 36))
    assert odds.summary() == "hit 100.0%, wound 16.7%, takes out 2.8%"
