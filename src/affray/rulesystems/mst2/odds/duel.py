"""Exact odds of a whole MST-2 duel as an absorbing Markov chain.

The duel follows the duel rules of docs/rules/mst2.md (see ``affray.rulesystems.mst2.duels``): A
attacks, then B, alternating; the distance opens at the longer reach; an attacker
whose reach differs from the distance first takes the defender's counter-attack,
which prevents the attack if it hits.

A transient state is ``(wounds of A, wounds of B, distance, whose turn)``. Wounds
never decrease, so the chain is a DAG of small *blocks*, one per pair of wound
counts, each holding at most four states (two possible distances — one of the two
reaches — times two turns) that can cycle among themselves through misses. The
solver pushes probability mass forward through the blocks in order of total
wounds, solving one tiny linear system per block in exact fractions. What a
block sends nowhere but back into itself forever (a loop no one can escape, e.g.
a counter-attack that always hits and never wounds) is a draw.

Every probability is an exact ``Fraction``; floats appear only in
:func:`rounds_distribution`, computed numerically (not sampled) because an exact
per-round distribution has unwieldy denominators.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from heapq import heappop, heappush
from math import lcm

from affray.answers import MAX_ROUNDS, RoundsDistribution
from affray.dice.distribution import Distribution
from affray.errors import AffrayError
from affray.rulesystems.mst2.catalog import Reach
from affray.rulesystems.mst2.duels import can_ever_wound
from affray.rulesystems.mst2.fighter import Fighter
from affray.rulesystems.mst2.odds.attack import (
    hit_chance,
    hit_dice_distribution,
    wound_distribution,
)
from affray.rulesystems.mst2.reach import opening_distance

Shape = tuple[Reach, str]
"""A state within a block: ``(distance, side to attack: "a" or "b")``."""


@dataclass(frozen=True, slots=True)
class DuelFractions:
    """Exact outcome of a duel.

    Attributes:
        p_a_wins, p_b_wins, p_draw: exact probabilities (they sum to 1).
        mean_rounds: expected number of rounds begun, duels that never end
            counted at the cap of ``MAX_ROUNDS`` rounds.
        winner_wounds: ``{"a": {wounds: p}, "b": {...}}``, each unconditional.
        states: number of transient states the chain visited.
    """

    p_a_wins: Fraction
    p_b_wins: Fraction
    p_draw: Fraction
    mean_rounds: Fraction
    winner_wounds: dict[str, dict[int, Fraction]]
    states: int


@dataclass(frozen=True, slots=True)
class Strike:
    """One side's attack on the other, exactly: P(miss), P(hit with k wounds) (only
    the possible k), and the defender's shock survival P(hit-dice total > w). The
    chain here and the fast simulator both build on it."""

    p_miss: Fraction
    hit_wounds: dict[int, Fraction]
    survive: list[Fraction]

    @classmethod
    def of(cls, attacker: Fighter, defender: Fighter) -> Strike:
        p_hit = hit_chance(attacker.skill, defender.evasion)
        on_hit = wound_distribution(attacker.melee_power, defender.protection).probabilities()
        survive = _survival(hit_dice_distribution(defender.hit_dice))
        return cls(1 - p_hit, {k: p_hit * p for k, p in on_hit.items() if p_hit * p}, survive)

    def survives(self, wounds: int) -> Fraction:
        return self.survive[wounds] if wounds < len(self.survive) else Fraction(0)


def _survival(totals: Distribution) -> list[Fraction]:
    """P(total > w) for w = 0 .. the highest total, in one pass from the top."""
    probabilities = totals.probabilities()
    above = Fraction(0)
    survive = []
    for w in range(max(totals.maximum, 0), -1, -1):
        survive.append(above)
        above += probabilities.get(w, Fraction(0))
    survive.reverse()
    return survive


@dataclass(frozen=True, slots=True)
class _WoundEvent:
    """From some shape: with probability ``p`` the ``attacker`` inflicts ``k`` >= 1
    wounds on ``victim``; if the victim keeps fighting the chain moves to ``after``."""

    p: Fraction
    attacker: str
    victim: str
    k: int
    after: Shape


class _Chain:
    """The duel's transitions. What stays inside a block (misses, hits without a
    wound) does not depend on the wounds, so it is worked out once, as are the
    expected visits within a block, ``(I - Q)^-1``."""

    def __init__(self, a: Fighter, b: Fighter) -> None:
        self.reach = {"a": a.reach, "b": b.reach}
        self.strike = {"a": Strike.of(a, b), "b": Strike.of(b, a)}
        self.start: Shape = (opening_distance(a, b), "a")
        self.shapes: list[Shape] = [
            (distance, side) for distance in sorted(set(self.reach.values())) for side in "ab"
        ]
        self.inside: dict[Shape, dict[Shape, Fraction]] = {}
        self.events: dict[Shape, list[_WoundEvent]] = {}
        for shape in self.shapes:
            self.inside[shape], self.events[shape] = self._moves(shape)
        escaping = {s for s in self.shapes if self.events[s]}
        while True:
            more = {
                s
                for s in self.shapes
                if s not in escaping and any(t in escaping for t in self.inside[s])
            }
            if not more:
                break
            escaping |= more
        self.escaping = [s for s in self.shapes if s in escaping]
        self.to_trap = {
            s: sum((p for t, p in self.inside[s].items() if t not in escaping), Fraction(0))
            for s in self.escaping
        }
        self.visits = _inverse_visits(self.escaping, self.inside)

    def _moves(self, shape: Shape) -> tuple[dict[Shape, Fraction], list[_WoundEvent]]:
        """One attack from ``shape`` (with its counter-attack, if due)."""
        distance, side = shape
        other = "b" if side == "a" else "a"
        inside: dict[Shape, Fraction] = defaultdict(Fraction)
        events: list[_WoundEvent] = []

        def attack(at: Reach, weight: Fraction) -> None:
            strike = self.strike[side]
            inside[(at, other)] += weight * strike.p_miss
            for k, p in strike.hit_wounds.items():
                if k == 0:
                    inside[(at, other)] += weight * p
                else:
                    events.append(_WoundEvent(weight * p, side, other, k, (at, other)))

        if self.reach[side] == distance:
            attack(distance, Fraction(1))
        else:
            counter = self.strike[other]
            attack(self.reach[side], counter.p_miss)  # closes in or disengages, then attacks
            for k, p in counter.hit_wounds.items():  # the counter hits: attack prevented
                if k == 0:
                    inside[(distance, other)] += p
                else:
                    events.append(_WoundEvent(p, other, side, k, (distance, other)))
        return {t: p for t, p in inside.items() if p}, [e for e in events if e.p]


def _inverse_visits(
    shapes: list[Shape], inside: dict[Shape, dict[Shape, Fraction]]
) -> dict[Shape, dict[Shape, Fraction]]:
    """Expected visits to each shape of a block per unit of mass entering at each
    shape: the rows of ``(I - Q)^-1`` restricted to the shapes that can escape."""
    size = len(shapes)
    matrix = [
        [
            Fraction(int(i == j)) - inside[source].get(target, Fraction(0))
            for j, target in enumerate(shapes)
        ]
        for i, source in enumerate(shapes)
    ]
    inverse = _invert(matrix)
    return {
        shapes[i]: {shapes[j]: inverse[i][j] for j in range(size) if inverse[i][j]}
        for i in range(size)
    }


_Row = tuple[bool, int, Shape, bool, list[int], list[int], int]
"""A wounding event as integers: (victim is A, k, shape after, attacker is A, numerators
of "victim keeps fighting" for each victim total (times ``scale ** (k - 1)``), of
"victim is out", and of the event itself for totals beyond every roll)."""


def _steps(chain: _Chain) -> dict[Shape, dict[tuple[str, str, int, Shape], Fraction]]:
    """For mass entering a block at each shape: the probability of each wounding
    event ``(attacker, victim, k, shape after)``, through the block's visits."""
    steps: dict[Shape, dict[tuple[str, str, int, Shape], Fraction]] = {}
    for entry, visits in chain.visits.items():
        merged: dict[tuple[str, str, int, Shape], Fraction] = defaultdict(Fraction)
        for shape, v in visits.items():
            for e in chain.events[shape]:
                merged[(e.attacker, e.victim, e.k, e.after)] += v * e.p
        steps[entry] = dict(merged)
    return steps


