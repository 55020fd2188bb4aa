"""The fast MST-2 group engine's kernel: whole fights of many combatants, one at a
time, in machine code (numba) where numba is installed, as plain Python elsewhere.

It plays what the reference engine plays (the turn cursor moved by the tactics AI,
:mod:`affray.rulesystems.mst2.ruleset` and :mod:`affray.rulesystems.mst2.tactics`), rule for
rule, on arrays that :mod:`affray.rulesystems.mst2.sim.fights` makes ready once per fight:

- each round, every combatant still fighting takes a turn, in listing order or in a
  new order shuffled each round (the reference engine's Fisher-Yates); a fight ends
  as soon as at most one side is fighting, or when a round closes at the cap;
- a turn is the tactics': flee at ``retreat_at`` wounds; an archer with a missile
  weapon and no foe on it shoots; otherwise it attacks a foe its policy picks among
  the foes engaged with it, else among all (weakest, random, nearest, focus: the
  policies of :mod:`affray.encounter.tactics`, ties to the first listed);
- melee: a foe not yet engaged is met at the longer reach; an attacker whose reach
  is not the distance takes the defender's counter-attack first (a hit prevents the
  attack), then fights at its own reach; shooting while engaged draws a counter from
  each engaged foe in reach (any hit prevents the shot); an odd d20 sends the shot to
  one of the target and those in its melee, uniformly; fleeing draws the counters of
  each engaged foe in reach and gets away if still fighting;
- one attack: the d20 is rolled (its face decides the hit and the scatter); a hit's
  wounds come from their exact distribution with one uniform number; a wounded
  fighter still fighting passes its shock check with its exact chance at the new
  total (one uniform number), else it is out of the fight (what kind of out, the
  lethality's second check, changes nothing in the fight).

Dice are drawn from NumPy's generator inside the kernel, seeded per chunk, so a run
depends on the seed and its number of fights only. The first turn may be given (an
action code and a target: the table's "best move") instead of the tactics' choice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from affray.sim import jit

Ints = np.ndarray[Any, np.dtype[np.int64]]
Floats = np.ndarray[Any, np.dtype[np.float64]]

# Actions (a first action, or the tactics' choice).
ATTACK, SHOOT, STEP_AWAY, FLEE, NON_COMBAT, HOLD = 0, 1, 2, 3, 4, 5
# Target policies.
WEAKEST, RANDOM, NEAREST, FOCUS = 0, 1, 2, 3
# Where a fight starts.
AT_SETUP, AT_TURN, AT_ROUND_OVER = 0, 1, 2


def compiled() -> bool:
    """Whether the kernel runs as machine code (numba installed and switched on)."""
    return jit.COMPILED


def needs_compiling() -> bool:
    """Whether the first fight will compile the kernel (about 20 s, once per machine
    and per change of this file)."""
    return jit.needs_compiling(fight_chunk)


def _die(sides: int) -> int:
    """A die of ``sides`` sides: 1 to ``sides``."""
    return 1 + int(np.random.random() * sides)


def _wounds(cumulative: Floats) -> int:
    """A hit's wounds from the cumulative chances of 0, 1, ... wounds."""
    u = np.random.random()
    k = 0
    while k < cumulative.size - 1 and u >= cumulative[k]:
        k += 1
    return k


def _suffer(victim: int, wounds: int, wounded: Ints, fighting: Ints, survive: Floats) -> None:
    """``victim`` takes ``wounds``; if still fighting, its shock check at the new total."""
    if wounds <= 0:
        return
    wounded[victim] += wounds
    if fighting[victim] == 0:
        return
    total = min(wounded[victim], survive.shape[1] - 1)
    if np.random.random() >= survive[victim, total]:
        fighting[victim] = 0


def _strike(
    attacker: int,
    victim: int,
    need: Ints,
    cumulative: Floats,
    wounded: Ints,
    fighting: Ints,
    survive: Floats,
) -> bool:
    """One melee attack (or counter-attack) of ``attacker`` on ``victim``: hit or not."""
    face = _die(20)
    if face <= need[attacker, victim]:
        return False
    _suffer(victim, _wounds(cumulative[attacker, victim]), wounded, fighting, survive)
    return True


def _release(who: int, engaged: Ints) -> None:
    for other in range(engaged.shape[0]):
        engaged[who, other] = -1
        engaged[other, who] = -1


def _release_if_down(who: int, engaged: Ints, fighting: Ints) -> None:
    if fighting[who] == 0:
        _release(who, engaged)


