"""The chain's moves: the fight's fixed facts, the engagements, the tactics AI's
policy on the chain's state, what one action does (every die summed over), and turns."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from affray.encounter import Targeting
from affray.encounter.cursor import Cursor
from affray.errors import NotModelledError
from affray.rulesystems.mst2.fighter import Fighter
from affray.rulesystems.mst2.odds.attack import hit_dice_distribution, wound_distribution
from affray.rulesystems.mst2.odds.duel import Strike
from affray.rulesystems.mst2.odds.encounter.answers import Act, Eng, Family, Queue, Shape
from affray.rulesystems.mst2.ruleset import Mst2Ruleset, TurnOrder
from affray.rulesystems.mst2.state import FighterState
from affray.rulesystems.mst2.tactics import Mst2Tactics, Role

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
