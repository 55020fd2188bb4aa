"""The exact Midian duel chain's loops, in machine code (numba) where numba is
installed, plain Python elsewhere (:mod:`affray.sim.jit`): the tables of one duel
(every blow's outcomes, every round's openings) and one round of the chain.

A state between rounds is a cell ``(a, b, opening)`` of a dense array: the opening
drawn for the round about to be played (its action slots and order of turns), and
each side's *compact index* (its points lost, serious wounds, Willpower check made,
retests left of each kind: :func:`side_index`). Last round's shock is not in it: it
only ever mattered to the opening, so a round's end sends each state's mass straight
into the openings of the next round, and states that differed only in it are one.

A cell's round is walked once (:func:`walk_cells`): every way its turns can go, depth
first (a stack of whole states: a blow branches into its outcomes, a Willpower check
or a system shock roll into a pass and its failures), then the end of the round
(bleeding, system shock). What its walks end in is summed in a small table keyed by
the two sides' new indices (a few hundred ways end in a few dozen places), spread
over the next round's openings and kept as the cell's *record*: the cells it moves
to and their chances. A round of the chain is then only its live cells' records
applied (:func:`apply_records`): a duel of sixty rounds meets the same few ten
thousand cells again and again, and walks each once.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from affray.sim.jit import bare, entry, inline

Ints = np.ndarray[Any, np.dtype[np.int64]]
Floats = np.ndarray[Any, np.dtype[np.float64]]

# the fields of a state on the walk's stack, per side (side s's field is F * s + the field)
LOST, SHOCK, SERIOUS, CHECKED, CONSCIOUS, ALIVE = 0, 1, 2, 3, 4, 5
ACTIONS, PARRIES, BLOCKS, RET_ATTACK, RET_WILL, RET_SHOCK = 6, 7, 8, 9, 10, 11
F = 12
ENDED = 2 * F
TURN = ENDED + 1
FIELDS = TURN + 1

# the side's numbers (a row of ``sides``)
HIT_POINTS, LIFE_POINTS, WILLPOWER, SYSTEM_SHOCK, FATIGUE, RETESTS = 0, 1, 2, 3, 4, 5
FREE_PARRIES, FREE_BLOCKS, INITIATIVE, PEN_CAP, DEF_CAP = 6, 7, 8, 9, 10
SIDE_NUMBERS = 11

# kinds of defence cost (:mod:`.sim.duels`)
FREE_PARRY, FREE_BLOCK, COSTLY = 1, 2, 3
SERIOUS_STEP = 10
SHOCK_STEP = 5
STACK = 1 << 14
"""Rows of a start's walk held at once, at first (a chain that needs more grows it)."""
LOCAL = 1 << 12
"""Slots of the table a start state's ends are summed in (a power of two), at first (a
chain that needs more grows it)."""


@inline
def _hp(sides: Ints, s: int, lost: int) -> int:
    return int(max(sides[s, HIT_POINTS] - lost, 0))


@inline
def _lp(sides: Ints, s: int, lost: int) -> int:
    return int(sides[s, LIFE_POINTS] - max(lost - sides[s, HIT_POINTS], 0))


@entry
def blow_table(
    attack: int,
    damage: int,
    armour: int,
    values: Ints,
    chances: Floats,
    final: Ints,
    bonus: Ints,
    retests: int,
    pen_cap: int,
    def_cap: int,
) -> tuple[Ints, Ints, Ints, Ints, Floats]:
    """Every outcome of one side's blow, for each attacker's penalty (0 ..
    ``pen_cap``), defender's penalty (0 .. ``def_cap``), retests it may spend (0 ..
    ``retests``) and defence (0: none; ``1 + key``: the defender's best defence at
    pool key ``key``, bonus ``bonus[key]``), summed over the attack d20 and its
    retests, the defence d20 and the weapon's dice (``values``, ``chances``), as the
    fast engine rolls them; ``final[rolled]`` is what a rolled damage (doubled on a
    critical) takes from the defender.

    Returns the count of outcomes of each situation, and each outcome's retests
    spent, defence paid for (1), damage and chance."""
    most_damage = final.size
    dense = np.zeros((retests + 1, 2, most_damage))
    shape = (pen_cap + 1, def_cap + 1, retests + 1, 9)
    count = np.zeros(shape, dtype=np.int64)
    width = (retests + 1) * 2 * most_damage
    spent_ = np.zeros((*shape, width), dtype=np.int64)
    paid_ = np.zeros((*shape, width), dtype=np.int64)
    damage_ = np.zeros((*shape, width), dtype=np.int64)
    chance_ = np.zeros((*shape, width))
    for pen in range(pen_cap + 1):
        for dpen in range(def_cap + 1):
            for ret in range(retests + 1):
                for k in range(9):
                    key = k - 1
                    dense[:] = 0.0
                    misses = 0
                    for face in range(1, 21):
                        total = face + attack - pen
                        if not (face >= 19 or (face >= 3 and total >= armour)):
                            misses += 1
                    miss = misses / 20.0
                    reach = 1.0
                    for attempt in range(ret + 1):
                        for face in range(1, 21):
                            total = face + attack - pen
                            if not (face >= 19 or (face >= 3 and total >= armour)):
                                continue
                            p = reach / 20.0
                            paid = 0
                            if face < 19 and key >= 0:
                                paid = 1
                                need = total - bonus[key] + dpen
                                held = min(max((21 - need) / 20.0, 0.0), 1.0)
                                dense[attempt, 1, 0] += p * held
                                p *= 1.0 - held
                            for v in range(values.size):
                                rolled = max(values[v] + damage + max(total - 20, 0) - pen, 0)
                                if face >= 19:
                                    rolled *= 2
                                dense[attempt, paid, final[min(rolled, most_damage - 1)]] += (
                                    p * chances[v]
                                )
                        if attempt == ret:
                            dense[attempt, 0, 0] += reach * miss
                        reach *= miss
                    j = 0
                    for a in range(ret + 1):
                        for paid in range(2):
                            for d in range(most_damage):
                                if dense[a, paid, d] > 0.0:
                                    spent_[pen, dpen, ret, k, j] = a
                                    paid_[pen, dpen, ret, k, j] = paid
                                    damage_[pen, dpen, ret, k, j] = d
                                    chance_[pen, dpen, ret, k, j] = dense[a, paid, d]
                                    j += 1
                    count[pen, dpen, ret, k] = j
    return count, spent_, paid_, damage_, chance_


