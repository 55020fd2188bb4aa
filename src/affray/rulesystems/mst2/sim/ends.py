"""Many fights of one MST-2 encounter, each from its own wounds, each played to its end
by the fast group engine: what a day of fights needs (:mod:`affray.design.day`), where
every fight starts from the wounds the last one left.

The kernel (:func:`.fights_kernel.fight_ends`) plays the fights as the fast engine
plays any fight and leaves each one's wounds, who still fights and who got away. What
kind of out a failed shock check made (the lethality) changes nothing in a fight, so
the kernel does not draw it; it is drawn here, as the rules do
(:func:`affray.rulesystems.mst2.shock.suffer_wounds`): out, dead, or by the text's
second check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from affray.encounter import Cursor, Encounter, Phase
from affray.errors import NotModelledError
from affray.rulesystems.mst2.fighter import Fighter
from affray.rulesystems.mst2.ruleset import Mst2Ruleset
from affray.rulesystems.mst2.sim import fights_kernel as kernel
from affray.rulesystems.mst2.sim.fights import ENGINE, mst2_fast_fights
from affray.rulesystems.mst2.state import Condition, FighterState, Lethality
from affray.rulesystems.mst2.tactics import Mst2Tactics

Mst2Encounter = Encounter[Fighter, FighterState]

_STATIC = slice(0, 14)
"""The kernel's arguments every start shares (sides to the round cap)."""
_SETUP = slice(16, 20)
"""The start's engagements, round, phase and queue: the same for every fight here."""
_TRIES = 100_000
"""Draws of a failed first shock check before its least total is taken."""


def mst2_fight_ends(
    ruleset: Mst2Ruleset,
    cursors: Sequence[Cursor[Fighter, FighterState]],
    /,
    *,
    tactics: Mapping[str, Mst2Tactics],
    seed: int,
) -> list[Mst2Encounter]:
    """The encounter at the end of one fight from each of ``cursors``, the tactics
    choosing every turn, its dice from ``seed``.

    The cursors are one encounter before it starts, its combatants' states differing
    (wounds, and who is down): a day's fight as each day's party comes to it.

    Raises:
        NotModelledError: a cursor is under way, or its combatants differ from the
            first's (the fast engine's fights would not be the same fight).
    """
    if not cursors:
        return []
    first = cursors[0]
    for cursor in cursors:
        if cursor.phase(ruleset) is not Phase.SETUP:
            raise NotModelledError(ENGINE, ("fights of a day that are already under way",))
        same = cursor.encounter.combatants is first.encounter.combatants or (
            cursor.encounter.combatants == first.encounter.combatants
        )
        if not same or cursor.encounter.engagements or cursor.max_rounds != first.max_rounds:
            raise NotModelledError(ENGINE, ("fights of a day that are not the same fight",))
    fights = mst2_fast_fights(ruleset, first, tactics)
    ids = fights.ids
    starts = [cursor.encounter.states for cursor in cursors]
    wounded = np.array([[s[cid].wounds for cid in ids] for s in starts], np.int64)
    fighting = np.array([[int(s[cid].fighting) for cid in ids] for s in starts], np.int64)
    fled = np.zeros_like(wounded)
    rounds = np.zeros(len(cursors), np.int64)
    start_fighting = fighting.copy()
    arrays = fights.arrays
    kernel.fight_ends(seed, *arrays[_STATIC], *arrays[_SETUP], wounded, fighting, fled, rounds)
    generator = np.random.default_rng(seed)
    sheets = [first.encounter.sheet(cid) for cid in ids]
    ends = []
    for k, (cursor, states) in enumerate(zip(cursors, starts, strict=True)):
        changed = {}
        for i, cid in enumerate(ids):
            before = states[cid]
            if fighting[k, i] == 1:
                after = FighterState(int(wounded[k, i]), Condition.FIGHTING)
            elif start_fighting[k, i] == 0:
                after = replace(before, wounds=int(wounded[k, i]))
            elif fled[k, i] == 1:
                after = FighterState(int(wounded[k, i]), Condition.FLED)
            else:
                condition = _succumbed(sheets[i], int(wounded[k, i]), ruleset.lethality, generator)
                after = FighterState(int(wounded[k, i]), condition)
            if after != before:
                changed[cid] = after
        encounter = cursor.encounter
        if changed:
            encounter = replace(encounter, states={**encounter.states, **changed})
        ends.append(encounter)
    return ends


def _succumbed(
    fighter: Fighter, wounds: int, lethality: Lethality, generator: np.random.Generator
) -> Condition:
    """What a failed shock check at ``wounds`` made of ``fighter``, by the lethality
    (``shock._succumb``): the first check is drawn again until it fails (its total
    given that it failed), then the text's second check is rolled."""
    if lethality is Lethality.HIGH:
        return Condition.DEAD
    if lethality is Lethality.STANDARD:
        return Condition.OUT
    first = _total(fighter, generator)
    for _ in range(_TRIES):
        if first <= wounds:
            break
        first = _total(fighter, generator)
    else:  # a check that could hardly fail, failed: its least total
        first = len(fighter.hit_dice.pool) + fighter.hit_dice.bonus
    second = _total(fighter, generator)
    if second > wounds:
        return Condition.INCAPACITATED
    if second > first:
        return Condition.DYING
    return Condition.DEAD


def _total(fighter: Fighter, generator: np.random.Generator) -> int:
    dice = fighter.hit_dice
    return int(sum(int(generator.integers(1, s + 1)) for s in dice.pool)) + dice.bonus