def _counters(
    who: int,
    side: Ints,
    reach: Ints,
    need: Ints,
    melee: Floats,
    wounded: Ints,
    fighting: Ints,
    survive: Floats,
    engaged: Ints,
) -> int:
    """Each engaged foe still fighting and in reach counter-attacks ``who``, in listing
    order, until ``who`` is out of the fight; how many hit."""
    hits = 0
    count = side.size
    foes = np.empty(count, np.int64)  # the engaged foes as the counters start
    n = 0
    for other in range(count):
        if engaged[who, other] >= 0 and fighting[other] == 1 and side[other] != side[who]:
            foes[n] = other
            n += 1
    for k in range(n):
        if fighting[who] == 0:
            break
        foe = foes[k]
        if reach[foe] < engaged[who, foe]:
            continue  # out of reach: no counter-attack
        hits += _strike(foe, who, need, melee, wounded, fighting, survive)
    return hits


def _weakness(who: int, wounded: Ints, mean: Floats) -> float:
    return float(wounded[who] - mean[who])


def _pick(
    policy: int,
    actor: int,
    candidates: Ints,
    n: int,
    side: Ints,
    wounded: Ints,
    mean: Floats,
    engaged: Ints,
) -> int:
    """One of the ``n`` first ``candidates`` for ``actor`` by its target policy."""
    if policy == WEAKEST:
        best = candidates[0]
        for k in range(1, n):
            c = candidates[k]
            if _weakness(c, wounded, mean) > _weakness(best, wounded, mean):
                best = c
        return int(best)
    if policy == RANDOM:
        if n == 1:
            return int(candidates[0])
        return int(candidates[_die(n) - 1])
    count = side.size
    if policy == NEAREST:
        for k in range(n):
            if engaged[actor, candidates[k]] >= 0:
                return int(candidates[k])
        for k in range(n):
            c = candidates[k]
            for ally in range(count):
                if ally != actor and side[ally] == side[actor] and engaged[ally, c] >= 0:
                    return int(c)
        return int(candidates[0])
    # FOCUS: the foe most allies are fighting, then the weakest
    best = -1
    best_pressure = -1
    best_weakness = 0.0
    for k in range(n):
        c = candidates[k]
        pressure = 0
        for ally in range(count):
            if ally != actor and side[ally] == side[actor] and engaged[ally, c] >= 0:
                pressure += 1
        weakness = _weakness(c, wounded, mean)
        if pressure > best_pressure or (pressure == best_pressure and weakness > best_weakness):
            best, best_pressure, best_weakness = c, pressure, weakness
    return int(best)


def _melee(
    who: int,
    target: int,
    reach: Ints,
    need: Ints,
    melee: Floats,
    wounded: Ints,
    fighting: Ints,
    survive: Floats,
    engaged: Ints,
) -> None:
    distance = engaged[who, target]
    if distance < 0:
        distance = max(reach[who], reach[target])
    if reach[who] != distance and fighting[target] == 1:
        hit = _strike(target, who, need, melee, wounded, fighting, survive)
        if hit or fighting[who] == 0:  # the counter-attack prevents the attack
            engaged[who, target] = engaged[target, who] = distance
            _release_if_down(who, engaged, fighting)
            _release_if_down(target, engaged, fighting)
            return
    distance = reach[who]
    _strike(who, target, need, melee, wounded, fighting, survive)
    engaged[who, target] = engaged[target, who] = distance
    _release_if_down(who, engaged, fighting)
    _release_if_down(target, engaged, fighting)


def _shoot(
    who: int,
    target: int,
    side: Ints,
    reach: Ints,
    need: Ints,
    melee: Floats,
    shot: Floats,
    wounded: Ints,
    fighting: Ints,
    survive: Floats,
    engaged: Ints,
) -> None:
    count = side.size
    # the target's melee: everyone joined to it through engagements
    seen = np.zeros(count, np.int64)
    frontier = np.empty(count, np.int64)
    seen[target] = 1
    frontier[0] = target
    top = 1
    while top > 0:
        top -= 1
        current = frontier[top]
        for other in range(count):
            if engaged[current, other] >= 0 and seen[other] == 0:
                seen[other] = 1
                frontier[top] = other
                top += 1
    candidates = np.empty(count, np.int64)
    candidates[0] = target
    n = 1
    for other in range(count):
        if other != target and other != who and seen[other] == 1 and fighting[other] == 1:
            candidates[n] = other
            n += 1
    hits = _counters(who, side, reach, need, melee, wounded, fighting, survive, engaged)
    if hits == 0 and fighting[who] == 1:
        face = _die(20)
        victim = target
        if face % 2 == 1 and n > 1:
            victim = candidates[_die(n) - 1]
        if face > need[who, victim]:
            _suffer(victim, _wounds(shot[who, victim]), wounded, fighting, survive)
    _release_if_down(who, engaged, fighting)
    for k in range(n):
        _release_if_down(candidates[k], engaged, fighting)


