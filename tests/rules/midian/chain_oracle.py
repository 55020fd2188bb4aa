"""Exact odds of a Midian duel: every die of the duel the fast duel engine plays (the
reference engine's plain duel with the tactics AI: :mod:`.sim.duels`) summed over,
never sampled. Issue 40's groundwork: not yet behind ``affray duel --exact``.

The duel's state is what the fast engine's :class:`~.sim.duels.Batch` holds for one
duel: each side's hit and life points, this round's shock and last round's, serious
wounds, the Willpower check made, alive and conscious, the actions, free parries and
blocks left this round, and the retests left for each kind of roll. Here a column of
the batch is not one duel but one *state*, with the probability of being in it. A
round is:

- the opening: both d10s give the action slots and the order of the turns. Each
  state branches into its openings (their chances summed over the hundred pairs of
  faces) and forgets last round's shock, which matters no more;
- each turn in that order: the blow branches into its outcomes (the retests spent,
  whether the defender paid for a defence, the damage that lands), their chances
  summed over the attack d20 and its retests, the defender's d20 and the weapon's
  dice; then the Willpower check and system shock, each a pass and a fail with its
  exact chance, and their retests;
- the end of the round: bleeding, system shock, the shock carried.

States that became the same are merged after each turn. A duel is over after the
first round that leaves at most one side fighting; at the round cap it is a draw.
Every figure comes from the :class:`~.sim.duels.MidianDuelModel` the fast engine plays,
and every step mirrors the engine's, so the two cannot drift apart; a test holds the
chain to the fast engine's two million duels within 4σ.

The states are many: each side's points lost, this round's shock, serious wounds and
flags, times the other's. Two fighters of 3 to 4 hit points already reach 300,000
states in a round (a few seconds); the guard and the brawler pass a million by round
3. The chain refuses a pair as soon as its states pass :data:`MAX_STATES` (a budget,
named in the error), and lets go of the least likely states while all they hold is
under :data:`DROP` a merge (``unswept`` says how much in all).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from affray.answers import MAX_ROUNDS
from affray.errors import RulesError
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.injury import SERIOUS_WOUND, SHOCK_STEP
from affray.rulesystems.midian.resolve import FIDELITY
from affray.rulesystems.midian.sim.duels import (
    COSTLY,
    FREE_BLOCK,
    FREE_PARRY,
    MidianDuelModel,
    defends,
)

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

LEFT = 1e-15
"""The mass still going below which the chain stops (the chances fall short by it)."""
DROP = 1e-16
"""The most mass one merge lets go of, taking the least likely states first: the
chances may fall short by the sum of these (``unswept``), a few 1e-15 for a duel."""
MAX_STATES = 3_000_000
"""States the chain may hold at once; past it the pair is refused (simulate it)."""

# the columns of a state, per side (side s's column is 14 * s + the field)
HP, LP, SHOCK, CARRIED, SERIOUS, CHECKED, ALIVE, CONSCIOUS = range(8)
ACTIONS, PARRIES, BLOCKS, RET_ATTACK, RET_WILL, RET_SHOCK = range(8, 14)
PER_SIDE = 14
ENDED = 2 * PER_SIDE
"""The duel is decided this round: no more turns (the round still ends)."""
ORDER = ENDED + 1
"""The round's turns, one column each: 0 (A), 1 (B) or -1 (none left)."""


def _col(side: int, field: int) -> int:
    return PER_SIDE * side + field


@dataclass(frozen=True, slots=True)
class ExactMidianDuel:
    """A duel's exact odds (A listed first): the chances of each side and of a draw
    (no one left, or the round cap), the expected rounds (a draw at the cap counted at
    the cap), the most states held at once, and the mass left unswept."""

    p_a_wins: float
    p_b_wins: float
    p_draw: float
    mean_rounds: float
    states: int
    unswept: float
    rounds: int
    """The last round the chain pushed (the cap, or where the mass left fell under
    :data:`LEFT`)."""
    by_round: tuple[tuple[float, float, float], ...] = ()
    """Each round's mass ended: (A wins, B wins, draw) in it."""


