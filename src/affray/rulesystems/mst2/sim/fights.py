"""The fast MST-2 group engine: whole encounters of any size, tens of thousands of
fights a second, from a fresh encounter or from a table as it stands.

:func:`mst2_fast_fights` reads the fight once (the sheets, the tactics, the ruleset's
options, the cursor: wounds, engagements and their distances, the round, whose turn
and the rest of the round) into arrays; the kernel (:mod:`.fights_kernel`,
whose docstring says what it plays) fights from them. Every chance it draws comes from
the rules library's exact odds (:mod:`..odds.attack`: the hit, the wounds of a
hit, the shock check at each total), so the engines cannot drift apart on them.

What it does not play it refuses (:class:`~affray.errors.NotModelledError`) and the
reference engine plays instead: a chooser other than the tactics AI cannot reach it
(the fast engine is only ever asked for fights the tactics play).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from affray.encounter import Attack, Cursor, Flee, Hold, Phase, Shoot, Targeting
from affray.errors import NotModelledError
from affray.rulesystems.mst2.catalog import Pool, Reach
from affray.rulesystems.mst2.fighter import Fighter, HitDice
from affray.rulesystems.mst2.odds.attack import shock_survival, wound_distribution
from affray.rulesystems.mst2.ruleset import Mst2Ruleset, NonCombat, StepAway, TurnOrder
from affray.rulesystems.mst2.sim import fights_kernel as kernel
from affray.rulesystems.mst2.state import FighterState
from affray.rulesystems.mst2.tactics import Mst2Tactics, Role
from affray.totals import FightTotals, First

ENGINE = "fast MST-2 group engine"
CHUNK = 20_000
"""Fights per seeded chunk."""
SLICE = 500
"""Fights per call of the kernel: between calls Python sees a Ctrl-C."""

_POLICY = {
    Targeting.WEAKEST: kernel.WEAKEST,
    Targeting.RANDOM: kernel.RANDOM,
    Targeting.NEAREST: kernel.NEAREST,
    Targeting.FOCUS: kernel.FOCUS,
}

Ints = kernel.Ints
Floats = kernel.Floats


@cache
def _cumulative(pool: Pool, protection: int, width: int) -> tuple[float, ...]:
    """The cumulative chances of 0, 1, ... wounds of a hit with ``pool``, ``width`` long."""
    chances = wound_distribution(pool, protection).probabilities()
    running = Fraction(0)
    out = []
    for k in range(width):
        running += chances.get(k, Fraction(0))
        out.append(float(running))
    out[-1] = 1.0
    return tuple(out)


@dataclass(frozen=True, slots=True, eq=False)
class Mst2Fights:
    """The fights of one MST-2 starting point, as the kernel's arrays (picklable)."""

    sides: tuple[str, ...]
    ids: tuple[str, ...]
    max_rounds: int
    arrays: tuple[Any, ...] = field(repr=False)
    """The kernel's arguments after ``seed`` and ``size`` and before the outputs."""

    @property
    def engine(self) -> str:
        return ENGINE

    @property
    def chunk(self) -> int:
        return CHUNK

    @property
    def compiles_first(self) -> bool:
        """Whether the first fight compiles the engine (once per machine, ~20 s)."""
        return kernel.needs_compiling()

    def fights(self, entropy: int, index: int, size: int) -> FightTotals:
        """``size`` fights of chunk ``index`` (see :class:`~affray.totals.FastFights`)."""
        stream = np.random.SeedSequence(entropy, spawn_key=(index,))
        seed = int(stream.generate_state(1, np.uint32)[0])
        wins = np.zeros(len(self.sides), np.int64)
        rounds = np.zeros(self.max_rounds + 1, np.int64)
        standing = np.zeros(len(self.ids), np.int64)
        draws = total_rounds = 0
        for done in range(0, size, SLICE):
            part = min(SLICE, size - done)
            # the generator is seeded once a chunk: later slices go on with its numbers
            d, r = kernel.fight_chunk(
                seed if done == 0 else -1, part, *self.arrays, wins, rounds, standing
            )
            draws += d
            total_rounds += r
        return FightTotals(
            size,
            {s: int(w) for s, w in zip(self.sides, wins, strict=True) if w},
            draws,
            total_rounds,
            {r: int(c) for r, c in enumerate(rounds) if c},
            {c: int(k) for c, k in zip(self.ids, standing, strict=True) if k},
        )


