"""Exact odds of a two-combatant Midian fight from where it stands (issue 40, item 3):
the exact duel's chain entered from a table's state. Before the fight it is the exact
duel; from states within rounds (turns to come, actions and free defences spent,
shock taken) and between them it agrees with the fast group engine's fights from the
same state (an implementation of its own, checked against the reference engine from
fights stopped half-way); what the chain does not play is refused with the reasons."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from affray.dice import RandomDice
from affray.encounter import Answers, Cursor, Phase
from affray.encounter.cursor import proceed, start
from affray.errors import NotModelledError
from affray.rulesystems.midian.character import Character, Shield
from affray.rulesystems.midian.defence import Stance
from affray.rulesystems.midian.exact_duel import exact_midian_duel
from affray.rulesystems.midian.exact_table import (
    MidianExactFight,
    exact_fight,
    exact_fight_by_round,
    exact_work,
)
from affray.rulesystems.midian.ruleset import MidianRuleset
from affray.rulesystems.midian.sim.fights import midian_fast_fights
from affray.rulesystems.midian.state import MidianState
from affray.rulesystems.midian.tactics import MidianAI, MidianTactics
from affray.sim.encounters import duel_encounter
from affray.sim.fights import REFERENCE
from affray.totals import FightTotals
from tests.rules.midian.helpers import character, weapon

pytestmark = pytest.mark.slow

Here = Cursor[Character, MidianState]
RULES = MidianRuleset()
FIGHTS = 400_000


def fighters() -> tuple[Character, Character]:
    """Two small fighters: a retest, a shield's free block, two actions a round at
    best, serious wounds from the bigger blows."""
    a = character(
        "Ann", hit_points=5, life_points=3, attack_bonus=3, armour_class=11,
        initiative_bonus=6, weapon=weapon(damage="1d4", skill=1), retests=("Lucky",),
        damage_bonus=1,
    )  # fmt: skip
    b = character(
        "Bo", hit_points=6, life_points=2, attack_bonus=2, armour_class=10,
        weapon=weapon(damage="1d6", skill=0), shield=Shield(armour_class=1, skill=1),
    )  # fmt: skip
    return a, b


def fresh() -> Here:
    a, b = fighters()
    return Cursor(duel_encounter(a, b, RULES), max_rounds=1000)


def played(seed: int, moves: int) -> Here:
    """The duel begun and played ``moves`` moves (turns, or a round's end) by the AI
    with random dice."""
    answers = Answers(RandomDice(seed), MidianAI(RULES, RandomDice(seed + 1), {}))
    cursor, _ = start(fresh(), RULES, answers)
    for _ in range(moves):
        if cursor.phase(RULES) is Phase.OVER:
            break
        cursor, _ = proceed(cursor, RULES, answers)
    return cursor


def simulated(cursor: Here, first: tuple[str, str | None] | None = None) -> FightTotals:
    fights = midian_fast_fights(RULES, cursor, {}, first)
    return fights.fights(7, 0, FIGHTS)


def agree(exact: MidianExactFight, totals: FightTotals, sides: tuple[str, str]) -> None:
    n = totals.n
    for side in sides:
        p = exact.p_wins[side]
        sigma = math.sqrt(max(p * (1 - p), 1e-9) / n)
        assert abs(totals.wins.get(side, 0) / n - p) < 4 * sigma, (side, p, totals)
    sigma = math.sqrt(max(exact.p_draw * (1 - exact.p_draw), 1e-9) / n)
    assert abs(totals.draws / n - exact.p_draw) < 4 * sigma
    assert abs(totals.mean_rounds - exact.mean_rounds) < 4 * 3 * exact.mean_rounds / math.sqrt(n)


def test_before_the_fight_it_is_the_exact_duel() -> None:
    a, b = fighters()
    duel = exact_midian_duel(a, b)
    found = exact_fight(RULES, fresh(), {}, None)
    assert found.p_wins["Ann"] == pytest.approx(duel.p_a_wins, abs=1e-15)
    assert found.p_wins["Bo"] == pytest.approx(duel.p_b_wins, abs=1e-15)
    assert found.p_draw == pytest.approx(duel.p_draw, abs=1e-15)
    assert found.mean_rounds == pytest.approx(duel.mean_rounds, abs=1e-12)
    assert sum(found.p_wins.values()) + found.p_draw == pytest.approx(1.0, abs=1e-13)
    assert exact_work(RULES, fresh(), {}, None) > 0


STATES = [(1, 1), (2, 2), (3, 3), (5, 4), (8, 6)]


@pytest.mark.parametrize(("seed", "moves"), STATES)
def test_from_within_and_between_rounds_it_agrees_with_the_fast_engine(
    seed: int, moves: int
) -> None:
    cursor = played(seed, moves)
    if cursor.phase(RULES) is Phase.OVER:
        pytest.fail(f"seed {seed} ended the duel in {moves} moves: choose another")
    found = exact_fight(RULES, cursor, {}, None)
    assert sum(found.p_wins.values()) + found.p_draw == pytest.approx(1.0, abs=1e-13)
    agree(found, simulated(cursor), ("Ann", "Bo"))


def test_the_states_reached_are_of_every_kind() -> None:
    """The states of the test above: turns to come, a turn begun, wounds and shock
    taken, a round's end to come or done."""
    cursors = [played(seed, moves) for seed, moves in STATES]
    assert {c.phase(RULES) for c in cursors} == {Phase.TURN, Phase.ROUND_OVER}
    assert any(c.begun for c in cursors) or any(c.encounter.queue for c in cursors)
    assert any(any(s.health.shock for s in c.encounter.states.values()) for c in cursors)


def test_an_attack_at_the_foe_is_the_tactics_choice_and_a_wait_is_played() -> None:
    cursor = played(3, 3)
    assert cursor.phase(RULES) is Phase.TURN and cursor.current is not None
    foe = next(c.id for c in cursor.encounter.combatants if c.id != cursor.current)
    assert exact_fight(RULES, cursor, {}, ("attack", foe)) == exact_fight(RULES, cursor, {}, None)
    waits = [
        (a.name, a.target)
        for a in RULES.actions(cursor.encounter, cursor.current)
        if a.name == "wait"
    ]
    if waits:
        found = exact_fight(RULES, cursor, {}, waits[0])
        agree(found, simulated(cursor, waits[0]), ("Ann", "Bo"))


def test_what_the_chain_does_not_play_is_refused_with_the_reasons() -> None:
    cursor = played(3, 3)
    assert cursor.phase(RULES) is Phase.TURN
    foe = next(c.id for c in cursor.encounter.combatants if c.id != cursor.current)
    with pytest.raises(NotModelledError, match="the first action 'grapple'"):
        exact_fight(RULES, cursor, {}, ("grapple", foe))
    with pytest.raises(NotModelledError, match="stance"):
        exact_fight(RULES, cursor, {"Ann": MidianTactics(stance=Stance.DEFENSIVE)}, None)
    a, b = fighters()
    three = duel_encounter(a, b, RULES)
    third = replace(three.combatants[0], id="Cy")
    crowd = replace(
        three,
        combatants=(*three.combatants, third),
        states={**three.states, "Cy": three.states["Ann"]},
    )
    with pytest.raises(NotModelledError, match="3 combatants"):
        exact_fight(RULES, Cursor(crowd), {}, None)


SHEET = """system = "midian"
name = "{name}"
attributes = {{ strength = 12, agility = 12, wits = 10, willpower = 11, stamina = 12 }}
attack_bonus = {attack}
armour_class = {ac}
hit_points = {hp}
life_points = 2
weapon = {{ name = "Knife", damage = "1d{die}", type = "hacking", skill = 1 }}
"""


def test_table_odds_of_a_midian_duel_are_exact_with_the_other_moves_simulated(
    tmp_path: Path,
) -> None:
    """``table odds`` on a two-combatant Midian table: the fight's odds exact from the
    turn it stands at, an attack at the foe exact (the tactics' own move: the same
    odds), the moves the chain does not play (a called shot, holding back, fleeing) simulated
    by the fast engine, each with its fights."""
    from affray.table import Start, Store, Tables
    from affray.table.odds import table_odds

    paths = []
    for name, attack, ac, hp, die in (("Ann", 2, 11, 3, 2), ("Bo", 1, 10, 4, 3)):
        path = tmp_path / f"{name}.toml"
        path.write_text(SHEET.format(name=name, attack=attack, ac=ac, hp=hp, die=die))
        paths.append(path)
    tables = Tables(Store(tmp_path / "t.db"))
    row = tables.new("Cellar", "midian", {"max_rounds": 1000})
    for path, side in zip(paths, ("Ann", "Bo"), strict=True):
        tables.run(row, tables.joining(row, str(path), side=side))
    tables.run(row, Start(), seed=4)
    fold = tables.fold(row)
    assert fold.state.phase(fold.rules) is Phase.TURN
    found = table_odds(
        str(tables.store.path), row.id, fold.rules, fold.state, fold.version, n=2000, seed=3
    )
    cursor = fold.state.cursor
    exact = exact_fight(fold.rules.ruleset, replace(cursor, max_rounds=1000), {}, None)
    assert found.exact and found.method == "exact"
    assert found.wins == pytest.approx(dict(exact.p_wins), abs=1e-15)
    who = found.who
    assert who is not None and found.side == who
    foe = "Bo" if who == "Ann" else "Ann"
    attack = next(a for a in found.actions if (a.name, a.target) == ("attack", foe))
    assert attack.n is None and attack.p_win == pytest.approx(found.wins[who], abs=1e-13)
    others = [a for a in found.actions if a.n is not None]
    for a in others:  # the fast engine's, or (a disarm) the reference engine's fewer
        assert (a.n, a.engine) in ((2000, "fast Midian group engine"), (1000, REFERENCE)), a
    assert {a.name for a in others} >= {"called shot easy", "flee", "hold"}
    flee = next(a for a in others if a.name == "flee")
    assert flee.p_win == 0.0  # alone on its side, it leaves the fight to the foe


@pytest.mark.parametrize(("seed", "moves"), [(0, 0), (3, 2), (3, 3), (5, 9)])
def test_the_odds_by_round_in_one_run_are_the_odds_of_each_cap(seed: int, moves: int) -> None:
    """``fight --exact --by-round`` runs the chain once, round by round: the odds with
    the fight's cap at each round equal the chain run again with that cap, from a
    fresh fight, from within a round and from between rounds."""
    here = fresh() if moves == 0 else played(seed, moves)
    assert here.phase(RULES) is not Phase.OVER
    capped = exact_fight_by_round(RULES, here, {}, None)
    first = max(here.round, 1)
    assert len(capped) > 10
    for last, odds in list(enumerate(capped, start=first))[:6]:
        again = exact_fight(RULES, replace(here, max_rounds=last), {}, None)
        assert odds.p_wins == pytest.approx(dict(again.p_wins), abs=1e-14)
        assert odds.p_draw == pytest.approx(again.p_draw, abs=1e-14)
        assert odds.p_going == pytest.approx(again.p_going, abs=1e-14)
        assert odds.p_standing == pytest.approx(dict(again.p_standing), abs=1e-14)
        assert odds.mean_rounds == pytest.approx(again.mean_rounds, abs=1e-12)
    whole = exact_fight(RULES, here, {}, None)
    assert capped[-1].p_wins == pytest.approx(dict(whole.p_wins), abs=1e-14)
    assert capped[-1].p_going < 1e-14