EXACT_DUEL_BUDGET = 25_000
"""Wound pairs an exact duel may track (each fighter's wounds up to its highest hit-dice
total): 15d10 against 15d10 is within it and answers in a few seconds."""

EXACT_DUEL_STEPS = 120_000
"""Steps an exact duel may take: the pairs of wound totals the blows can reach, times
the ways a blow of either side can wound (one per possible number of wounds). Big power
pools against armour give many ways to wound: 15d10 against 15d10 with 1d8 weapons
(45,602 steps, a few seconds) is within it; with 3d6 against leather (136,806 steps,
about 7 s) or 20d6 against plate mail (912,040 steps, 90 s) it is not."""


def check_exact_budget(a: Fighter, b: Fighter) -> None:
    """Refuse, at once, an exact duel that would take minutes.

    Raises:
        AffrayError: the wound pairs to track exceed :data:`EXACT_DUEL_BUDGET`, or
            the steps to take exceed :data:`EXACT_DUEL_STEPS`.
    """
    pairs = (_most(a) + 1) * (_most(b) + 1)
    if pairs > EXACT_DUEL_BUDGET:
        raise AffrayError(
            f"exact odds of this duel would track {pairs:,} pairs of wound totals, "
            f"over the limit of {EXACT_DUEL_BUDGET:,} (hit dice {a.hit_dice.text} "
            f"and {b.hit_dice.text})",
            hint="simulate it instead: affray duel A B -n 100000",
        )
    ways_a, ways_b = _ways(a, b), _ways(b, a)
    reached = _reachable(ways_a, _most(b)) * _reachable(ways_b, _most(a))
    steps = reached * (len(ways_a) + len(ways_b))
    if steps > EXACT_DUEL_STEPS:
        raise AffrayError(
            f"exact odds of this duel would take {steps:,} steps ({reached:,} pairs of "
            f"wound totals, {len(ways_a)} and {len(ways_b)} ways to wound with a blow), "
            f"over the limit of {EXACT_DUEL_STEPS:,}",
            hint="simulate it instead: affray duel A B -n 100000",
        )


