"""The door: :func:`exact_fight`, from any cursor, exact where the limits allow."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from affray.encounter.cursor import Cursor
from affray.rulesystems.mst2.odds.encounter.answers import (
    BOUND_EXPONENTS,
    CAP_TOLERANCE,
    FORWARD_BUDGET,
    FORWARD_LAYERS,
    ROUNDS_BUDGET,
    ExactFightOdds,
    Family,
)
from affray.rulesystems.mst2.odds.encounter.forward import _forward, _rounds_work, _too_long
from affray.rulesystems.mst2.odds.encounter.game import _Game
from affray.rulesystems.mst2.odds.encounter.plan import MAX_CELLS, _plan
from affray.rulesystems.mst2.odds.encounter.sweep import (
    _sweep,
    _sweep_rounds,
    _z_limit,
)
from affray.rulesystems.mst2.odds.encounter_kernel import (
    compiled,
)

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
    going = 0.0
    for (winner, left, capped), (p, weighted) in result.items():
        rounds += weighted
        if capped:
            going += p
        if winner is None or capped:
            draw += p
        else:
            wins[game.sides[winner]] += p
        for i in left:
            standing[game.ids[i]] += p
    return ExactFightOdds(wins, draw, rounds, standing, method, states, unswept, going)
