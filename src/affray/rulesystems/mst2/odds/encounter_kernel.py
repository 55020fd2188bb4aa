"""The exact encounter chain's sweep of one set of fighters, cell by cell, in machine
code (numba) where numba is installed (:mod:`affray.rulesystems.mst2.odds.encounter`
sweeps with numpy elsewhere, the same linear algebra by whole diagonals of the wounds
grid).

A cell of the wounds grid is a block of the chain: the states of the engagements and
the turn with these wounds. The mass entering a block (:data:`COMPS` components: the
probability, its first moment in the rounds begun, and ``E[z^N]`` at each bound's
``z``) is pushed through the block's loops without the dense inverse the numpy sweep
uses: the moves that begin no round only shorten the queue of turns, so they are a
DAG, swept level by level (turns left in the round); the moves that begin a round lead
only to the few *round states* (a full queue), whose loop is one small solve per
signature (``gmat``, ``z (I - zC)^-1`` with ``C`` the round states' return weights,
and its derivative). Then every way out of the block (a wound kept, a fall into a
smaller set of fighters, an end) adds its share to the cells, sets and outcomes it
leads to.

What makes it fast is where the mass is. A fight keeps a block's mass in the states of
one engagement (or two), some 15 of a hundred: so :func:`sweep_blocks` keeps a mask of
the groups of states (one per engagements) each block's mass is in, reads and sweeps
only those, lists the ways out by the state they leave, and asks the caches for the
lines of the blocks they lead to while the block's own loops run. It is bound by
memory, not arithmetic: the writes into other blocks are most of its time.

Cells are taken in order of their flat index: a wound only ever raises a coordinate,
so every block is swept after every block that leads into it; a family no other leads
into is held in a ring of the few layers of its grid that hold mass at once, and a big
grid is shared among threads a layer each (:func:`.encounter.sweep._pipeline`).

:func:`sweep_family_rounds` is the sweep with each state's mass a distribution over
the rounds begun (up to the cap) instead of moments: the exact answer when the round
cap matters.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

Ints = np.ndarray[Any, np.dtype[np.int64]]
Floats = np.ndarray[Any, np.dtype[np.float64]]

HURT, FALL, END = 0, 1, 2
"""Kinds of ways out of a block."""

try:
    import numba
    from llvmlite import ir  # type: ignore[import-untyped]
    from numba.core import cgutils, types
    from numba.extending import intrinsic, overload

    _compiled = not bool(getattr(numba.config, "DISABLE_JIT", False))

    def _prefetch(array: Any, index: Any) -> None:
        """Ask for the cache line of ``array[index]`` ahead of a write (``prefetchw``),
        in machine code; nothing in plain Python. The blocks a cell's wounds lead to
        are fetched while its own loops run."""

    @intrinsic
    def _prefetch_line(typing: Any, array: Any, index: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            kind = signature.args[0]
            made = context.make_array(kind)(context, builder, args[0])
            at = cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
                context, builder, kind, made, [args[1]], wraparound=False
            )
            byte = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            call = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
                builder.module,
                ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32]),
                "llvm.prefetch.p0i8",
            )
            builder.call(call, [builder.bitcast(at, byte), i32(1), i32(3), i32(1)])
            return context.get_dummy_value()

        return types.void(array, index), codegen

    @overload(_prefetch)
    def _prefetch_compiled(array: Any, index: Any) -> Any:
        def line(array: Any, index: Any) -> Any:
            _prefetch_line(array, index)  # type: ignore[call-arg]

        return line

    def _inline(function: Callable[..., Any]) -> Callable[..., Any]:
        return numba.njit(inline="always")(function)

    def _entry(function: Callable[..., Any]) -> Callable[..., Any]:
        return numba.njit(cache=True, nogil=True)(function)

except ImportError:  # pragma: no cover - numba is an optional speed-up
    _compiled = False

    def _prefetch(array: Any, index: Any) -> None:
        """Nothing to ask of the caches in plain Python."""

    def _inline(function: Callable[..., Any]) -> Callable[..., Any]:
        return function

    _entry = _inline


def compiled() -> bool:
    """Whether the sweep runs as machine code (numba installed and switched on)."""
    return _compiled


def needs_compiling() -> bool:
    """Whether the first exact fight will compile the sweep (10 to 20 s, once per
    machine and per change of this file)."""
    from affray.sim import jit

    return _compiled and jit.needs_compiling(sweep_blocks)


@_inline
def _add(out: Floats, carry: Floats, i: int, k: int, value: float) -> None:
    """``out[i, k] += value``, the rounding error kept in ``carry`` (Neumaier): an
    outcome sums the mass of up to millions of blocks."""
    total = out[i, k] + value
    if abs(out[i, k]) >= abs(value):
        carry[i, k] += (out[i, k] - total) + value
    else:
        carry[i, k] += (value - total) + out[i, k]
    out[i, k] = total


@_entry
def sweep_family_rounds(
    mass: Floats,
    offsets: Ints,
    cell_base: int,
    size: int,
    degrees: int,
    cells: int,
    strides: Ints,
    sizes: Ints,
    sig_of_cell: Ints,
    sig_dec: Ints,
    escapes: Ints,
    topo: Ints,
    qp_ptr: Ints,
    qp_col: Ints,
    qp_w: Floats,
    qr_ptr: Ints,
    qr_col: Ints,
    qr_w: Floats,
    round_states: Ints,
    returns: Floats,
    st_of_dec: Ints,
    ch_kind: Ints,
    ch_axis: Ints,
    ch_table: Ints,
    ch_extra: Ints,
    ch_cell_base: Ints,
    ch_capped: Ints,
    ch_stride: Ints,
    ch_ptr: Ints,
    tables: Floats,
    e_dec: Ints,
    e_col: Ints,
    e_plain: Floats,
    e_fresh: Floats,
    out: Floats,
    capped: int,
) -> None:
    """Sweep one set of fighters with each state's mass a distribution over the rounds
    begun (``degrees`` of them: 0 .. the rounds left to the cap), instead of moments: a
    move that begins a round shifts it by one, and from the last round it ends the
    fight, a draw at the cap (outcome ``capped``, or a smaller set's ``ch_capped``).

    Only the cells the scalar sweep reached have room: ``offsets[cell_base + c]`` is
    where cell ``c``'s mass (state, degree) starts in ``mass``, -1 for none. The round
    states' loop is taken degree by degree through ``returns`` (``C``, each signature).
    ``out`` is (outcome, degree); a draw at the cap keeps all its mass in degree 0.
    """
    members = strides.size
    rounds = round_states.size
    nch = ch_kind.size
    top = degrees - 1
    y = np.zeros((size, degrees))
    u = np.zeros((size, degrees))
    a = np.zeros((rounds, degrees))
    r = np.zeros((rounds, degrees))
    coord = np.zeros(members, dtype=np.int64)
    carry = np.zeros_like(out)
    for c in range(cells):
        off = offsets[cell_base + c]
        if off < 0:
            continue
        g = sig_of_cell[c]
        for s in range(size):
            for n in range(degrees):
                y[s, n] = mass[off + s * degrees + n]
        # moves that begin no round: down the DAG
        for i in range(size):
            s = topo[i]
            if escapes[g, s] == 0:
                continue
            d = sig_dec[g, s]
            for e in range(qp_ptr[d], qp_ptr[d + 1]):
                col = qp_col[e]
                w = qp_w[e]
                for n in range(degrees):
                    y[col, n] += y[s, n] * w
        # into the round states (still at the degree of the round that closes)
        a[:, :] = 0.0
        for s in range(size):
            if escapes[g, s] == 0:
                continue
            d = sig_dec[g, s]
            for e in range(qr_ptr[d], qr_ptr[d + 1]):
                col = qr_col[e]
                w = qr_w[e]
                for n in range(degrees):
                    a[col, n] += y[s, n] * w
        # the round states' loop, one round at a time; past the cap, a draw
        r[:, :] = 0.0
        for n in range(1, degrees):
            for j in range(rounds):
                r[j, n] = a[j, n - 1]
            for i in range(rounds):
                x = r[i, n - 1]
                if x == 0.0:
                    continue
                for j in range(rounds):
                    r[j, n] += x * returns[g, i, j]
        over = 0.0
        for i in range(rounds):
            over += a[i, top]
            x = r[i, top]
            if x != 0.0:
                for j in range(rounds):
                    over += x * returns[g, i, j]
        if over != 0.0:
            _add(out, carry, capped, 0, over)
        u[:, :] = 0.0
        for i in range(rounds):
            for n in range(degrees):
                u[round_states[i], n] += r[i, n]
        for i in range(size):
            s = topo[i]
            if escapes[g, s] == 0:
                continue
            d = sig_dec[g, s]
            for e in range(qp_ptr[d], qp_ptr[d + 1]):
                col = qp_col[e]
                w = qp_w[e]
                for n in range(degrees):
                    u[col, n] += u[s, n] * w
        for s in range(size):
            for n in range(degrees):
                u[s, n] += y[s, n]
        for s in range(size):
            if escapes[g, s] == 0:
                total = 0.0
                for n in range(degrees):
                    total += u[s, n]
                _add(out, carry, capped, 0, total)
        for i in range(members):
            coord[i] = (c // strides[i]) % sizes[i]
        # the ways out
        for ch in range(nch):
            t = 1.0
            if ch_table[ch] >= 0:
                t = tables[ch_table[ch] + coord[ch_axis[ch]]]
                if t == 0.0:
                    continue
            kind = ch_kind[ch]
            target = -1
            if kind == HURT:
                axis = ch_axis[ch]
                if coord[axis] + ch_extra[ch] >= sizes[axis]:
                    continue
                target = offsets[cell_base + c + ch_extra[ch] * strides[axis]]
            elif kind == FALL:
                other = 0
                for i in range(members):
                    other += coord[i] * ch_stride[ch, i]
                target = offsets[ch_cell_base[ch] + other]
            for e in range(ch_ptr[g, ch], ch_ptr[g, ch + 1]):
                s = st_of_dec[e_dec[e]]
                plain = t * e_plain[e]
                fresh = t * e_fresh[e]
                col = e_col[e]
                if kind == END:
                    for n in range(degrees):
                        x = u[s, n] * plain
                        if n > 0:
                            x += u[s, n - 1] * fresh
                        if x != 0.0:
                            _add(out, carry, col, n, x)
                    continue
                if fresh != 0.0 and u[s, top] != 0.0:
                    _add(out, carry, ch_capped[ch], 0, u[s, top] * fresh)
                if target < 0:
                    continue
                at = target + col * degrees
                mass[at] += u[s, 0] * plain
                for n in range(1, degrees):
                    mass[at + n] += u[s, n] * plain + u[s, n - 1] * fresh
    for i in range(out.shape[0]):
        for k in range(out.shape[1]):
            out[i, k] += carry[i, k]


COMPS = 3
"""Components of the moments sweep: the probability, its first moment in the rounds
begun, and ``E[z^N]`` at the bound's ``z``."""


SPILL = 62
"""Bits of a block's mask of engagement groups: group ``q`` is bit ``min(q, SPILL)``,
the last bit standing for every group from :data:`SPILL` on."""


@_inline
def _enlist(listed: Ints, count: int, group: int, groups: int) -> int:
    """Add ``group`` to the list of groups a block's mass has reached (every group
    from :data:`SPILL` on, which share one bit, if it is one of them)."""
    if group < SPILL:
        listed[count] = group
        return count + 1
    for q in range(SPILL, groups):
        listed[count] = q
        count += 1
    return count


@_entry
def sweep_blocks(
    mass: Floats,
    touched: Ints,
    base: int,
    tbase: int,
    size: int,
    cells: int,
    first: int,
    last: int,
    ring: int,
    strides: Ints,
    sizes: Ints,
    sig_of_cell: Ints,
    sig_dec: Ints,
    escapes: Ints,
    sbit: Ints,
    sgroup: Ints,
    gl_states: Ints,
    gl_ptr: Ints,
    qp_ptr: Ints,
    qp_col: Ints,
    qp_w: Floats,
    qr_ptr: Ints,
    qr_col: Ints,
    qr_w: Floats,
    round_states: Ints,
    gmat: Floats,
    zb: Floats,
    m_kind: Ints,
    m_axis: Ints,
    m_extra: Ints,
    m_base: Ints,
    m_tbase: Ints,
    m_size: Ints,
    m_stride: Ints,
    m_off: Ints,
    g_mem: Ints,
    g_count: Ints,
    ptr: Ints,
    e_group: Ints,
    e_col: Ints,
    e_widx: Ints,
    e_bit: Ints,
    weights: Floats,
    out: Floats,
    trap: int,
    seen: np.ndarray[Any, np.dtype[np.uint8]],
    tally: Ints,
    floor: float,
) -> None:
    """Sweep the cells ``first`` .. ``last - 1`` of one set of fighters, adding what
    leaves each block to the cells it reaches (here or in a smaller set's mass) and to
    ``out`` (outcome, component). A block whose entering probability is under ``floor``
    is let go, its mass added to the last row of ``out``.

    The mass is laid out slot, state, component (:data:`COMPS` components; this set's
    at ``mass[base:]``, cell ``c`` in slot ``c % ring``; a ring smaller than the grid
    has each block zeroed as it is read, for the cell that takes its slot next).

    A fight keeps its mass in a few states of each block: those of one or two
    engagements. So the states are in *groups*, one per engagements (``gl_states``;
    within a group by the turns left in the round, most first: ``gl_ptr[group,
    level]``), a block's states are laid out in that order, and ``touched[tbase +
    slot]`` is the mask of the groups a block's mass is in (see :data:`SPILL`). Only
    those groups are read, and swept with the groups the block's moves reach.

    The ways out are listed by the state they leave (``ptr[g, s]`` .. ``ptr[g, s + 1]``
    for signature ``g``; ``size + s``: the state's mass as it begins a new round, one
    more round begun). Each goes to a state of a target block (or an outcome) for each
    member of its *group* ``q = e_group[e]`` (``g_mem[q]`` .. ``g_mem[q + 1]``: the
    wounds a victim keeps, one member for each number of them, or its fall, or an end;
    ``m_*``; ``e_bit``: that state's group bit there), with the weight
    ``weights[m_off[m] + w * g_count[q] + e_widx[e]]`` at the victim's wounds ``w``."""
    members = strides.size
    rounds = round_states.size
    count = m_kind.size
    groups = gl_ptr.shape[0]
    levels = gl_ptr.shape[1] - 1
    stride_cell = COMPS * size
    y = np.zeros((size, COMPS))
    u = np.zeros((size, COMPS))
    a = np.zeros((COMPS, rounds))
    r = np.zeros((COMPS, rounds))
    coord = np.zeros(members, dtype=np.int64)
    target = np.zeros(count, dtype=np.int64)
    mark = np.zeros(count, dtype=np.int64)
    into = np.zeros(count, dtype=np.int64)
    row = np.zeros(count, dtype=np.int64)
    live = np.zeros(size, dtype=np.int64)
    leave = np.zeros(COMPS)
    carry = np.zeros_like(out)
    dropped = out.shape[0] - 1
    listed = np.zeros(groups, dtype=np.int64)
    again = np.zeros(groups, dtype=np.int64)
    clear = ring < cells
    slot = first % ring - 1
    for i in range(members):
        coord[i] = (first // strides[i]) % sizes[i]
    coord[members - 1] -= 1
    for c in range(first, last):
        slot += 1
        if slot == ring:
            slot = 0
        for i in range(members - 1, -1, -1):  # the cell's wounds, counted up
            coord[i] += 1
            if coord[i] < sizes[i]:
                break
            coord[i] = 0
        mask = touched[tbase + slot]
        if mask == 0:
            continue
        touched[tbase + slot] = 0
        off = base + slot * stride_cell
        g = sig_of_cell[c]
        nlisted = 0
        for q in range(min(groups, SPILL)):
            if mask & (1 << q) != 0:
                nlisted = _enlist(listed, nlisted, q, groups)
        if mask & (1 << SPILL) != 0:
            nlisted = _enlist(listed, nlisted, SPILL, groups)
        for j in range(nlisted):
            q = listed[j]
            for i in range(gl_ptr[q, 0], gl_ptr[q, levels]):
                s = gl_states[i]
                at = off + i * COMPS
                for k in range(COMPS):
                    y[s, k] = mass[at + k]
                if clear:
                    for k in range(COMPS):
                        mass[at + k] = 0.0
        entering = 0.0
        for j in range(nlisted):
            q = listed[j]
            for i in range(gl_ptr[q, 0], gl_ptr[q, levels]):
                entering += y[gl_states[i], 0]
        if entering < floor:  # too unlikely to matter: let go, and counted
            for j in range(nlisted):
                q = listed[j]
                for i in range(gl_ptr[q, 0], gl_ptr[q, levels]):
                    s = gl_states[i]
                    for k in range(COMPS):
                        _add(out, carry, dropped, k, y[s, k])
                        y[s, k] = 0.0
            continue
        seen[c] = 1
        for j in range(nlisted):
            q = listed[j]
            for i in range(gl_ptr[q, 0], gl_ptr[q, levels]):
                if y[gl_states[i], 0] != 0.0:
                    tally[0] += 1
        # where each member leads from here, and its weights at the victim's wounds
        for q in range(g_mem.size - 1):
            for m in range(g_mem[q], g_mem[q + 1]):
                axis = m_axis[m]
                wounds = coord[axis] if axis >= 0 else 0
                row[m] = m_off[m] + wounds * g_count[q]
        for m in range(count):
            axis = m_axis[m]
            wounds = coord[axis] if axis >= 0 else 0
            kind = m_kind[m]
            if kind == HURT:
                if wounds + m_extra[m] >= sizes[axis]:
                    target[m] = -1
                else:
                    there = slot + m_extra[m] * strides[axis]
                    if there >= ring:
                        there -= ring
                    target[m] = base + there * stride_cell
                    mark[m] = tbase + there
            elif kind == FALL:
                other = 0
                for i in range(members):
                    other += coord[i] * m_stride[m, i]
                target[m] = m_base[m] + other * COMPS * m_size[m]
                mark[m] = m_tbase[m] + other
            else:
                target[m] = -2
        # the lines of those groups in the blocks its wounds lead to, asked for now
        for m in range(count):
            if m_kind[m] == HURT and target[m] >= 0:
                for j in range(nlisted):
                    q = listed[j]
                    for i in range(gl_ptr[q, 0], gl_ptr[q, levels], 2):
                        _prefetch(mass, target[m] + i * COMPS)
        # moves that begin no round: down the DAG, level by level
        reached = mask
        for level in range(levels):
            for j in range(nlisted):
                q = listed[j]
                for i in range(gl_ptr[q, level], gl_ptr[q, level + 1]):
                    s = gl_states[i]
                    if escapes[g, s] == 0 or y[s, 0] == 0.0:
                        continue
                    d = sig_dec[g, s]
                    y0 = y[s, 0]
                    y1 = y[s, 1]
                    y2 = y[s, 2]
                    for e in range(qp_ptr[d], qp_ptr[d + 1]):
                        col = qp_col[e]
                        w = qp_w[e]
                        y[col, 0] += y0 * w
                        y[col, 1] += y1 * w
                        y[col, 2] += y2 * w
                        if reached & sbit[col] == 0:
                            reached |= sbit[col]
                            nlisted = _enlist(listed, nlisted, sgroup[col], groups)
        # into the round states, their loop solved
        a[:, :] = 0.0
        for j in range(nlisted):
            q = listed[j]
            for i in range(gl_ptr[q, 0], gl_ptr[q, levels]):
                s = gl_states[i]
                if escapes[g, s] == 0 or y[s, 0] == 0.0:
                    continue
                d = sig_dec[g, s]
                for e in range(qr_ptr[d], qr_ptr[d + 1]):
                    col = qr_col[e]
                    w = qr_w[e]
                    for k in range(COMPS):
                        a[k, col] += y[s, k] * w
        r[:, :] = 0.0
        for i in range(rounds):
            if a[0, i] == 0.0:
                continue
            for j in range(rounds):
                g0 = gmat[g, 0, i, j]
                r[0, j] += a[0, i] * g0
                r[1, j] += a[1, i] * g0 + a[0, i] * gmat[g, 1, i, j]
                r[2, j] += a[2, i] * gmat[g, 2, i, j]
        fresh_mask = 0
        more = 0
        for i in range(rounds):
            if r[0, i] != 0.0:
                s = round_states[i]
                for k in range(COMPS):
                    u[s, k] += r[k, i]
                if fresh_mask & sbit[s] == 0:
                    fresh_mask |= sbit[s]
                    more = _enlist(again, more, sgroup[s], groups)
        for level in range(levels):
            for j in range(more):
                q = again[j]
                for i in range(gl_ptr[q, level], gl_ptr[q, level + 1]):
                    s = gl_states[i]
                    if escapes[g, s] == 0 or u[s, 0] == 0.0:
                        continue
                    d = sig_dec[g, s]
                    u0 = u[s, 0]
                    u1 = u[s, 1]
                    u2 = u[s, 2]
                    for e in range(qp_ptr[d], qp_ptr[d + 1]):
                        col = qp_col[e]
                        w = qp_w[e]
                        u[col, 0] += u0 * w
                        u[col, 1] += u1 * w
                        u[col, 2] += u2 * w
                        if fresh_mask & sbit[col] == 0:
                            fresh_mask |= sbit[col]
                            more = _enlist(again, more, sgroup[col], groups)
        # every group either pass reached, once
        for j in range(more):
            q = again[j]
            if reached & sbit[gl_states[gl_ptr[q, 0]]] == 0:
                reached |= sbit[gl_states[gl_ptr[q, 0]]]
                nlisted = _enlist(listed, nlisted, q, groups)
        lives = 0
        for j in range(nlisted):
            q = listed[j]
            for i in range(gl_ptr[q, 0], gl_ptr[q, levels]):
                s = gl_states[i]
                for k in range(COMPS):
                    u[s, k] += y[s, k]
                    y[s, k] = 0.0
                if u[s, 0] != 0.0 and escapes[g, s] != 0:
                    live[lives] = s
                    lives += 1
                    continue
                if u[s, 0] != 0.0:
                    _add(out, carry, trap, 0, u[s, 0])
                for k in range(COMPS):
                    u[s, k] = 0.0
        # the ways out of the states the mass is in
        for i in range(lives):
            s = live[i]
            for k in range(COMPS):
                leave[k] = u[s, k]
                u[s, k] = 0.0
            for fresh in range(2):
                source = s
                if fresh == 1:
                    leave[1] += leave[0]
                    leave[2] *= zb[0]
                    source = size + s
                l0 = leave[0]
                l1 = leave[1]
                l2 = leave[2]
                for e in range(ptr[g, source], ptr[g, source + 1]):
                    q = e_group[e]
                    col = e_col[e]
                    j = e_widx[e]
                    b = e_bit[e]
                    for m in range(g_mem[q], g_mem[q + 1]):
                        at = target[m]
                        if at == -1:
                            continue
                        x = weights[row[m] + j]
                        if at == -2:
                            for k in range(COMPS):
                                _add(out, carry, col, k, x * leave[k])
                            continue
                        at += col * COMPS
                        mass[at] += x * l0
                        mass[at + 1] += x * l1
                        mass[at + 2] += x * l2
                        into[m] |= b
        for m in range(count):
            if into[m] != 0:
                touched[mark[m]] |= into[m]
                into[m] = 0
    for i in range(out.shape[0]):
        for k in range(COMPS):
            out[i, k] += carry[i, k]
