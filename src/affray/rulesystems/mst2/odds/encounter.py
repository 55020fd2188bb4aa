"""Exact odds of small MST-2 encounters: a Markov chain over whole fights, playing
exactly what the reference engine plays, every die summed over instead of rolled.

docs/encounters.md ("Exact odds of small encounters", and "The chain, as the code
has it") says what a state is, how decisions are made, how the families of wounds
grids are swept (here and in :mod:`.encounter_kernel`), how the rounds and the round
cap are counted, and the limits (:data:`MAX_COMBATANTS`, :data:`MAX_CELLS`,
:data:`WORK_BUDGET`: refused at once by :func:`exact_limit`). The sections below
follow the algorithm: the fight's fixed facts, engagements, the policy, what one
action does, turns, families, where the fight starts, the sweep, the push to the
cap, and the door (:func:`exact_fight`).
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from affray.encounter import Action, Attack, Encounter, Flee, Hold, Shoot, Targeting
from affray.encounter.cursor import Cursor, Phase
from affray.errors import NotModelledError, RulesError
from affray.rulesystems.mst2.fighter import Fighter
from affray.rulesystems.mst2.odds.attack import hit_dice_distribution, wound_distribution
from affray.rulesystems.mst2.odds.duel import Strike
from affray.rulesystems.mst2.odds.encounter_kernel import (
    COMPS,
    END,
    FALL,
    HURT,
    SPILL,
    compiled,
    sweep_blocks,
    sweep_family_rounds,
)
from affray.rulesystems.mst2.ruleset import Mst2Ruleset, NonCombat, StepAway, TurnOrder
from affray.rulesystems.mst2.state import FighterState
from affray.rulesystems.mst2.tactics import Mst2Tactics, Role

__all__ = [
    "CAP_TOLERANCE",
    "FORWARD_BUDGET",
    "MAX_COMBATANTS",
    "ROUNDS_BUDGET",
    "WORK_BUDGET",
    "ExactFightOdds",
    "ExactLimit",
    "exact_fight",
    "exact_limit",
]

MAX_COMBATANTS = 5
"""Combatants still fighting an exact encounter may have (the wounds grid has one axis
each)."""
WORK_BUDGET = 20_000_000_000
"""Steps the sweep may take (:func:`_work`: cells of each family's wounds grid times the
multiply-adds of one block, every state of it). The compiled sweep looks only at the
cells and the groups of states mass reaches, so it goes far faster than its steps say:
some 3*10^9 a second of processor time on a grid the fights fill (2 against 2 with
3d10 hit dice, shuffled: 5.3*10^9 steps, 1.7 s, 0.8 s on two cores), more on a grid
mostly unreached (the same in listed order: 2.6*10^8 steps in 0.07 s). So this keeps
an answer within some 7 s of processor time."""
NUMPY_SLOWER = 30
"""How much slower a step of the numpy sweep (no numba) is than a compiled one."""
FORWARD_BUDGET = 300_000
"""States the turn-by-turn push to the round cap may visit (Python: some 50,000 a
second, so a few seconds)."""
ROUNDS_BUDGET = 2_000_000_000
"""Steps the sweep of round-by-round distributions (the cap matters, compiled) may take
(:func:`_rounds_work`; some 1.8*10^9 a second: four knights, 4*10^7 steps, 25 ms)."""
FORWARD_LAYERS = 30
"""Rounds in which the push is taken to meet each state the sweep reached, to refuse at
once (after the sweep) a push past :data:`FORWARD_BUDGET`."""
CAP_TOLERANCE = 1e-13
"""The weight of fights outlasting the cap below which the sweep's answer stands."""
FLOOR_TOTAL = 1e-14
"""The most probability the compiled sweep lets go unswept. A block whose entering
probability is under this over the number of cells of every grid is dropped, its mass
counted (:attr:`ExactFightOdds.unswept`): so even with every cell dropped the chances
fall short by at most this, under the float sums' own rounding (1e-12), and the bound
on the fights past the cap counts it too. The blocks a fight of four barely reaches
are some 40 % of its grid (2 against 2 with 3d10 hit dice, shuffled: 38 % are under
the floor of 1.8*10^-20, 8*10^-17 of probability in all)."""

_STEP = 1e-20  # the complex step
BOUND_EXPONENTS = (0.8,)
"""The bounds' ``z``: these powers of the largest ``z`` at which the loops converge (one:
of 0.3, 0.5, 0.65, 0.8 and 0.9, 0.8 gave the best bound, or within a factor of three
of it, on every fight measured; where the bound does not hold, the fight is swept
round by round, exactly)."""
Act = tuple[str, int | None]
"""An action of the chain: its kind (attack, shoot, step, flee, noncombat, hold) and
its target's index."""
Eng = frozenset[tuple[int, int, int]]
"""Engagements: ``(i, j, reach)`` with ``i < j`` (indices in listing order)."""
Queue = tuple[int, ...] | frozenset[int]
"""The turns left this round: in order (a tuple) or in an order yet to draw (a set)."""
Shape = tuple[Eng, Queue]
Family = frozenset[int]
Floats = np.ndarray[Any, np.dtype[np.float64]]
Ints = np.ndarray[Any, np.dtype[np.int64]]


@dataclass(frozen=True, slots=True)
class ExactFightOdds:
    """Exact odds of an encounter from where it stands.

    Attributes:
        p_wins: each side's chance to win (every side listed).
        p_draw: no one left fighting, or the round cap reached.
        mean_rounds: the expected round the fight ends in (the cursor's round at the
            end; a draw at the cap counts ``max_rounds``).
        p_standing: each combatant's chance to be fighting at the end.
        method: how the answer came: ``"sweep"`` (the cap weighs under
            :data:`CAP_TOLERANCE`), ``"rounds"`` (round by round to the cap:
            swept as distributions of the rounds begun, or pushed turn by turn), or
            ``"decided"`` (the fight is over already).
        states: states of the chain (an idea of the work done).
        unswept: the probability of the blocks the compiled sweep let go as too
            unlikely to matter (:data:`FLOOR_TOTAL`: at most 1e-14 in all), by which
            the chances here may fall short.
    """

    p_wins: Mapping[str, float]
    p_draw: float
    mean_rounds: float
    p_standing: Mapping[str, float]
    method: str = "sweep"
    states: int = 0
    unswept: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``affray fight --exact`` (docs/encounters.md)."""
        return {
            "method": "exact",
            "sides": {side: {"p_wins": p} for side, p in self.p_wins.items()},
            "p_draw": self.p_draw,
            "mean_rounds": self.mean_rounds,
            "combatants": {cid: {"p_standing": p} for cid, p in self.p_standing.items()},
        }


@dataclass(frozen=True, slots=True)
class ExactLimit:
    """What an exact encounter would take, against the limits.

    Attributes:
        combatants: combatants still fighting.
        families: sets of combatants still fighting the chain goes through.
        states: states within blocks, over every family.
        work: the sweep's steps (see :data:`WORK_BUDGET`).
    """

    combatants: int
    families: int
    states: int
    work: int


# -- the fight's fixed facts ------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class _Game:
    """Everything about the encounter that does not change during the fight."""

    ids: tuple[str, ...]
    side: tuple[int, ...]
    sides: tuple[str, ...]
    sheets: tuple[Fighter, ...]
    tactics: tuple[Mst2Tactics, ...]
    twice_mean: tuple[int, ...]
    axis: tuple[int, ...]
    """Wounds each combatant can have while fighting: 0 .. axis - 1."""
    keep: tuple[np.ndarray[Any, np.dtype[np.float64]], ...]
    """P(passing a shock check at w total wounds), ending in zeros."""
    shuffled: bool
    ranged_extra: bool
    max_rounds: int
    melee: dict[tuple[int, int], tuple[float, tuple[tuple[int, float], ...]]] = field(
        default_factory=dict
    )
    tables: dict[tuple[Any, ...], np.ndarray[Any, np.dtype[np.float64]]] = field(
        default_factory=dict
    )
    outcomes: dict[tuple[Family, Eng, int, Act], list[_Out]] = field(default_factory=dict)
    moves: dict[tuple[Family, Shape, tuple[Any, ...]], list[Move]] = field(default_factory=dict)
    """Each turn's moves, by the choices made (cells of one code make the same)."""

    @property
    def n(self) -> int:
        return len(self.ids)

    def strike(self, i: int, j: int) -> tuple[float, tuple[tuple[int, float], ...]]:
        """``i``'s melee blow (or counter-attack) on ``j``: P(miss), P(hit with k wounds)."""
        found = self.melee.get((i, j))
        if found is None:
            strike = Strike.of(self.sheets[i], self.sheets[j])
            hits = tuple((k, float(p)) for k, p in sorted(strike.hit_wounds.items()))
            found = self.melee[(i, j)] = (float(strike.p_miss), hits)
        return found

    def keep_at(self, v: int, add: int) -> np.ndarray[Any, np.dtype[np.float64]]:
        """P(``v`` passes a shock check at w + add) for each w of its axis."""
        keep = self.keep[v]
        at = np.minimum(np.arange(self.axis[v]) + add, keep.size - 1)
        return keep[at]


def _game(ruleset: Mst2Ruleset, cursor: Cursor[Any, Any], tactics: Mapping[str, object]) -> _Game:
    encounter = cursor.encounter
    combatants = encounter.combatants
    sides = encounter.sides
    sheets: list[Fighter] = []
    chosen: list[Mst2Tactics] = []
    for c in combatants:
        if not isinstance(c.sheet, Fighter):
            raise NotModelledError("exact encounter chain", (f"{c.id}'s sheet (not MST-2)",))
        sheets.append(c.sheet)
        plan = tactics.get(c.id, Mst2Tactics())
        if not isinstance(plan, Mst2Tactics):
            raise NotModelledError("exact encounter chain", (f"{c.id}'s tactics",))
        chosen.append(plan)
    axis: list[int] = []
    keep: list[np.ndarray[Any, np.dtype[np.float64]]] = []
    twice_mean: list[int] = []
    for c, sheet in zip(combatants, sheets, strict=True):
        totals = hit_dice_distribution(sheet.hit_dice)
        top = max(totals.maximum, 0)
        state = encounter.states[c.id]
        wounds = state.wounds if isinstance(state, FighterState) else 0
        size = max(top, wounds + 1, 1)
        probabilities = totals.probabilities()
        above = [Fraction(0)] * (size + 2)  # above[w] = P(total > w), summed from the top
        above[size + 1] = sum((p for t, p in probabilities.items() if t > size + 1), Fraction(0))
        for w in range(size, -1, -1):
            above[w] = above[w + 1] + probabilities.get(w + 1, Fraction(0))
        keep.append(np.array([*(float(a) for a in above[: size + 1]), 0.0]))
        axis.append(size)
        mean = sum(
            (Fraction(s + 1, 2) for s in sheet.hit_dice.pool), Fraction(sheet.hit_dice.bonus)
        )
        twice_mean.append(int(2 * mean))
    return _Game(
        ids=tuple(c.id for c in combatants),
        side=tuple(sides.index(c.side) for c in combatants),
        sides=sides,
        sheets=tuple(sheets),
        tactics=tuple(chosen),
        twice_mean=tuple(twice_mean),
        axis=tuple(axis),
        keep=tuple(keep),
        shuffled=ruleset.order is TurnOrder.SHUFFLED,
        ranged_extra=ruleset.ranged_extra_power,
        max_rounds=cursor.max_rounds,
    )