@entry
def opening_codes(
    init_a: int, init_b: int, low_a: int, low_b: int, size_a: int, size_b: int, a_first: bool
) -> Ints:
    """The opening of every pair of d10 faces (a column each: ``10 * (a - 1) + b - 1``)
    in every class of last round's shock (a row each: ``x_a - low_a`` times
    ``size_b`` plus ``x_b - low_b``, ``x`` the shock and fatigue past the point where
    the initiative can no longer be positive: :func:`shock_class`), as a code:
    ``slots_a + 16 * slots_b + 256 * turns``, the turns a bit each (1: B)."""
    codes = np.zeros((size_a * size_b, 100), dtype=np.int64)
    for xa in range(size_a):
        for xb in range(size_b):
            row = xa * size_b + xb
            for fa in range(1, 11):
                for fb in range(1, 11):
                    ta = fa - 10 - (xa + low_a)
                    tb = fb - 10 - (xb + low_b)
                    sa = (ta + 9) // 10 if ta > 0 else 1
                    sb = (tb + 9) // 10 if tb > 0 else 1
                    ua = 0
                    ub = 0
                    bits = 0
                    for t in range(sa + sb):
                        at_a = ta - 10 * ua
                        at_b = tb - 10 * ub
                        left_a = ua < sa
                        left_b = ub < sb
                        if left_a and (not left_b or at_a > at_b or (at_a == at_b and a_first)):
                            ua += 1
                        else:
                            ub += 1
                            bits |= 1 << t
                    codes[row, 10 * (fa - 1) + fb - 1] = sa + 16 * sb + 256 * bits
    return codes


@inline
def shock_class(effective: int, initiative: int) -> int:
    """``x``: a side's initiative penalty (last round's shock and the fatigue) past the
    one that leaves its d10 + initiative at 10 at best."""
    return effective - initiative - 10


@inline
def _class_row(
    eff_a: int, eff_b: int, init_a: int, init_b: int, low_a: int, low_b: int, size_b: int
) -> int:
    """The row of :func:`opening_codes` the initiative penalties ``eff`` fall in: both
    past 0 (each side's initiative at 0 or less on every face) only their difference
    matters; past 10 more than the other's, a side always acts last."""
    xa = shock_class(eff_a, init_a)
    xb = shock_class(eff_b, init_b)
    if xa >= 0 and xb >= 0:
        d = min(xa, xb)
        xa -= d
        xb -= d
    xa = min(xa, 10)
    xb = min(xb, 10)
    return int((xa - low_a) * size_b + (xb - low_b))


@inline
def _local_add(keys: Ints, masses: Floats, used: Ints, n_used: int, key: int, m: float) -> int:
    """Add ``m`` at ``key`` in the open-addressing table; returns the slots used."""
    mask = keys.shape[0] - 1
    slot = (key * 2654435761) & mask
    while True:
        k = keys[slot]
        if k == key:
            masses[slot] += m
            return n_used
        if k == -1:
            keys[slot] = key
            masses[slot] = m
            used[n_used] = slot
            return n_used + 1
        slot = (slot + 1) & mask


@inline
def _index(look: Ints, s: int, row: Ints, at: int) -> int:
    """The compact index of side ``s`` in ``row`` (-1 past the table)."""
    o = F * s
    if row[at + o + LOST] >= look.shape[1] or row[at + o + SERIOUS] >= look.shape[2]:
        return -1
    found: int = look[
        s,
        row[at + o + LOST],
        row[at + o + SERIOUS],
        row[at + o + CHECKED],
        row[at + o + RET_ATTACK],
        row[at + o + RET_WILL],
        row[at + o + RET_SHOCK],
    ]
    return found


