"""Exact odds of a two-combatant Midian fight from where it stands (a table's ``table
odds``, the registry's ``exact_fights``): the exact duel's chain (:mod:`.exact_duel`)
entered from the fight's state: before a round (wounds, serious wounds, the Willpower
check made, retests left, last round's shock and the armour's fatigue on the coming
initiative), or within one (whose turn it is and the turns still to come, waits taken,
the actions, free parries and blocks left, the shock taken this round), the rest of
the round walked from that state (:meth:`.exact_duel.Chain.finish`) and the rounds
after it played by the chain.

It reaches what the chain plays: the plain duel of the fast engine, the tactics AI's
with default tactics. A fight that holds anything else (more than two combatants, a
stance, a hold, someone down or on fire, charges still to come, options other than
the default's, a first action other than an attack at the foe or a wait) is refused
with :class:`~affray.errors.NotModelledError`, and the table simulates it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from affray.encounter import Cursor, Phase
from affray.errors import NotModelledError
from affray.rulesystems.midian import exact_duel_kernel as kernel
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.exact_duel import MAX_CELLS, Chain, Ints, model_cells
from affray.rulesystems.midian.injury import RollKind
from affray.rulesystems.midian.resolve import FIDELITY, Readings
from affray.rulesystems.midian.ruleset import MidianRuleset
from affray.rulesystems.midian.sim.duels import MidianDuelModel
from affray.rulesystems.midian.sim.fights import WAIT, after_wait, refusals
from affray.rulesystems.midian.state import MidianState, lost
from affray.rulesystems.midian.tactics import MidianTactics, Role
from affray.totals import First

WHAT = "exact Midian duel chain"
CELL_WORK = 3_000
"""The work of one cell of the chain, in the table's steps (:func:`exact_work`; about a
nanosecond each): a whole duel takes 0.2 to 1.5 µs a cell of its chain on the example
pairs and thirty random small pairs (docs/rules/midian.md; each cell it reaches walked
once), up to 3.5 µs for small fighters with many actions a round and heroic armour (its
rounds walked anew while the fatigue grows)."""

MidianCursor = Cursor[Character, MidianState]


@dataclass(frozen=True, slots=True)
class MidianExactFight:
    """Exact odds of a two-combatant Midian fight from where it stands (the shape of
    :class:`~affray.totals.ExactFights`).

    Attributes:
        p_wins: each side's chance to win.
        p_draw: neither left fighting, or the round cap reached.
        mean_rounds: the expected round the fight ends in (a draw at the cap counts
            the cap).
        p_standing: each combatant's chance to be fighting at the end.
        p_going: the chance the fight is still going at the round cap.
        cells: the chain's cells.
        unswept: the mass the chain let go as too small to matter (the chances fall
            short by it).
    """

    p_wins: Mapping[str, float]
    p_draw: float
    mean_rounds: float
    p_standing: Mapping[str, float]
    p_going: float = 0.0
    cells: int = 0
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


def exact_fight(
    ruleset: MidianRuleset,
    cursor: MidianCursor,
    tactics: Mapping[str, MidianTactics],
    first: First | None,
) -> MidianExactFight:
    """The exact odds of the fight from ``cursor``, the one whose turn it is taking
    ``first`` (an attack at its foe, or a wait; None: what its tactics choose).

    Raises:
        NotModelledError: the fight holds what the chain does not play (the reasons
            named).
        RulesError: the chain would be past its budget.
    """
    start = _start(ruleset, cursor, tactics, first)
    going = start.chain.run(cells=start.cells, first=start.number + 1)
    before = start.before
    return start.odds(
        (going.p_a_wins + before[0], going.p_b_wins + before[1], going.p_draw + before[2]),
        going.mean_rounds + start.number * float(before.sum()),
        going.at_cap,
        going.unswept,
    )


def exact_fight_by_round(
    ruleset: MidianRuleset,
    cursor: MidianCursor,
    tactics: Mapping[str, MidianTactics],
    first: First | None,
) -> list[MidianExactFight]:
    """:func:`exact_fight` with the fight's round cap at each round from the cursor's
    (round 1 at the least) to its own, in one run of the chain pushed round by round:
    until the cap, or until less than 1e-15 of the fight is still going.

    Raises:
        NotModelledError, RulesError: as :func:`exact_fight`.
    """
    start = _start(ruleset, cursor, tactics, first)
    going = start.chain.run(cells=start.cells, first=start.number + 1, by_round=True)
    ends = np.array(start.before, dtype=float)
    total = float(start.cells.sum()) + float(ends.sum())
    rounds = start.number * float(ends.sum())  # the rounds of the fights ended, summed
    found = []
    for pushed, ended in enumerate(((0.0, 0.0, 0.0), *going.by_round)):
        number = start.number + pushed
        ends += ended
        rounds += number * sum(ended)
        if number < max(cursor.round, 1):
            continue
        left = max(total - float(ends.sum()), 0.0)
        draw = float(ends[2]) + left  # at the cap, a draw
        found.append(start.odds((ends[0], ends[1], draw), rounds + number * left, left))
    return found


@dataclass(frozen=True, slots=True)
class _Start:
    """Where the chain starts a fight from: its cells before the next round, what
    ended in the rest of this one (A wins, B wins, draws), the round, and the two
    combatants (their ids and sides)."""

    chain: Chain
    cells: np.ndarray[Any, np.dtype[np.float64]]
    before: np.ndarray[Any, np.dtype[np.float64]]
    number: int
    ids: tuple[str, str]
    sides: tuple[str, str]

    def odds(
        self,
        ended: tuple[float, float, float],
        mean: float,
        going: float,
        unswept: float = 0.0,
    ) -> MidianExactFight:
        """The fight's odds: how it ended (A wins, B wins, draws, the cap's counted),
        its mean rounds, and what was still going at the cap."""
        a_wins, b_wins, draw = (min(max(float(x), 0.0), 1.0) for x in ended)
        return MidianExactFight(
            {self.sides[0]: a_wins, self.sides[1]: b_wins},
            draw,
            float(mean),
            {self.ids[0]: a_wins + going, self.ids[1]: b_wins + going},
            float(going),
            self.chain.cells,
            unswept,
        )


def _start(
    ruleset: MidianRuleset,
    cursor: MidianCursor,
    tactics: Mapping[str, MidianTactics],
    first: First | None,
) -> _Start:
    """The chain of the fight from ``cursor`` and its cells before the next round (the
    rest of this round walked where the cursor is within it).

    Raises:
        NotModelledError, RulesError: as :func:`exact_fight`.
    """
    cursor, model = _ready(ruleset, cursor, tactics, first)
    chain = Chain(model, MAX_CELLS)
    encounter = cursor.encounter
    a, b = encounter.combatants
    number = encounter.round
    before = np.zeros(3)
    if _within_round(ruleset, cursor):
        row, order = _within(chain, cursor, cursor.phase(ruleset))
        began = tuple(  # each side's points lost when the round began
            lost(encounter, cid) - int(row[kernel.F * s + kernel.SHOCK])
            for s, cid in enumerate((a.id, b.id))
        )
        cells, before = chain.finish(row, order, (began[0], began[1]), number)
    else:  # before a round: its initiative to come
        cells = _between(chain, cursor)
    return _Start(chain, cells, before, number, (a.id, b.id), (a.side, b.side))


def exact_work(
    ruleset: MidianRuleset,
    cursor: MidianCursor,
    tactics: Mapping[str, MidianTactics],
    first: First | None,
) -> int:
    """The work of the exact chain of the fight from ``cursor`` in the table's steps
    (:data:`CELL_WORK` a cell), found at once (its cells counted, no table made).

    Raises:
        NotModelledError: as :func:`exact_fight` would.
    """
    _, model = _ready(ruleset, cursor, tactics, first)
    return model_cells(model) * CELL_WORK


def _ready(
    ruleset: MidianRuleset,
    cursor: MidianCursor,
    tactics: Mapping[str, MidianTactics],
    first: First | None,
) -> tuple[MidianCursor, MidianDuelModel]:
    """The cursor the chain starts from (after a wait taken as ``first``), and the
    duel the chain plays.

    Raises:
        NotModelledError: the fight holds what the chain does not play.
    """
    turn = cursor.phase(ruleset) is Phase.TURN
    if first is not None and turn and first[0] == WAIT:
        cursor, first = after_wait(ruleset, cursor, tactics, first), None
    reasons = list(refusals(ruleset, cursor, tactics, None))
    encounter = cursor.encounter
    combatants = encounter.combatants
    if len(combatants) != 2 or len(set(encounter.sides)) != 2:
        reasons.append(f"{len(combatants)} combatants (the chain plays a duel)")
        raise NotModelledError(WHAT, tuple(reasons))
    options = ruleset.options
    if options.rules != Readings() or options.fidelity != FIDELITY:
        reasons.append("rules options other than the default's")
    if options.critical_effects or options.melee_cover:
        reasons.append("critical effects or melee cover")
    if options.surprised and encounter.round <= 1:
        reasons.append("a surprise round")
    if first is not None and turn:
        foe = next(c.id for c in combatants if c.id != cursor.current)
        if first != ("attack", foe):
            reasons.append(f"the first action {first[0]!r}")
    for c in combatants:
        state, plan = encounter.states[c.id], tactics.get(c.id, MidianTactics())
        health = state.health
        if plan.role is not Role.FIGHTER or plan.retreat_at is not None:
            reasons.append(f"{c.id}'s tactics (role {plan.role.value}, or retreat_at)")
        if options.distance and not state.closed_in:
            reasons.append(f"{c.id} not yet at blows ({options.distance} ft: charges)")
        if state.down_rounds or state.holding is not None or state.held_by:
            reasons.append(f"{c.id} down or in a hold")
        if state.set_against_charge or state.in_blaze:  # a waiter never pre-empts: the AI
            reasons.append(f"{c.id} set against a charge, or in a blaze")
        if health.coma or health.tended or state.fled or not health.fighting:
            reasons.append(f"{c.id} out of the fight, in a coma or tended")
    if reasons:
        raise NotModelledError(WHAT, tuple(reasons))
    a, b = (c.sheet for c in combatants)
    model = MidianDuelModel.of(a, b, cursor.max_rounds)
    done = encounter.round - (1 if _within_round(ruleset, cursor) else 0)  # rounds ended
    for c, side in zip(combatants, model.sides, strict=True):
        if encounter.states[c.id].health.fatigue != side.fatigue * done:
            reasons.append(f"{c.id}'s fatigue (not that of {done} rounds in its armour)")
    if reasons:
        raise NotModelledError(WHAT, tuple(reasons))
    return cursor, model


def _within_round(ruleset: MidianRuleset, cursor: MidianCursor) -> bool:
    """Whether the fight stands within a round (a turn, or the round's end to come)."""
    phase = cursor.phase(ruleset)
    return phase is Phase.TURN or (phase is Phase.ROUND_OVER and not cursor.closed)


def _retests(cursor: MidianCursor, cid: str) -> tuple[int, int, int]:
    """The retests ``cid`` has left of each kind (attack, Willpower, system shock)."""
    sheet = cursor.encounter.sheet(cid)
    state = cursor.encounter.states[cid]
    sources = set(sheet.retests)
    return tuple(  # type: ignore[return-value]
        len(sources - {source for source, kind in state.retests_used if kind is wanted})
        for wanted in (RollKind.ATTACK, RollKind.WILLPOWER, RollKind.SYSTEM_SHOCK)
    )


def _index(chain: Chain, cursor: MidianCursor, s: int) -> int:
    """Side ``s``'s state between rounds, as the chain numbers them.

    Raises:
        NotModelledError: a state the chain never holds (a game master's edit: more
            serious wounds than the points lost give, a Willpower check made with hit
            points left, points past the chain's most).
    """
    cid = cursor.encounter.combatants[s].id
    health = cursor.encounter.states[cid].health
    look = chain.tables["look"]
    key = (
        lost(cursor.encounter, cid),
        health.serious_wounds,
        int(health.willpower_checked),
        *_retests(cursor, cid),
    )
    inside = all(0 <= k < n for k, n in zip(key, look.shape[1:], strict=True))
    found = int(look[(s, *key)]) if inside else -1
    if found < 0:
        raise NotModelledError(WHAT, (f"{cid}'s wounds (a state the duel never reaches)",))
    return found


def _between(chain: Chain, cursor: MidianCursor) -> np.ndarray[Any, np.dtype[np.float64]]:
    """The cells before the coming round: each side's state, the openings its
    initiative draws (last round's shock and the armour's fatigue on it)."""
    encounter = cursor.encounter
    cells = np.zeros(chain.shape)
    ja, jb = (_index(chain, cursor, s) for s in (0, 1))
    healths = [encounter.states[c.id].health for c in encounter.combatants]
    eff = [h.carried_shock + h.fatigue for h in healths]
    openings = chain.openings
    row = openings.row(chain.model, eff[0], eff[1])
    for j in range(int(openings.class_ops[row])):
        cells[ja, jb, openings.class_ids[row, j]] = openings.class_p[row, j]
    return cells


def _within(chain: Chain, cursor: MidianCursor, phase: Phase) -> tuple[Ints, Ints]:
    """The state within the round as the chain's walk holds it, and the turns still
    to come (the sides, in turn: the current one's first)."""
    encounter = cursor.encounter
    ids = [c.id for c in encounter.combatants]
    row = np.zeros(kernel.FIELDS, dtype=np.int64)
    for s, cid in enumerate(ids):
        _index(chain, cursor, s)  # a state the chain holds
        state = encounter.states[cid]
        health, pool = state.health, state.pool
        at = kernel.F * s
        ra, rw, rs = _retests(cursor, cid)
        row[at + kernel.LOST] = lost(encounter, cid)
        row[at + kernel.SHOCK] = health.shock
        row[at + kernel.SERIOUS] = health.serious_wounds
        row[at + kernel.CHECKED] = int(health.willpower_checked)
        row[at + kernel.CONSCIOUS] = int(health.conscious)
        row[at + kernel.ALIVE] = int(health.alive)
        spent = cursor.begun and cid == cursor.current  # its turn's action is taken
        row[at + kernel.ACTIONS] = pool.actions + int(spent)
        row[at + kernel.PARRIES] = pool.parries
        row[at + kernel.BLOCKS] = pool.blocks
        row[at + kernel.RET_ATTACK] = ra
        row[at + kernel.RET_WILL] = rw
        row[at + kernel.RET_SHOCK] = rs
    turns = list(encounter.queue)
    if phase is Phase.TURN and cursor.current is not None:
        turns.insert(0, cursor.current)
    order = np.array([ids.index(cid) for cid in turns], dtype=np.int64)
    return row, order
