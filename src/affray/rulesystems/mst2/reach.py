"""Reach, engagement distance and free counter-attacks (sections *Reach and
counter-attacks*, *Disengaging and retreating*, *Other actions in melee*).

Two engaged fighters stand at a distance equal to some weapon's reach. A rule
decision (docs/rules/mst2.md): an attacker whose reach differs from the distance — shorter (it must
close in) or longer (the defender has closed in, so it must disengage) — first
takes the defender's free counter-attack. A hit prevents the attack (its wounds
and shock check still apply); a miss moves the distance to the attacker's reach
and the attack goes ahead. Counter-attacks never provoke counter-attacks.

A foe can counter only while its weapon reaches: its reach is at least the
distance (section *Disengaging*: "out of reach ... no counter-attack").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from affray.dice import Dice
from affray.events import Event
from affray.rulesystems.mst2.attacks import COUNTER, MELEE, AttackResult, attack
from affray.rulesystems.mst2.catalog import Circumstance, Reach
from affray.rulesystems.mst2.events import (
    ActionTaken,
    AttackPrevented,
    CounterAttackGranted,
    DistanceChanged,
    Fled,
    OutOfReach,
)
from affray.rulesystems.mst2.fighter import Fighter
from affray.rulesystems.mst2.state import Condition, FighterState, Lethality


@dataclass(frozen=True, slots=True)
class MeleeResult:
    """A melee attack with its possible counter-attack."""

    attacker: FighterState
    defender: FighterState
    distance: Reach
    prevented: bool
    counter: AttackResult | None
    attack: AttackResult | None
    events: tuple[Event, ...]


def opening_distance(a: Fighter, b: Fighter) -> Reach:
    """Where a fight starts: at the longer of the two reaches (docs/rules/mst2.md)."""
    return max(a.reach, b.reach)


def melee_attack(
    attacker: Fighter,
    attacker_state: FighterState,
    defender: Fighter,
    defender_state: FighterState,
    distance: Reach,
    dice: Dice,
    *,
    circumstances: Sequence[Circumstance] = (),
    lethality: Lethality = Lethality.STANDARD,
) -> MeleeResult:
    """A melee attack at engagement ``distance``, with the reach counter-attack rule.

    Dice order: the defender's counter-attack first when one is due (its d20,
    power dice and the attacker's hit dice), then the attack itself.
    """
    events: list[Event] = []
    counter: AttackResult | None = None
    if attacker.reach != distance and defender_state.fighting:
        reason = "closing in" if attacker.reach < distance else "disengaging"
        events.append(CounterAttackGranted(defender.name, attacker.name, reason))
        counter = attack(
            defender, attacker, attacker_state, dice, mode=COUNTER, lethality=lethality
        )
        events.extend(counter.events)
        attacker_state = counter.defender
        if counter.hit or not attacker_state.fighting:
            events.append(AttackPrevented(attacker.name, defender.name, "attack"))
            return MeleeResult(
                attacker_state, defender_state, distance, True, counter, None, tuple(events)
            )
        how = "closed in" if attacker.reach < distance else "disengaged"
        events.append(
            DistanceChanged(attacker.name, defender.name, distance.label, attacker.reach.label, how)
        )
        distance = attacker.reach
    elif attacker.reach != distance:
        distance = attacker.reach
    result = attack(
        attacker,
        defender,
        defender_state,
        dice,
        mode=MELEE,
        circumstances=circumstances,
        lethality=lethality,
    )
    events.extend(result.events)
    return MeleeResult(
        attacker_state, result.defender, distance, False, counter, result, tuple(events)
    )


@dataclass(frozen=True, slots=True)
class Engagement:
    """An engaged foe, its current state, and the distance between the two."""

    foe: Fighter
    foe_state: FighterState
    distance: Reach


@dataclass(frozen=True, slots=True)
class CountersResult:
    """Free counter-attacks taken from engaged foes."""

    state: FighterState
    hits: int
    events: tuple[Event, ...]


def in_reach(foe: Fighter, distance: Reach) -> bool:
    """Whether ``foe``'s weapon reaches a fighter at ``distance``."""
    return foe.reach >= distance


def take_counter_attacks(
    fighter: Fighter,
    state: FighterState,
    engaged: Sequence[Engagement],
    dice: Dice,
    *,
    reason: str,
    lethality: Lethality = Lethality.STANDARD,
) -> CountersResult:
    """Each engaged foe that is fighting and in reach makes a free counter-attack,
    in the order given, until ``fighter`` is out of the fight."""
    events: list[Event] = []
    hits = 0
    for engagement in engaged:
        if not state.fighting:
            break
        if not engagement.foe_state.fighting:
            continue
        if not in_reach(engagement.foe, engagement.distance):
            events.append(OutOfReach(engagement.foe.name, fighter.name, engagement.distance.label))
            continue
        events.append(CounterAttackGranted(engagement.foe.name, fighter.name, reason))
        result = attack(engagement.foe, fighter, state, dice, mode=COUNTER, lethality=lethality)
        events.extend(result.events)
        state = result.defender
        hits += result.hit
    return CountersResult(state, hits, tuple(events))


@dataclass(frozen=True, slots=True)
class ActionResult:
    """A flight or non-combat action under counter-attack: did it happen?"""

    state: FighterState
    performed: bool
    events: tuple[Event, ...]


def flee(
    fighter: Fighter,
    state: FighterState,
    engaged: Sequence[Engagement],
    dice: Dice,
    *,
    lethality: Lethality = Lethality.STANDARD,
) -> ActionResult:
    """Disengage and flee: every engaged foe in reach counter-attacks; a fighter
    still fighting afterwards gets away (a hit alone does not stop the flight)."""
    counters = take_counter_attacks(
        fighter, state, engaged, dice, reason="fleeing", lethality=lethality
    )
    if not counters.state.fighting:
        return ActionResult(counters.state, False, counters.events)
    return ActionResult(
        counters.state.becomes(Condition.FLED), True, (*counters.events, Fled(fighter.name))
    )


def non_combat_action(
    fighter: Fighter,
    state: FighterState,
    action: str,
    engaged: Sequence[Engagement],
    dice: Dice,
    *,
    counter_prevents: bool = False,
    lethality: Lethality = Lethality.STANDARD,
) -> ActionResult:
    """A non-combat action (a spell, a potion, ...) while engaged: each foe in reach
    gets a free counter-attack. The text does not say a hit stops the action, so
    by default only being taken out does; ``counter_prevents`` makes any hit stop it."""
    counters = take_counter_attacks(
        fighter, state, engaged, dice, reason=f"non-combat action ({action})", lethality=lethality
    )
    performed = counters.state.fighting and not (counter_prevents and counters.hits)
    events: list[Event] = list(counters.events)
    if not performed and counters.state.fighting:
        events.append(AttackPrevented(fighter.name, "counter-attack", action))
    events.append(ActionTaken(fighter.name, action, performed))
    return ActionResult(counters.state, performed, tuple(events))