def _most(fighter: Fighter) -> int:
    return sum(fighter.hit_dice.pool) + max(fighter.hit_dice.bonus, 0)


def _ways(attacker: Fighter, defender: Fighter) -> list[int]:
    """The numbers of wounds (1 or more) one blow of ``attacker`` can inflict."""
    return [k for k in Strike.of(attacker, defender).hit_wounds if k > 0]


def _reachable(ways: list[int], most: int) -> int:
    """How many wound totals from 0 to ``most`` blows of ``ways`` wounds can reach."""
    seen = [False] * (most + 1)
    seen[0] = True
    for total in range(most + 1):
        if seen[total]:
            for k in ways:
                if total + k <= most:
                    seen[total + k] = True
    return sum(seen)


def duel_odds(a: Fighter, b: Fighter) -> DuelFractions:
    """Exact P(A wins), P(B wins), P(draw), expected rounds and the winner's final
    wounds for a duel between ``a`` (attacking first) and ``b``.

    The mass in block ``(wa, wb)`` is kept as integers over the common denominator
    ``scale ** (wa + wb)``, where ``scale`` clears every per-wound factor, so the
    sweep is integer arithmetic; fractions are formed once at the end.
    """
    if not (can_ever_wound(a, b) or can_ever_wound(b, a)):
        return DuelFractions(
            Fraction(0), Fraction(0), Fraction(1), Fraction(0), {"a": {}, "b": {}}, 0
        )
    check_exact_budget(a, b)
    chain = _Chain(a, b)
    steps = _steps(chain)
    rounds_per = {
        entry: sum((v for s, v in visits.items() if s[1] == "a"), Fraction(0))
        for entry, visits in chain.visits.items()
    }
    loop_per = {
        entry: sum((v * chain.to_trap[s] for s, v in visits.items()), Fraction(0))
        for entry, visits in chain.visits.items()
    }
    survive = {side: chain.strike[side].survive for side in "ab"}
    shock_scale = {side: lcm(*(p.denominator for p in survive[side])) for side in "ab"}
    shock_int = {side: [int(p * shock_scale[side]) for p in survive[side]] for side in "ab"}
    flows = [f for merged in steps.values() for f in merged.values()]
    base = lcm(*(f.denominator for f in [*flows, *rounds_per.values(), *loop_per.values()]))
    scale = base * lcm(shock_scale["a"], shock_scale["b"])
    powers = [scale**n for n in range(max(len(survive["a"]), len(survive["b"])) + 2)]
    keep: dict[Shape, list[_Row]] = {}
    for entry, merged in steps.items():
        rows: list[_Row] = []
        for (attacker, victim, k, after), flow in merged.items():
            whole = int(flow * scale)
            unit = whole // shock_scale[attacker]
            on = [unit * n * powers[k - 1] for n in shock_int[attacker]]
            off = [whole - unit * n for n in shock_int[attacker]]
            rows.append((victim == "a", k, after, attacker == "a", on, off, whole))
        keep[entry] = rows
    rounds_int = {entry: int(v * scale) for entry, v in rounds_per.items()}
    loop_int = {entry: int(v * scale) for entry, v in loop_per.items()}
    # numerators, each over scale ** (the key of its inner dict)
    wins: dict[tuple[str, int], dict[int, int]] = defaultdict(lambda: defaultdict(int))
    rounds: dict[int, int] = defaultdict(int)
    looping: dict[int, int] = defaultdict(int)
    incoming: dict[tuple[int, int], dict[Shape, int]] = defaultdict(lambda: defaultdict(int))
    incoming[(0, 0)][chain.start] = 1
    queue: list[tuple[int, int, int]] = [(0, 0, 0)]
    visited = 0
    while queue:
        depth, wounds_a, wounds_b = heappop(queue)
        for entry, mass in incoming.pop((wounds_a, wounds_b)).items():
            if entry not in keep:
                looping[depth] += mass  # enters a loop no one can leave
                continue
            visited += 1
            rounds[depth + 1] += mass * rounds_int[entry]
            looping[depth + 1] += mass * loop_int[entry]
            for victim_a, k, after, attacker_a, on, off, whole in keep[entry]:
                total = (wounds_a if victim_a else wounds_b) + k
                if total < len(on):
                    if on[total]:
                        key = (total, wounds_b) if victim_a else (wounds_a, total)
                        if key not in incoming:
                            heappush(queue, (depth + k, *key))
                        incoming[key][after] += mass * on[total]
                    out = off[total]
                else:
                    out = whole
                if out:
                    winner = ("a", wounds_a) if attacker_a else ("b", wounds_b)
                    wins[winner][depth + 1] += mass * out
    win_p = {key: _gather(parts, scale) for key, parts in wins.items()}
    winner_wounds = {
        side: dict(sorted((w, p) for (who, w), p in win_p.items() if who == side)) for side in "ab"
    }
    p_a = sum(winner_wounds["a"].values(), Fraction(0))
    p_b = sum(winner_wounds["b"].values(), Fraction(0))
    mean = _gather(rounds, scale) + _gather(looping, scale) * MAX_ROUNDS
    return DuelFractions(p_a, p_b, 1 - p_a - p_b, mean, winner_wounds, visited)