# -- engagements ------------------------------------------------------------------------


def _distance(eng: Eng, i: int, j: int) -> int | None:
    a, b = min(i, j), max(i, j)
    for x, y, r in eng:
        if x == a and y == b:
            return r
    return None


@lru_cache(maxsize=1 << 16)
def _partners(eng: Eng, i: int) -> tuple[int, ...]:
    """Who is engaged with ``i``, in listing order (``Encounter.engaged_with``)."""
    return tuple(sorted({y if x == i else x for x, y, _ in eng if i in (x, y)}))


def _engage(eng: Eng, i: int, j: int, reach: int) -> Eng:
    a, b = min(i, j), max(i, j)
    return frozenset({e for e in eng if (e[0], e[1]) != (a, b)} | {(a, b, reach)})


def _release(eng: Eng, i: int) -> Eng:
    return frozenset(e for e in eng if i not in (e[0], e[1]))


def _cluster(eng: Eng, t: int) -> list[int]:
    """Everyone joined to ``t`` through engagements, ``t`` left out (``Encounter.cluster``)."""
    seen = {t}
    frontier = [t]
    while frontier:
        for other in _partners(eng, frontier.pop()):
            if other not in seen:
                seen.add(other)
                frontier.append(other)
    return sorted(seen - {t})


# -- the policy (Mst2AI.action, on the chain's state) ------------------------------------


def _decide(
    game: _Game, family: Family, eng: Eng, a: int, wounds: Sequence[int]
) -> tuple[tuple[float, Act], ...]:
    """The tactics' action for ``a``: one, or several alike (a random target)."""
    plan = game.tactics[a]
    if plan.retreat_at is not None and wounds[a] >= plan.retreat_at:
        return ((1.0, ("flee", None)),)
    foes = [f for f in range(game.n) if f in family and game.side[f] != game.side[a]]
    if not foes:
        return ((1.0, ("hold", None)),)
    engaged = [f for f in _partners(eng, a) if f in foes]
    archer = plan.role is Role.ARCHER and game.sheets[a].missile is not None and not engaged
    kind = "shoot" if archer else "attack"
    candidates = foes if archer else (engaged or foes)
    return tuple((w, (kind, t)) for w, t in _pick(game, plan.target, eng, a, candidates, wounds))


def _pick(
    game: _Game,
    policy: Targeting,
    eng: Eng,
    a: int,
    candidates: list[int],
    wounds: Sequence[int],
) -> list[tuple[float, int]]:
    def weakness(c: int) -> int:
        return 2 * wounds[c] - game.twice_mean[c]

    allies = {c for c in range(game.n) if game.side[c] == game.side[a] and c != a}
    match policy:
        case Targeting.WEAKEST:
            return [(1.0, max(candidates, key=weakness))]
        case Targeting.RANDOM:
            return [(1.0 / len(candidates), c) for c in candidates]
        case Targeting.NEAREST:
            mine = set(_partners(eng, a))
            for c in candidates:
                if c in mine:
                    return [(1.0, c)]
            for c in candidates:
                if allies & set(_partners(eng, c)):
                    return [(1.0, c)]
            return [(1.0, candidates[0])]
        case Targeting.FOCUS:
            return [
                (
                    1.0,
                    max(
                        candidates,
                        key=lambda c: (len(allies & set(_partners(eng, c))), weakness(c)),
                    ),
                )
            ]
    raise AssertionError(policy)  # pragma: no cover


# -- what one action does -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Out:
    """One outcome of an action: probability ``p`` times table ``table`` (a function of
    ``victim``'s wounds; None: 1); ``victim`` keeps fighting with ``add`` more wounds,
    or ``fall`` (an index) leaves the fight; the engagements become ``eng``."""

    p: float
    victim: int | None
    table: tuple[Any, ...] | None
    add: int
    fall: int | None
    eng: Eng


def _blow(
    game: _Game, attacker: int, victim: int, weight: float, eng_kept: Eng, eng_fallen: Eng
) -> tuple[float, list[_Out]]:
    """A blow's wounding outcomes (kept or fallen), and the chance it wounds no one."""
    p_miss, hits = game.strike(attacker, victim)
    outs: list[_Out] = []
    quiet = p_miss
    for k, p in hits:
        if k == 0:
            quiet += p
            continue
        outs.append(_Out(weight * p, victim, ("keep", victim, k), k, None, eng_kept))
        outs.append(_Out(weight * p, victim, ("lose", victim, k), 0, victim, eng_fallen))
    return quiet, outs


def _table(game: _Game, key: tuple[Any, ...]) -> np.ndarray[Any, np.dtype[np.float64]]:
    found = game.tables.get(key)
    if found is None:
        if key[0] == "keep":
            found = game.keep_at(key[1], key[2])
        elif key[0] == "lose":
            found = 1.0 - game.keep_at(key[1], key[2])
        else:
            raise KeyError(key)  # counters' tables are made with them
        game.tables[key] = found
    return found


def _counters(
    game: _Game, a: int, counterers: tuple[int, ...]
) -> tuple[float, float, dict[int, tuple[Any, ...]], tuple[Any, ...]]:
    """Free counter-attacks on ``a`` from ``counterers`` in order, each in reach,
    until ``a`` is out (``take_counter_attacks``). Returns P(no hit), P(hits, no wound),
    tables of P(hits, ``a`` keeps fighting with K more wounds) by K, and of P(``a``
    falls), each over ``a``'s wounds."""
    key_base = ("counters", a, counterers)
    size = game.axis[a]
    keep = game.keep[a]
    states: dict[tuple[bool, int], np.ndarray[Any, np.dtype[np.float64]]] = {
        (False, 0): np.ones(size)
    }
    fallen = np.zeros(size)
    grid = np.arange(size)
    for e in counterers:
        p_miss, hits = game.strike(e, a)
        after: dict[tuple[bool, int], np.ndarray[Any, np.dtype[np.float64]]] = {}
        for (hit, total), mass in states.items():
            after[(hit, total)] = after.get((hit, total), 0.0) + mass * p_miss
            for k, p in hits:
                if k == 0:
                    after[(True, total)] = after.get((True, total), 0.0) + mass * p
                    continue
                survive = keep[np.minimum(grid + total + k, keep.size - 1)]
                after[(True, total + k)] = after.get((True, total + k), 0.0) + mass * p * survive
                fallen = fallen + mass * p * (1.0 - survive)
        states = after
    clean = float(states.get((False, 0), np.zeros(1))[0])
    quiet = float(states.get((True, 0), np.zeros(1))[0])
    kept: dict[int, tuple[Any, ...]] = {}
    for (_, total), mass in states.items():
        if total > 0:
            key = (*key_base, "keep", total)
            game.tables[key] = mass
            kept[total] = key
    fell = (*key_base, "lose")
    game.tables[fell] = fallen
    return clean, quiet, kept, fell


def _outcomes(game: _Game, family: Family, eng: Eng, a: int, act: Act) -> list[_Out]:
    """Every outcome of ``a``'s action ``act`` (Mst2Ruleset.perform), kept per state."""
    key = (family, eng, a, act)
    found = game.outcomes.get(key)
    if found is None:
        found = game.outcomes[key] = _perform(game, family, eng, a, act)
    return found


def _perform(game: _Game, family: Family, eng: Eng, a: int, act: Act) -> list[_Out]:
    kind, t = act
    if kind == "hold":
        return [_Out(1.0, None, None, 0, None, eng)]
    if kind == "flee":  # fled or taken out by the counters: out of the fight either way
        return [_Out(1.0, None, None, 0, a, _release(eng, a))]
    if kind == "attack":
        assert t is not None
        return _melee(game, eng, a, t)
    engaged = [f for f in _partners(eng, a) if f in family and game.side[f] != game.side[a]]
    counterers = tuple(f for f in engaged if game.sheets[f].reach >= (_distance(eng, a, f) or 0))
    clean, quiet, kept, fell = _counters(game, a, counterers)
    if kind == "shoot":
        assert t is not None
        outs = _shot(game, family, eng, a, t, clean)
        hurt_eng = eng
    elif kind == "step":
        released = _release(eng, a)
        outs = [_Out(clean, None, None, 0, None, released)]
        hurt_eng = released
    else:  # a non-combat action: it changes nothing the chain follows
        outs = [_Out(clean, None, None, 0, None, eng)]
        hurt_eng = eng
    outs.append(_Out(quiet, None, None, 0, None, hurt_eng))
    outs.extend(_Out(1.0, a, table, k, None, hurt_eng) for k, table in kept.items())
    outs.append(_Out(1.0, a, fell, 0, a, _release(eng, a)))
    return [o for o in outs if o.p]


def _melee(game: _Game, eng: Eng, a: int, t: int) -> list[_Out]:
    """``Mst2Ruleset._melee``: meet at the longer reach if not engaged, then the reach
    rule (the defender's counter-attack first when the attacker's reach differs)."""
    reach_a, reach_t = int(game.sheets[a].reach), int(game.sheets[t].reach)
    distance = _distance(eng, a, t)
    if distance is None:
        distance = max(reach_a, reach_t)
    here = _engage(eng, a, t, distance)
    outs: list[_Out] = []
    go = 1.0
    if reach_a != distance:
        p_miss, hits = game.strike(t, a)
        for k, p in hits:  # the counter hits: the attack is prevented
            if k == 0:
                outs.append(_Out(p, None, None, 0, None, here))
            else:
                outs.append(_Out(p, a, ("keep", a, k), k, None, here))
                outs.append(_Out(p, a, ("lose", a, k), 0, a, _release(here, a)))
        go = p_miss
    moved = _engage(here, a, t, reach_a)
    quiet, blows = _blow(game, a, t, go, moved, _release(moved, t))
    outs.append(_Out(go * quiet, None, None, 0, None, moved))
    outs.extend(blows)
    return [o for o in outs if o.p]


