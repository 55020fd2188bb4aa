"""Ranged attacks (section *Ranged attacks*).

A rule decision (docs/rules/mst2.md) on the scatter: the d20's face decides. An even face is checked
against the intended target. On an odd face, the actual target is drawn
uniformly among the intended target and the combatants near it (a die with one
side per candidate, rolled only when there is more than one), then checked
against that one's evasion. A shooter engaged in melee first takes a free
counter-attack from each engaged foe in reach; any hit prevents the shot.

Dice order: the counter-attacks (if engaged), the d20, the scatter die (odd face
and someone near), the missile's power dice, then the victim's hit dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from affray.dice import Dice
from affray.errors import RulesError
from affray.events import Event
from affray.rulesystems.mst2.attacks import RANGED, AttackResult, attack_roll, strike
from affray.rulesystems.mst2.catalog import Circumstance
from affray.rulesystems.mst2.events import AttackPrevented, TargetScattered
from affray.rulesystems.mst2.fighter import Fighter
from affray.rulesystems.mst2.reach import Engagement, take_counter_attacks
from affray.rulesystems.mst2.state import FighterState, Lethality


@dataclass(frozen=True, slots=True)
class Target:
    fighter: Fighter
    state: FighterState


@dataclass(frozen=True, slots=True)
class RangedResult:
    """A ranged attack. ``victim`` indexes the candidates: 0 is the intended target,
    ``i`` is ``nearby[i - 1]``; ``None`` when the shot was prevented."""

    shooter: FighterState
    prevented: bool
    victim: int | None
    attack: AttackResult | None
    events: tuple[Event, ...]


def ranged_attack(
    shooter: Fighter,
    shooter_state: FighterState,
    target: Target,
    dice: Dice,
    *,
    nearby: Sequence[Target] = (),
    engaged: Sequence[Engagement] = (),
    circumstances: Sequence[Circumstance] = (),
    extra_power: bool = False,
    lethality: Lethality = Lethality.STANDARD,
) -> RangedResult:
    """Shoot (or throw) at ``target``.

    Args:
        nearby: combatants near the target, who may be hit on an odd roll.
        engaged: foes in melee with the shooter, who get counter-attacks.
        extra_power: whether the shooter's extra power dice (a large or
            powerful combatant's) add to the missile; off by default, since
            the missile table gives a missile's power on its own.

    Raises:
        RulesError: the shooter has no missile weapon.
    """
    if shooter.missile is None:
        raise RulesError(
            f"{shooter.name} has no missile weapon", hint="give the sheet a 'missile' key"
        )
    events: list[Event] = []
    if engaged:
        counters = take_counter_attacks(
            shooter,
            shooter_state,
            engaged,
            dice,
            reason="shooting while engaged",
            lethality=lethality,
        )
        events.extend(counters.events)
        shooter_state = counters.state
        if counters.hits or not shooter_state.fighting:
            events.append(AttackPrevented(shooter.name, "counter-attack", "ranged attack"))
            return RangedResult(shooter_state, True, None, None, tuple(events))
    natural = attack_roll(shooter, target.fighter.name, dice, RANGED)
    victim = 0
    candidates = (target, *nearby)
    if natural.face % 2 == 1 and len(candidates) > 1:
        pick = dice.roll(len(candidates), f"{shooter.name}'s stray shot: who is in the way")
        victim = pick.face - 1
        events.append(
            TargetScattered(
                shooter.name,
                target.fighter.name,
                candidates[victim].fighter.name,
                tuple(c.fighter.name for c in candidates),
                pick,
            )
        )
    chosen = candidates[victim]
    power = shooter.missile.power + (shooter.extra_power if extra_power else ())
    result = strike(
        shooter,
        chosen.fighter,
        chosen.state,
        natural,
        dice,
        mode=RANGED,
        power=power,
        circumstances=circumstances,
        lethality=lethality,
    )
    events.extend(result.events)
    return RangedResult(shooter_state, False, victim, result, tuple(events))
