"""Exact odds of a Midian duel: every die of the duel the fast duel engine plays (the
reference engine's plain duel with the tactics AI: :mod:`.sim.duels`) summed over,
never sampled.

The chain's state between rounds is each side's points lost, serious wounds,
Willpower check made and retests left of each kind, and the opening drawn for the
round about to be played: both d10s give the action slots and the order of the turns,
and last round's shock (with the armour's fatigue) only ever mattered to them, so it
is never kept (a round's end spreads each state's mass over the next round's openings
at once). Two sides of 20 to 30 points hold a few hundred values each; their pairs,
times a dozen openings, are the cells of a dense array (:data:`MAX_CELLS` at most:
past it a pair is refused at once, the limit named).

A cell's round is walked once (:mod:`.exact_duel_kernel`, in machine code where numba
is installed): every way its turns can go, each blow's outcomes (the retests spent,
whether the defender paid for a defence, the damage that lands; their chances summed
over the attack d20 and its retests, the defender's choice and d20, and the weapon's
exact dice), the Willpower check and system shock (a pass and each failure, with their
retests), the shock of the round's earlier blows on every later roll, and the end of
the round: bleeding, system shock, the shock carried into the next initiative. What it
ends in is kept as the cell's record, and a round of the chain is its live cells'
records applied: a duel of sixty rounds meets the same few ten thousand cells again
and again (guard against brawler: 2.2 million live cells over 61 rounds, 38,856
different ones), and walks each once. Rounds that play differently (heroic armour's
fatigue still growing) walk their cells anew.

Every figure comes from the :class:`~.sim.duels.MidianDuelModel` the fast engine
plays, and every step mirrors the engine's, so the two cannot drift apart: tests hold
the chain to the fast engine's millions of duels, to the reference engine, to a brute
force enumeration of a first round, and to an independent chain written with numpy
(``tests/rules/midian/chain_oracle.py``).

The chain stops when the mass still going falls under :data:`LEFT` (``unswept`` says
how much; the chances fall short by it), or at the round cap, where what is left is a
draw.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, NamedTuple, overload

import numpy as np

from affray.answers import MAX_ROUNDS
from affray.errors import RulesError
from affray.rulesystems.midian import exact_duel_kernel as kernel
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.injury import SERIOUS_WOUND, SHOCK_STEP
from affray.rulesystems.midian.resolve import FIDELITY
from affray.rulesystems.midian.sim.duels import MidianDuelModel
from affray.sim.jit import COMPILED

Ints = np.ndarray[Any, np.dtype[np.int64]]
Floats = np.ndarray[Any, np.dtype[np.float64]]

LEFT = 1e-15
"""The mass still going below which the chain stops (the chances fall short by it)."""
MAX_CELLS = 16_000_000
"""Cells (pairs of the sides' states, times the openings) the chain may hold: two
arrays of them, 256 MB; past it the pair is refused (simulate it)."""
MOST_RETESTS = 6
MOST_THREADS = 8
"""Threads a round is shared among at most (one per CPU this process may use)."""
THREAD_CELLS = 500
"""Cells to walk a thread is worth starting for."""
APPLY_CELLS = 20_000
"""Live cells a thread is worth starting for, to apply their records."""
ANSWERS_BYTES = 1 << 28
"""The most the chain's answers of each cell (:meth:`Chain._solve`) may hold: past it
(16,000,000 / 6.7 million cells) the chain goes round by round."""
_LATE = object()
WALK_CELLS = 16_384
"""Cells walked between looks at the time (a tenth of a second at most)."""
RECORD = 64
"""Entries a cell's record is given room for at first (some forty on the examples)."""
KEPT_ENTRIES = 1 << 24
"""Entries of the cells' records the chain keeps (256 MB): past it, the cells walked
first are kept, the rest walked again each round."""

assert kernel.SERIOUS_STEP == SERIOUS_WOUND and kernel.SHOCK_STEP == SHOCK_STEP


@dataclass(frozen=True, slots=True)
class ExactMidianDuel:
    """A duel's exact odds (A listed first): the chances of each side and of a draw
    (no one left, or the round cap), the expected rounds (a draw at the cap counted at
    the cap), the cells of the chain, and the mass left unswept."""

    p_a_wins: float
    p_b_wins: float
    p_draw: float
    mean_rounds: float
    states: int
    unswept: float
    rounds: int
    """The last round the chain pushed (the cap, or where the mass left fell under
    :data:`LEFT`, or the one before it solved the rest at once)."""
    by_round: tuple[tuple[float, float, float], ...] = ()
    """Each round's mass ended: (A wins, B wins, draw) in it (the rounds pushed one by
    one: all of them where asked for)."""
    at_cap: float = 0.0
    """The mass still going at the cap (counted a draw)."""
    solved_from: int = 0
    """The round from which the rest was solved at once (0: none, every round pushed);
    ``rounds`` is then the one before it."""


def exact_midian_duel(
    a: Character,
    b: Character,
    *,
    max_rounds: int = MAX_ROUNDS,
    fidelity: int = FIDELITY,
    max_cells: int = MAX_CELLS,
    by_round: bool = False,
) -> ExactMidianDuel:
    """The exact odds of a duel of ``a`` (listed first) and ``b`` (and of each round:
    ``by_round``).

    Raises:
        NotModelledError: the sheets need something the duel engines' model does not
            play (:func:`~.sim.duels.unsupported`).
        RulesError: the chain would pass ``max_cells``.
    """
    model = MidianDuelModel.of(a, b, max_rounds, fidelity=fidelity)
    if not (model.can_hurt(0) or model.can_hurt(1)):  # nothing can ever change
        return ExactMidianDuel(0.0, 0.0, 1.0, float(max_rounds), 1, 0.0, max_rounds, at_cap=1.0)
    return Chain(model, max_cells).run(by_round=by_round)


def chain_cells(a: Character, b: Character, *, fidelity: int = FIDELITY) -> int:
    """How many cells the chain of this pair holds (its size, known at once)."""
    return model_cells(MidianDuelModel.of(a, b, MAX_ROUNDS, fidelity=fidelity))


def model_cells(model: MidianDuelModel) -> int:
    """How many cells the chain of this duel holds, known at once (without the tables
    of its blows, which take a good part of a second for big sheets)."""
    if not (model.can_hurt(0) or model.can_hurt(1)):
        return 1
    sizes = [int(_side_states(model, s)[0].shape[0]) for s in (0, 1)]
    return sizes[0] * sizes[1] * _openings(model).count


QUICK_CELLS = 1_000_000
"""The largest chain :func:`quick_midian_duel` tries (every pair of the examples: the
largest, brawler against ogre shaman, holds 564,000 cells and takes 0.8 s); its time
is looked at after every :data:`WALK_CELLS` cells walked, so a try that runs out of
time stops soon after. The size of a chain says little of its time (the cells a duel
reaches, the turns of a round and the dice of each blow weigh more): measured in
bench/midian_exact.py."""

PLAIN_CELLS = 2_000
"""The largest chain played without numba (the ``fast`` extra): as plain Python a
round is some hundred times slower, so a few seconds' chain compiled takes hours."""

QUICK_SECONDS = 1.0
"""How long ``affray duel`` without ``--exact`` gives the chain before it simulates:
a second of each of its threads, counted in the process's CPU time (its threads'
together), not by the clock, so that the same duel is answered the same way however
busy the machine is (on an idle machine, about a second of the clock)."""


def quick_midian_duel(
    a: Character,
    b: Character,
    *,
    seconds: float = QUICK_SECONDS,
    max_rounds: int = MAX_ROUNDS,
    fidelity: int = FIDELITY,
) -> ExactMidianDuel | None:
    """The exact odds of this duel if the chain gives them within ``seconds``; None
    when it does not: past the time (looked at between rounds), past
    :data:`QUICK_CELLS`, before its machine code is compiled (compiling alone takes
    longer), or for a pair it does not play."""
    from affray.errors import NotModelledError
    from affray.sim.jit import needs_compiling

    deadline = time.process_time()  # this process's CPU: not the machine's load
    doors = (
        kernel.blow_table, kernel.opening_codes, kernel.walk_cells, kernel.apply_round,
        kernel.apply_records, kernel.reach, kernel.solve_blocks,
    )  # fmt: skip
    if not COMPILED or any(needs_compiling(door) for door in doors):
        return None
    try:
        model = MidianDuelModel.of(a, b, max_rounds, fidelity=fidelity)
        if not (model.can_hurt(0) or model.can_hurt(1)):
            return exact_midian_duel(a, b, max_rounds=max_rounds, fidelity=fidelity)
        chain = Chain(model, QUICK_CELLS)
        # a second of the clock on each of the chain's threads, counted in CPU time
        return chain.run(deadline=deadline + seconds * chain.threads)
    except (NotModelledError, RulesError):
        return None


@dataclass(frozen=True, slots=True)
class _Openings:
    """Every opening of a round (its action slots, order of turns and their count),
    and for each class of initiative penalties (:func:`.exact_duel_kernel.shock_class`)
    the openings it draws and their chances."""

    slots: Ints
    order: Ints
    turns: Ints
    class_ops: Ints
    class_ids: Ints
    class_p: Floats
    low: Ints
    size_b: int
    count: int

    def row(self, model: MidianDuelModel, eff_a: int, eff_b: int) -> int:
        """The class row of the initiative penalties ``eff``, as the kernel finds it."""
        return int(self.rows(model, np.array(eff_a), np.array(eff_b)))

    def rows(self, model: MidianDuelModel, eff_a: Ints, eff_b: Ints) -> Ints:
        """:meth:`row` of each pair of penalties (arrays of a shape)."""
        xa = eff_a - model.sides[0].initiative - 10
        xb = eff_b - model.sides[1].initiative - 10
        both = np.where((xa >= 0) & (xb >= 0), np.minimum(xa, xb), 0)
        xa, xb = np.minimum(xa - both, 10), np.minimum(xb - both, 10)
        found: Ints = (xa - int(self.low[0])) * self.size_b + (xb - int(self.low[1]))
        return found


def _openings(model: MidianDuelModel) -> _Openings:
    init = [side.initiative for side in model.sides]
    low = np.array([min(-i - 10, 0) for i in init], dtype=np.int64)
    size = [int(10 - lo + 1) for lo in low]
    codes = kernel.opening_codes(
        init[0], init[1], int(low[0]), int(low[1]), size[0], size[1], model.a_first_on_ties
    )
    unique, ids = np.unique(codes, return_inverse=True)
    ids = ids.reshape(codes.shape)
    n_open = unique.size
    slots = np.stack([unique % 16, unique // 16 % 16], axis=1).astype(np.int64)
    turns = slots.sum(axis=1)
    bits = unique // 256
    order = np.full((n_open, int(turns.max())), -1, dtype=np.int64)
    for o in range(n_open):
        for t in range(int(turns[o])):
            order[o, t] = (int(bits[o]) >> t) & 1
    counts = np.stack([np.bincount(r, minlength=n_open) for r in ids])
    width = int((counts > 0).sum(axis=1).max())
    rows = counts.shape[0]
    class_ops = np.zeros(rows, dtype=np.int64)
    class_ids = np.zeros((rows, width), dtype=np.int64)
    class_p = np.zeros((rows, width))
    for r in range(rows):
        found = np.flatnonzero(counts[r])
        class_ops[r] = found.size
        class_ids[r, : found.size] = found
        class_p[r, : found.size] = counts[r, found] / 100.0
    return _Openings(
        slots, order, turns, class_ops, class_ids, class_p, low, size[1], n_open
    )  # fmt: skip


def _side_states(model: MidianDuelModel, s: int) -> tuple[Ints, tuple[int, int]]:
    """Every state side ``s`` can be in between rounds while it still fights: (points
    lost, serious wounds, check made, retests left of each kind), one row each, and
    the most points lost and serious wounds. A fighter still standing after a round
    passed its system shock roll, which needs a chance above 0."""
    side = model.sides[s]
    hp, lp, r = side.hit_points, side.life_points, side.retests
    most_lost = hp + lp + -(-side.system_shock // SHOCK_STEP)
    most_serious = most_lost // SERIOUS_WOUND
    rows = []
    for lost in range(most_lost + 1):
        for serious in range(lost // SERIOUS_WOUND + 1):
            for checked in (0, 1) if lost >= hp else (0,):
                for ra in range(r + 1):
                    for rw in range(r + 1) if checked else (r,):
                        for rs in range(r + 1) if lost >= hp + lp else (r,):
                            rows.append((lost, serious, checked, ra, rw, rs))
    return np.array(rows, dtype=np.int64), (most_lost, most_serious)


def _chance(p: float) -> float:
    """A chance summed in floats, kept within [0, 1] (a sure win can sum to 1 + 2e-16)."""
    return min(max(p, 0.0), 1.0)


class Walked(NamedTuple):
    """Cells walked, and their records: entries, and where each cell's starts."""

    cells: Ints
    dest: Ints
    prob: Floats
    at: Ints


def _grown(array: np.ndarray[Any, Any], room: int, used: int) -> np.ndarray[Any, Any]:
    """``array`` with room for ``room`` entries, its first ``used`` kept."""
    grown = np.empty(room, dtype=array.dtype)
    grown[:used] = array[:used]
    return grown


class Chain:
    """The chain of one duel: its tables, built once, and its rounds.

    Raises (when made):
        RulesError: the chain would pass ``max_cells`` (or a side has more retests
            than the kernel's tables take).
    """

    def __init__(
        self, model: MidianDuelModel, max_cells: int = MAX_CELLS, *, remember: bool = True
    ) -> None:
        self.model = model
        self.remember = remember
        """Whether a cell's record (its walk) is kept for later rounds (False: each
        round walks all its cells afresh; tests hold the two equal)."""
        if max(side.retests for side in model.sides) > MOST_RETESTS:
            raise RulesError(
                f"exact odds of a Midian duel take at most {MOST_RETESTS} retests a side",
                hint="simulate it instead: affray duel A B -n 100000",
            )
        self.states = [_side_states(model, s) for s in (0, 1)]
        self.openings = _openings(model)
        sizes = (self.states[0][0].shape[0], self.states[1][0].shape[0])
        self.shape = (int(sizes[0]), int(sizes[1]), self.openings.count)
        self.cells = self.shape[0] * self.shape[1] * self.shape[2]
        if not COMPILED and self.cells > PLAIN_CELLS:
            raise RulesError(
                f"exact odds of this Midian duel ({self.cells:,} states) need numba: its "
                "chain as plain Python would take hours",
                hint="pip install 'affray[fast]', or simulate it: affray duel A B -n 100000",
            )
        if self.cells > max_cells:
            raise RulesError(
                f"exact odds of this Midian duel would hold {self.cells:,} states, more "
                f"than {max_cells:,}",
                hint="simulate it instead: affray duel A B -n 100000",
            )
        self.tables = self._tables(self.states, self.openings)
        self.threads = max(1, min(MOST_THREADS, len(os.sched_getaffinity(0))))
        self.stack = kernel.STACK
        """Rows of a start's walk (grown when a round needs more)."""
        self.local = kernel.LOCAL
        """Slots of the table of a start's ends (grown when a round needs more)."""
        self._at = np.full(self.cells, -1, dtype=np.int64)
        """Where each cell's record starts in ``_dest``/``_prob`` (-1: not walked)."""
        self._dest = np.zeros(0, dtype=np.int64)
        self._prob = np.zeros(0)
        self._kept = 0
        """Entries of ``_dest``/``_prob`` in use."""
        self._cells_kept = 0
        """Cells whose records are kept."""
        self._work: dict[int, kernel.Scratch] = {}
        """Each thread's arrays of a walk (:meth:`_scratch`)."""
        self._growing = threading.Lock()
        """Held while a thread grows the stack or the table of ends (:meth:`_grow`)."""
        self.walked = 0
        """Cells' rounds walked so far (each cell's once, while the rounds play alike)."""
        rows = [state[0] for state in self.states]
        retests = [3 * side.retests for side in model.sides]
        gone = [
            r[:, 0] + r[:, 1] + r[:, 2] + k - r[:, 3:].sum(axis=1)
            for r, k in zip(rows, retests, strict=True)
        ]
        self._progress = np.add.outer(gone[0], gone[1]).reshape(-1)
        """How far each pair of the sides' states is into the duel: every change of
        either side (points lost, serious wounds, a check made, retests spent) adds to
        it, so a pair's cells move to later pairs or among themselves."""
        self._valid: object = None
        """What the kept records hold for (:meth:`_rounds_alike`)."""
        openings = self.openings
        self._spread = (
            openings.class_ops,
            openings.class_ids,
            openings.class_p,
            max(int(openings.class_ops.size - 1), 1).bit_length(),
        )
        """How a record's moves spread over the openings (the class rows', and the bits
        of a row in a move)."""

    def start(self) -> Floats:
        """The cells before round 1: both fresh, the first opening drawn."""
        model, openings, look = self.model, self.openings, self.tables["look"]
        cur = np.zeros(self.shape)
        start = [
            int(look[s, 0, 0, 0, side.retests, side.retests, side.retests])
            for s, side in enumerate(model.sides)
        ]
        row = openings.row(model, 0, 0)
        for j in range(int(openings.class_ops[row])):
            cur[start[0], start[1], openings.class_ids[row, j]] = openings.class_p[row, j]
        return cur

    def step(self, cur: Floats, number: int, nxt: Floats | None = None) -> tuple[Floats, Floats]:
        """Round ``number`` from the cells ``cur``: the cells after it (written into
        ``nxt`` when given), and the mass that ended in it (A wins, B wins, draw).

        Each live cell's round is walked once and its record kept (while the rounds
        play alike: :meth:`_rounds_alike`; up to :data:`KEPT_ENTRIES`); a round is
        then its live cells' records applied."""
        into = np.zeros(self.shape) if nxt is None else nxt
        into.fill(0.0)
        self._ready(number)
        flat, to = cur.reshape(-1), into.reshape(-1)
        sums = self._apply(flat, to)
        if sums[6]:  # cells with mass and no record yet
            new = np.flatnonzero((flat != 0.0) & (self._at < 0))
            left = self._walk(new, number)
            kept = new[self._at[new] >= 0]
            kernel.apply_records(
                kept, self._at[kept], flat, to, self._dest, self._prob, *self._spread, sums
            )  # fmt: skip
            if left.size:  # past the records kept: walked again each round
                part = self._walk_apart(left, number)
                kernel.apply_records(
                    part.cells, part.at, flat, to, part.dest, part.prob, *self._spread, sums
                )  # fmt: skip
        return into, sums[:3] + sums[3:6]

    def _apply(self, flat: Floats, to: Floats) -> Floats:
        """The kept records of the cells ``flat`` applied into ``to`` (zeros), shared
        among threads: what ended (A wins, B wins, draws; their compensations), and the
        count of cells with mass and no record."""
        sums = np.zeros(7)
        live = np.count_nonzero(flat.reshape(self.shape[0], -1), axis=1)
        threads = min(self.threads, max(1, int(live.sum()) // APPLY_CELLS))
        if threads == 1:
            sums[6] = kernel.apply_round(
                flat, to, self._at, self._dest, self._prob, *self._spread, 0, flat.size, sums
            )  # fmt: skip
            return sums
        cuts = np.searchsorted(np.cumsum(live), np.arange(1, threads) * live.sum() / threads)
        step = self.shape[1] * self.shape[2]
        bounds = [0, *((int(c) + 1) * step for c in cuts), flat.size]
        outs = [to, *(np.zeros(flat.size) for _ in range(threads - 1))]
        parts = [np.zeros(6) for _ in range(threads)]

        def apply(k: int) -> int:
            missing: int = kernel.apply_round(
                flat, outs[k], self._at, self._dest, self._prob, *self._spread, bounds[k],
                bounds[k + 1], parts[k],
            )  # fmt: skip
            return missing

        with ThreadPoolExecutor(threads) as pool:  # the kernel lets go of the GIL
            sums[6] = sum(pool.map(apply, range(threads)))
        for out in outs[1:]:
            to += out
        for part in parts:  # each part's totals, and its compensation kept apart
            sums[:6] += part
        return sums

    def _ready(self, number: int) -> None:
        """The kept records emptied unless they hold for round ``number``."""
        alike = self._rounds_alike(number)
        if not self.remember or alike != self._valid:
            self._at.fill(-1)
            self._kept = self._cells_kept = 0
            self._valid = alike

    def _rounds_alike(self, number: int) -> object:
        """What round ``number``'s walks depend on besides the cell: the armour's
        fatigue (after the point where more changes nothing), and the class of the
        next round's openings each end's shock draws. Rounds alike in it give every
        cell the same record (always, for sides without fatigue)."""
        numbers = self.tables["sides"]
        fatigue = numbers[:, kernel.FATIGUE]
        if not fatigue.any():
            return None
        most = np.maximum.reduce(
            [numbers[:, kernel.PEN_CAP], numbers[:, kernel.DEF_CAP], numbers[:, kernel.WILLPOWER]]
        )
        tired = np.minimum(fatigue * (number - 1), np.maximum(most, 0))
        shock = [np.arange(self.states[s][1][0] + 1) for s in (0, 1)]
        eff_a, eff_b = np.meshgrid(
            shock[0] + fatigue[0] * number, shock[1] + fatigue[1] * number, indexing="ij"
        )
        rows = self.openings.rows(self.model, eff_a, eff_b)
        return (tuple(int(t) for t in tired), rows.tobytes())

    def _walk(self, cells: Ints, number: int) -> Ints:
        """Walk round ``number`` of ``cells`` (:func:`.exact_duel_kernel.walk_cells`)
        and keep their records, shared among threads (each writes into a stretch of the
        records of its own, sized by what the records so far took a cell). Returns the
        cells past what the records may keep (:data:`KEPT_ENTRIES`), not walked."""
        self.walked += cells.size
        if self._dest.size == 0:  # untouched memory costs nothing till written
            self._dest = np.empty(KEPT_ENTRIES, dtype=np.int64)
            self._prob = np.empty(KEPT_ENTRIES)
        threads = min(self.threads, max(1, cells.size // THREAD_CELLS))
        # dealt in turn: a cell's walk costs more the more its sides are hurt
        dealt = [np.ascontiguousarray(cells[k::threads]) for k in range(threads)]
        per_cell = 1.25 * (self._kept / self._cells_kept if self._cells_kept else RECORD)
        room = KEPT_ENTRIES - self._kept
        share = min(per_cell * cells.size, room) / cells.size
        bounds = [self._kept + int(share * sum(d.size for d in dealt[:k])) for k in range(threads)]
        bounds.append(self._kept + int(share * cells.size))

        def walk(k: int) -> tuple[int, int]:
            return self._walk_into(dealt[k], number, bounds[k], bounds[k + 1], k)

        if threads == 1:
            done = [walk(0)]
        else:
            with ThreadPoolExecutor(threads) as pool:  # the kernel lets go of the GIL
                done = list(pool.map(walk, range(threads)))
        end = bounds[0] + done[0][1]
        for k in range(1, threads):  # each stretch's records slid down over the gaps
            walked, written = done[k]
            if bounds[k] > end:
                self._dest[end : end + written] = self._dest[bounds[k] : bounds[k] + written]
                self._prob[end : end + written] = self._prob[bounds[k] : bounds[k] + written]
                self._at[dealt[k][:walked]] -= bounds[k] - end
            end += written
        self._kept = end
        self._cells_kept += sum(walked for walked, _ in done)
        left = np.concatenate([d[walked:] for d, (walked, _) in zip(dealt, done, strict=True)])
        if left.size:  # a stretch was too short: the rest after them all
            walked, written = self._walk_into(left, number, self._kept, KEPT_ENTRIES, 0)
            self._kept += written
            self._cells_kept += walked
            left = left[walked:]
        return left

    def _walk_into(
        self, cells: Ints, number: int, start: int, stop: int, thread: int
    ) -> tuple[int, int]:
        """Walk ``cells`` in turn into the kept records from ``start`` to ``stop``
        (excluded) until they are full: the cells walked, and the entries written."""
        at = np.zeros(cells.size, dtype=np.int64)
        done = written = 0
        while done < cells.size:
            walked, entries, flag = self._walk_cells(
                cells[done:], number, self._dest[start + written : stop],
                self._prob[start + written : stop], at[done:], thread,
            )  # fmt: skip
            at[done : done + walked] += start + written
            done += walked
            written += entries
            if not flag and done < cells.size:
                break  # full
        self._at[cells[:done]] = at[:done]
        return done, written

    def _walk_apart(self, cells: Ints, number: int) -> Walked:
        """Walk ``cells`` into records of their own (not kept)."""
        at = np.zeros(cells.size, dtype=np.int64)
        done = written = 0
        dest, prob = np.zeros(0, dtype=np.int64), np.zeros(0)
        while done < cells.size:
            room = written + RECORD * (cells.size - done) + kernel.HEAD + self.local // 2
            if dest.size < room:
                dest, prob = _grown(dest, room, written), _grown(prob, room, written)
            walked, entries, _ = self._walk_cells(
                cells[done:], number, dest[written:], prob[written:], at[done:], 0
            )  # fmt: skip
            at[done : done + walked] += written
            done += walked
            written += entries
        return Walked(cells, dest[:written], prob[:written], at)

    def _walk_cells(
        self, cells: Ints, number: int, dest: Ints, prob: Floats, at: Ints, thread: int
    ) -> tuple[int, int, int]:
        """The kernel's walk of ``cells`` into ``dest``, ``prob`` and ``at`` in thread
        ``thread``'s scratch: the cells walked, entries written, and its flag (1: the
        stack overflowed, 2: the table of ends: grown, :meth:`_grow`, for the next).

        Raises:
            RulesError: past the largest stack or table of ends.
        """
        tables, openings = self.tables, self.openings
        work = self._scratch(thread)
        kernel.walk_cells(
            cells, number, tables["sides"], tables["cost"], tables["likely"],
            tables["decode"], tables["look"], openings.slots, openings.order,
            openings.turns, tables["count"], tables["spent"], tables["paid"],
            tables["damage"], tables["chance"], tables["two_d20"], openings.class_ops,
            openings.class_ids, openings.class_p, openings.low, openings.size_b,
            self.shape[1], self._spread[3], dest, prob, at, *work,
        )  # fmt: skip
        walked, entries, flag = (int(x) for x in work.out[:3])
        if flag:
            self._grow(flag, work)
        return walked, entries, flag

    def _scratch(self, thread: int) -> kernel.Scratch:
        """Thread ``thread``'s arrays of a walk, the size the chain's stack and table
        of ends are now."""
        work = self._work.get(thread)
        if work is None or work.stack.shape[0] != self.stack or work.keys.size != self.local:
            work = self._work[thread] = kernel.scratch(self.stack, self.local)
        return work

    def _grow(self, flag: int, work: kernel.Scratch) -> None:
        """Grow the kernel's stack (``flag`` 1) or table of ends (2) that a walk in
        ``work`` overflowed, to four times the size it had there (threads that
        overflowed at once grow it once).

        Raises:
            RulesError: past their largest.
        """
        stack, local = work.stack.shape[0], work.keys.size
        with self._growing:
            if flag == 1 and stack < kernel.STACK << 4:
                self.stack = max(self.stack, stack * 4)  # a start's walk held more
                return
            if flag == 2 and local < kernel.LOCAL << 9:
                self.local = max(self.local, local * 4)  # a start ended in more states
                return
            raise RulesError(
                "exact odds of this Midian duel would pass the chain's tables (a "
                f"state's round would hold more than {stack:,} branches or end "
                f"in more than {local // 2:,} states)",
                hint="simulate it instead: affray duel A B -n 100000",
            )

    def finish(
        self, row: Ints, order: Ints, lost: tuple[int, int], number: int
    ) -> tuple[Floats, Floats]:
        """The rest of round ``number`` from a state within it: ``row`` (the kernel's
        fields of a walk's state, :data:`.exact_duel_kernel.FIELDS` of them: each side's
        points lost, shock taken this round, actions, free defences and retests left
        …), its turns still to come ``order`` (the sides, in turn), each side's points
        lost when the round began ``lost``: the cells before the next round, and the
        mass that ended in this one (A wins, B wins, draw)."""
        tables, openings = self.tables, self.openings
        into = np.zeros(self.shape)
        orders = np.zeros((1, max(order.size, 1)), dtype=np.int64)
        orders[0, : order.size] = order
        turns = np.array([order.size], dtype=np.int64)

        def walk() -> Floats:
            work = self._scratch(0)
            kernel.finish_round(
                row, 1.0, orders, turns, lost[0], lost[1], into, number, tables["sides"],
                tables["cost"], tables["likely"], tables["decode"], tables["look"],
                tables["count"], tables["spent"], tables["paid"], tables["damage"],
                tables["chance"], tables["two_d20"], openings.class_ops,
                openings.class_ids, openings.class_p, openings.low, openings.size_b, *work,
            )  # fmt: skip
            return work.ended

        return into, self._roomy(walk, into)

    def _roomy(self, walk: Callable[[], Floats], into: Floats) -> Floats:
        """What ``walk`` (a kernel's round into ``into``) ended, its stack and table of
        ends grown (and ``into`` emptied) until they hold it.

        Raises:
            RulesError: past their largest.
        """
        while True:
            into.fill(0.0)
            ended = walk()
            if not ended[4]:
                return ended[:3].copy()
            self._grow(int(ended[4]), self._scratch(0))

    @overload
    def run(
        self,
        *,
        deadline: None = None,
        cells: Floats | None = None,
        first: int = 1,
        by_round: bool = False,
    ) -> ExactMidianDuel: ...
    @overload
    def run(
        self,
        *,
        deadline: float,
        cells: Floats | None = None,
        first: int = 1,
        by_round: bool = False,
    ) -> ExactMidianDuel | None: ...

    def run(
        self,
        *,
        deadline: float | None = None,
        cells: Floats | None = None,
        first: int = 1,
        by_round: bool = False,
    ) -> ExactMidianDuel | None:
        """The duel from round ``first`` (and the ``cells`` before it: the duel's start
        by default); None if ``deadline`` (of :func:`time.process_time`: this
        process's CPU time, so that a busy machine does not change the answer) passes
        first.

        Once its rounds play alike (at once, but for heroic armour's fatigue still
        growing) the rest is solved at once (:meth:`_solve`); round by round instead
        where ``by_round`` is asked (each round's ends: ``by_round`` counts from
        ``first``), or where the solve cannot promise the cap does not matter: then
        until the mass going falls under :data:`LEFT`, or the cap (what is left is a
        draw)."""
        model = self.model
        cur = self.start() if cells is None else cells.copy()  # the rounds write into it
        spare = np.zeros(self.shape)
        a_wins = b_wins = draws = mean = 0.0
        rows: list[tuple[float, float, float]] = []
        solve_at = model.max_rounds + 1 if by_round else self._settled(first)
        number = first - 1
        left = float(cur.sum())
        for number in range(first, model.max_rounds + 1):
            if number >= solve_at:
                solved = self._solve(cur, number, deadline)
                if solved is _LATE:
                    return None
                if isinstance(solved, np.ndarray):
                    won_a, won_b, drawn, rounds = (float(x) for x in solved)
                    return ExactMidianDuel(
                        _chance(a_wins + won_a), _chance(b_wins + won_b),
                        _chance(draws + drawn), mean + rounds, self.cells, 0.0, number - 1,
                        tuple(rows), solved_from=number,
                    )  # fmt: skip
                solve_at = model.max_rounds + 1  # round by round, then
            nxt, ended = self.step(cur, number, spare)
            won_a, won_b, drawn = float(ended[0]), float(ended[1]), float(ended[2])
            rows.append((won_a, won_b, drawn))
            a_wins, b_wins, draws = a_wins + won_a, b_wins + won_b, draws + drawn
            mean += number * (won_a + won_b + drawn)
            cur, spare = nxt, cur
            left = float(cur.sum())
            if left < LEFT:
                break
            if deadline is not None and time.process_time() > deadline:
                return None
        unswept = at_cap = 0.0
        if number >= model.max_rounds:
            at_cap = left
            draws += left  # the round cap: a draw
            mean += model.max_rounds * left
        else:
            unswept = left
        return ExactMidianDuel(
            _chance(a_wins), _chance(b_wins), _chance(draws), mean, self.cells, unswept,
            number, tuple(rows), at_cap=at_cap,
        )  # fmt: skip

    def _settled(self, first: int) -> int:
        """The first round from ``first`` on after which every round plays alike
        (:meth:`_rounds_alike`), up to the cap."""
        last = self.model.max_rounds
        if self.tables["sides"][:, kernel.FATIGUE].any():
            settled = self._rounds_alike(last)
            while last > first and self._rounds_alike(last - 1) == settled:
                last -= 1
            return last
        return first

    def _solve(self, cur: Floats, number: int, deadline: float | None) -> Floats | object:
        """The rest of the duel from the cells ``cur`` before round ``number``, every
        round from it on playing alike, solved at once: every cell it can reach walked
        (its record kept), then each cell's chances of how the duel ends and the rounds
        it lasts, from the last pairs of the sides' states to the first
        (:func:`.exact_duel_kernel.solve_blocks`). Returns (A wins, B wins, draws, the
        sum of each ending's round times its chance); None where it cannot promise the
        cap plays no part (its bound on the chance of a duel lasting past it,
        ``E[z^T] / z^R``, over :data:`LEFT`), the records cannot all be kept, or the
        cells are too many to hold their answers; :data:`_LATE` past ``deadline``."""
        if self.cells * kernel.ANSWERS * 8 > ANSWERS_BYTES:
            return None
        self._ready(number)
        reached = np.zeros(self.cells, dtype=np.int64)
        todo = np.flatnonzero(cur.reshape(-1))
        reached[todo] = 1
        level = 1
        while todo.size:
            new = todo[self._at[todo] < 0]
            parts = np.array_split(new, -(-new.size // WALK_CELLS)) if new.size else []
            for part in parts:
                if self._walk(part, number).size:
                    return None  # past the records kept
                if deadline is not None and time.process_time() > deadline:
                    return _LATE
            level += 1
            ops, ids, _, shift = self._spread
            if kernel.reach(todo, self._at, self._dest, ops, ids, shift, reached, level):
                todo = np.flatnonzero(reached == level)
            else:
                todo = todo[:0]
        n_open = self.shape[2]
        pairs = np.unique(np.flatnonzero(reached) // n_open)
        order = pairs[np.argsort(-self._progress[pairs], kind="stable")]
        left = self.model.max_rounds - number + 1  # rounds the cap lets be played
        for z in (2.0, 1.25, 1.05):
            answers = np.zeros((self.cells, kernel.ANSWERS))
            failed = kernel.solve_blocks(
                order, n_open, self._at, self._dest, self._prob, *self._spread[:3],
                self._spread[3], z, reached, answers, np.zeros((n_open, n_open)),
                np.zeros((n_open, n_open)), np.zeros((n_open, 4)), np.zeros((n_open, 1)),
            )  # fmt: skip
            if failed == kernel.UNORDERED:  # pragma: no cover - a state that comes back
                raise AssertionError("the chain's pairs of states are not in order")
            if failed:
                continue  # E[z^T] is not finite: a smaller z
            flat = cur.reshape(-1)
            if float(flat @ answers[:, 4]) > LEFT * z ** min(left, 1000):
                return None  # the cap may matter
            found = flat @ answers[:, :4]
            found[3] += (number - 1) * float(flat.sum())
            return found
        return None

    def blow(
        self, side: int, *, penalty: int = 0, defender_penalty: int = 0, pool_key: int = -1
    ) -> dict[int, float]:
        """The damage ``side``'s blow does (0: none), as the chain sums it: with these
        penalties, every retest it has, and the defender's best defence at pool key
        ``pool_key`` (``4 * free parry + 2 * free block + action``; -1: none)."""
        t = self.tables
        numbers = t["sides"]
        at = (
            side,
            min(penalty, int(numbers[side, kernel.PEN_CAP])),
            min(defender_penalty, int(numbers[1 - side, kernel.DEF_CAP])) if pool_key >= 0 else 0,
            self.model.sides[side].retests,
            pool_key + 1,
        )
        found: dict[int, float] = {}
        for j in range(int(t["count"][at])):
            amount = int(t["damage"][(*at, j)])
            found[amount] = found.get(amount, 0.0) + float(t["chance"][(*at, j)])
        return found

    def _tables(
        self, states: list[tuple[Ints, tuple[int, int]]], openings: _Openings
    ) -> dict[str, Any]:
        model = self.model
        sides = np.zeros((2, kernel.SIDE_NUMBERS), dtype=np.int64)
        finals = []
        for s, side in enumerate(model.sides):
            them = model.sides[1 - s]
            top = max(side.damage_values) + side.damage + max(side.attack, 0)
            rolled = np.arange(2 * max(top, 0) + 1, dtype=np.int32)
            finals.append(np.asarray(model.final_damage(s, rolled), dtype=np.int64))
            sides[s, kernel.HIT_POINTS] = side.hit_points
            sides[s, kernel.LIFE_POINTS] = side.life_points
            sides[s, kernel.WILLPOWER] = side.willpower
            sides[s, kernel.SYSTEM_SHOCK] = side.system_shock
            sides[s, kernel.FATIGUE] = side.fatigue
            sides[s, kernel.RETESTS] = side.retests
            sides[s, kernel.FREE_PARRIES] = side.parries
            sides[s, kernel.FREE_BLOCKS] = side.blocks
            sides[s, kernel.INITIATIVE] = side.initiative
            # past these penalties a blow's outcomes change no more: no damage and no
            # hit but a critical; no defence can hold
            sides[s, kernel.PEN_CAP] = max(top, 18 + side.attack - them.armour_class + 1, 0)
            sides[s, kernel.DEF_CAP] = max(21 + max(side.defence_bonus) - side.armour_class, 0)
        blows = []
        for s, side in enumerate(model.sides):
            them = model.sides[1 - s]
            blows.append(
                kernel.blow_table(
                    side.attack,
                    side.damage,
                    them.armour_class,
                    np.array(side.damage_values, dtype=np.int64),
                    np.diff(np.array([0.0, *side.damage_cut, 1.0])),
                    finals[s],
                    np.array(them.defence_bonus, dtype=np.int64),
                    side.retests,
                    int(sides[s, kernel.PEN_CAP]),
                    int(sides[1 - s, kernel.DEF_CAP]),
                )
            )
        shape = [max(b[0].shape[i] for b in blows) for i in range(4)]
        width = max(max(int(b[0].max()), 1) for b in blows)
        count = np.zeros((2, *shape), dtype=np.int64)
        spent = np.zeros((2, *shape, width), dtype=np.int64)
        paid = np.zeros_like(spent)
        damage = np.zeros_like(spent)
        chance = np.zeros((2, *shape, width))
        for s, (c, sp, pa, da, ch) in enumerate(blows):
            a, b, c_, d = c.shape
            w = min(width, sp.shape[-1])
            count[s, :a, :b, :c_, :d] = c
            spent[s, :a, :b, :c_, :d, :w] = sp[..., :w]
            paid[s, :a, :b, :c_, :d, :w] = pa[..., :w]
            damage[s, :a, :b, :c_, :d, :w] = da[..., :w]
            chance[s, :a, :b, :c_, :d, :w] = ch[..., :w]
        rows = [st[0] for st in states]
        most_lost = max(st[1][0] for st in states)
        most_serious = max(st[1][1] for st in states)
        r = max(side.retests for side in model.sides)
        look = np.full((2, most_lost + 1, most_serious + 1, 2, r + 1, r + 1, r + 1), -1, np.int64)
        decode = np.zeros((2, max(x.shape[0] for x in rows), 6), dtype=np.int64)
        for s, found in enumerate(rows):
            look[(s, *found.T)] = np.arange(found.shape[0])
            decode[s, : found.shape[0]] = found
        faces = np.add.outer(np.arange(1, 21), np.arange(1, 21)).ravel()
        two_d20 = np.cumsum(np.bincount(faces, minlength=41)) / 400.0
        return {
            "sides": sides,
            "cost": np.array([side.defence_cost for side in model.sides], dtype=np.int64),
            "likely": np.array([side.likely_damage for side in model.sides]),
            "count": count,
            "spent": spent,
            "paid": paid,
            "damage": damage,
            "chance": chance,
            "look": look,
            "decode": decode,
            "two_d20": two_d20,
        }


__all__ = [
    "LEFT",
    "MAX_CELLS",
    "QUICK_CELLS",
    "QUICK_SECONDS",
    "ExactMidianDuel",
    "chain_cells",
    "exact_midian_duel",
    "model_cells",
    "quick_midian_duel",
]
