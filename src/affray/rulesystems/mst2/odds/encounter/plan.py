"""Where the fight starts: the plan of every family it can reach from the cursor (a
fresh encounter or a table as it stands), explored, and its work counted against the
limits (:func:`exact_limit`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from affray.encounter import Action, Attack, Encounter, Flee, Hold, Shoot
from affray.encounter.cursor import Cursor, Phase
from affray.errors import NotModelledError, RulesError
from affray.rulesystems.mst2.odds.encounter.answers import (
    BOUND_EXPONENTS,
    MAX_COMBATANTS,
    NUMPY_SLOWER,
    WORK_BUDGET,
    Act,
    Eng,
    ExactFightOdds,
    ExactLimit,
    Family,
    Ints,
    Queue,
    Shape,
)
from affray.rulesystems.mst2.odds.encounter.families import _Fam, _Pieces, _pieces
from affray.rulesystems.mst2.odds.encounter.game import Dest, _decide, _Game, _game, _turn, _weight
from affray.rulesystems.mst2.odds.encounter_kernel import (
    compiled,
)
from affray.rulesystems.mst2.ruleset import Mst2Ruleset, NonCombat, StepAway
from affray.rulesystems.mst2.state import FighterState

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
        p_going=float(len(sides) > 1),  # over at the cap, still fought
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
        p_going=1.0,
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
