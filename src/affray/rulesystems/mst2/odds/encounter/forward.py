"""Without numba, a fight near its cap pushed forward turn by turn, with the round
counted, to the cap."""

from __future__ import annotations

import numpy as np

from affray.errors import RulesError
from affray.rulesystems.mst2.odds.encounter.answers import FORWARD_BUDGET, Family, Shape
from affray.rulesystems.mst2.odds.encounter.game import Move, _turn, _weight
from affray.rulesystems.mst2.odds.encounter.plan import _Plan

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