def exact_midian_duel(
    a: Character,
    b: Character,
    *,
    max_rounds: int = MAX_ROUNDS,
    fidelity: int = FIDELITY,
    max_states: int = MAX_STATES,
) -> ExactMidianDuel:
    """The exact odds of a duel of ``a`` (listed first) and ``b``.

    Raises:
        NotModelledError: the sheets need something the duel engines' model does not
            play (:func:`~.sim.duels.unsupported`).
        RulesError: the states would pass ``max_states``.
    """
    model = MidianDuelModel.of(a, b, max_rounds, fidelity=fidelity)
    return _chain(model, max_states)


def _chain(model: MidianDuelModel, max_states: int) -> ExactMidianDuel:
    if not (model.can_hurt(0) or model.can_hurt(1)):
        rounds = model.max_rounds
        return ExactMidianDuel(0.0, 0.0, 1.0, float(rounds), 1, 0.0, rounds)
    width = ORDER + _most_turns(model)
    state = np.zeros((width, 1), dtype=np.int64)
    for s, side in enumerate(model.sides):
        state[_col(s, HP)] = side.hit_points
        state[_col(s, LP)] = side.life_points
        state[_col(s, ALIVE)] = 1
        state[_col(s, CONSCIOUS)] = 1
        for kind in (RET_ATTACK, RET_WILL, RET_SHOCK):
            state[_col(s, kind)] = side.retests
    mass = np.ones(1)
    chain = _Chain(model, max_states, width)
    a_wins = b_wins = draws = mean = 0.0
    most = 1
    by_round: list[tuple[float, float, float]] = []
    number = 0
    for number in range(1, model.max_rounds + 1):
        state, mass = chain.round(state, mass, number)
        most = max(most, chain.most)
        a = _fighting(state, 0)
        b = _fighting(state, 1)
        won_a = float(mass[a & ~b].sum())
        won_b = float(mass[b & ~a].sum())
        drawn = float(mass[~a & ~b].sum())
        by_round.append((won_a, won_b, drawn))
        a_wins, b_wins, draws = a_wins + won_a, b_wins + won_b, draws + drawn
        mean += number * (won_a + won_b + drawn)
        going = a & b
        state, mass = state[:, going], mass[going]
        if float(mass.sum()) < LEFT:
            break
    left = float(mass.sum())
    unswept = chain.dropped
    if number >= model.max_rounds:
        draws += left  # the round cap: a draw
        mean += model.max_rounds * left
    else:
        unswept += left
    return ExactMidianDuel(a_wins, b_wins, draws, mean, most, unswept, number, tuple(by_round))