def mst2_fast_fights(
    ruleset: Mst2Ruleset,
    cursor: Cursor[Fighter, FighterState],
    tactics: Mapping[str, Mst2Tactics],
    first: First | None = None,
) -> Mst2Fights:
    """The fights from ``cursor``, the combatants playing by ``tactics`` (``first``: the
    action the combatant whose turn it is takes first), ready for the kernel.

    Raises:
        NotModelledError: the fight is over, or ``first`` is not one of the actions
            open to the combatant whose turn it is.
    """
    encounter = cursor.encounter
    phase = cursor.phase(ruleset)
    if phase is Phase.OVER:
        raise NotModelledError(ENGINE, ("a fight that is over",))
    combatants = encounter.combatants
    ids = tuple(c.id for c in combatants)
    sides = encounter.sides
    at = {cid: k for k, cid in enumerate(ids)}
    sheets = [c.sheet for c in combatants]
    count = len(ids)
    pools = [s.melee_power for s in sheets] + [
        _missile_pool(ruleset, s) for s in sheets if s.missile is not None
    ]
    width = max(len(p) for p in pools) + 1
    melee = np.ones((count, count, width))
    shot = np.ones((count, count, width))
    need = np.zeros((count, count), np.int64)
    for i, attacker in enumerate(sheets):
        for j, defender in enumerate(sheets):
            need[i, j] = defender.evasion - attacker.skill
            melee[i, j] = _cumulative(attacker.melee_power, defender.protection, width)
            if attacker.missile is not None:
                shot[i, j] = _cumulative(
                    _missile_pool(ruleset, attacker), defender.protection, width
                )
    most = max(sum(s.hit_dice.pool) + s.hit_dice.bonus for s in sheets)
    survive = np.array([_survival(sheet.hit_dice, max(most, 0) + 2) for sheet in sheets])
    mean = np.array(
        [
            float(sum((Fraction(s + 1, 2) for s in sh.hit_dice.pool), Fraction(sh.hit_dice.bonus)))
            for sh in sheets
        ]
    )
    plans = [tactics.get(cid, Mst2Tactics()) for cid in ids]
    policy = np.array([_POLICY[t.target] for t in plans], np.int64)
    archer = np.array([t.role is Role.ARCHER for t in plans], np.int64)
    retreat = np.array([-1 if t.retreat_at is None else t.retreat_at for t in plans], np.int64)
    side = np.array([sides.index(c.side) for c in combatants], np.int64)
    reach = np.array([int(s.reach) for s in sheets], np.int64)
    missile = np.array([s.missile is not None for s in sheets], np.int64)
    states = [encounter.states[cid] for cid in ids]
    wounds = np.array([s.wounds for s in states], np.int64)
    fighting = np.array([ruleset.fighting(encounter, cid) for cid in ids], np.int64)
    engaged = np.full((count, count), -1, np.int64)
    for pair, label in encounter.engagements.items():
        a, b = sorted(pair, key=at.__getitem__)
        engaged[at[a], at[b]] = engaged[at[b], at[a]] = int(Reach.named(label))
    start_at, queue = kernel.AT_SETUP, np.zeros(0, np.int64)
    if phase is Phase.TURN:
        assert cursor.current is not None
        start_at = kernel.AT_TURN
        queue = np.array([at[c] for c in (cursor.current, *encounter.queue)], np.int64)
    elif phase is Phase.ROUND_OVER:
        start_at = kernel.AT_ROUND_OVER
    action, target = _first(ruleset, cursor, first, at)
    arrays = (
        len(sides),
        side,
        reach,
        missile,
        need,
        melee,
        shot,
        survive,
        mean,
        policy,
        archer,
        retreat,
        int(ruleset.order is TurnOrder.SHUFFLED),
        cursor.max_rounds,
        wounds,
        fighting,
        engaged,
        cursor.round,
        start_at,
        queue,
        action,
        target,
    )
    return Mst2Fights(sides, ids, cursor.max_rounds, arrays)


@cache
def _survival(hit_dice: HitDice, width: int) -> tuple[float, ...]:
    """The chance of passing a shock check at each total of wounds 0 to ``width - 1``
    (kept: a crowd of one sheet asks it once)."""
    return tuple(float(shock_survival(hit_dice, w)) for w in range(width))


def _missile_pool(ruleset: Mst2Ruleset, sheet: Fighter) -> Pool:
    assert sheet.missile is not None
    extra = sheet.extra_power if ruleset.ranged_extra_power else ()
    return sheet.missile.power + extra


def _first(
    ruleset: Mst2Ruleset,
    cursor: Cursor[Fighter, FighterState],
    first: First | None,
    at: Mapping[str, int],
) -> tuple[int, int]:
    """The kernel's code of the first action and its target (-1: none)."""
    if first is None or cursor.current is None:
        return -1, -1
    name, target = first
    for action in ruleset.actions(cursor.encounter, cursor.current):
        if (action.name, action.target) != (name, target):
            continue
        code = {
            Attack: kernel.ATTACK,
            Shoot: kernel.SHOOT,
            StepAway: kernel.STEP_AWAY,
            Flee: kernel.FLEE,
            NonCombat: kernel.NON_COMBAT,
            Hold: kernel.HOLD,
        }.get(type(action))
        if code is None:
            break
        return code, at[target] if target is not None else -1
    raise NotModelledError(ENGINE, (f"the first action {name!r} (target {target!r})",))
