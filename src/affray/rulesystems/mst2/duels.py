"""A one-on-one MST-2 duel under the duel rules of docs/rules/mst2.md (the scalar reference engine).

A attacks, then B, alternating, until one is out. The distance starts at the
longer reach; each attack follows :func:`~affray.rulesystems.mst2.reach.melee_attack`
(counter-attacks when the attacker's reach differs from the distance). If
neither side can ever wound the other the duel is a draw at once; a duel also
ends as a draw after ``max_rounds`` rounds (1000 by default). A round is A's
turn then B's, and ``rounds`` counts rounds begun.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from affray.answers import MAX_ROUNDS
from affray.dice import Dice
from affray.events import Event
from affray.rulesystems.mst2.catalog import Reach
from affray.rulesystems.mst2.fighter import Fighter
from affray.rulesystems.mst2.reach import MeleeResult, melee_attack, opening_distance
from affray.rulesystems.mst2.state import FighterState, Lethality


def can_ever_wound(attacker: Fighter, defender: Fighter) -> bool:
    """Whether any roll lets ``attacker`` wound ``defender``: a natural 20 must beat
    evasion and some power die must be able to beat protection."""
    can_hit = 20 + attacker.skill > defender.evasion
    return can_hit and any(sides > defender.protection for sides in attacker.melee_power)


@dataclass(frozen=True, slots=True)
class Turn:
    """One attack in a duel: round number, who attacked, and what happened."""

    round: int
    attacker: str
    result: MeleeResult


@dataclass(frozen=True, slots=True)
class DuelResult:
    """``winner`` is "a", "b" or ``None`` for a draw."""

    winner: str | None
    rounds: int
    a: FighterState
    b: FighterState
    distance: Reach
    events: tuple[Event, ...]


def duel_turns(
    a: Fighter,
    b: Fighter,
    dice: Dice,
    *,
    lethality: Lethality = Lethality.STANDARD,
    max_rounds: int = MAX_ROUNDS,
) -> Iterator[Turn]:
    """Yield each attack of the duel in order, stopping when one fighter is out,
    when neither can wound the other, or after ``max_rounds`` rounds."""
    if not (can_ever_wound(a, b) or can_ever_wound(b, a)):
        return
    states = {"a": FighterState(), "b": FighterState()}
    fighters = {"a": a, "b": b}
    distance = opening_distance(a, b)
    for round_number in range(1, max_rounds + 1):
        for side, other in (("a", "b"), ("b", "a")):
            result = melee_attack(
                fighters[side],
                states[side],
                fighters[other],
                states[other],
                distance,
                dice,
                lethality=lethality,
            )
            states[side], states[other], distance = (
                result.attacker,
                result.defender,
                result.distance,
            )
            yield Turn(round_number, side, result)
            if not (states["a"].fighting and states["b"].fighting):
                return


def duel(
    a: Fighter,
    b: Fighter,
    dice: Dice,
    *,
    lethality: Lethality = Lethality.STANDARD,
    max_rounds: int = MAX_ROUNDS,
    on_turn: Callable[[Turn], None] | None = None,
) -> DuelResult:
    """Fight a duel to its end and report the winner and the number of rounds begun."""
    events: list[Event] = []
    states = {"a": FighterState(), "b": FighterState()}
    distance = opening_distance(a, b)
    rounds = 0
    for turn in duel_turns(a, b, dice, lethality=lethality, max_rounds=max_rounds):
        if on_turn is not None:
            on_turn(turn)
        rounds = turn.round
        other = "b" if turn.attacker == "a" else "a"
        states[turn.attacker], states[other] = turn.result.attacker, turn.result.defender
        distance = turn.result.distance
        events.extend(turn.result.events)
    winner: str | None = None
    if not states["a"].fighting:
        winner = "b"
    elif not states["b"].fighting:
        winner = "a"
    return DuelResult(winner, rounds, states["a"], states["b"], distance, tuple(events))