def _act(
    who: int,
    action: int,
    target: int,
    side: Ints,
    reach: Ints,
    need: Ints,
    melee: Floats,
    shot: Floats,
    wounded: Ints,
    fighting: Ints,
    survive: Floats,
    engaged: Ints,
    fled: Ints,
) -> None:
    """Carry out ``action`` for ``who`` (fighting, with foes fighting); one who gets
    away is marked in ``fled``."""
    if action == ATTACK:
        _melee(who, target, reach, need, melee, wounded, fighting, survive, engaged)
    elif action == SHOOT:
        _shoot(who, target, side, reach, need, melee, shot, wounded, fighting, survive, engaged)
    elif action == FLEE:
        _counters(who, side, reach, need, melee, wounded, fighting, survive, engaged)
        if fighting[who] == 1:
            fighting[who] = 0  # it gets away
            fled[who] = 1
        _release(who, engaged)
    elif action in (STEP_AWAY, NON_COMBAT):
        _counters(who, side, reach, need, melee, wounded, fighting, survive, engaged)
        if action == STEP_AWAY and fighting[who] == 1:
            _release(who, engaged)
        _release_if_down(who, engaged, fighting)


def _choose(
    who: int,
    side: Ints,
    missile: Ints,
    policy: Ints,
    archer: Ints,
    retreat: Ints,
    wounded: Ints,
    fighting: Ints,
    mean: Floats,
    engaged: Ints,
    choice: Ints,
) -> None:
    """The tactics' action for ``who``: ``choice[0]`` the action, ``choice[1]`` its target."""
    if retreat[who] >= 0 and wounded[who] >= retreat[who]:
        choice[0], choice[1] = FLEE, -1
        return
    count = side.size
    foes = np.empty(count, np.int64)
    near = np.empty(count, np.int64)
    n = 0
    m = 0
    for other in range(count):
        if side[other] != side[who] and fighting[other] == 1:
            foes[n] = other
            n += 1
            if engaged[who, other] >= 0:
                near[m] = other
                m += 1
    if n == 0:
        choice[0], choice[1] = HOLD, -1
        return
    if archer[who] == 1 and missile[who] == 1 and m == 0:
        choice[0] = SHOOT
        choice[1] = _pick(policy[who], who, foes, n, side, wounded, mean, engaged)
        return
    choice[0] = ATTACK
    if m > 0:
        choice[1] = _pick(policy[who], who, near, m, side, wounded, mean, engaged)
    else:
        choice[1] = _pick(policy[who], who, foes, n, side, wounded, mean, engaged)


def _sides_left(side: Ints, sides: int, fighting: Ints) -> int:
    """How many sides still fight, or -(winner + 2) when exactly one does."""
    alive = np.zeros(sides, np.int64)
    for c in range(side.size):
        if fighting[c] == 1:
            alive[side[c]] = 1
    left = 0
    last = -1
    for s in range(sides):
        if alive[s] == 1:
            left += 1
            last = s
    if left == 1:
        return -(last + 2)
    return left


def _play(
    sides: int,
    side: Ints,
    reach: Ints,
    missile: Ints,
    need: Ints,
    melee: Floats,
    shot: Floats,
    survive: Floats,
    mean: Floats,
    policy: Ints,
    archer: Ints,
    retreat: Ints,
    shuffled: int,
    max_rounds: int,
    start_round: int,
    start_at: int,
    start_queue: Ints,
    first_action: int,
    first_target: int,
    wounded: Ints,
    fighting: Ints,
    engaged: Ints,
    fled: Ints,
    queue: Ints,
    choice: Ints,
) -> tuple[int, int]:
    """One fight from the start already in ``wounded``, ``fighting`` and ``engaged``
    (played on them: they hold its end); returns :func:`_sides_left` at its end and
    its last round."""
    count = side.size
    round_number = start_round
    left = _sides_left(side, sides, fighting)
    queued = 0
    at = 0
    if start_at == AT_TURN:
        queued = start_queue.size
        queue[:queued] = start_queue
    first = start_at == AT_TURN and first_action >= 0
    while left >= 2:
        if at >= queued:  # the round is over (closed: nothing ends an MST-2 round)
            if round_number >= max_rounds:
                break  # the round cap: a draw
            round_number += 1
            queued = 0
            for c in range(count):
                if fighting[c] == 1:
                    queue[queued] = c
                    queued += 1
            if shuffled == 1:
                for i in range(queued - 1, 0, -1):
                    j = _die(i + 1) - 1
                    queue[i], queue[j] = queue[j], queue[i]
            at = 0
            continue
        who = queue[at]
        at += 1
        if fighting[who] == 0:
            continue
        if first:
            first = False
            action, target = first_action, first_target
            if target >= 0 and fighting[target] == 0:
                action = -1
        else:
            action = -1
            target = -1
        if action < 0:
            _choose(
                who, side, missile, policy, archer, retreat, wounded, fighting, mean,
                engaged, choice,
            )  # fmt: skip
            action, target = choice[0], choice[1]
        _act(
            who, action, target, side, reach, need, melee, shot, wounded, fighting,
            survive, engaged, fled,
        )  # fmt: skip
        left = _sides_left(side, sides, fighting)
    return left, round_number