def _most_turns(model: MidianDuelModel) -> int:
    """The most turns a round can hold: both sides' most action slots (the best d10,
    no fatigue, no shock)."""
    return sum(max(1, (10 + side.initiative + 9) // 10) for side in model.sides)


def _fighting(state: Ints, side: int) -> Bools:
    fighting: Bools = (state[_col(side, ALIVE)] == 1) & (state[_col(side, CONSCIOUS)] == 1)
    return fighting


_TWO_D20 = (
    np.cumsum(np.bincount(np.add.outer(np.arange(1, 21), np.arange(1, 21)).ravel(), minlength=41))
    / 400
)
"""P(2d20 <= n) for n = 0 .. 40."""


def two_d20_at_most(limit: Ints) -> Floats:
    """P(2d20 <= limit), for each limit."""
    return np.asarray(_TWO_D20[np.clip(limit, 0, 40)], dtype=np.float64)


class _Chain:
    """The steps of one round over a set of weighted states (columns). A branching
    step notes where each new state came from (:attr:`origin`), so that the values a
    step works with state by state (the attack die, its total, whether it hits) follow
    their states (:meth:`follow`); states are merged only between turns."""

    def __init__(self, model: MidianDuelModel, max_states: int, width: int) -> None:
        self.model = model
        self.max_states = max_states
        self.width = width
        self.most = 1
        self.turns = width - ORDER
        self.origin: Ints = np.zeros(0, dtype=np.int64)
        self.dropped = 0.0
        self._openings: dict[tuple[int, ...], tuple[Ints, Ints, Floats]] = {}
        self.damage = [
            (np.array(side.damage_values, dtype=np.int64), _weights(side.damage_cut))
            for side in model.sides
        ]

    # -- branching and merging ------------------------------------------------------

    def branch(
        self, state: Ints, mass: Floats, where: Bools, weights: Floats
    ) -> tuple[Ints, Floats, Ints]:
        """Each state in ``where`` as ``k`` states, one per column of ``weights`` (its
        probability: one row for all, or a row for each state in ``where``): the
        states, their mass, and each one's branch (-1 where not branched). States of
        no mass are dropped."""
        keep = np.flatnonzero(~where)
        split = np.flatnonzero(where)
        k = weights.shape[-1]
        shares = np.broadcast_to(weights, (split.size, k)).reshape(-1)
        grown = np.concatenate([keep, np.repeat(split, k)])
        branch = np.concatenate([np.full(keep.size, -1), np.tile(np.arange(k), split.size)])
        new_mass = mass[grown] * np.concatenate([np.ones(keep.size), shares])
        live = new_mass > 0.0
        size = int(live.sum())
        if size > self.max_states:
            raise RulesError(
                f"exact odds of this Midian duel would hold more than {self.max_states:,} "
                "states at once",
                hint="simulate it instead: affray duel A B -n 100000",
            )
        self.most = max(self.most, size)
        self.origin = grown[live]
        return state[:, self.origin], new_mass[live], branch[live]

    def follow(self, *values: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], ...]:
        """Per-state values taken along by the last branching."""
        return tuple(np.asarray(v)[self.origin] for v in values)

    def check(
        self, state: Ints, mass: Floats, where: Bools, chance: Floats
    ) -> tuple[Ints, Floats, Bools, Bools]:
        """A check passed with ``chance`` (one per state) in the states ``where``: the
        states, their mass, whether each was checked, and whether it passed."""
        weights = np.stack([chance[where], 1.0 - chance[where]], axis=-1)
        state, mass, branch = self.branch(state, mass, where, weights)
        return state, mass, branch >= 0, branch == 0

    def merge(self, state: Ints, mass: Floats) -> tuple[Ints, Floats]:
        """The same states as one, their mass added up; then the least likely states
        let go, as long as all they hold together is under :data:`DROP` (added to
        :attr:`dropped`)."""
        if state.shape[1] <= 1:
            return state, mass
        keys = _packed(state)
        order = np.argsort(keys, kind="stable")
        keys = keys[order]
        starts = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]]))
        summed = np.add.reduceat(mass[order], starts)
        state = state[:, order[starts]]
        order = np.argsort(summed, kind="stable")
        below = np.cumsum(summed[order]) <= DROP
        if below.any():
            gone = order[below]
            self.dropped += float(summed[gone].sum())
            kept = np.ones(summed.size, dtype=bool)
            kept[gone] = False
            state, summed = state[:, kept], summed[kept]
        return state, summed

    # -- a round --------------------------------------------------------------------

    def round(self, state: Ints, mass: Floats, number: int) -> tuple[Ints, Floats]:
        """Round ``number`` of every state (``play_round`` of the fast engine)."""
        model = self.model
        fatigue = (
            model.sides[0].fatigue * (number - 1),
            model.sides[1].fatigue * (number - 1),
        )
        state, mass = self.initiative(state, mass, fatigue)
        for turn in range(self.turns):
            for s in (0, 1):
                goes = (
                    (state[ORDER + turn] == s)
                    & (state[ENDED] == 0)
                    & (state[_col(s, ACTIONS)] > 0)  # an action spent on defending: no turn
                )
                if not goes.any():
                    continue
                state[_col(s, ACTIONS)] -= goes
                state, mass = self.strike(state, mass, s, goes, fatigue)
            state, mass = self.merge(state, mass)
        state, mass = self.end_round(state, mass)
        state[ORDER:] = -1
        state[ENDED] = 0
        for s in (0, 1):
            for column in (ACTIONS, PARRIES, BLOCKS):
                state[_col(s, column)] = 0
        return self.merge(state, mass)

    def initiative(
        self, state: Ints, mass: Floats, fatigue: tuple[int, int]
    ) -> tuple[Ints, Floats]:
        """Both d10s: the action slots they give and the round's order of turns
        (``a_acts_next``: the higher slot first, ties to the higher Wits, then to A).
        Last round's shock matters no more once they are known, so each state branches
        into its orders (the chances summed over the hundred pairs of faces) and
        forgets it: states that differed only in it become one."""
        model = self.model
        situation = np.stack([state[_col(0, CARRIED)], state[_col(1, CARRIED)]])
        kinds, which = np.unique(situation, axis=1, return_inverse=True)
        which = which.ravel()
        table = self._orders(kinds, fatigue)
        state, mass, branch = self.branch(
            state, mass, np.ones(state.shape[1], dtype=bool), table.probability[which]
        )
        at_kind = which[self.origin]
        for s, side in enumerate(model.sides):
            state[_col(s, ACTIONS)] = table.slots[at_kind, branch, s]
            state[_col(s, PARRIES)] = side.parries
            state[_col(s, BLOCKS)] = side.blocks
            state[_col(s, CARRIED)] = 0
        state[ORDER:] = table.order[at_kind, branch].T
        return self.merge(state, mass)

    def _orders(self, kinds: Ints, fatigue: tuple[int, int]) -> _Orders:
        """The openings of the situations ``kinds``, each worked out once a duel."""
        missing = [(a, b) for a, b in kinds.T.tolist() if (a, b, *fatigue) not in self._openings]
        if missing:
            table = _orders(self.model, np.array(missing, dtype=np.int64).T, fatigue, self.turns)
            for row, (a, b) in enumerate(missing):
                self._openings[(a, b, *fatigue)] = (
                    table.slots[row],
                    table.order[row],
                    table.probability[row],
                )
        rows = [self._openings[(a, b, *fatigue)] for a, b in kinds.T.tolist()]
        width = max(r[2].size for r in rows)
        slots = np.zeros((len(rows), width, 2), dtype=np.int64)
        order = np.full((len(rows), width, self.turns), -1, dtype=np.int64)
        probability = np.zeros((len(rows), width))
        for i, (s, o, p) in enumerate(rows):
            slots[i, : p.size], order[i, : p.size], probability[i, : p.size] = s, o, p
        return _Orders(slots, order, probability)

    def strike(
        self, state: Ints, mass: Floats, side: int, goes: Bools, fatigue: tuple[int, int]
    ) -> tuple[Ints, Floats]:
        """``side`` attacks in the states ``goes`` (``strike`` and ``defend`` of the fast
        engine): each state branches once, into the blow's outcomes (the retests it
        spent, whether the defender paid for a defence, the damage that lands), whose
        chances sum every attack d20, retest, defence d20 and damage total."""
        model = self.model
        other = 1 - side
        them = model.sides[other]
        key = self._key(state, other)
        cost = np.asarray(them.defence_cost)[key]
        worth = defends(
            cost,
            state[_col(other, ACTIONS)],
            state[_col(other, HP)],
            model.sides[side].likely_damage,
        ) & (cost > 0)
        situation = np.stack(
            [
                state[_col(side, SHOCK)] + fatigue[side],
                state[_col(other, SHOCK)] + fatigue[other],
                np.minimum(state[_col(side, RET_ATTACK)], model.sides[side].retests),
                np.where(worth, key, -1),
            ]
        )[:, goes]
        kinds, which = np.unique(situation, axis=1, return_inverse=True)
        which = which.ravel()
        table = _blows(model, side, kinds)
        weights = table.probability[which]
        rank = np.cumsum(goes) - 1
        state, mass, branch = self.branch(state, mass, goes, weights)
        struck = branch >= 0
        at_kind = np.where(struck, which[np.maximum(rank[self.origin], 0)], 0)
        pick = np.maximum(branch, 0)
        spent = np.where(struck, table.spent[at_kind, pick], 0)
        paid = struck & (table.paid[at_kind, pick] == 1)
        damage = np.where(struck, table.damage[at_kind, pick], 0)
        state[_col(side, RET_ATTACK)] -= spent
        key = self._key(state, other)
        cost = np.asarray(them.defence_cost)[key]
        for column, kind in ((PARRIES, FREE_PARRY), (BLOCKS, FREE_BLOCK), (ACTIONS, COSTLY)):
            state[_col(other, column)] -= paid & (cost == kind)
        return self.take_damage(state, mass, other, struck & (damage > 0), damage, fatigue[other])

    @staticmethod
    def _key(state: Ints, side: int) -> Ints:
        """``4 * (a free parry left) + 2 * (a free block left) + (an action left)``."""
        key: Ints = (
            (state[_col(side, PARRIES)] > 0) * 4
            + (state[_col(side, BLOCKS)] > 0) * 2
            + (state[_col(side, ACTIONS)] > 0)
        )
        return key

    def take_damage(
        self, state: Ints, mass: Floats, side: int, where: Bools, damage: Ints, fatigue: int
    ) -> tuple[Ints, Floats]:
        """``side`` takes ``damage`` in the states ``where``, with the Willpower check
        and system shock it calls for (``take_damage`` of the fast engine); one out of
        the fight decides the duel this round."""
        if not where.any():
            return state, mass
        me = self.model.sides[side]
        hp = state[_col(side, HP)]
        life = state[_col(side, LP)]
        earlier = state[_col(side, SHOCK)].copy()
        was_down = where & (life <= 0)
        taken = np.where(where, damage, 0)
        from_hp = np.minimum(hp, taken)
        state[_col(side, HP)] = hp - from_hp
        state[_col(side, LP)] = life - (taken - from_hp)
        state[_col(side, SHOCK)] = earlier + taken
        state[_col(side, SERIOUS)] += np.where(taken >= SERIOUS_WOUND, taken // SERIOUS_WOUND, 0)
        check = (
            where
            & (state[_col(side, HP)] == 0)
            & (state[_col(side, LP)] > 0)
            & (state[_col(side, CHECKED)] == 0)
        )
        if check.any():  # 2d20 at or under Willpower, with the shock of the earlier blows
            chance = two_d20_at_most(me.willpower - (earlier + fatigue))
            state, mass, checked, passed = self.check(state, mass, check, chance)
            (chance, was_down) = self.follow(chance, was_down)
            failed = checked & ~passed
            for _ in range(me.retests):
                again = failed & (state[_col(side, RET_WILL)] > 0)
                if not again.any():
                    break
                state[_col(side, RET_WILL)] -= again
                state, mass, tried, passed_now = self.check(state, mass, again, chance)
                chance, was_down, failed, checked = self.follow(chance, was_down, failed, checked)
                failed = failed.astype(bool) & ~(tried & passed_now)
            state[_col(side, CHECKED)] |= checked.astype(bool)
            state[_col(side, CONSCIOUS)] &= ~(checked.astype(bool) & failed)
        if was_down.any():
            state, mass = self.system_shock(state, mass, side, was_down.astype(bool))
        state[ENDED] |= ~_fighting(state, side)
        return state, mass

    def system_shock(
        self, state: Ints, mass: Floats, side: int, where: Bools
    ) -> tuple[Ints, Floats]:
        """d100 at or under the chance, 5 less a life point below 0; a retest on a
        failure; failing below 0 is death, at 0 a coma (``system_shock``)."""
        me = self.model.sides[side]
        life = state[_col(side, LP)]
        chance = np.clip(me.system_shock - SHOCK_STEP * np.maximum(-life, 0), 0, 100) / 100.0
        state, mass, rolled, passed = self.check(state, mass, where, chance)
        (chance,) = self.follow(chance)
        failed = rolled & ~passed
        for _ in range(me.retests):
            again = failed & (state[_col(side, RET_SHOCK)] > 0)
            if not again.any():
                break
            state[_col(side, RET_SHOCK)] -= again
            state, mass, tried, passed_now = self.check(state, mass, again, chance)
            chance, failed = self.follow(chance, failed)
            failed = failed.astype(bool) & ~(tried & passed_now)
        life = state[_col(side, LP)]
        state[_col(side, CONSCIOUS)] &= ~failed
        state[_col(side, ALIVE)] &= ~(failed & (life < 0))
        return state, mass

    def end_round(self, state: Ints, mass: Floats) -> tuple[Ints, Floats]:
        """For A then B, if alive (out of the fight or not): bleeding below 0 life
        points and from serious wounds, system shock at 0 or below; this round's shock
        carried into the next initiative (``end_round`` of the fast engine)."""
        for side in (0, 1):
            alive = state[_col(side, ALIVE)] == 1
            self._bleed(state, side, np.where(alive, np.maximum(-state[_col(side, LP)], 0), 0))
            self._bleed(state, side, np.where(alive, state[_col(side, SERIOUS)], 0))
            due = (state[_col(side, ALIVE)] == 1) & (state[_col(side, LP)] <= 0)
            if due.any():
                state, mass = self.system_shock(state, mass, side, due)
            state[_col(side, CARRIED)] = state[_col(side, SHOCK)]
            state[_col(side, SHOCK)] = 0
        return state, mass

    @staticmethod
    def _bleed(state: Ints, side: int, amount: Ints) -> None:
        """Lose ``amount`` points (hit points first), shocking like any damage."""
        hp = state[_col(side, HP)]
        from_hp = np.minimum(hp, amount)
        state[_col(side, HP)] = hp - from_hp
        state[_col(side, LP)] -= amount - from_hp
        state[_col(side, SHOCK)] += amount


def _packed(state: Ints) -> npt.NDArray[np.generic]:
    """One key per state (column), equal for equal states: the columns in mixed radix
    in one int64 where their ranges fit, else the raw bytes."""
    low = state.min(axis=1)
    span = state.max(axis=1) - low + 1
    if float(np.prod(span.astype(np.float64))) < 2.0**62:
        weights = np.cumprod(np.concatenate([[1], span[:-1]])).astype(np.int64)
        packed: Ints = ((state - low[:, None]) * weights[:, None]).sum(axis=0)
        return packed
    rows = np.ascontiguousarray(state.T)
    return rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()


@dataclass(frozen=True, slots=True)
class _Orders:
    """The rounds' openings in each situation (a row each), padded to one width: each
    side's action slots, the order of the turns (-1 past the last), each one's
    chance."""

    slots: Ints
    order: Ints
    probability: Floats


def _orders(model: MidianDuelModel, kinds: Ints, fatigue: tuple[int, int], turns: int) -> _Orders:
    """The openings of a round in each situation of ``kinds`` (columns: each side's
    shock from last round), summed over the two d10s as the fast engine orders the
    turns (:func:`~.sim.duels.slot_count`, :func:`~.sim.duels.a_acts_next`)."""
    found: list[dict[tuple[int, ...], float]] = []
    for carried_a, carried_b in kinds.T.tolist():
        openings: dict[tuple[int, ...], float] = {}
        for face_a in range(1, 11):
            for face_b in range(1, 11):
                totals = (
                    face_a + model.sides[0].initiative - fatigue[0] - carried_a,
                    face_b + model.sides[1].initiative - fatigue[1] - carried_b,
                )
                slots = [(t + 9) // 10 if t > 0 else 1 for t in totals]
                used = [0, 0]
                order = []
                for _ in range(turns):
                    left_a, left_b = used[0] < slots[0], used[1] < slots[1]
                    at_a, at_b = totals[0] - 10 * used[0], totals[1] - 10 * used[1]
                    if left_a and (
                        not left_b or at_a > at_b or (at_a == at_b and model.a_first_on_ties)
                    ):
                        order.append(0)
                        used[0] += 1
                    elif left_b:
                        order.append(1)
                        used[1] += 1
                    else:
                        order.append(-1)
                at = (slots[0], slots[1], *order)
                openings[at] = openings.get(at, 0.0) + 0.01
        found.append(openings)
    width = max(len(o) for o in found)
    slots_ = np.zeros((len(found), width, 2), dtype=np.int64)
    order_ = np.full((len(found), width, turns), -1, dtype=np.int64)
    probability = np.zeros((len(found), width))
    for row, openings in enumerate(found):
        for column, (at, p) in enumerate(openings.items()):
            slots_[row, column] = at[:2]
            order_[row, column] = at[2:]
            probability[row, column] = p
    return _Orders(slots_, order_, probability)


@dataclass(frozen=True, slots=True)
class _Blows:
    """The outcomes of a blow in each situation (a row each), padded to one width:
    the retests spent, whether a defence was paid for (1), the damage that lands (0:
    none), and each outcome's chance (0 in the padding)."""

    spent: Ints
    paid: Ints
    damage: Ints
    probability: Floats


def _blows(model: MidianDuelModel, side: int, kinds: Ints) -> _Blows:
    """Every outcome of a blow of ``side`` in each situation of ``kinds`` (columns:
    the attacker's penalty, the defender's, the retests it may spend, and the
    defender's pool key where it defends, else -1), summed over the attack d20 and its
    retests, the defence d20 and the weapon's dice, as the fast engine rolls them."""
    me, them = model.sides[side], model.sides[1 - side]
    values = np.array(me.damage_values, dtype=np.int64)
    chances = _weights(me.damage_cut)
    faces = np.arange(1, 21)
    found: list[dict[tuple[int, int, int], float]] = []
    for attacker_penalty, defender_penalty, retests, key in kinds.T.tolist():
        outcomes: dict[tuple[int, int, int], float] = {}
        totals = faces + (me.attack - attacker_penalty)
        hits = _hits(faces, totals, them.armour_class)
        miss = float(np.count_nonzero(~hits)) / 20
        reach = 1.0  # the chance every roll before this attempt missed
        for attempt in range(retests + 1):
            for face, total in zip(faces[hits].tolist(), totals[hits].tolist(), strict=True):
                p = reach / 20
                paid = 0
                if face < 19 and key >= 0:  # a critical cannot be defended
                    paid = 1
                    need = total - them.defence_bonus[key] + defender_penalty
                    held = min(max((21 - need) / 20, 0.0), 1.0)  # a d20 at or above need
                    _add(outcomes, (attempt, 1, 0), p * held)
                    p *= 1.0 - held
                rolled = np.maximum(values + me.damage + max(total - 20, 0) - attacker_penalty, 0)
                damage = model.final_damage(side, 2 * rolled if face >= 19 else rolled)
                for amount, chance in zip(damage.tolist(), chances.tolist(), strict=True):
                    _add(outcomes, (attempt, paid, int(amount)), p * chance)
            if attempt == retests:
                _add(outcomes, (attempt, 0, 0), reach * miss)
            reach *= miss
        found.append(outcomes)
    width = max(len(o) for o in found)
    spent = np.zeros((len(found), width), dtype=np.int64)
    paid_ = np.zeros((len(found), width), dtype=np.int64)
    damage_ = np.zeros((len(found), width), dtype=np.int64)
    probability = np.zeros((len(found), width))
    for row, outcomes in enumerate(found):
        for column, ((spent_, paid, amount), p) in enumerate(outcomes.items()):
            spent[row, column], paid_[row, column], damage_[row, column] = spent_, paid, amount
            probability[row, column] = p
    return _Blows(spent, paid_, damage_, probability)


def _add(outcomes: dict[tuple[int, int, int], float], at: tuple[int, int, int], p: float) -> None:
    if p > 0.0:
        outcomes[at] = outcomes.get(at, 0.0) + p


def _hits(die: Ints, total: Ints, armour: int) -> Bools:
    """A natural 1-2 misses, 19-20 hits; otherwise the total at or above armour class."""
    hits: Bools = (die >= 19) | ((die >= 3) & (total >= armour))
    return hits


def _weights(cut: tuple[float, ...]) -> Floats:
    """The probabilities of a weapon's dice totals from their cumulative ``cut``."""
    cumulative = [*cut, 1.0]
    return np.diff(np.array([0.0, *cumulative]))


__all__ = ["LEFT", "MAX_STATES", "ExactMidianDuel", "exact_midian_duel", "two_d20_at_most"]