@inline
def _start_row(
    stack: Ints, decode: Ints, sides: Ints, slots: Ints, ia: int, ib: int, o: int
) -> None:
    """The stack's first row: the state between rounds ``ia``, ``ib`` in opening ``o``."""
    for s in range(2):
        at = F * s
        i = ia if s == 0 else ib
        stack[0, at + LOST] = decode[s, i, 0]
        stack[0, at + SHOCK] = 0
        stack[0, at + SERIOUS] = decode[s, i, 1]
        stack[0, at + CHECKED] = decode[s, i, 2]
        stack[0, at + CONSCIOUS] = 1
        stack[0, at + ALIVE] = 1
        stack[0, at + ACTIONS] = slots[o, s]
        stack[0, at + PARRIES] = sides[s, FREE_PARRIES]
        stack[0, at + BLOCKS] = sides[s, FREE_BLOCKS]
        stack[0, at + RET_ATTACK] = decode[s, i, 3]
        stack[0, at + RET_WILL] = decode[s, i, 4]
        stack[0, at + RET_SHOCK] = decode[s, i, 5]
    stack[0, ENDED] = 0
    stack[0, TURN] = 0


HEAD = 3
"""Entries a cell's record starts with: the count of its moves (in ``dest``) and what
ends in its round (A wins, B wins, neither fights: in ``prob``)."""


class Scratch(NamedTuple):
    """The arrays a walk works in (:func:`scratch`): a :func:`bare` kernel makes none."""

    stack: Ints
    stack_m: Floats
    keys: Ints
    masses: Floats
    used: Ints
    row: Ints
    base: Ints
    ways_fight: Ints
    ways_rs: Ints
    ways_p: Floats
    n_ways: Ints
    here: Floats
    ended: Floats
    fat: Ints
    out: Ints


