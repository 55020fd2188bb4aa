"""The scalar duel engine under the SPEC's duel rules."""

from __future__ import annotations

from affray.dice import RandomDice, ScriptedDice
from affray.rulesystems.mst2 import (
    Condition,
    Fighter,
    HitDice,
    Reach,
    Weapon,
    armor,
    can_ever_wound,
    duel,
)
from tests.helpers import make_fighter

A = make_fighter("A", weapon_name="dagger", hit_dice="1d6")
B = make_fighter("B", weapon_name="spear", hit_dice="1d6")


def test_scripted_duel_turn_by_turn() -> None:
    # Round 1, A's turn: B counters (A closes in from far): miss (2); A hits (16), 1d6 [3] → 1
    # wound on B, shock 6. B's turn: spear at close distance must disengage: A counters: 1
    # misses; B hits 20, 2d8 [8,8] → 2 wounds on A, shock 1 → A is out.
    dice = ScriptedDice([2, 16, 3, 6, 1, 20, 8, 8, 1])
    result = duel(A, B, dice)
    assert result.winner == "b"
    assert result.rounds == 1
    assert result.a.condition is Condition.OUT
    assert result.b.wounds == 1
    assert result.distance is Reach.FAR
    assert dice.remaining == ()


def test_rounds_count_rounds_begun() -> None:
    # A misses twice and B misses; round 2: A hits and takes B out on A's turn.
    equal = make_fighter("E", weapon_name="dagger", hit_dice="1d6")
    dice = ScriptedDice([1, 1, 20, 6, 1])
    result = duel(equal, equal, dice)
    assert (result.winner, result.rounds) == ("a", 2)


def test_draw_when_neither_can_ever_wound() -> None:
    ghost = make_fighter("Ghost", weapon_name="dagger", evasion_bonus=10)  # evasion 25 > 20
    assert not can_ever_wound(ghost, ghost)
    result = duel(ghost, ghost, ScriptedDice([]))
    assert (result.winner, result.rounds) == (None, 0)


def test_protection_can_make_wounds_impossible() -> None:
    tank = make_fighter("Tank", weapon_name="dagger", armor_name="plate mail", shield=True)
    assert tank.protection == 5
    dagger = make_fighter("Dagger", weapon_name="dagger")  # a 6 on the d6 beats 5
    stick = Fighter(
        name="Stick",
        skill=0,
        weapon=Weapon("Stick", Reach.CLOSE, (4,), None),
        armor=armor("none"),
        hit_dice=HitDice((6,)),
    )
    assert can_ever_wound(dagger, tank)
    assert not can_ever_wound(stick, tank)
    assert can_ever_wound(tank, stick)
    # one side can wound: the duel is fought to its end
    result = duel(stick, tank, RandomDice(3))
    assert result.winner == "b"


def test_round_cap_is_a_draw() -> None:
    result = duel(A, A, ScriptedDice([1] * 6), max_rounds=3)
    assert (result.winner, result.rounds) == (None, 3)


def test_seeded_duels_repeat() -> None:
    first = duel(A, B, RandomDice(11))
    second = duel(A, B, RandomDice(11))
    assert first == second
    assert first.winner in ("a", "b")