def _gather(parts: dict[int, int], scale: int) -> Fraction:
    """``sum(numerator / scale ** power)`` as one exact fraction."""
    if not parts:
        return Fraction(0)
    top = max(parts)
    return Fraction(sum(n * scale ** (top - power) for power, n in parts.items()), scale**top)


def _invert(matrix: list[list[Fraction]]) -> list[list[Fraction]]:
    """Gauss-Jordan inversion in exact fractions (the matrices here are at most 4x4)."""
    size = len(matrix)
    rows = [[*row, *(Fraction(int(i == j)) for j in range(size))] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = next(r for r in range(col, size) if rows[r][col])
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(size):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[size:] for row in rows]


def rounds_distribution(
    a: Fighter, b: Fighter, *, max_rounds: int = MAX_ROUNDS, tolerance: float = 1e-12
) -> RoundsDistribution:
    """Distribution of the round in which the duel ends, by winner, by pushing the
    probability of every transient state forward one attack at a time (floats with
    numpy; stops when less than ``tolerance`` is left or at ``max_rounds``)."""
    import numpy as np

    if not (can_ever_wound(a, b) or can_ever_wound(b, a)):
        return RoundsDistribution({}, {}, 0.0, 0)
    check_exact_budget(a, b)
    chain = _Chain(a, b)
    index: dict[tuple[int, int, Shape], int] = {(0, 0, chain.start): 0}
    order = [(0, 0, chain.start)]
    src: list[int] = []
    dst: list[int] = []
    weight: list[float] = []
    win = {"a": [0.0], "b": [0.0]}

    def node(state: tuple[int, int, Shape]) -> int:
        if state not in index:
            index[state] = len(order)
            order.append(state)
            win["a"].append(0.0)
            win["b"].append(0.0)
        return index[state]

    position = 0
    while position < len(order):
        wounds_a, wounds_b, shape = order[position]
        for target, p in chain.inside[shape].items():
            src.append(position)
            dst.append(node((wounds_a, wounds_b, target)))
            weight.append(float(p))
        for event in chain.events[shape]:
            wounds = {"a": wounds_a, "b": wounds_b}
            total = wounds[event.victim] + event.k
            survive = chain.strike[event.attacker].survives(total)
            if survive:
                wounds[event.victim] = total
                src.append(position)
                dst.append(node((wounds["a"], wounds["b"], event.after)))
                weight.append(float(event.p * survive))
            win[event.attacker][position] += float(event.p * (1 - survive))
        position += 1
    size = len(order)
    sources, targets, probabilities = np.array(src), np.array(dst), np.array(weight)
    win_a, win_b = np.array(win["a"]), np.array(win["b"])
    mass = np.zeros(size)
    mass[0] = 1.0
    a_wins: dict[int, float] = {}
    b_wins: dict[int, float] = {}
    for round_number in range(1, max_rounds + 1):
        ended_a = ended_b = 0.0
        for _ in ("a's turn", "b's turn"):
            ended_a += float(mass @ win_a)
            ended_b += float(mass @ win_b)
            spread = np.bincount(targets, weights=mass[sources] * probabilities, minlength=size)
            mass = np.asarray(spread, dtype=np.float64)
        if ended_a:
            a_wins[round_number] = ended_a
        if ended_b:
            b_wins[round_number] = ended_b
        left = float(mass.sum())
        if left < tolerance:
            return RoundsDistribution(a_wins, b_wins, left, round_number)
    return RoundsDistribution(a_wins, b_wins, float(mass.sum()), max_rounds)
