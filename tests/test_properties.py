"""Property tests over the rules' invariants (Hypothesis)."""

from __future__ import annotations

import tomllib
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from affray.dice import RandomDice
from affray.errors import SheetError
from affray.rulesystems.midian.damage import resist
from affray.rulesystems.mst2 import (
    ARMORS,
    WEAPONS,
    Fighter,
    FighterState,
    Grip,
    HitDice,
    attack,
    duel,
)
from affray.rulesystems.mst2.odds import attack_odds, duel_odds
from affray.sheets import encounter_from_data, sheet_from_data
from tests.helpers import EXAMPLES

hit_dice = st.builds(
    HitDice,
    st.lists(st.sampled_from([4, 6, 8, 10, 12]), min_size=1, max_size=3).map(tuple),
    st.integers(0, 2),
)


@st.composite
def fighters(draw: st.DrawFn) -> Fighter:
    weapon = draw(st.sampled_from(list(WEAPONS.values())))
    grip = draw(st.sampled_from(weapon.grips))
    shield = grip is Grip.ONE_HANDED and draw(st.booleans())
    return Fighter(
        name=draw(st.sampled_from(["A", "B"])),
        skill=draw(st.integers(0, 8)),
        weapon=weapon,
        armor=draw(st.sampled_from(list(ARMORS.values()))),
        hit_dice=draw(hit_dice),
        grip=grip,
        shield=shield,
        evasion_bonus=draw(st.integers(0, 3)),
        extra_power=draw(st.sampled_from([(), (6,)])),
    )


@settings(max_examples=60, deadline=None)
@given(fighters(), fighters(), st.integers(0, 6))
def test_attack_odds_are_a_distribution(a: Fighter, d: Fighter, prior: int) -> None:
    odds = attack_odds(a, d, prior)
    assert sum(odds.wounds.values()) == 1
    assert all(p >= 0 for p in odds.wounds.values())
    assert 0 <= odds.p_out <= odds.p_wound <= odds.p_hit <= 1
    assert max(odds.wounds) <= len(a.melee_power)


@settings(max_examples=25, deadline=None)
@given(fighters(), fighters())
def test_duel_odds_sum_to_one(a: Fighter, b: Fighter) -> None:
    odds = duel_odds(a, b)
    assert odds.p_a_wins + odds.p_b_wins + odds.p_draw == 1
    assert min(odds.p_a_wins, odds.p_b_wins, odds.p_draw) >= 0
    assert sum(odds.winner_wounds["a"].values(), Fraction(0)) == odds.p_a_wins


@settings(max_examples=60, deadline=None)
@given(fighters(), fighters(), st.integers(0, 2**32))
def test_wounds_never_decrease_and_the_fallen_stay_down(a: Fighter, b: Fighter, seed: int) -> None:
    dice = RandomDice(seed)
    state = FighterState()
    for _ in range(30):
        result = attack(a, b, state, dice)
        assert result.defender.wounds >= state.wounds
        assert result.defender.wounds - state.wounds == result.wounds
        if not state.fighting:
            assert not result.defender.fighting
        state = result.defender
    outcome = duel(a, b, RandomDice(seed), max_rounds=50)
    assert outcome.winner in ("a", "b", None)
    assert outcome.rounds <= 50


@given(st.integers(0, 500), st.integers(0, 150), st.integers(0, 150))
def test_resistance_is_monotone_and_never_negative(amount: int, low: int, extra: int) -> None:
    left, removed = resist(amount, low)
    assert left + removed == amount and 0 <= left <= amount
    more, _ = resist(amount, low + extra)
    assert more <= left
    if low >= 100:
        assert left == 0
    if low > 0 and amount > 0:
        assert removed >= 1


# -- sheets: any mangled value is a clean SheetError, never another exception -------------

SHEETS = [
    tomllib.loads(path.read_text())
    for folder in ("mst2", "midian")
    for path in sorted((EXAMPLES / folder).glob("*.toml"))
]
values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=True)
    | st.text(max_size=12)
    | st.sampled_from(["sword", "2d6", "d", "1d0", "hacking", "plate mail", "two-handed", "heavy"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SHEETS), st.data())
def test_mangled_sheets_fail_cleanly(sheet: dict[str, object], data: st.DataObject) -> None:
    mangled = dict(sheet)
    key = data.draw(st.sampled_from([*sheet, "extra"]))
    mangled[key] = data.draw(values)
    if isinstance(sheet.get("weapon"), dict) and data.draw(st.booleans()):
        weapon = dict(sheet["weapon"])  # type: ignore[arg-type]
        weapon[data.draw(st.sampled_from([*weapon, "extra"]))] = data.draw(values)
        mangled["weapon"] = weapon
    try:
        sheet_from_data(mangled, "fuzz.toml")
    except SheetError as error:
        message = str(error)
    else:
        return
    assert message.startswith("fuzz.toml")


ENCOUNTER_FILES = [
    tomllib.loads(path.read_text()) for path in sorted((EXAMPLES / "encounters").glob("*.toml"))
]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ENCOUNTER_FILES), st.data())
def test_mangled_encounters_fail_cleanly(encounter: dict[str, object], data: st.DataObject) -> None:
    mangled = dict(encounter)
    mangled[data.draw(st.sampled_from([*encounter, "extra"]))] = data.draw(values)
    sides = encounter["sides"]
    assert isinstance(sides, list)
    if data.draw(st.booleans()):
        side = dict(sides[0])
        side[data.draw(st.sampled_from([*side, "extra"]))] = data.draw(values)
        mangled["sides"] = [side, *sides[1:]]
    try:
        encounter_from_data(mangled, "fuzz.toml", base=EXAMPLES / "encounters")
    except SheetError as error:
        message = str(error)
    else:
        return
    assert message.startswith("fuzz.toml")
