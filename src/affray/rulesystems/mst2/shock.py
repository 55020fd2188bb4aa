"""Wounds, the shock check and what a failure means (sections *Overview*, *Wounds*).

A rule decision (docs/rules/mst2.md): one shock check per attack (or other source) that inflicts at
least one wound, made against the new total; the fighter keeps fighting when
the hit-dice total plus bonus is strictly greater than the total wounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from affray.dice import Dice
from affray.events import Event
from affray.rulesystems.mst2.events import ShockChecked, Succumbed, Wounded
from affray.rulesystems.mst2.fighter import Fighter
from affray.rulesystems.mst2.state import Condition, FighterState, Lethality


def shock_check(fighter: Fighter, wounds: int, dice: Dice, *, check: int = 1) -> ShockChecked:
    """Roll ``fighter``'s hit dice against ``wounds``; passed when the total exceeds them."""
    label = "shock check" if check == 1 else "second shock check"
    rolled = dice.roll_pool(fighter.hit_dice.pool, f"{fighter.name}'s {label}, hit die")
    total = sum(die.face for die in rolled) + fighter.hit_dice.bonus
    return ShockChecked(
        fighter.name, check, rolled, fighter.hit_dice.bonus, total, wounds, total > wounds
    )


@dataclass(frozen=True, slots=True)
class WoundOutcome:
    """The state after wounds are taken, the events, and the first shock total (if any)."""

    state: FighterState
    events: tuple[Event, ...]
    shock_total: int | None


def suffer_wounds(
    fighter: Fighter,
    state: FighterState,
    wounds: int,
    dice: Dice,
    *,
    source: str,
    lethality: Lethality = Lethality.STANDARD,
) -> WoundOutcome:
    """Add ``wounds`` and, if any were taken by a fighter still fighting, check for shock.

    A fighter already out of the fight takes the wounds without a further check:
    the text gives none, so what more wounds do to a fallen fighter is the game
    master's call (see docs/rules/mst2.md).
    """
    if wounds <= 0:
        return WoundOutcome(state, (), None)
    state = state.wounded(wounds)
    events: list[Event] = [Wounded(fighter.name, source, wounds, state.wounds)]
    if not state.fighting:
        return WoundOutcome(state, tuple(events), None)
    first = shock_check(fighter, state.wounds, dice)
    events.append(first)
    if not first.passed:
        condition = _succumb(fighter, state.wounds, first, dice, lethality, events)
        state = state.becomes(condition)
        events.append(Succumbed(fighter.name, condition, lethality))
    return WoundOutcome(state, tuple(events), first.total)


def _succumb(
    fighter: Fighter,
    wounds: int,
    first: ShockChecked,
    dice: Dice,
    lethality: Lethality,
    events: list[Event],
) -> Condition:
    if lethality is Lethality.HIGH:
        return Condition.DEAD
    if lethality is Lethality.STANDARD:
        return Condition.OUT
    second = shock_check(fighter, wounds, dice, check=2)
    events.append(second)
    if second.passed:
        return Condition.INCAPACITATED
    if second.total > first.total:
        return Condition.DYING
    return Condition.DEAD