def _fight_chunk(
    seed: int,
    size: int,
    sides: int,
    side: Ints,
    reach: Ints,
    missile: Ints,
    need: Ints,
    melee: Floats,
    shot: Floats,
    survive: Floats,
    mean: Floats,
    policy: Ints,
    archer: Ints,
    retreat: Ints,
    shuffled: int,
    max_rounds: int,
    start_wounds: Ints,
    start_fighting: Ints,
    start_engaged: Ints,
    start_round: int,
    start_at: int,
    start_queue: Ints,
    first_action: int,
    first_target: int,
    wins: Ints,
    rounds_seen: Ints,
    standing: Ints,
) -> tuple[int, int]:
    """Fight ``size`` fights from the given start, adding each side's wins, the rounds
    of each fight and who was standing to ``wins``, ``rounds_seen`` (by round) and
    ``standing``; returns the draws and the rounds added up. A ``seed`` of -1 goes on
    with the generator where the last call left it."""
    if seed >= 0:  # else go on with the numbers of the last call
        np.random.seed(seed)
    count = side.size
    wounded = np.empty(count, np.int64)
    fighting = np.empty(count, np.int64)
    engaged = np.empty((count, count), np.int64)
    fled = np.zeros(count, np.int64)
    queue = np.empty(max(count, start_queue.size), np.int64)
    choice = np.empty(2, np.int64)
    draws = 0
    total_rounds = 0
    for _ in range(size):
        wounded[:] = start_wounds
        fighting[:] = start_fighting
        engaged[:, :] = start_engaged
        left, round_number = _play(
            sides, side, reach, missile, need, melee, shot, survive, mean, policy, archer,
            retreat, shuffled, max_rounds, start_round, start_at, start_queue, first_action,
            first_target, wounded, fighting, engaged, fled, queue, choice,
        )  # fmt: skip
        if left <= -2:
            wins[-left - 2] += 1
        else:
            draws += 1
        rounds_seen[min(round_number, rounds_seen.size - 1)] += 1
        total_rounds += round_number
        for c in range(count):
            standing[c] += fighting[c]
    return draws, total_rounds


def _fight_ends(
    seed: int,
    sides: int,
    side: Ints,
    reach: Ints,
    missile: Ints,
    need: Ints,
    melee: Floats,
    shot: Floats,
    survive: Floats,
    mean: Floats,
    policy: Ints,
    archer: Ints,
    retreat: Ints,
    shuffled: int,
    max_rounds: int,
    start_engaged: Ints,
    start_round: int,
    start_at: int,
    start_queue: Ints,
    wounded: Ints,
    fighting: Ints,
    fled: Ints,
    rounds: Ints,
) -> None:
    """Fight one fight from each row of ``wounded`` and ``fighting`` (the same fight,
    its combatants' wounds differing: a day's fights), leaving each fight's end in its
    row: the wounds, who is still fighting, who got away (``fled``), and the last
    round in ``rounds``. The tactics choose every turn."""
    np.random.seed(seed)
    count = side.size
    engaged = np.empty((count, count), np.int64)
    queue = np.empty(max(count, start_queue.size), np.int64)
    choice = np.empty(2, np.int64)
    for k in range(wounded.shape[0]):
        engaged[:, :] = start_engaged
        _, last = _play(
            sides, side, reach, missile, need, melee, shot, survive, mean, policy, archer,
            retreat, shuffled, max_rounds, start_round, start_at, start_queue, -1, -1,
            wounded[k], fighting[k], engaged, fled[k], queue, choice,
        )  # fmt: skip
        rounds[k] = last


_die = jit.inline(_die)
_wounds = jit.inline(_wounds)
_suffer = jit.inline(_suffer)
_strike = jit.inline(_strike)
_release = jit.inline(_release)
_release_if_down = jit.inline(_release_if_down)
_counters = jit.inline(_counters)
_weakness = jit.inline(_weakness)
_pick = jit.inline(_pick)
_melee = jit.inline(_melee)
_shoot = jit.inline(_shoot)
_act = jit.inline(_act)
_choose = jit.inline(_choose)
_sides_left = jit.inline(_sides_left)
_play = jit.inline(_play)
fight_chunk: Callable[..., tuple[int, int]] = jit.entry(_fight_chunk)
"""Fight a chunk of fights (the arguments of :func:`_fight_chunk`), compiled."""
fight_ends: Callable[..., None] = jit.entry(_fight_ends)
"""Fight one fight from each of many starts, keeping each one's end (the arguments of
:func:`_fight_ends`), compiled."""