def _shot(game: _Game, family: Family, eng: Eng, a: int, t: int, clean: float) -> list[_Out]:
    """``ranged_attack`` once no counter-attack hit: the d20's face picks who it flies at
    (odd: the target or anyone near it, alike), then hits and wounds that one."""
    shooter = game.sheets[a]
    assert shooter.missile is not None
    near = [n for n in _cluster(eng, t) if n != a and n in family]
    candidates = [t, *near]
    power = shooter.missile.power + (shooter.extra_power if game.ranged_extra else ())
    outs: list[_Out] = []
    hurt = 0.0
    for v in candidates:
        victim = game.sheets[v]
        faces = 0.0
        for face in range(1, 21):
            if face + shooter.skill <= victim.evasion:
                continue
            if face % 2 == 1 and len(candidates) > 1:
                faces += 1.0 / len(candidates)
            elif v == t:
                faces += 1.0
        p_hit = clean * faces / 20.0
        wounds = wound_distribution(power, victim.protection).probabilities()
        for k, p in sorted(wounds.items()):
            q = p_hit * float(p)
            if not q:
                continue
            if k > 0:
                hurt += q
                outs.append(_Out(q, v, ("keep", v, k), k, None, eng))
                outs.append(_Out(q, v, ("lose", v, k), 0, v, _release(eng, v)))
    outs.append(_Out(clean - hurt, None, None, 0, None, eng))  # a miss, or no wound
    return outs


# -- turns ----------------------------------------------------------------------------------

Dest = tuple[Any, ...]
"""Where an outcome leads: ``("live", family, shape, new_round)`` or ``("end", winner
side index or None, standing)``."""
Move = tuple[float, _Out, Dest]


def _after(game: _Game, family: Family, queue: Queue, a: int, out: _Out) -> Dest:
    """The cursor after ``a``'s turn: the fight is over when at most one side is left
    fighting; else the next turn of the round, or a new round (``_after_turn``)."""
    left = family - {out.fall} if out.fall is not None else family
    sides = {game.side[c] for c in left}
    if len(sides) <= 1:
        return ("end", next(iter(sides)) if sides else None, left)
    rest: Queue
    if isinstance(queue, tuple):
        rest = tuple(c for c in queue[1:] if c in left)
    else:
        rest = frozenset(queue - {a}) & left
    if rest:
        return ("live", left, (out.eng, rest), False)
    fresh: Queue = frozenset(left) if game.shuffled else tuple(sorted(left))
    return ("live", left, (out.eng, fresh), True)


def _turn(
    game: _Game,
    family: Family,
    shape: Shape,
    wounds: Sequence[int],
    first: Act | None = None,
    decide: Callable[[int], tuple[tuple[float, Act], ...]] | None = None,
) -> tuple[tuple[Any, ...], list[Move]]:
    """The turn at ``shape``: who acts (the queue's head, or any of those left alike),
    what the tactics (or ``first``) choose, and every outcome with where it leads.
    Returns the choices made (a key: equal keys, equal moves) and the moves.
    ``decide``: the tactics' choice for each actor here, if known already."""
    eng, queue = shape
    if isinstance(queue, tuple):
        actors = [(1.0, queue[0])]
    else:
        actors = [(1.0 / len(queue), a) for a in sorted(queue)]
    choices: tuple[tuple[int, tuple[tuple[float, Act], ...]], ...]
    if first is not None:
        choices = tuple((a, ((1.0, first),)) for _, a in actors)
    elif decide is not None:
        choices = tuple((a, decide(a)) for _, a in actors)
    else:
        choices = tuple((a, _decide(game, family, eng, a, wounds)) for _, a in actors)
    key = (family, shape, choices)
    moves = game.moves.get(key)
    if moves is None:
        moves = game.moves[key] = [
            (share * weight, out, _after(game, family, queue, a, out))
            for (share, a), (_, decided) in zip(actors, choices, strict=True)
            for weight, act in decided
            for out in _outcomes(game, family, eng, a, act)
        ]
    return choices, moves


def _weight(game: _Game, out: _Out, wounds: Sequence[int]) -> float:
    if out.table is None or out.victim is None:
        return out.p
    return out.p * float(_table(game, out.table)[wounds[out.victim]])


# -- families: the wounds grid of those still fighting ----------------------------------------