def scratch(stack_size: int, local_size: int) -> Scratch:
    """The arrays of a walk with a stack of ``stack_size`` rows and a table of ends of
    ``local_size`` slots (a power of 2), for one thread."""
    return Scratch(
        np.zeros((stack_size, FIELDS), dtype=np.int64),
        np.zeros(stack_size),
        np.full(local_size, -1, dtype=np.int64),
        np.zeros(local_size),
        np.zeros(local_size, dtype=np.int64),
        np.zeros(FIELDS, dtype=np.int64),
        np.zeros(FIELDS, dtype=np.int64),
        np.zeros((2, 8), dtype=np.int64),
        np.zeros((2, 8), dtype=np.int64),
        np.zeros((2, 8)),
        np.zeros(2, dtype=np.int64),
        np.zeros(3),
        np.zeros(5),
        np.zeros(2, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
    )


@bare
def walk_cells(
    cells: Ints,
    number: int,
    sides: Ints,
    cost: Ints,
    likely: Floats,
    decode: Ints,
    look: Ints,
    slots: Ints,
    order: Ints,
    turns: Ints,
    blow_count: Ints,
    blow_spent: Ints,
    blow_paid: Ints,
    blow_damage: Ints,
    blow_chance: Floats,
    two_d20: Floats,
    class_ops: Ints,
    class_ids: Ints,
    class_p: Floats,
    low: Ints,
    size_b: int,
    n_b: int,
    shift: int,
    dest: Ints,
    prob: Floats,
    at: Ints,
    stack: Ints,
    stack_m: Floats,
    keys: Ints,
    masses: Floats,
    used: Ints,
    row: Ints,
    base: Ints,
    ways_fight: Ints,
    ways_rs: Ints,
    ways_p: Floats,
    n_ways: Ints,
    here: Floats,
    ended: Floats,
    fat: Ints,
    out: Ints,
) -> None:
    """Round ``number`` of the chain from each cell of ``cells`` (flat indices of the
    cells ``(a, b, opening)``, ``n_b`` states of B and ``slots.shape[0]`` openings) with
    a mass of 1: every way its turns go, written as the cell's *record* from ``at[i]``
    on in ``dest`` and ``prob``: :data:`HEAD` entries (the count of its moves in
    ``dest[at]``; the chances that A wins, B wins, neither fights in this round in
    ``prob[at:at + 3]``), then its moves: where both sides stand after the round (the
    flat index of its first cell, opening 0) and the class row of the next round's
    openings it draws (:func:`_end_class`), as ``index << shift | row``, and the
    chance of going there. The rest are a :class:`Scratch` (its ``keys`` all -1, and
    left so).

    Sets ``out``: (0) the cells walked (it stops early where ``dest`` might not hold
    the next), (1) the entries written, (2) 1 where the stack overflowed, 2 where the
    table of a cell's ends did (the cell it happened on not walked), (3) the most a
    walk held on its stack."""
    n_open = slots.shape[0]
    local_size = keys.shape[0]
    out[:] = 0
    ended[:] = 0.0
    for s in range(2):
        fat[s] = sides[s, FATIGUE] * (number - 1)
    most = HEAD + local_size // 2
    pos = 0
    for i in range(cells.shape[0]):
        if pos + most > dest.shape[0]:
            break
        cell = cells[i]
        ia = cell // (n_b * n_open)
        ib = (cell // n_open) % n_b
        o = cell % n_open
        _start_row(stack, decode, sides, slots, ia, ib, o)
        stack_m[0] = 1.0
        here[:] = 0.0
        n_used = _walk(
            stack, stack_m, order, turns, o, row, sides, cost, likely, fat,
            blow_count, blow_spent, blow_paid, blow_damage, blow_chance, two_d20,
            base, look, here, keys, masses, used, 0, n_b, ways_fight, ways_rs,
            ways_p, n_ways, ended,
        )  # fmt: skip
        if ended[4] != 0.0:
            for slot in range(local_size):
                keys[slot] = -1
            out[2] = int(ended[4])
            break
        out[3] = max(out[3], int(ended[3]))
        at[i] = pos
        for k in range(HEAD):
            dest[pos + k] = 0
            prob[pos + k] = here[k]
        moves = pos + HEAD
        for u in range(n_used):
            slot = used[u]
            key = keys[slot]
            keys[slot] = -1
            ja = key // n_b
            jb = key - ja * n_b
            c = _end_class(
                ja, jb, decode[0, ia, 0], decode[1, ib, 0], number, sides, decode, low, size_b
            )  # fmt: skip
            dest[moves] = ((ja * n_b + jb) * n_open) << shift | c
            prob[moves] = masses[slot]
            moves += 1
        dest[pos] = moves - pos - HEAD
        pos = moves
        out[0] = i + 1
    out[1] = pos


@bare
def apply_round(
    cur: Floats,
    nxt: Floats,
    at: Ints,
    dest: Ints,
    prob: Floats,
    class_ops: Ints,
    class_ids: Ints,
    class_p: Floats,
    shift: int,
    first: int,
    last: int,
    sums: Floats,
) -> int:
    """A round of the chain: the mass of each cell ``first`` to ``last`` (excluded) of
    ``cur`` (flat) whose record is kept (from ``at``: :func:`walk_cells`) moved into
    ``nxt`` as the record says (threads each take a range and a ``nxt`` of their own). Adds
    the mass that ended in the round into ``sums``: (A wins, B wins, neither fights),
    then their compensations (Neumaier's: a round sums millions of terms). Returns the
    count of cells with mass and no record (not moved)."""
    missing = 0
    for cell in range(first, last):
        m = cur[cell]
        if m == 0.0:
            continue
        if at[cell] < 0:
            missing += 1
            continue
        _apply_cell(m, at[cell], nxt, dest, prob, class_ops, class_ids, class_p, shift, sums)
    return missing


@bare
def apply_records(
    cells: Ints,
    at: Ints,
    cur: Floats,
    nxt: Floats,
    dest: Ints,
    prob: Floats,
    class_ops: Ints,
    class_ids: Ints,
    class_p: Floats,
    shift: int,
    sums: Floats,
) -> None:
    """:func:`apply_round` of the cells ``cells`` (flat indices into ``cur``), their
    records from ``at``."""
    for i in range(cells.shape[0]):
        _apply_cell(
            cur[cells[i]], at[i], nxt, dest, prob, class_ops, class_ids, class_p, shift, sums
        )  # fmt: skip


@inline
def _apply_cell(
    m: float,
    pos: int,
    nxt: Floats,
    dest: Ints,
    prob: Floats,
    class_ops: Ints,
    class_ids: Ints,
    class_p: Floats,
    shift: int,
    sums: Floats,
) -> None:
    """A cell's mass ``m`` moved as its record (from ``pos``) says; what ends in the
    round added into ``sums`` (the totals, then their compensations)."""
    for k in range(3):
        sums[k], sums[3 + k] = _neumaier_add(sums[k], sums[3 + k], m * prob[pos + k])
    mask = (1 << shift) - 1
    for k in range(pos + HEAD, pos + HEAD + dest[pos]):
        key = dest[k]
        to = key >> shift
        c = key & mask
        mp = m * prob[k]
        for j in range(class_ops[c]):
            nxt[to + class_ids[c, j]] += mp * class_p[c, j]


@inline
def _neumaier_add(total: float, carry: float, x: float) -> tuple[float, float]:
    """``x`` added to ``total`` with Neumaier's compensation (kept in ``carry``)."""
    t = total + x
    if abs(total) >= abs(x):
        carry += (total - t) + x
    else:
        carry += (x - t) + total
    return t, carry


@bare
def reach(
    cells: Ints,
    at: Ints,
    dest: Ints,
    class_ops: Ints,
    class_ids: Ints,
    shift: int,
    reached: Ints,
    level: int,
) -> int:
    """Mark with ``level`` each cell not yet ``reached`` that the records (from ``at``)
    of ``cells`` move to. Returns how many it marked."""
    marked = 0
    mask = (1 << shift) - 1
    for i in range(cells.shape[0]):
        pos = at[cells[i]]
        for k in range(pos + HEAD, pos + HEAD + dest[pos]):
            to = dest[k] >> shift
            c = dest[k] & mask
            for j in range(class_ops[c]):
                d = to + class_ids[c, j]
                if reached[d] == 0:
                    reached[d] = level
                    marked += 1
    return marked


ANSWERS = 5
"""What :func:`solve_blocks` finds of each cell: the chances that A wins, that B wins,
that the duel ends with neither fighting, the mean rounds it lasts, and ``E[z^T]``."""
UNORDERED, DIVERGED = 1, 2


@bare
def solve_blocks(
    pairs: Ints,
    n_open: int,
    at: Ints,
    dest: Ints,
    prob: Floats,
    class_ops: Ints,
    class_ids: Ints,
    class_p: Floats,
    shift: int,
    z: float,
    reached: Ints,
    answers: Floats,
    block: Floats,
    block_z: Floats,
    rhs: Floats,
    rhs_z: Floats,
) -> int:
    """The chain's answers (:data:`ANSWERS`) for every cell of ``pairs`` (a pair of the
    sides' states each: its cells are its openings), found at once: a pair's cells
    move among themselves (a round where nothing changes but the opening) or to pairs
    further on (points lost, serious wounds, a check made never come back; retests
    never return), so taken from the last pair to the first each cell's answers are
    what ends in its round plus the answers of where it moves, the pair's own cells
    solved together (a small linear system, ``n_open`` unknowns).

    ``pairs`` in that order, their cells the duel reaches marked in ``reached`` (the
    others left out, records kept of them or not); ``answers`` (cells ×
    :data:`ANSWERS`, zeros) filled;
    ``block``, ``block_z`` (``n_open`` square), ``rhs`` (``n_open`` × 4), ``rhs_z``
    (``n_open`` × 1) scratch. Returns 0, or :data:`UNORDERED` where a record moves to a
    pair not yet solved (the order is wrong), or :data:`DIVERGED` where ``E[z^T]`` has
    no finite value (the duel may stay too long in a pair for this ``z``)."""
    mask = (1 << shift) - 1
    for i in range(pairs.shape[0]):
        first = pairs[i] * n_open
        for o in range(n_open):
            for q in range(n_open):
                block[o, q] = 0.0
                block_z[o, q] = 0.0
            block[o, o] = 1.0
            block_z[o, o] = 1.0
            for k in range(4):
                rhs[o, k] = 0.0
            rhs_z[o, 0] = 0.0
            pos = at[first + o]
            if pos < 0 or reached[first + o] == 0:
                continue  # a cell not reached
            ends_now = prob[pos] + prob[pos + 1] + prob[pos + 2]
            for k in range(3):
                rhs[o, k] = prob[pos + k]
            rhs[o, 3] = 1.0
            rhs_z[o, 0] = z * ends_now
            for k in range(pos + HEAD, pos + HEAD + dest[pos]):
                to = dest[k] >> shift
                c = dest[k] & mask
                for j in range(class_ops[c]):
                    d = to + class_ids[c, j]
                    w = prob[k] * class_p[c, j]
                    if d - first >= 0 and d - first < n_open:
                        block[o, d - first] -= w
                        block_z[o, d - first] -= z * w
                    elif answers[d, 3] == 0.0:
                        return UNORDERED
                    else:
                        for q in range(4):
                            rhs[o, q] += w * answers[d, q]
                        rhs_z[o, 0] += z * w * answers[d, 4]
        if not _gauss(block, rhs, n_open, 4) or not _gauss(block_z, rhs_z, n_open, 1):
            return DIVERGED
        for o in range(n_open):
            if at[first + o] < 0 or reached[first + o] == 0:
                continue
            if not (rhs_z[o, 0] >= 1.0 and rhs_z[o, 0] < 1e300):
                return DIVERGED
            for q in range(4):
                answers[first + o, q] = rhs[o, q]
            answers[first + o, 4] = rhs_z[o, 0]
    return 0


@inline
def _gauss(a: Floats, b: Floats, n: int, m: int) -> bool:
    """Solve ``a x = b`` in place (``x`` into ``b``: ``n`` × ``m``) by Gaussian
    elimination with partial pivoting; False where ``a`` is singular or all but."""
    for col in range(n):
        best = col
        for r in range(col + 1, n):
            if abs(a[r, col]) > abs(a[best, col]):
                best = r
        if abs(a[best, col]) < 1e-300:
            return False
        if best != col:
            for q in range(n):
                a[col, q], a[best, q] = a[best, q], a[col, q]
            for q in range(m):
                b[col, q], b[best, q] = b[best, q], b[col, q]
        for r in range(col + 1, n):
            f = a[r, col] / a[col, col]
            if f != 0.0:
                for q in range(col, n):
                    a[r, q] -= f * a[col, q]
                for q in range(m):
                    b[r, q] -= f * b[col, q]
    for col in range(n - 1, -1, -1):
        for q in range(m):
            t = b[col, q]
            for r in range(col + 1, n):
                t -= a[col, r] * b[r, q]
            b[col, q] = t / a[col, col]
    return True


@bare
def finish_round(
    start: Ints,
    m0: float,
    orders: Ints,
    turns: Ints,
    lost_a: int,
    lost_b: int,
    nxt: Floats,
    number: int,
    sides: Ints,
    cost: Ints,
    likely: Floats,
    decode: Ints,
    look: Ints,
    blow_count: Ints,
    blow_spent: Ints,
    blow_paid: Ints,
    blow_damage: Ints,
    blow_chance: Floats,
    two_d20: Floats,
    class_ops: Ints,
    class_ids: Ints,
    class_p: Floats,
    low: Ints,
    size_b: int,
    stack: Ints,
    stack_m: Floats,
    keys: Ints,
    masses: Floats,
    used: Ints,
    row: Ints,
    base: Ints,
    ways_fight: Ints,
    ways_rs: Ints,
    ways_p: Floats,
    n_ways: Ints,
    here: Floats,
    ended: Floats,
    fat: Ints,
    out: Ints,
) -> None:
    """The rest of round ``number`` from the state ``start`` (a row of the walk, of mass
    ``m0``, any way into the round: shock taken, actions, free defences and retests
    left), its turns still to come ``orders[0, :turns[0]]`` (the sides, in turn), each
    side's points lost when the round began ``lost_a`` and ``lost_b`` (what it takes
    this round is its shock on the next initiative): what it ends in is added into
    ``nxt``, the cells before the next round; ``ended`` set to the mass that ended in
    this round (A wins, B wins, neither fights), (3) the most the stack held, (4) 1 or
    2 where the stack or the table of ends overflowed. The rest are a
    :class:`Scratch`."""
    n_b = nxt.shape[1]
    ended[:] = 0.0
    here[:] = 0.0
    for s in range(2):
        fat[s] = sides[s, FATIGUE] * (number - 1)
    for f in range(FIELDS):
        stack[0, f] = start[f]
    stack[0, TURN] = 0
    stack_m[0] = m0
    n_used = _walk(
        stack, stack_m, orders, turns, 0, row, sides, cost, likely, fat, blow_count,
        blow_spent, blow_paid, blow_damage, blow_chance, two_d20, base, look, here, keys,
        masses, used, 0, n_b, ways_fight, ways_rs, ways_p, n_ways, ended,
    )  # fmt: skip
    if ended[4] != 0.0:
        for slot in range(keys.shape[0]):
            keys[slot] = -1
        return
    for k in range(3):
        ended[k] = here[k]
    _spread(
        keys, masses, used, n_used, lost_a, lost_b, nxt, number, sides, decode, n_b,
        class_ops, class_ids, class_p, low, size_b,
    )  # fmt: skip


@inline
def _walk(
    stack: Ints,
    stack_m: Floats,
    order: Ints,
    turns: Ints,
    o: int,
    row: Ints,
    sides: Ints,
    cost: Ints,
    likely: Floats,
    fat: Ints,
    blow_count: Ints,
    blow_spent: Ints,
    blow_paid: Ints,
    blow_damage: Ints,
    blow_chance: Floats,
    two_d20: Floats,
    base: Ints,
    look: Ints,
    here: Floats,
    keys: Ints,
    masses: Floats,
    used: Ints,
    n_used: int,
    n_b: int,
    ways_fight: Ints,
    ways_rs: Ints,
    ways_p: Floats,
    n_ways: Ints,
    ended: Floats,
) -> int:
    """Every way the rest of the round goes from the state on the stack's first row
    (its turns those of opening ``o`` from its ``TURN``), depth first: the mass of each
    end where both still fight summed into the table of ends, the rest into ``here``
    (A wins, B wins, neither fights). Returns the table's slots used; sets ``ended``'s
    (3) to the most the stack held, (4) to 1 or 2 where the stack or the table
    overflowed."""
    stack_size = stack.shape[0]
    # the most rows one blow pushes: each outcome, and each way of its check
    margin = blow_chance.shape[5] * (max(sides[0, RETESTS], sides[1, RETESTS]) + 2) + 1
    top = 1
    while top > 0:
        top -= 1
        m = stack_m[top]
        for f in range(FIELDS):
            row[f] = stack[top, f]
        struck = False
        while row[TURN] < turns[o] and row[ENDED] == 0:
            s = order[o, row[TURN]]
            row[TURN] += 1
            if row[F * s + ACTIONS] <= 0:
                continue  # an action spent on defending: no turn
            row[F * s + ACTIONS] -= 1
            struck = True
            if top + margin >= stack_size:
                ended[4] = 1.0
                return n_used
            top = _strike(
                row, m, s, stack, stack_m, top, sides, cost, likely, fat,
                blow_count, blow_spent, blow_paid, blow_damage, blow_chance,
                two_d20, base,
            )  # fmt: skip
            ended[3] = max(ended[3], top)
            break
        if struck:
            continue
        n_used = _end_round(
            row, m, sides, look, here, keys, masses, used, n_used, n_b,
            ways_fight, ways_rs, ways_p, n_ways,
        )  # fmt: skip
        if n_used >= keys.shape[0] // 2 or n_used < 0:
            ended[4] = 2.0
            return n_used
    return n_used


@inline
def _end_class(
    ja: int,
    jb: int,
    lost_a: int,
    lost_b: int,
    number: int,
    sides: Ints,
    decode: Ints,
    low: Ints,
    size_b: int,
) -> int:
    """The class row (:func:`opening_codes`) the end ``ja``, ``jb`` of a round draws
    the next round's openings from: its shock (its points lost past ``lost_a``,
    ``lost_b``, where the round began) and the armour's fatigue."""
    eff_a = decode[0, ja, 0] - lost_a + sides[0, FATIGUE] * number
    eff_b = decode[1, jb, 0] - lost_b + sides[1, FATIGUE] * number
    found: int = _class_row(
        eff_a, eff_b, sides[0, INITIATIVE], sides[1, INITIATIVE], low[0], low[1], size_b
    )
    return found


@inline
def _spread(
    keys: Ints,
    masses: Floats,
    used: Ints,
    n_used: int,
    lost_a: int,
    lost_b: int,
    nxt: Floats,
    number: int,
    sides: Ints,
    decode: Ints,
    n_b: int,
    class_ops: Ints,
    class_ids: Ints,
    class_p: Floats,
    low: Ints,
    size_b: int,
) -> None:
    """What a walk ended in (the table of ends, emptied) spread over the next round's
    openings (:func:`_end_class`)."""
    for u in range(n_used):
        slot = used[u]
        key = keys[slot]
        m = masses[slot]
        keys[slot] = -1
        ja = key // n_b
        jb = key - ja * n_b
        c = _end_class(ja, jb, lost_a, lost_b, number, sides, decode, low, size_b)
        for j in range(class_ops[c]):
            nxt[ja, jb, class_ids[c, j]] += m * class_p[c, j]


@inline
def _strike(
    row: Ints,
    m: float,
    s: int,
    stack: Ints,
    stack_m: Floats,
    top: int,
    sides: Ints,
    cost: Ints,
    likely: Floats,
    fat: Ints,
    blow_count: Ints,
    blow_spent: Ints,
    blow_paid: Ints,
    blow_damage: Ints,
    blow_chance: Floats,
    two_d20: Floats,
    base: Ints,
) -> int:
    """``s`` attacks: every outcome of the blow (and of the checks it calls for) pushed
    on the stack. Returns the new top."""
    d = 1 - s
    me = F * s
    them = F * d
    pen = min(row[me + SHOCK] + fat[s], sides[s, PEN_CAP])
    dpen = min(row[them + SHOCK] + fat[d], sides[d, DEF_CAP])
    key = 4 * (row[them + PARRIES] > 0) + 2 * (row[them + BLOCKS] > 0) + (row[them + ACTIONS] > 0)
    kind = cost[d, key]
    worth = kind in (FREE_PARRY, FREE_BLOCK)
    if kind == COSTLY and (
        row[them + ACTIONS] >= 2 or _hp(sides, d, row[them + LOST]) <= likely[s]
    ):
        worth = True
    k = key + 1 if worth else 0
    if not worth:
        dpen = 0
    ret = min(row[me + RET_ATTACK], sides[s, RETESTS])
    for j in range(blow_count[s, pen, dpen, ret, k]):
        p = blow_chance[s, pen, dpen, ret, k, j]
        spent = blow_spent[s, pen, dpen, ret, k, j]
        paid = blow_paid[s, pen, dpen, ret, k, j]
        damage = blow_damage[s, pen, dpen, ret, k, j]
        child = stack[top]
        for f in range(FIELDS):
            child[f] = row[f]
        child[me + RET_ATTACK] -= spent
        if paid == 1:
            if kind == FREE_PARRY:
                child[them + PARRIES] -= 1
            elif kind == FREE_BLOCK:
                child[them + BLOCKS] -= 1
            else:
                child[them + ACTIONS] -= 1
        if damage <= 0:
            stack_m[top] = m * p
            top += 1
            continue
        top = _take_damage(child, m * p, d, damage, stack, stack_m, top, sides, fat, two_d20, base)
    return top


@inline
def _take_damage(
    child: Ints,
    m: float,
    d: int,
    damage: int,
    stack: Ints,
    stack_m: Floats,
    top: int,
    sides: Ints,
    fat: Ints,
    two_d20: Floats,
    base: Ints,
) -> int:
    """``d`` takes ``damage`` in the state ``child`` (the stack's row ``top``), with
    the Willpower check or the system shock it calls for: each way it goes pushed.
    Returns the new top."""
    at = F * d
    lost = child[at + LOST]
    was_down = _lp(sides, d, lost) <= 0
    earlier = child[at + SHOCK]
    lost += damage
    child[at + LOST] = lost
    child[at + SHOCK] = earlier + damage
    if damage >= SERIOUS_STEP:
        child[at + SERIOUS] += damage // SERIOUS_STEP
    hp = _hp(sides, d, lost)
    lp = _lp(sides, d, lost)
    if hp == 0 and lp > 0 and child[at + CHECKED] == 0:
        chance = two_d20[min(max(sides[d, WILLPOWER] - (earlier + fat[d]), 0), 40)]
        child[at + CHECKED] = 1
        return int(_check(child, m, chance, at + RET_WILL, sides[d, RETESTS], at, lp,
                          False, stack, stack_m, top, base))  # fmt: skip
    if was_down:
        chance = min(max(sides[d, SYSTEM_SHOCK] - SHOCK_STEP * max(-lp, 0), 0), 100) / 100.0
        return int(_check(child, m, chance, at + RET_SHOCK, sides[d, RETESTS], at, lp,
                          True, stack, stack_m, top, base))  # fmt: skip
    stack_m[top] = m
    if child[at + CONSCIOUS] == 0 or child[at + ALIVE] == 0:
        child[ENDED] = 1
    return top + 1


@inline
def _check(
    child: Ints,
    m: float,
    chance: float,
    retest_field: int,
    most_retests: int,
    at: int,
    lp: int,
    shock: bool,
    stack: Ints,
    stack_m: Floats,
    top: int,
    base: Ints,
) -> int:
    """A roll passed with ``chance``, retested on a failure while retests of its kind
    are left: each way pushed (a pass after ``k`` retests; the failure of them all,
    out of the fight, and dead for a failed system shock below 0)."""
    tries = min(child[retest_field], most_retests)
    for f in range(FIELDS):
        base[f] = child[f]
    fail = 1.0
    for k in range(tries + 1):
        row = stack[top]
        for f in range(FIELDS):
            row[f] = base[f]
        row[retest_field] -= k
        stack_m[top] = m * fail * chance
        if stack_m[top] > 0.0:
            top += 1
        fail *= 1.0 - chance
    row = stack[top]
    for f in range(FIELDS):
        row[f] = base[f]
    row[retest_field] -= tries
    row[at + CONSCIOUS] = 0
    if shock and lp < 0:
        row[at + ALIVE] = 0
    row[ENDED] = 1
    stack_m[top] = m * fail
    if stack_m[top] > 0.0:
        top += 1
    return top


@inline
def _end_round(
    row: Ints,
    m: float,
    sides: Ints,
    look: Ints,
    ended: Floats,
    keys: Ints,
    masses: Floats,
    used: Ints,
    n_used: int,
    n_b: int,
    ways_fight: Ints,
    ways_rs: Ints,
    ways_p: Floats,
    n_ways: Ints,
) -> int:
    """The end of the round of one walk: each side still fighting bleeds and rolls its
    system shock; the mass goes where both still fight (the table of ends), or to the
    round's wins and draws."""
    # each side's ways: fighting or not, and its retests of system shock left
    for s in range(2):
        at = F * s
        if row[at + CONSCIOUS] == 0 or row[at + ALIVE] == 0:
            ways_fight[s, 0] = 0
            ways_rs[s, 0] = row[at + RET_SHOCK]
            ways_p[s, 0] = 1.0
            n_ways[s] = 1
            continue
        lost = row[at + LOST]
        lost += max(-_lp(sides, s, lost), 0)
        lost += row[at + SERIOUS]
        row[at + LOST] = lost
        lp = _lp(sides, s, lost)
        if lp > 0:
            ways_fight[s, 0] = 1
            ways_rs[s, 0] = row[at + RET_SHOCK]
            ways_p[s, 0] = 1.0
            n_ways[s] = 1
            continue
        chance = min(max(sides[s, SYSTEM_SHOCK] - SHOCK_STEP * max(-lp, 0), 0), 100) / 100.0
        tries = min(row[at + RET_SHOCK], sides[s, RETESTS])
        fail = 1.0
        n = 0
        for k in range(tries + 1):
            ways_fight[s, n] = 1
            ways_rs[s, n] = row[at + RET_SHOCK] - k
            ways_p[s, n] = fail * chance
            n += 1
            fail *= 1.0 - chance
        ways_fight[s, n] = 0
        ways_rs[s, n] = row[at + RET_SHOCK] - tries
        ways_p[s, n] = fail
        n_ways[s] = n + 1
    for i in range(n_ways[0]):
        for j in range(n_ways[1]):
            p = m * ways_p[0, i] * ways_p[1, j]
            if p == 0.0:
                continue
            fa = ways_fight[0, i]
            fb = ways_fight[1, j]
            if fa == 1 and fb == 1:
                row[RET_SHOCK] = ways_rs[0, i]
                row[F + RET_SHOCK] = ways_rs[1, j]
                ja = _index(look, 0, row, 0)
                jb = _index(look, 1, row, 0)
                if ja < 0 or jb < 0:
                    return -1
                n_used = _local_add(keys, masses, used, n_used, ja * n_b + jb, p)
            elif fa == 1:
                ended[0] += p
            elif fb == 1:
                ended[1] += p
            else:
                ended[2] += p
    return n_used