class _Fam:
    """One set of combatants still fighting: its wounds grid (one axis each, in listing
    order), the code of each cell (the answers the policy reads), its states within a
    block, and (once swept) its matrices. Working state of one computation."""

    def __init__(self, game: _Game, members: Family) -> None:
        self.members = tuple(sorted(members))
        self.family = members
        self.sizes = tuple(game.axis[m] for m in self.members)
        self.cells = math.prod(self.sizes)
        strides = []
        step = 1
        for size in reversed(self.sizes):
            strides.append(step)
            step *= size
        self.strides = tuple(reversed(strides))
        flat = np.arange(self.cells)
        self.coords = (
            np.stack([(flat // s) % n for s, n in zip(self.strides, self.sizes, strict=True)])
            if self.members
            else np.zeros((0, 1), dtype=np.int64)
        )
        self.code = self._codes(game)
        _, first_at, self.code_of = np.unique(self.code, return_index=True, return_inverse=True)
        self.code_of = self.code_of.reshape(-1)
        self.representative = [self.wounds(game, int(c)) for c in first_at]
        self.shapes: list[Shape] = []
        self.index: dict[Shape, int] = {}
        self.turns: dict[tuple[int, int], tuple[tuple[Any, ...], list[Move]]] = {}
        self._groups: tuple[Ints, Ints, Ints] | None = None

    def _codes(self, game: _Game) -> np.ndarray[Any, np.dtype[np.int64]]:
        """Each cell's answers to what the policy asks of wounds: who has reached its
        ``retreat_at``, and which of two is weaker (wounds minus mean hit dice)."""
        code = np.zeros(self.cells, dtype=np.int64)
        bit = 0
        where = {m: i for i, m in enumerate(self.members)}
        for m in self.members:
            at = game.tactics[m].retreat_at
            if at is not None:
                code |= (self.coords[where[m]] >= at).astype(np.int64) << bit
                bit += 1
        weighs = any(
            game.tactics[m].target in (Targeting.WEAKEST, Targeting.FOCUS) for m in self.members
        )
        if weighs:
            for i, j in combinations(self.members, 2):
                left = 2 * self.coords[where[i]] - game.twice_mean[i]
                right = 2 * self.coords[where[j]] - game.twice_mean[j]
                code |= (left >= right).astype(np.int64) << bit
                bit += 1
        return code

    def by_diag(self) -> list[Ints]:
        """The cells of each diagonal (total of wounds), in flat order (the numpy sweep
        takes a diagonal at once: its blocks never lead into each other)."""
        diag = self.coords.sum(axis=0)
        order = np.argsort(diag, kind="stable")
        counts = np.bincount(diag, minlength=int(diag.max()) + 1)
        starts = np.concatenate([[0], np.cumsum(counts)])
        return [order[starts[d] : starts[d + 1]] for d in range(counts.size)]

    def groups(self) -> tuple[Ints, Ints, Ints]:
        """The states in groups, one per engagements, and within a group by the turns
        left in the round, most first (the compiled sweep's order): each state's group
        bit (:data:`.encounter_kernel.SPILL`), the states in that order, and where each
        group's states of each level start (group, level; one more: the end)."""
        if self._groups is None:
            engs: dict[Eng, int] = {}
            for eng, _ in self.shapes:
                engs.setdefault(eng, len(engs))
            levels = max((len(queue) for _, queue in self.shapes), default=0)
            keyed = sorted(
                range(len(self.shapes)),
                key=lambda s: (engs[self.shapes[s][0]], -len(self.shapes[s][1]), s),
            )
            ptr = np.zeros((len(engs), levels + 1), dtype=np.int64)
            at = 0
            for q in range(len(engs)):
                ptr[q, 0] = at
                for level in range(levels):
                    while at < len(keyed):
                        eng, queue = self.shapes[keyed[at]]
                        if engs[eng] != q or len(queue) != levels - level:
                            break
                        at += 1
                    ptr[q, level + 1] = at
            bits = np.array([1 << min(engs[eng], SPILL) for eng, _ in self.shapes], dtype=np.int64)
            self._groups = (bits, np.array(keyed, dtype=np.int64), ptr)
        return self._groups

    def laid(self) -> Ints:
        """Where each state is in a block laid out in the groups' order."""
        ordered = self.groups()[1]
        where = np.empty_like(ordered)
        where[ordered] = np.arange(ordered.size)
        return where

    def wounds(self, game: _Game, cell: int) -> list[int]:
        """Every combatant's wounds at ``cell`` (0 for those not in the family)."""
        wounds = [0] * game.n
        for i, m in enumerate(self.members):
            wounds[m] = int(self.coords[i, cell])
        return wounds

    def cell(self, wounds: Sequence[int]) -> int:
        return sum(wounds[m] * s for m, s in zip(self.members, self.strides, strict=True))

    def shape(self, shape: Shape) -> tuple[int, bool]:
        """The index of ``shape``, and whether it is new."""
        found = self.index.get(shape)
        if found is not None:
            return found, False
        self.index[shape] = len(self.shapes)
        self.shapes.append(shape)
        return len(self.shapes) - 1, True

    # -- matrices (once every state is known) ------------------------------------------

    def build(self, outcome: Callable[[Dest], int], place: Callable[[Dest], int]) -> None:
        """Decision states (a state with one set of choices), the moves inside a block
        (``Q``, split into moves that do and do not begin a round), the ways out of it
        (channels: wounds that stay in the family, falls into a smaller one, ends), and
        which cells make which choices (signatures). ``outcome`` numbers an end,
        ``place`` a state of another family."""
        size = len(self.shapes)
        decision: dict[tuple[int, tuple[Any, ...]], int] = {}
        moves: list[list[Move]] = []
        signature_of: dict[tuple[int, ...], int] = {}
        code_signature: list[int] = []
        state_of: list[int] = []
        for c in range(len(self.representative)):
            row = []
            for s in range(size):
                choices, made = self.turns[(s, c)]
                d = decision.setdefault((s, choices), len(moves))
                if d == len(moves):
                    moves.append(made)
                    state_of.append(s)
                row.append(d)
            code_signature.append(signature_of.setdefault(tuple(row), len(signature_of)))
        self.signatures = [np.array(row, dtype=np.int64) for row in signature_of]
        self.sig_of_cell = np.array(code_signature, dtype=np.int64)[self.code_of]
        self.state_of = np.array(state_of, dtype=np.int64)
        count = len(moves)
        self.q_plain = np.zeros((count, size))
        self.q_round = np.zeros((count, size))
        channels: dict[tuple[Any, ...], list[tuple[int, int, float, bool]]] = {}
        for d, made in enumerate(moves):
            for share, out, dest in made:
                weight = share * out.p
                if not weight:
                    continue
                if dest[0] == "live" and dest[1] == self.family and out.table is None:
                    target = self.q_round if dest[3] else self.q_plain
                    target[d, self.index[dest[2]]] += weight
                    continue
                key: tuple[Any, ...]
                if dest[0] == "live" and dest[1] == self.family:
                    key, to, fresh = (
                        ("hurt", out.victim, out.table, out.add),
                        self.index[dest[2]],
                        dest[3],
                    )
                elif dest[0] == "live":
                    key, to, fresh = ("fall", out.victim, out.table, dest[1]), place(dest), dest[3]
                else:
                    key, to, fresh = ("end", out.victim, out.table, None), outcome(dest), False
                channels.setdefault(key, []).append((d, to, weight, fresh))
        self.decisions = count
        self.exits = np.zeros(count, dtype=bool)
        self.channels: list[_Channel] = []
        for key, entries in channels.items():
            rows = sorted({d for d, _, _, _ in entries})
            cols = sorted({to for _, to, _, _ in entries})
            plain = np.zeros((len(rows), len(cols)))
            fresh = np.zeros((len(rows), len(cols)))
            for d, to, weight, new_round in entries:
                (fresh if new_round else plain)[rows.index(d), cols.index(to)] += weight
                self.exits[d] = True
            self.channels.append(_Channel(key, np.array(rows), np.array(cols), plain, fresh))


@dataclass(frozen=True, slots=True, eq=False)
class _Channel:
    """A way out of a block: ``key`` = (kind, victim whose wounds its table reads, the
    table, the wounds added / the family fallen into); from decision states ``rows`` to
    states (or ends) ``cols``, weights split by whether the move begins a round."""

    key: tuple[Any, ...]
    rows: np.ndarray[Any, np.dtype[np.int64]]
    cols: np.ndarray[Any, np.dtype[np.int64]]
    plain: np.ndarray[Any, np.dtype[np.float64]]
    fresh: np.ndarray[Any, np.dtype[np.float64]]


# -- where the fight starts -------------------------------------------------------------------

MAX_CELLS = 3_000_000
"""Cells the wounds grid of everyone fighting may have (its memory, and the sweep's)."""


@dataclass(frozen=True, slots=True)
class _Entry:
    """Mass entering the chain: ``rounds`` rounds begun on the way (0 or 1)."""

    p: float
    family: Family
    shape: Shape
    wounds: tuple[int, ...]
    rounds: int


@dataclass(slots=True, eq=False)
class _Plan:
    """A computation set out: the game, where it starts, every family and state."""

    game: _Game
    r0: int
    n_cap: int
    entries: list[_Entry]
    ended: list[tuple[float, tuple[int | None, Family, bool], int]]
    """Ends reached by the first action: probability, outcome (winner, standing,
    capped), rounds begun."""
    fams: dict[Family, _Fam] = field(default_factory=dict)
    pieces: dict[Family, _Pieces] = field(default_factory=dict)
    outcomes: list[tuple[int | None, Family, bool]] = field(default_factory=list)
    decided: ExactFightOdds | None = None
    reached: int = 0
    """States (cells and states within a block) the sweep's mass entered."""
    dropped: float = 0.0
    """The probability the compiled sweep let go (blocks under its floor)."""
    live: dict[Family, Ints] = field(default_factory=dict)
    """Each family's cells the sweep's mass entered."""

    def outcome(self, dest: Dest, capped: bool = False) -> int:
        return self.number((dest[1], dest[2], capped))

    def number(self, key: tuple[int | None, Family, bool]) -> int:
        if key not in self.outcomes:
            self.outcomes.append(key)
        return self.outcomes.index(key)


def _act(game: _Game, action: Action) -> Act:
    target = game.ids.index(action.target) if action.target is not None else None
    match action:
        case Attack():
            return ("attack", target)
        case Shoot():
            return ("shoot", target)
        case StepAway():
            return ("step", None)
        case Flee():
            return ("flee", None)
        case NonCombat():
            return ("noncombat", None)
        case Hold():
            return ("hold", None)
    raise NotModelledError("exact encounter chain", (f"the action {action.label!r}",))


def _decided(game: _Game, fighting: Family, rounds: int) -> ExactFightOdds:
    sides = {game.side[c] for c in fighting}
    winner = game.sides[next(iter(sides))] if len(sides) == 1 else None
    return ExactFightOdds(
        {side: float(side == winner) for side in game.sides},
        float(winner is None),
        float(rounds),
        {cid: float(i in fighting) for i, cid in enumerate(game.ids)},
        "decided",
    )


def _set_out(
    ruleset: object,
    cursor: Cursor[Any, Any],
    tactics: Mapping[str, object],
    first: tuple[str, str | None] | None,
) -> _Plan:
    """Where the chain starts (Cursor phases as in ``affray.encounter.cursor``), and the
    refusals that need no work."""
    if not isinstance(ruleset, Mst2Ruleset):
        raise NotModelledError(
            "exact encounter chain", (f"{getattr(ruleset, 'system', 'this')} encounters",)
        )
    encounter: Encounter[Any, Any] = cursor.encounter
    fighting = frozenset(
        i for i, c in enumerate(encounter.combatants) if ruleset.fighting(encounter, c.id)
    )
    if len(fighting) > MAX_COMBATANTS:
        raise RulesError(
            f"exact odds of an encounter follow at most {MAX_COMBATANTS} combatants "
            f"fighting, and this one has {len(fighting)}",
            hint="simulate it instead: affray fight ENCOUNTER -n 100000",
        )
    game = _game(ruleset, cursor, tactics)
    cells = math.prod(game.axis[i] for i in fighting)
    if cells > MAX_CELLS:
        raise RulesError(
            f"exact odds of this encounter would follow {cells:,} combinations of wounds "
            f"(hit dice {', '.join(game.sheets[i].hit_dice.text for i in sorted(fighting))}), "
            f"over the limit of {MAX_CELLS:,}",
            hint="simulate it instead: affray fight ENCOUNTER -n 100000",
        )
    ids = {cid: i for i, cid in enumerate(game.ids)}
    eng: Eng = frozenset(
        (min(ids[x] for x in p), max(ids[x] for x in p), int(_reach(label)))
        for p, label in encounter.engagements.items()
    )
    wounds = tuple(
        s.wounds if isinstance(s, FighterState) else 0
        for s in (encounter.states[c] for c in game.ids)
    )
    r0 = cursor.round
    plan = _Plan(game, r0, max(0, cursor.max_rounds - r0), [], [])
    phase = cursor.phase(ruleset)
    sides = {game.side[c] for c in fighting}
    fresh: Queue = frozenset(fighting) if game.shuffled else tuple(sorted(fighting))
    if phase is Phase.OVER or (phase is Phase.SETUP and len(sides) <= 1):
        plan.decided = _decided(game, fighting, r0)
    elif phase is Phase.SETUP:
        plan.entries.append(_Entry(1.0, fighting, (eng, fresh), wounds, 1))
    elif phase is Phase.ROUND_OVER:
        if r0 >= cursor.max_rounds:
            plan.decided = _decided_draw(game, fighting, r0)
        else:
            plan.entries.append(_Entry(1.0, fighting, (eng, fresh), wounds, 1))
    else:
        current = cursor.current
        assert current is not None
        queue = tuple(ids[c] for c in (current, *encounter.queue) if ids[c] in fighting)
        choice: Act | None = None
        if first is not None:
            for action in ruleset.actions(encounter, current):
                if (action.name, action.target) == first:
                    choice = _act(game, action)
                    break
        if not queue:  # the current combatant is not fighting (settled by the cursor)
            plan.entries.append(_Entry(1.0, fighting, (eng, fresh), wounds, 1))
        elif choice is None:
            plan.entries.append(_Entry(1.0, fighting, (eng, queue), wounds, 0))
        else:
            _, moves = _turn(game, fighting, (eng, queue), wounds, first=choice)
            for weight, out, dest in moves:
                p = weight * _weight(game, out, wounds)
                if not p:
                    continue
                after = list(wounds)
                if out.victim is not None and out.fall is None:
                    after[out.victim] += out.add
                if dest[0] == "end":
                    plan.ended.append((p, (dest[1], dest[2], False), 0))
                elif dest[3] and plan.n_cap == 0:  # the last round closes: a draw
                    plan.ended.append((p, (None, dest[1], True), 0))
                else:
                    plan.entries.append(_Entry(p, dest[1], dest[2], tuple(after), int(dest[3])))
    return plan


def _decided_draw(game: _Game, fighting: Family, rounds: int) -> ExactFightOdds:
    """The round cap reached: a draw, with whoever is fighting still standing."""
    return ExactFightOdds(
        dict.fromkeys(game.sides, 0.0),
        1.0,
        float(rounds),
        {cid: float(i in fighting) for i, cid in enumerate(game.ids)},
        "decided",
    )


def _reach(label: str) -> int:
    from affray.rulesystems.mst2.catalog import Reach

    return int(Reach.named(label))


def _explore(plan: _Plan) -> None:
    """Every family and state the chain can reach (under any choice its cells make)."""
    game = plan.game
    work: list[tuple[Family, int]] = []

    def visit(family: Family, shape: Shape) -> None:
        fam = plan.fams.get(family)
        if fam is None:
            fam = plan.fams[family] = _Fam(game, family)
        s, new = fam.shape(shape)
        if new:
            work.append((family, s))

    for entry in plan.entries:
        visit(entry.family, entry.shape)
    decided: dict[tuple[Family, Eng, int, int], tuple[tuple[float, Act], ...]] = {}
    followed: set[int] = set()
    while work:
        family, s = work.pop()
        fam = plan.fams[family]
        shape = fam.shapes[s]
        eng = shape[0]
        for c, wounds in enumerate(fam.representative):

            def decide(
                a: int,
                family: Family = family,
                eng: Eng = eng,
                c: int = c,
                wounds: list[int] = wounds,
            ) -> tuple[tuple[float, Act], ...]:
                key = (family, eng, a, c)
                found = decided.get(key)
                if found is None:
                    found = decided[key] = _decide(game, family, eng, a, wounds)
                return found

            made = fam.turns[(s, c)] = _turn(game, family, shape, wounds, decide=decide)
            if id(made[1]) in followed:  # the same moves as another code's
                continue
            followed.add(id(made[1]))
            for _, _, dest in made[1]:
                if dest[0] == "live":
                    visit(dest[1], dest[2])


def _limit_of(plan: _Plan) -> ExactLimit:
    fams = plan.fams.values()
    return ExactLimit(
        combatants=max((len(f.members) for f in fams), default=0),
        families=len(plan.fams),
        states=sum(len(f.shapes) for f in fams),
        work=sum(_work(f, plan.pieces[family]) for family, f in plan.fams.items()),
    )


def _work(fam: _Fam, pieces: _Pieces, comps: int = 2 + len(BOUND_EXPONENTS)) -> int:
    """The sweep's steps for one family: its cells times the multiply-adds of a block.
    Compiled: the states, the moves inside a block (the DAG twice), the ways out and
    the round states' loop (``R x R``, dense), all of them, though the kernel takes only
    the groups of states mass is in (a bound, then: see :data:`WORK_BUDGET`); numpy:
    the dense solve (``S x S``) and the ways out, dense, plus a fixed cost per diagonal
    (a weight of :data:`NUMPY_SLOWER` brings the two to one clock)."""
    size = len(fam.shapes)
    rounds = pieces.round_states.size
    if compiled():
        moves = 2 * int(np.count_nonzero(fam.q_plain)) + int(np.count_nonzero(fam.q_round))
        ways = sum(int(np.count_nonzero((ch.plain != 0) | (ch.fresh != 0))) for ch in fam.channels)
        per_cell = comps * (size + moves + ways) + (2 * comps - 3) * rounds * rounds
        return fam.cells * per_cell
    ways = sum(ch.rows.size * ch.cols.size for ch in fam.channels)
    per_cell = comps * (size * size + fam.decisions + ways)
    return NUMPY_SLOWER * fam.cells * per_cell


def _plan(
    ruleset: object,
    cursor: Cursor[Any, Any],
    tactics: Mapping[str, object],
    first: tuple[str, str | None] | None = None,
) -> _Plan:
    plan = _set_out(ruleset, cursor, tactics, first)
    if plan.decided is None:
        _explore(plan)

        def place(dest: Dest) -> int:
            return plan.fams[dest[1]].index[dest[2]]

        for family, fam in plan.fams.items():
            fam.build(plan.outcome, place)
            plan.pieces[family] = _pieces(fam)
        limit = _limit_of(plan)
        if limit.work > WORK_BUDGET:
            raise RulesError(
                f"exact odds of this encounter would take {limit.work:,} steps "
                f"({limit.states:,} states of engagements and turns over {limit.families} "
                f"sets of combatants still fighting), over the limit of {WORK_BUDGET:,}",
                hint="simulate it instead: affray fight ENCOUNTER -n 100000",
            )
    return plan


def exact_limit(
    ruleset: object,
    cursor: Cursor[Any, Any],
    tactics: Mapping[str, object],
    first: tuple[str, str | None] | None = None,
) -> ExactLimit:
    """What the exact odds of the fight at ``cursor`` would take, refusing at once (in
    well under a second) what is past the limits.

    Raises:
        NotModelledError: not an MST-2 fight (or tactics the chain does not follow).
        RulesError: more than :data:`MAX_COMBATANTS` fighting, a wounds grid over
            :data:`MAX_CELLS`, or a sweep over :data:`WORK_BUDGET` steps.
    """
    plan = _plan(ruleset, cursor, tactics, first)
    if plan.decided is not None:
        return ExactLimit(0, 0, 0, 0)
    return _limit_of(plan)


# -- the sweep --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class _Pieces:
    """A family's loops inside a block, for each signature (the decision of each state):
    which states can leave the block, the moves that begin no round (a DAG: each turn
    shortens the queue) solved, ``N = (I - Q_plain)^-1``, and the round states' return
    weights ``C = (N Q_round)`` on the round states (those a new round begins in)."""

    escapes: Ints
    """(signatures, S): 1 where a state can leave the block (else it is a trap)."""
    solved: list[Floats]
    """``N`` of each signature (S x S)."""
    into_rounds: list[Floats]
    """``N Q_round`` on the round states' columns, each signature (S x R)."""
    returns: list[Floats]
    """``C`` of each signature (R x R)."""
    round_states: Ints
    radius: float
    """The largest spectral radius of ``C``: the loops converge for ``z < 1/radius``."""


def _pieces(fam: _Fam) -> _Pieces:
    rounds = np.flatnonzero(fam.q_round.any(axis=0))
    escapes = []
    solved: list[Floats] = []
    into_rounds: list[Floats] = []
    returns: list[Floats] = []
    radius = 0.0
    size = len(fam.shapes)
    for sig in fam.signatures:
        escaping = fam.exits[sig].copy()
        linked = (fam.q_plain[sig] + fam.q_round[sig]) > 0
        while True:
            more = escaping | (linked & escaping[None, :]).any(axis=1)
            if (more == escaping).all():
                break
            escaping = more
        keep = escaping[:, None]
        plain = np.where(keep, fam.q_plain[sig], 0.0)
        fresh = np.where(keep, fam.q_round[sig], 0.0)[:, rounds]
        n: Floats = np.linalg.inv(np.eye(size) - plain).astype(np.float64)
        into: Floats = n @ fresh
        c: Floats = into[rounds]
        if c.any():
            radius = max(radius, float(np.abs(np.linalg.eigvals(c)).max()))
        escapes.append(escaping)
        solved.append(n)
        into_rounds.append(into)
        returns.append(c)
    return _Pieces(
        np.array(escapes, dtype=np.int64).reshape(len(fam.signatures), size),
        solved,
        into_rounds,
        returns,
        rounds.astype(np.int64),
        radius,
    )


def _z_limit(plan: _Plan, most: float = 64.0) -> float:
    """The largest z (up to ``most``) at which every block's loops still converge: a
    regular splitting of ``I - Q(z)`` converges exactly when ``z`` times the round
    states' return weights does (Varga), so at ``1 / radius``."""
    radius = max((p.radius for p in plan.pieces.values()), default=0.0)
    return most if radius * most < 1.0 else 1.0 / radius


def _round_loops(pieces: _Pieces, bounds: Sequence[float]) -> Floats:
    """``G(z) = z (I - zC)^-1`` of each signature (signatures, components, R, R): at
    ``z = 1``, its derivative there (the complex step), and at each bound's ``z``."""
    count = len(pieces.returns)
    r = pieces.round_states.size
    out = np.zeros((count, 2 + len(bounds), r, r))
    for g, c in enumerate(pieces.returns):
        step = 1 + 1j * _STEP
        at = step * np.linalg.inv(np.eye(r) - step * c)
        out[g, 0] = at.real
        out[g, 1] = at.imag / _STEP
        for j, z in enumerate(bounds):
            out[g, 2 + j] = z * np.linalg.inv(np.eye(r) - z * c)
    return out


@dataclass(slots=True, eq=False)
class _Buffer:
    """The mass entering the blocks of every family: one flat array (the kernel's),
    each family's part laid out slot, state, component.

    The compiled sweep takes a family's cells in order of their flat index, and a wound
    leads at most ``R - 1`` cells further on (the largest wound kept times the stride
    of its axis; a layer of the first axis more for each thread past the first, and
    room for every entry). So a family no other leads into (the one the fight starts in) needs
    only a *ring* of ``R`` slots, cell ``c`` in slot ``c % R``, each block cleared as
    it is read: a fight of four keeps a few of its grid's layers in memory, not the
    grid, and the blocks it writes to stay in the caches. Every other family (falls
    lead into it from anywhere in a larger one) has a slot per cell."""

    comps: int
    base: dict[Family, int]
    mass: Floats
    ring: dict[Family, int]
    """Each family's slots: cell ``c`` is in slot ``c % ring``."""
    first: dict[Family, int]
    """The cell a family's sweep begins at (a ring's: the first any entry is in)."""
    ringed: dict[Family, bool]
    """Whether a family's slots are a ring."""
    workers: dict[Family, int]
    """The threads each family is swept with (:func:`_pipeline`)."""
    touched: Ints
    """Each slot's mask of the groups of states its mass is in (the compiled sweep's:
    :meth:`_Fam.groups`), each family's from ``tbase``."""
    tbase: dict[Family, int]
    grouped: bool
    """Whether a block's states are laid out in their groups' order (the compiled
    sweep's, :meth:`_Fam.laid`), so that the few states a block's mass is in are
    together in memory; else in their own order."""

    @staticmethod
    def of(plan: _Plan, comps: int, kernel: bool = False, threads: int | None = None) -> _Buffer:
        """Room for every family's mass: laid out for the compiled kernel (rings, states
        in groups, a family's threads) or, without ``kernel``, a slot per cell with
        the states in their own order (the numpy sweep's)."""
        base: dict[Family, int] = {}
        rings: dict[Family, int] = {}
        first: dict[Family, int] = {}
        ringed: dict[Family, bool] = {}
        workers: dict[Family, int] = {}
        tbase: dict[Family, int] = {}
        total = 0
        marks = 0
        for family, fam in plan.fams.items():
            base[family] = total
            tbase[family] = marks
            slots = fam.cells
            rings[family] = fam.cells
            first[family] = 0
            ringed[family] = False
            workers[family] = _workers(fam, threads) if kernel else 1
            if kernel and not any(family < other for other in plan.fams):
                where = {m: i for i, m in enumerate(fam.members)}
                ahead = [
                    ch.key[3] * fam.strides[where[ch.key[1]]]
                    for ch in fam.channels
                    if ch.key[0] == "hurt"
                ]
                starts = [fam.cell(e.wounds) for e in plan.entries if e.family == family]
                ring = max(max(ahead, default=0), max(starts, default=0) - min(starts, default=0))
                ring += 1 + (workers[family] - 1) * fam.strides[0]
                if starts and ring < fam.cells:
                    slots = ring
                    rings[family] = ring
                    first[family] = min(starts)
                    ringed[family] = True
            total += slots * comps * len(fam.shapes)
            marks += slots
        return _Buffer(
            comps,
            base,
            np.zeros(total),
            rings,
            first,
            ringed,
            workers,
            np.zeros(marks, dtype=np.int64),
            tbase,
            kernel,
        )

    def add(self, plan: _Plan, family: Family, cell: int, state: int, values: Floats) -> None:
        """Add ``values`` (its components) to the mass entering ``state`` of ``cell``."""
        fam = plan.fams[family]
        slot = cell % self.ring[family]
        self.touched[self.tbase[family] + slot] |= fam.groups()[0][state]
        if self.grouped:
            state = int(fam.laid()[state])
        at = self.base[family] + (slot * len(fam.shapes) + state) * self.comps
        self.mass[at : at + self.comps] += values

    def view(self, plan: _Plan, family: Family) -> Floats:
        """The family's mass as (cell, component, state), laid out cell, state,
        component (the kernel reads a state's components together); not ringed."""
        assert not self.ringed[family] and not self.grouped
        fam = plan.fams[family]
        start = self.base[family]
        size = len(fam.shapes)
        part = self.mass[start : start + fam.cells * self.comps * size]
        return part.reshape(fam.cells, size, self.comps).transpose(0, 2, 1)


def _moments(p: float, rounds: int, bounds: Sequence[float]) -> Floats:
    """A mass ``p`` that has begun ``rounds`` rounds, as the sweep's components."""
    return np.array([p, p * rounds, *(p * z**rounds for z in bounds)])


def _sweep(
    plan: _Plan,
    bounds: Sequence[float],
    kernel: bool | None = None,
    threads: int | None = None,
    floor_total: float = FLOOR_TOTAL,
) -> Floats:
    """Push the mass through every family, from the largest down, block by block.
    Returns the mass of each outcome (outcomes, components): the probability, its
    first moment in the rounds begun (d/dz of ``E[z^N]`` at 1), and ``E[z^N]`` at each
    bound's ``z`` (the last outcome of each family's traps numbered like the others).
    ``kernel``: sweep with the compiled kernel (default: when numba is there);
    ``threads``: how many threads it may share a family's sweep among (see
    :func:`_workers`); ``floor_total``: the most probability it may let go (see
    :data:`FLOOR_TOTAL`; the numpy sweep lets none go)."""
    if kernel is None:
        kernel = compiled()
    comps = 2 + len(bounds)
    buffer = _Buffer.of(plan, comps, kernel=kernel, threads=threads)
    for entry in plan.entries:
        fam = plan.fams[entry.family]
        buffer.add(
            plan,
            entry.family,
            fam.cell(entry.wounds),
            fam.index[entry.shape],
            _moments(entry.p, entry.rounds, bounds),
        )
    ends = [plan.number(key) for _, key, _ in plan.ended]
    traps = {f: plan.outcome(("end", None, f), capped=True) for f in plan.fams}
    out = np.zeros((len(plan.outcomes), comps))
    floor = floor_total / max(1, sum(fam.cells for fam in plan.fams.values()))
    for (p, _, rounds), end in zip(plan.ended, ends, strict=True):
        out[end] += _moments(p, rounds, bounds)
    for family in sorted(plan.fams, key=len, reverse=True):
        pieces = plan.pieces[family]
        loops = _round_loops(pieces, bounds)
        trap = traps[family]
        if kernel:
            seen = np.zeros(plan.fams[family].cells, dtype=np.uint8)
            tally = np.zeros(1, dtype=np.int64)
            _sweep_kernel(
                plan, buffer, family, pieces, loops, bounds, out, trap, seen, tally, floor
            )
            plan.reached += int(tally[0])
            plan.live[family] = np.flatnonzero(seen).astype(np.int64)
        else:
            _sweep_numpy(plan, buffer, family, pieces, loops, bounds, out, trap)
            entered = buffer.view(plan, family)[:, 0]
            plan.reached += int(np.count_nonzero(entered))
            plan.live[family] = np.flatnonzero(entered.any(axis=1)).astype(np.int64)
    return out


def _sweep_numpy(
    plan: _Plan,
    buffer: _Buffer,
    family: Family,
    pieces: _Pieces,
    loops: Floats,
    bounds: Sequence[float],
    out: Floats,
    trap: int,
) -> None:
    """One family's sweep by whole diagonals of its wounds grid (blocks of one total of
    wounds never lead into each other), the loops of each block solved densely."""
    game = plan.game
    fam = plan.fams[family]
    mass = buffer.view(plan, family)
    comps = buffer.comps
    where = {m: i for i, m in enumerate(fam.members)}
    solves = []
    for g in range(len(fam.signatures)):
        n, into = pieces.solved[g], pieces.into_rounds[g]
        after = n[pieces.round_states]
        moments = [n + into @ loops[g, 0] @ after, into @ loops[g, 1] @ after]
        moments += [n + into @ loops[g, 2 + j] @ after for j in range(len(bounds))]
        active = fam.signatures[g][fam.state_of] == np.arange(fam.decisions)
        solves.append((moments, pieces.escapes[g] == 0, active))
    weights = [
        [ch.plain + ch.fresh, ch.fresh, *(ch.plain + z * ch.fresh for z in bounds)]
        for ch in fam.channels
    ]
    for cells in fam.by_diag():
        x = mass[cells]
        if not x.any():
            continue
        sig = fam.sig_of_cell[cells]
        visits = np.zeros((cells.size, comps, fam.decisions))
        for g in np.unique(sig):
            sel = sig == g
            (m0, m1, *mb), trapped, active = solves[g]
            xs = x[sel]
            u = np.empty_like(xs)
            u[:, 0] = xs[:, 0] @ m0
            u[:, 1] = xs[:, 1] @ m0 + xs[:, 0] @ m1
            for j, mj in enumerate(mb):
                u[:, 2 + j] = xs[:, 2 + j] @ mj
            out[trap, 0] += u[:, 0, trapped].sum()
            visits[sel] = u[:, :, fam.state_of] * active
        for ch, (w, wf, *wb) in zip(fam.channels, weights, strict=True):
            v = visits[:, :, ch.rows]
            flow = np.empty((cells.size, comps, ch.cols.size))
            flow[:, 0] = v[:, 0] @ w
            flow[:, 1] = v[:, 1] @ w + v[:, 0] @ wf
            for j, wj in enumerate(wb):
                flow[:, 2 + j] = v[:, 2 + j] @ wj
            kind, victim, table, extra = ch.key
            if table is not None:
                at = fam.coords[where[victim]][cells]
                flow *= _table(game, table)[at][:, None, None]
            if kind == "hurt":
                axis = where[victim]
                ok = fam.coords[axis][cells] + extra < fam.sizes[axis]
                target = cells[ok] + extra * fam.strides[axis]
                mass[target[:, None, None], np.arange(comps)[None, :, None], ch.cols] += flow[ok]
            elif kind == "fall":
                other = plan.fams[extra]
                target = np.zeros(cells.size, dtype=np.int64)
                for m, stride in zip(other.members, other.strides, strict=True):
                    target += fam.coords[where[m]][cells] * stride
                into = buffer.view(plan, extra)
                into[target[:, None, None], np.arange(comps)[None, :, None], ch.cols] += flow
            else:
                out[ch.cols] += flow.sum(axis=0).T


@dataclass(frozen=True, slots=True, eq=False)
class _Flat:
    """A family's block structure as the kernels take it: flat arrays of the moves
    inside a block (CSR, by decision state) and of its ways out (channels)."""

    qp: tuple[Ints, Ints, Floats]
    qr: tuple[Ints, Ints, Floats]
    """The moves that begin a round, columns numbered among the round states."""
    kinds: Ints
    axes: Ints
    table_at: Ints
    extras: Ints
    targets: list[Family | None]
    """The family a fall leads into, per channel."""
    strides: Ints
    """Per channel, the strides of the fallen-into family's cells on this one's axes."""
    ptr: Ints
    tables: Floats
    e_dec: Ints
    e_col: Ints
    e_plain: Floats
    e_fresh: Floats
    topo: Ints


def _flat(plan: _Plan, family: Family, pieces: _Pieces) -> _Flat:
    game = plan.game
    fam = plan.fams[family]
    where = {m: i for i, m in enumerate(fam.members)}
    r_index = np.full(len(fam.shapes), -1, dtype=np.int64)
    r_index[pieces.round_states] = np.arange(pieces.round_states.size)
    qr_ptr, qr_col, qr_w = _csr(fam.q_round)
    tables: list[Floats] = []
    offset = 0
    kinds: list[int] = []
    axes: list[int] = []
    table_at: list[int] = []
    extras: list[int] = []
    targets: list[Family | None] = []
    strides = np.zeros((len(fam.channels), len(fam.members)), dtype=np.int64)
    for c, ch in enumerate(fam.channels):
        kind, victim, table, extra = ch.key
        kinds.append({"hurt": HURT, "fall": FALL, "end": END}[kind])
        axes.append(where.get(victim, -1))
        if table is None:
            table_at.append(-1)
        else:
            tables.append(_table(game, table))
            table_at.append(offset)
            offset += tables[-1].size
        extras.append(extra if kind == "hurt" else 0)
        targets.append(extra if kind == "fall" else None)
        if kind == "fall":
            other = plan.fams[extra]
            for m, stride in zip(other.members, other.strides, strict=True):
                strides[c, where[m]] = stride
    ptr = np.zeros((len(fam.signatures), len(fam.channels) + 1), dtype=np.int64)
    e_dec: list[int] = []
    e_col: list[int] = []
    e_plain: list[float] = []
    e_fresh: list[float] = []
    for g, sig in enumerate(fam.signatures):  # each signature's decisions only
        made = sig[fam.state_of] == np.arange(fam.decisions)
        for c, ch in enumerate(fam.channels):
            rows, cols = np.nonzero(((ch.plain != 0) | (ch.fresh != 0)) & made[ch.rows][:, None])
            e_dec.extend(ch.rows[rows])
            e_col.extend(ch.cols[cols])
            e_plain.extend(ch.plain[rows, cols])
            e_fresh.extend(ch.fresh[rows, cols])
            ptr[g, c + 1] = len(e_dec)
        if g + 1 < len(fam.signatures):
            ptr[g + 1, 0] = len(e_dec)
    topo = np.array(
        sorted(range(len(fam.shapes)), key=lambda s: -len(fam.shapes[s][1])), dtype=np.int64
    )

    def ints(values: Sequence[Any]) -> Ints:
        return np.array(values, dtype=np.int64)

    def floats(values: Sequence[Any]) -> Floats:
        return np.array(values, dtype=np.float64)

    return _Flat(
        qp=_csr(fam.q_plain),
        qr=(qr_ptr, r_index[qr_col], qr_w),
        kinds=ints(kinds),
        axes=ints(axes),
        table_at=ints(table_at),
        extras=ints(extras),
        targets=targets,
        strides=strides,
        ptr=ptr,
        tables=np.concatenate(tables) if tables else np.zeros(1),
        e_dec=ints(e_dec),
        e_col=ints(e_col),
        e_plain=floats(e_plain),
        e_fresh=floats(e_fresh),
        topo=topo,
    )


@dataclass(frozen=True, slots=True, eq=False)
class _Exits:
    """A family's ways out of a block as :func:`.encounter_kernel.sweep_blocks` takes
    them. The channels that lead to one place are one *member*: a victim's wounds kept
    (one member for each number of wounds added), its fall into a smaller set of
    fighters, an end; their tables folded into each way's weight at each of the
    victim's wounds. The ways are listed by the state they leave (``ptr``, each
    signature), so a block's sweep looks only at the states its mass is in."""

    kind: Ints
    axis: Ints
    """Per member: the axis of the victim whose wounds its weights read (-1: none)."""
    extra: Ints
    """Per member: the wounds a kept wound adds."""
    targets: list[Family | None]
    """Per member: the family a fall leads into."""
    strides: Ints
    """Per member: the strides of the fallen-into family's cells on this one's axes."""
    off: Ints
    """Per member: where its weights start (a row for each of the victim's wounds)."""
    mem: Ints
    """Each group's members, ``mem[q]`` .. ``mem[q + 1]``: the members that share their
    ways (a victim's wounds kept, one per number added; or one member)."""
    count: Ints
    """Per group: its ways, the length of each member's rows."""
    ptr: Ints
    """(signatures, 2 * states + 1): the ways leaving each state, then each state's
    ways that begin a new round."""
    group: Ints
    col: Ints
    widx: Ints
    bit: Ints
    """Per way: its group, the state it leads to (where in its block, laid out in the
    groups' order: :meth:`_Fam.laid`) or the outcome, its place in the rows, and the
    group bit of that state (:meth:`_Fam.groups`)."""
    weights: Floats


def _exits(plan: _Plan, family: Family) -> _Exits:
    game = plan.game
    fam = plan.fams[family]
    where = {m: i for i, m in enumerate(fam.members)}
    size = len(fam.shapes)
    grouped: dict[tuple[Any, ...], dict[Any, list[_Channel]]] = {}
    for ch in fam.channels:
        kind, victim, _, extra = ch.key
        key = (kind, victim, extra if kind == "fall" else None)
        member = extra if kind == "hurt" else None
        grouped.setdefault(key, {}).setdefault(member, []).append(ch)
    kinds: list[int] = []
    axes: list[int] = []
    extras: list[int] = []
    targets: list[Family | None] = []
    member_strides: list[list[int]] = []
    offs: list[int] = []
    mem = [0]
    counts: list[int] = []
    weights: list[Floats] = []
    stored = 0
    actives = [sig[fam.state_of] == np.arange(fam.decisions) for sig in fam.signatures]
    leaving: list[list[list[tuple[int, int, int]]]] = [
        [[] for _ in range(2 * size)] for _ in fam.signatures
    ]
    for q, ((kind, victim, into), by_member) in enumerate(grouped.items()):
        axis = where[victim] if victim is not None else -1
        span = fam.sizes[axis] if axis >= 0 else 1
        strides = [0] * len(fam.members)
        if kind == "fall":
            other = plan.fams[into]
            for who, stride in zip(other.members, other.strides, strict=True):
                strides[where[who]] = stride
        ways: dict[tuple[int, int, bool], Floats] = {}  # each member's weights, each wound
        for m, (extra, channels) in enumerate(by_member.items()):
            kinds.append({"hurt": HURT, "fall": FALL, "end": END}[kind])
            axes.append(axis)
            extras.append(extra if kind == "hurt" else 0)
            targets.append(into)
            member_strides.append(strides)
            for ch in channels:
                factor = np.ones(span) if ch.key[2] is None else _table(game, ch.key[2])
                for part, fresh in ((ch.plain, False), (ch.fresh, True)):
                    rows, cols = np.nonzero(part)
                    for r, c in zip(rows, cols, strict=True):
                        way = (int(ch.rows[r]), int(ch.cols[c]), fresh)
                        found = ways.get(way)
                        if found is None:
                            found = ways[way] = np.zeros((len(by_member), span))
                        found[m] += part[r, c] * factor
        mem.append(len(kinds))
        order = sorted(ways, key=lambda way: (way[1], way[0], way[2]))
        counts.append(len(order))
        for m in range(len(by_member)):
            offs.append(stored)
            if order:
                table = np.stack([ways[way][m] for way in order], axis=-1)  # wounds, way
                weights.append(table.reshape(-1))
                stored += table.size
        for j, (d, to, fresh) in enumerate(order):
            source = int(fam.state_of[d]) + (size if fresh else 0)
            for g, active in enumerate(actives):
                if active[d]:
                    leaving[g][source].append((q, to, j))
    ptr = np.zeros((len(fam.signatures), 2 * size + 1), dtype=np.int64)
    group: list[int] = []
    col: list[int] = []
    widx: list[int] = []
    bit: list[int] = []
    first = [mem[q] for q in range(len(grouped))]
    bits = [
        plan.fams[into].groups()[0] if into is not None else fam.groups()[0] for into in targets
    ]
    laid = [plan.fams[into].laid() if into is not None else fam.laid() for into in targets]
    for g, sources in enumerate(leaving):
        for source, listed in enumerate(sources):
            ptr[g, source] = len(group)
            for q, to, j in sorted(listed):
                m = first[q]
                group.append(q)
                col.append(to if kinds[m] == END else int(laid[m][to]))
                widx.append(j)
                bit.append(0 if kinds[m] == END else int(bits[m][to]))
        ptr[g, 2 * size] = len(group)

    def ints(values: Sequence[Any]) -> Ints:
        return np.array(values, dtype=np.int64)

    return _Exits(
        kind=ints(kinds),
        axis=ints(axes),
        extra=ints(extras),
        targets=targets,
        strides=ints(member_strides).reshape(len(kinds), len(fam.members)),
        off=ints(offs),
        mem=ints(mem),
        count=ints(counts),
        ptr=ptr,
        group=ints(group),
        col=ints(col),
        widx=ints(widx),
        bit=ints(bit),
        weights=np.concatenate(weights) if weights else np.zeros(1),
    )


def _sweep_kernel(
    plan: _Plan,
    buffer: _Buffer,
    family: Family,
    pieces: _Pieces,
    loops: Floats,
    bounds: Sequence[float],
    out: Floats,
    trap: int,
    seen: np.ndarray[Any, np.dtype[np.uint8]],
    tally: Ints,
    floor: float = 0.0,
) -> None:
    """One family's sweep through the compiled kernel (:mod:`.encounter_kernel`);
    ``seen`` marks the cells mass entered, ``tally`` counts their states with mass;
    blocks under ``floor`` are let go (:data:`FLOOR_TOTAL`), counted in
    :attr:`_Plan.dropped`."""
    assert buffer.comps == COMPS
    fam = plan.fams[family]
    flat = _flat(plan, family, pieces)
    exits = _exits(plan, family)
    bases = [0 if t is None else buffer.base[t] for t in exits.targets]
    marks = [0 if t is None else buffer.tbase[t] for t in exits.targets]
    sizes = [0 if t is None else len(plan.fams[t].shapes) for t in exits.targets]
    bits, grouped, levels = fam.groups()
    group_of = np.repeat(np.arange(levels.shape[0]), levels[:, -1] - levels[:, 0])[fam.laid()]
    fixed = (
        np.array(fam.strides, dtype=np.int64),
        np.array(fam.sizes, dtype=np.int64),
        fam.sig_of_cell,
        np.array(fam.signatures, dtype=np.int64).reshape(len(fam.signatures), -1),
        pieces.escapes,
        bits,
        group_of,
        grouped,
        levels,
        *flat.qp,
        *flat.qr,
        pieces.round_states,
        np.ascontiguousarray(loops),
        np.array(bounds, dtype=np.float64),
        exits.kind,
        exits.axis,
        exits.extra,
        np.array(bases, dtype=np.int64),
        np.array(marks, dtype=np.int64),
        np.array(sizes, dtype=np.int64),
        exits.strides,
        exits.off,
        exits.mem,
        exits.count,
        exits.ptr,
        exits.group,
        exits.col,
        exits.widx,
        exits.bit,
        exits.weights,
    )
    ring = buffer.ring[family]

    workers = buffer.workers[family]
    layer = fam.strides[0] if fam.members else fam.cells
    layers = -(-fam.cells // layer)
    outs = np.zeros((layers, out.shape[0] + 1, out.shape[1]))  # and what is let go
    tallies = np.zeros((workers, 1), dtype=np.int64)

    def run(worker: int, at: int, first: int, last: int) -> None:
        sweep_blocks(
            buffer.mass,
            buffer.touched,
            buffer.base[family],
            buffer.tbase[family],
            len(fam.shapes),
            fam.cells,
            first,
            last,
            ring,
            *fixed,
            outs[at],
            trap,
            seen,
            tallies[worker],
            floor,
        )

    _pipeline(run, buffer.first[family], fam.cells, layer, _lag(fam), workers)
    for at in range(layers):  # in order: the same sums for any number of threads
        out += outs[at, :-1]
        plan.dropped += float(outs[at, -1, 0])
    tally += tallies.sum(axis=0)


PIPELINE_CELLS = 10_000
"""Cells a family needs for its sweep to be shared among threads (:func:`_pipeline`)."""
CHUNK = 1024
"""The most cells a thread sweeps between two looks at the others' progress (a
quarter of a layer, if less, but at least 64)."""


def _lag(fam: _Fam) -> int:
    """How far (in cells) a wound can lead within one layer of the first axis, plus
    one: the distance a thread sweeping the next layer keeps behind."""
    where = {m: i for i, m in enumerate(fam.members)}
    ahead = [
        ch.key[3] * fam.strides[where[ch.key[1]]]
        for ch in fam.channels
        if ch.key[0] == "hurt" and where[ch.key[1]] > 0
    ]
    return max(ahead, default=0) + 1


def _workers(fam: _Fam, threads: int | None = None) -> int:
    """Threads to sweep a family with: ``threads`` (at most one per layer of its first
    axis), or by default one per core (up to four) on a grid of at least
    :data:`PIPELINE_CELLS` cells."""
    if not compiled() or len(fam.members) < 2:
        return 1
    if threads is not None:
        return max(1, min(threads, fam.sizes[0]))
    if fam.cells < PIPELINE_CELLS:
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 4, fam.sizes[0]))


def _pipeline(
    run: Callable[[int, int, int, int], None],
    first: int,
    cells: int,
    layer: int,
    lag: int,
    workers: int,
) -> None:
    """Sweep cells ``first`` .. ``cells - 1`` on ``workers`` threads, a layer of the
    first axis (``layer`` cells) each in turn: layer ``a`` by thread ``a % workers``,
    each chunk of it once the thread of layer ``a - 1`` has swept ``lag`` cells past
    the chunk's end. A wound leads into the same layer at most ``lag - 1`` cells on, or
    into a later layer at the same place; so no two threads ever add to one block at
    once, and a block is read only once every block that leads into it is swept. The
    kernel releases the GIL; ``run(worker, layer, first, last)`` sweeps a chunk. The
    chunks are the same for any number of threads (one thread: no threads), so every
    sum is too."""
    layers = -(-cells // layer)
    chunk = max(64, min(CHUNK, layer // 4))
    done = [0] * layers
    failed: list[BaseException] = []
    ready = threading.Condition()

    def sweep(worker: int) -> None:
        try:
            for a in range(worker, layers, workers):
                start = a * layer
                size = min(layer, cells - start)
                x = max(0, first - start)
                while x < size:
                    end = min(x + chunk, size)
                    if a > 0:
                        need = min(end + lag, layer)
                        with ready:
                            ready.wait_for(lambda: done[a - 1] >= need or bool(failed))  # noqa: B023
                        if failed:
                            return
                    run(worker, a, start + x, start + end)
                    x = end
                    with ready:
                        done[a] = x if x < size else layer
                        ready.notify_all()
                if x >= size:
                    with ready:
                        done[a] = layer
                        ready.notify_all()
        except BaseException as error:  # passed on to the caller
            with ready:
                failed.append(error)
                ready.notify_all()

    if workers == 1:
        sweep(0)
        if failed:
            raise failed[0]
        return
    threads = [threading.Thread(target=sweep, args=(w,), daemon=True) for w in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failed:
        raise failed[0]


def _sweep_rounds(plan: _Plan) -> Floats:
    """The sweep again, over the cells the first one reached only, each state's mass a
    distribution over the rounds begun (0 .. :attr:`_Plan.n_cap`): the exact capped
    answer (compiled only). Returns (outcome, rounds begun) masses; a draw at the cap
    holds all its mass in its first column."""
    degrees = plan.n_cap + 1
    order = list(plan.fams)
    cell_base: dict[Family, int] = {}
    offsets: list[Ints] = []
    total = 0
    start = 0
    for family in order:
        fam = plan.fams[family]
        cell_base[family] = start
        start += fam.cells
        at = np.full(fam.cells, -1, dtype=np.int64)
        live = plan.live[family]
        at[live] = total + np.arange(live.size, dtype=np.int64) * (len(fam.shapes) * degrees)
        total += live.size * len(fam.shapes) * degrees
        offsets.append(at)
    offset = np.concatenate(offsets)
    mass = np.zeros(max(total, 1))
    for entry in plan.entries:
        fam = plan.fams[entry.family]
        at = offset[cell_base[entry.family] + fam.cell(entry.wounds)]
        mass[at + fam.index[entry.shape] * degrees + entry.rounds] += entry.p
    traps = {f: plan.outcome(("end", None, f), capped=True) for f in plan.fams}
    ends = [(p, plan.number(key), 0 if key[2] else rounds) for p, key, rounds in plan.ended]
    out = np.zeros((len(plan.outcomes), degrees))
    for p, end, column in ends:
        out[end, column] += p
    for family in sorted(plan.fams, key=len, reverse=True):
        fam = plan.fams[family]
        if not plan.live[family].size:
            continue
        pieces = plan.pieces[family]
        flat = _flat(plan, family, pieces)
        returns = np.zeros(
            (len(pieces.returns), pieces.round_states.size, pieces.round_states.size)
        )
        for g, c in enumerate(pieces.returns):
            returns[g] = c
        sweep_family_rounds(
            mass,
            offset,
            cell_base[family],
            len(fam.shapes),
            degrees,
            fam.cells,
            np.array(fam.strides, dtype=np.int64),
            np.array(fam.sizes, dtype=np.int64),
            fam.sig_of_cell,
            np.array(fam.signatures, dtype=np.int64).reshape(len(fam.signatures), -1),
            pieces.escapes,
            flat.topo,
            *flat.qp,
            *flat.qr,
            pieces.round_states,
            returns,
            fam.state_of,
            flat.kinds,
            flat.axes,
            flat.table_at,
            flat.extras,
            np.array([0 if t is None else cell_base[t] for t in flat.targets], dtype=np.int64),
            np.array(
                [traps[family] if t is None else traps[t] for t in flat.targets], dtype=np.int64
            ),
            flat.strides,
            flat.ptr,
            flat.tables,
            flat.e_dec,
            flat.e_col,
            flat.e_plain,
            flat.e_fresh,
            out,
            traps[family],
        )
    return out


def _csr(dense: Floats) -> tuple[Ints, Ints, Floats]:
    """A dense matrix's nonzeros row by row: row starts, columns, values."""
    rows, cols = np.nonzero(dense)
    ptr = np.searchsorted(rows, np.arange(dense.shape[0] + 1)).astype(np.int64)
    return ptr, cols.astype(np.int64), dense[rows, cols].astype(np.float64)


# -- pushed forward round by round, to the cap ------------------------------------------------


_State = tuple[Family, Shape, tuple[int, ...]]


def _forward(plan: _Plan) -> dict[tuple[int | None, Family, bool], tuple[float, float]]:
    """Every state's probability pushed forward one turn at a time, the rounds begun
    counted, each fight still going when round ``max_rounds`` closes a draw. Returns
    each outcome's probability and its probability times its rounds."""
    game = plan.game
    result: dict[tuple[int | None, Family, bool], tuple[float, float]] = {}

    def add(key: tuple[int | None, Family, bool], p: float, rounds: int) -> None:
        old = result.get(key, (0.0, 0.0))
        result[key] = (old[0] + p, old[1] + p * rounds)

    for p, key, rounds in plan.ended:
        add(key, p, plan.r0 + rounds)
    layers: dict[int, dict[_State, float]] = {}
    for entry in plan.entries:
        layer = layers.setdefault(entry.rounds, {})
        start = (entry.family, entry.shape, entry.wounds)
        layer[start] = layer.get(start, 0.0) + entry.p
    turns: dict[_State, list[Move]] = {}
    visited = 0
    while layers:
        n = min(layers)
        pending = layers.pop(n)
        while pending:
            later: dict[_State, float] = {}
            for state, mass in pending.items():
                visited += 1
                if visited > FORWARD_BUDGET:
                    raise _too_long(game.max_rounds)
                moves = turns.get(state)
                family, shape, wounds = state
                if moves is None:
                    moves = turns[state] = _turn(game, family, shape, wounds)[1]
                for weight, out, dest in moves:
                    p = mass * weight * _weight(game, out, wounds)
                    if not p:
                        continue
                    if dest[0] == "end":
                        add((dest[1], dest[2], False), p, plan.r0 + n)
                        continue
                    after = list(wounds)
                    if out.victim is not None and out.fall is None:
                        after[out.victim] += out.add
                    there = (dest[1], dest[2], tuple(after))
                    if not dest[3]:
                        later[there] = later.get(there, 0.0) + p
                    elif n >= plan.n_cap:
                        add((None, dest[1], True), p, plan.r0 + n)
                    else:
                        layer = layers.setdefault(n + 1, {})
                        layer[there] = layer.get(there, 0.0) + p
            pending = later
    return result


def _too_long(cap: int, past: str | None = None) -> RulesError:
    if past is None:
        past = f"visit more than {FORWARD_BUDGET:,} states"
    return RulesError(
        f"this fight may last to its cap of {cap} rounds, and its exact odds round by "
        f"round would {past}",
        hint="simulate it instead: affray fight ENCOUNTER -n 100000",
    )


def _rounds_work(plan: _Plan) -> int:
    """The steps of :func:`_sweep_rounds`: the cells the first sweep reached times the
    rounds left times the multiply-adds of a block (its moves and ways out, and the
    round states' loop, ``R x R``)."""
    degrees = plan.n_cap + 1
    work = 0
    for family, fam in plan.fams.items():
        pieces = plan.pieces[family]
        moves = 2 * int(np.count_nonzero(fam.q_plain)) + int(np.count_nonzero(fam.q_round))
        ways = sum(int(np.count_nonzero((ch.plain != 0) | (ch.fresh != 0))) for ch in fam.channels)
        per_cell = 2 * len(fam.shapes) + moves + 2 * ways + pieces.round_states.size**2
        work += int(plan.live[family].size) * degrees * per_cell
    return work


# -- the door ---------------------------------------------------------------------------------


def exact_fight(
    ruleset: object,
    cursor: Cursor[Any, Any],
    tactics: Mapping[str, object],
    first: tuple[str, str | None] | None = None,
    threads: int | None = None,
) -> ExactFightOdds:
    """Exact odds of the MST-2 fight at ``cursor``, every choice to the tactics AI.

    Args:
        ruleset: the encounter's :class:`~affray.rulesystems.mst2.ruleset.Mst2Ruleset`.
        cursor: where the fight stands: a fresh encounter (``Phase.SETUP``) or a fight
            under way (wounds, engagements, whose turn and the rest of the round, the
            round against ``cursor.max_rounds``).
        tactics: each combatant's :class:`~affray.rulesystems.mst2.tactics.Mst2Tactics`.
        first: the action (name and target) the combatant whose turn it is takes
            first, instead of its tactics' choice (ignored unless it is legal, as in
            ``affray.sim.fights``).
        threads: how many threads the compiled sweep of a big grid is shared among
            (default: one per core, up to four, from :data:`PIPELINE_CELLS` cells on).
            The answer is the same to the last bit for any number, but for the sums
            of the outcomes (each thread keeps its own, added at the end).

    Raises:
        NotModelledError: not an MST-2 fight.
        RulesError: past the limits (see :func:`exact_limit`), or a fight that may last
            to its cap with more than :data:`FORWARD_BUDGET` states to push forward.
    """
    plan = _plan(ruleset, cursor, tactics, first)
    if plan.decided is not None:
        return plan.decided
    game = plan.game
    states = sum(len(f.shapes) for f in plan.fams.values())
    zeta = _z_limit(plan)
    bounds = [zeta**f for f in BOUND_EXPONENTS]
    masses = _sweep(plan, bounds, threads=threads)
    ending = [i for i, o in enumerate(plan.outcomes) if not o[2]]
    beyond = [
        float(masses[ending, 2 + j].sum()) * z ** -(plan.n_cap + 1) for j, z in enumerate(bounds)
    ]
    p_beyond = min(beyond) + plan.dropped
    mean_beyond = min(b / (1 - 1 / z) for b, z in zip(beyond, bounds, strict=True))
    if p_beyond <= CAP_TOLERANCE and mean_beyond <= 10 * CAP_TOLERANCE:
        result = {
            o: (
                float(masses[i, 0]),
                float(masses[i, 0]) * max(plan.r0, game.max_rounds)
                if o[2]
                else float(masses[i, 0]) * plan.r0 + float(masses[i, 1]),
            )
            for i, o in enumerate(plan.outcomes)
        }
        method = "sweep"
    elif compiled():  # the exact capped answer: round-by-round distributions
        work = _rounds_work(plan)
        room = sum(plan.live[f].size * len(fam.shapes) for f, fam in plan.fams.items())
        if room * (plan.n_cap + 1) > MAX_CELLS * 16:
            raise _too_long(
                game.max_rounds,
                f"hold {room:,} states times {plan.n_cap + 1} rounds, over the limit of "
                f"{MAX_CELLS * 16:,}",
            )
        if work > ROUNDS_BUDGET:
            raise _too_long(
                game.max_rounds, f"take {work:,} steps, over the limit of {ROUNDS_BUDGET:,}"
            )
        by_round = _sweep_rounds(plan)
        begun = plan.r0 + np.arange(by_round.shape[1])
        result = {
            o: (
                math.fsum(by_round[i]),
                math.fsum(by_round[i]) * max(plan.r0, game.max_rounds)
                if o[2]
                else math.fsum(by_round[i] * begun),
            )
            for i, o in enumerate(plan.outcomes)
        }
        method = "rounds"
    else:
        if plan.reached * min(plan.n_cap, FORWARD_LAYERS) > FORWARD_BUDGET:
            raise _too_long(game.max_rounds)
        result = _forward(plan)
        method = "rounds"
    return _answer(game, result, method, states, plan.dropped)


def _answer(
    game: _Game,
    result: Mapping[tuple[int | None, Family, bool], tuple[float, float]],
    method: str,
    states: int,
    unswept: float = 0.0,
) -> ExactFightOdds:
    wins = dict.fromkeys(game.sides, 0.0)
    standing = dict.fromkeys(game.ids, 0.0)
    draw = 0.0
    rounds = 0.0
    for (winner, left, capped), (p, weighted) in result.items():
        rounds += weighted
        if winner is None or capped:
            draw += p
        else:
            wins[game.sides[winner]] += p
        for i in left:
            standing[game.ids[i]] += p
    return ExactFightOdds(wins, draw, rounds, standing, method, states, unswept)
