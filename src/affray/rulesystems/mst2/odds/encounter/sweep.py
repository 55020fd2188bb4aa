"""The sweep: every family's blocks in order, by the compiled kernel (a layer a
thread) or by numpy, with the moments of the rounds and the Chernoff bounds past the
cap; and the cap swept round by round where the bounds do not hold."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from affray.rulesystems.mst2.odds.encounter.answers import _STEP, FLOOR_TOTAL, Family, Floats, Ints
from affray.rulesystems.mst2.odds.encounter.families import _Channel, _Fam, _Pieces
from affray.rulesystems.mst2.odds.encounter.game import _table
from affray.rulesystems.mst2.odds.encounter.plan import _Plan
from affray.rulesystems.mst2.odds.encounter_kernel import (
    COMPS,
    END,
    FALL,
    HURT,
    compiled,
    sweep_blocks,
    sweep_family_rounds,
)

# -- the sweep --------------------------------------------------------------------------------


def _z_limit(plan: _Plan, most: float = 64.0) -> float:
    """The largest z (up to ``most``) at which every block's loops still converge: a
    regular splitting of ``I - Q(z)`` converges exactly when ``z`` times the round
    states' return weights does (Varga), so at ``1 / radius``."""
    radius = max((p.radius for p in plan.pieces.values()), default=0.0)
    return most if radius * most < 1.0 else 1.0 / radius


def _round_loops(pieces: _Pieces, bounds: Sequence[float]) -> Floats:
    """``G(z) = z (I - zC)^-1`` of each signature (signatures, components, R, R): at
    ``z = 1``, its derivative there (the complex step), and at each bound's ``z``."""
    count = len(pieces.returns)
    r = pieces.round_states.size
    out = np.zeros((count, 2 + len(bounds), r, r))
    for g, c in enumerate(pieces.returns):
        step = 1 + 1j * _STEP
        at = step * np.linalg.inv(np.eye(r) - step * c)
        out[g, 0] = at.real
        out[g, 1] = at.imag / _STEP
        for j, z in enumerate(bounds):
            out[g, 2 + j] = z * np.linalg.inv(np.eye(r) - z * c)
    return out


@dataclass(slots=True, eq=False)
class _Buffer:
    """The mass entering the blocks of every family: one flat array (the kernel's),
    each family's part laid out slot, state, component.

    The compiled sweep takes a family's cells in order of their flat index, and a wound
    leads at most ``R - 1`` cells further on (the largest wound kept times the stride
    of its axis; a layer of the first axis more for each thread past the first, and
    room for every entry). So a family no other leads into (the one the fight starts in) needs
    only a *ring* of ``R`` slots, cell ``c`` in slot ``c % R``, each block cleared as
    it is read: a fight of four keeps a few of its grid's layers in memory, not the
    grid, and the blocks it writes to stay in the caches. Every other family (falls
    lead into it from anywhere in a larger one) has a slot per cell."""

    comps: int
    base: dict[Family, int]
    mass: Floats
    ring: dict[Family, int]
    """Each family's slots: cell ``c`` is in slot ``c % ring``."""
    first: dict[Family, int]
    """The cell a family's sweep begins at (a ring's: the first any entry is in)."""
    ringed: dict[Family, bool]
    """Whether a family's slots are a ring."""
    workers: dict[Family, int]
    """The threads each family is swept with (:func:`_pipeline`)."""
    touched: Ints
    """Each slot's mask of the groups of states its mass is in (the compiled sweep's:
    :meth:`_Fam.groups`), each family's from ``tbase``."""
    tbase: dict[Family, int]
    grouped: bool
    """Whether a block's states are laid out in their groups' order (the compiled
    sweep's, :meth:`_Fam.laid`), so that the few states a block's mass is in are
    together in memory; else in their own order."""

    @staticmethod
    def of(plan: _Plan, comps: int, kernel: bool = False, threads: int | None = None) -> _Buffer:
        """Room for every family's mass: laid out for the compiled kernel (rings, states
        in groups, a family's threads) or, without ``kernel``, a slot per cell with
        the states in their own order (the numpy sweep's)."""
        base: dict[Family, int] = {}
        rings: dict[Family, int] = {}
        first: dict[Family, int] = {}
        ringed: dict[Family, bool] = {}
        workers: dict[Family, int] = {}
        tbase: dict[Family, int] = {}
        total = 0
        marks = 0
        for family, fam in plan.fams.items():
            base[family] = total
            tbase[family] = marks
            slots = fam.cells
            rings[family] = fam.cells
            first[family] = 0
            ringed[family] = False
            workers[family] = _workers(fam, threads) if kernel else 1
            if kernel and not any(family < other for other in plan.fams):
                where = {m: i for i, m in enumerate(fam.members)}
                ahead = [
                    ch.key[3] * fam.strides[where[ch.key[1]]]
                    for ch in fam.channels
                    if ch.key[0] == "hurt"
                ]
                starts = [fam.cell(e.wounds) for e in plan.entries if e.family == family]
                ring = max(max(ahead, default=0), max(starts, default=0) - min(starts, default=0))
                ring += 1 + (workers[family] - 1) * fam.strides[0]
                if starts and ring < fam.cells:
                    slots = ring
                    rings[family] = ring
                    first[family] = min(starts)
                    ringed[family] = True
            total += slots * comps * len(fam.shapes)
            marks += slots
        return _Buffer(
            comps,
            base,
            np.zeros(total),
            rings,
            first,
            ringed,
            workers,
            np.zeros(marks, dtype=np.int64),
            tbase,
            kernel,
        )

    def add(self, plan: _Plan, family: Family, cell: int, state: int, values: Floats) -> None:
        """Add ``values`` (its components) to the mass entering ``state`` of ``cell``."""
        fam = plan.fams[family]
        slot = cell % self.ring[family]
        self.touched[self.tbase[family] + slot] |= fam.groups()[0][state]
        if self.grouped:
            state = int(fam.laid()[state])
        at = self.base[family] + (slot * len(fam.shapes) + state) * self.comps
        self.mass[at : at + self.comps] += values

    def view(self, plan: _Plan, family: Family) -> Floats:
        """The family's mass as (cell, component, state), laid out cell, state,
        component (the kernel reads a state's components together); not ringed."""
        assert not self.ringed[family] and not self.grouped
        fam = plan.fams[family]
        start = self.base[family]
        size = len(fam.shapes)
        part = self.mass[start : start + fam.cells * self.comps * size]
        return part.reshape(fam.cells, size, self.comps).transpose(0, 2, 1)


def _moments(p: float, rounds: int, bounds: Sequence[float]) -> Floats:
    """A mass ``p`` that has begun ``rounds`` rounds, as the sweep's components."""
    return np.array([p, p * rounds, *(p * z**rounds for z in bounds)])


def _sweep(
    plan: _Plan,
    bounds: Sequence[float],
    kernel: bool | None = None,
    threads: int | None = None,
    floor_total: float = FLOOR_TOTAL,
) -> Floats:
    """Push the mass through every family, from the largest down, block by block.
    Returns the mass of each outcome (outcomes, components): the probability, its
    first moment in the rounds begun (d/dz of ``E[z^N]`` at 1), and ``E[z^N]`` at each
    bound's ``z`` (the last outcome of each family's traps numbered like the others).
    ``kernel``: sweep with the compiled kernel (default: when numba is there);
    ``threads``: how many threads it may share a family's sweep among (see
    :func:`_workers`); ``floor_total``: the most probability it may let go (see
    :data:`FLOOR_TOTAL`; the numpy sweep lets none go)."""
    if kernel is None:
        kernel = compiled()
    comps = 2 + len(bounds)
    buffer = _Buffer.of(plan, comps, kernel=kernel, threads=threads)
    for entry in plan.entries:
        fam = plan.fams[entry.family]
        buffer.add(
            plan,
            entry.family,
            fam.cell(entry.wounds),
            fam.index[entry.shape],
            _moments(entry.p, entry.rounds, bounds),
        )
    ends = [plan.number(key) for _, key, _ in plan.ended]
    traps = {f: plan.outcome(("end", None, f), capped=True) for f in plan.fams}
    out = np.zeros((len(plan.outcomes), comps))
    floor = floor_total / max(1, sum(fam.cells for fam in plan.fams.values()))
    for (p, _, rounds), end in zip(plan.ended, ends, strict=True):
        out[end] += _moments(p, rounds, bounds)
    for family in sorted(plan.fams, key=len, reverse=True):
        pieces = plan.pieces[family]
        loops = _round_loops(pieces, bounds)
        trap = traps[family]
        if kernel:
            seen = np.zeros(plan.fams[family].cells, dtype=np.uint8)
            tally = np.zeros(1, dtype=np.int64)
            _sweep_kernel(
                plan, buffer, family, pieces, loops, bounds, out, trap, seen, tally, floor
            )
            plan.reached += int(tally[0])
            plan.live[family] = np.flatnonzero(seen).astype(np.int64)
        else:
            _sweep_numpy(plan, buffer, family, pieces, loops, bounds, out, trap)
            entered = buffer.view(plan, family)[:, 0]
            plan.reached += int(np.count_nonzero(entered))
            plan.live[family] = np.flatnonzero(entered.any(axis=1)).astype(np.int64)
    return out


def _sweep_numpy(
    plan: _Plan,
    buffer: _Buffer,
    family: Family,
    pieces: _Pieces,
    loops: Floats,
    bounds: Sequence[float],
    out: Floats,
    trap: int,
) -> None:
    """One family's sweep by whole diagonals of its wounds grid (blocks of one total of
    wounds never lead into each other), the loops of each block solved densely."""
    game = plan.game
    fam = plan.fams[family]
    mass = buffer.view(plan, family)
    comps = buffer.comps
    where = {m: i for i, m in enumerate(fam.members)}
    solves = []
    for g in range(len(fam.signatures)):
        n, into = pieces.solved[g], pieces.into_rounds[g]
        after = n[pieces.round_states]
        moments = [n + into @ loops[g, 0] @ after, into @ loops[g, 1] @ after]
        moments += [n + into @ loops[g, 2 + j] @ after for j in range(len(bounds))]
        active = fam.signatures[g][fam.state_of] == np.arange(fam.decisions)
        solves.append((moments, pieces.escapes[g] == 0, active))
    weights = [
        [ch.plain + ch.fresh, ch.fresh, *(ch.plain + z * ch.fresh for z in bounds)]
        for ch in fam.channels
    ]
    for cells in fam.by_diag():
        x = mass[cells]
        if not x.any():
            continue
        sig = fam.sig_of_cell[cells]
        visits = np.zeros((cells.size, comps, fam.decisions))
        for g in np.unique(sig):
            sel = sig == g
            (m0, m1, *mb), trapped, active = solves[g]
            xs = x[sel]
            u = np.empty_like(xs)
            u[:, 0] = xs[:, 0] @ m0
            u[:, 1] = xs[:, 1] @ m0 + xs[:, 0] @ m1
            for j, mj in enumerate(mb):
                u[:, 2 + j] = xs[:, 2 + j] @ mj
            out[trap, 0] += u[:, 0, trapped].sum()
            visits[sel] = u[:, :, fam.state_of] * active
        for ch, (w, wf, *wb) in zip(fam.channels, weights, strict=True):
            v = visits[:, :, ch.rows]
            flow = np.empty((cells.size, comps, ch.cols.size))
            flow[:, 0] = v[:, 0] @ w
            flow[:, 1] = v[:, 1] @ w + v[:, 0] @ wf
            for j, wj in enumerate(wb):
                flow[:, 2 + j] = v[:, 2 + j] @ wj
            kind, victim, table, extra = ch.key
            if table is not None:
                at = fam.coords[where[victim]][cells]
                flow *= _table(game, table)[at][:, None, None]
            if kind == "hurt":
                axis = where[victim]
                ok = fam.coords[axis][cells] + extra < fam.sizes[axis]
                target = cells[ok] + extra * fam.strides[axis]
                mass[target[:, None, None], np.arange(comps)[None, :, None], ch.cols] += flow[ok]
            elif kind == "fall":
                other = plan.fams[extra]
                target = np.zeros(cells.size, dtype=np.int64)
                for m, stride in zip(other.members, other.strides, strict=True):
                    target += fam.coords[where[m]][cells] * stride
                into = buffer.view(plan, extra)
                into[target[:, None, None], np.arange(comps)[None, :, None], ch.cols] += flow
            else:
                out[ch.cols] += flow.sum(axis=0).T


@dataclass(frozen=True, slots=True, eq=False)
class _Flat:
    """A family's block structure as the kernels take it: flat arrays of the moves
    inside a block (CSR, by decision state) and of its ways out (channels)."""

    qp: tuple[Ints, Ints, Floats]
    qr: tuple[Ints, Ints, Floats]
    """The moves that begin a round, columns numbered among the round states."""
    kinds: Ints
    axes: Ints
    table_at: Ints
    extras: Ints
    targets: list[Family | None]
    """The family a fall leads into, per channel."""
    strides: Ints
    """Per channel, the strides of the fallen-into family's cells on this one's axes."""
    ptr: Ints
    tables: Floats
    e_dec: Ints
    e_col: Ints
    e_plain: Floats
    e_fresh: Floats
    topo: Ints


def _flat(plan: _Plan, family: Family, pieces: _Pieces) -> _Flat:
    game = plan.game
    fam = plan.fams[family]
    where = {m: i for i, m in enumerate(fam.members)}
    r_index = np.full(len(fam.shapes), -1, dtype=np.int64)
    r_index[pieces.round_states] = np.arange(pieces.round_states.size)
    qr_ptr, qr_col, qr_w = _csr(fam.q_round)
    tables: list[Floats] = []
    offset = 0
    kinds: list[int] = []
    axes: list[int] = []
    table_at: list[int] = []
    extras: list[int] = []
    targets: list[Family | None] = []
    strides = np.zeros((len(fam.channels), len(fam.members)), dtype=np.int64)
    for c, ch in enumerate(fam.channels):
        kind, victim, table, extra = ch.key
        kinds.append({"hurt": HURT, "fall": FALL, "end": END}[kind])
        axes.append(where.get(victim, -1))
        if table is None:
            table_at.append(-1)
        else:
            tables.append(_table(game, table))
            table_at.append(offset)
            offset += tables[-1].size
        extras.append(extra if kind == "hurt" else 0)
        targets.append(extra if kind == "fall" else None)
        if kind == "fall":
            other = plan.fams[extra]
            for m, stride in zip(other.members, other.strides, strict=True):
                strides[c, where[m]] = stride
    ptr = np.zeros((len(fam.signatures), len(fam.channels) + 1), dtype=np.int64)
    e_dec: list[int] = []
    e_col: list[int] = []
    e_plain: list[float] = []
    e_fresh: list[float] = []
    for g, sig in enumerate(fam.signatures):  # each signature's decisions only
        made = sig[fam.state_of] == np.arange(fam.decisions)
        for c, ch in enumerate(fam.channels):
            rows, cols = np.nonzero(((ch.plain != 0) | (ch.fresh != 0)) & made[ch.rows][:, None])
            e_dec.extend(ch.rows[rows])
            e_col.extend(ch.cols[cols])
            e_plain.extend(ch.plain[rows, cols])
            e_fresh.extend(ch.fresh[rows, cols])
            ptr[g, c + 1] = len(e_dec)
        if g + 1 < len(fam.signatures):
            ptr[g + 1, 0] = len(e_dec)
    topo = np.array(
        sorted(range(len(fam.shapes)), key=lambda s: -len(fam.shapes[s][1])), dtype=np.int64
    )

    def ints(values: Sequence[Any]) -> Ints:
        return np.array(values, dtype=np.int64)

    def floats(values: Sequence[Any]) -> Floats:
        return np.array(values, dtype=np.float64)

    return _Flat(
        qp=_csr(fam.q_plain),
        qr=(qr_ptr, r_index[qr_col], qr_w),
        kinds=ints(kinds),
        axes=ints(axes),
        table_at=ints(table_at),
        extras=ints(extras),
        targets=targets,
        strides=strides,
        ptr=ptr,
        tables=np.concatenate(tables) if tables else np.zeros(1),
        e_dec=ints(e_dec),
        e_col=ints(e_col),
        e_plain=floats(e_plain),
        e_fresh=floats(e_fresh),
        topo=topo,
    )


@dataclass(frozen=True, slots=True, eq=False)
class _Exits:
    """A family's ways out of a block as :func:`.encounter_kernel.sweep_blocks` takes
    them. The channels that lead to one place are one *member*: a victim's wounds kept
    (one member for each number of wounds added), its fall into a smaller set of
    fighters, an end; their tables folded into each way's weight at each of the
    victim's wounds. The ways are listed by the state they leave (``ptr``, each
    signature), so a block's sweep looks only at the states its mass is in."""

    kind: Ints
    axis: Ints
    """Per member: the axis of the victim whose wounds its weights read (-1: none)."""
    extra: Ints
    """Per member: the wounds a kept wound adds."""
    targets: list[Family | None]
    """Per member: the family a fall leads into."""
    strides: Ints
    """Per member: the strides of the fallen-into family's cells on this one's axes."""
    off: Ints
    """Per member: where its weights start (a row for each of the victim's wounds)."""
    mem: Ints
    """Each group's members, ``mem[q]`` .. ``mem[q + 1]``: the members that share their
    ways (a victim's wounds kept, one per number added; or one member)."""
    count: Ints
    """Per group: its ways, the length of each member's rows."""
    ptr: Ints
    """(signatures, 2 * states + 1): the ways leaving each state, then each state's
    ways that begin a new round."""
    group: Ints
    col: Ints
    widx: Ints
    bit: Ints
    """Per way: its group, the state it leads to (where in its block, laid out in the
    groups' order: :meth:`_Fam.laid`) or the outcome, its place in the rows, and the
    group bit of that state (:meth:`_Fam.groups`)."""
    weights: Floats


def _exits(plan: _Plan, family: Family) -> _Exits:
    game = plan.game
    fam = plan.fams[family]
    where = {m: i for i, m in enumerate(fam.members)}
    size = len(fam.shapes)
    grouped: dict[tuple[Any, ...], dict[Any, list[_Channel]]] = {}
    for ch in fam.channels:
        kind, victim, _, extra = ch.key
        key = (kind, victim, extra if kind == "fall" else None)
        member = extra if kind == "hurt" else None
        grouped.setdefault(key, {}).setdefault(member, []).append(ch)
    kinds: list[int] = []
    axes: list[int] = []
    extras: list[int] = []
    targets: list[Family | None] = []
    member_strides: list[list[int]] = []
    offs: list[int] = []
    mem = [0]
    counts: list[int] = []
    weights: list[Floats] = []
    stored = 0
    actives = [sig[fam.state_of] == np.arange(fam.decisions) for sig in fam.signatures]
    leaving: list[list[list[tuple[int, int, int]]]] = [
        [[] for _ in range(2 * size)] for _ in fam.signatures
    ]
    for q, ((kind, victim, into), by_member) in enumerate(grouped.items()):
        axis = where[victim] if victim is not None else -1
        span = fam.sizes[axis] if axis >= 0 else 1
        strides = [0] * len(fam.members)
        if kind == "fall":
            other = plan.fams[into]
            for who, stride in zip(other.members, other.strides, strict=True):
                strides[where[who]] = stride
        ways: dict[tuple[int, int, bool], Floats] = {}  # each member's weights, each wound
        for m, (extra, channels) in enumerate(by_member.items()):
            kinds.append({"hurt": HURT, "fall": FALL, "end": END}[kind])
            axes.append(axis)
            extras.append(extra if kind == "hurt" else 0)
            targets.append(into)
            member_strides.append(strides)
            for ch in channels:
                factor = np.ones(span) if ch.key[2] is None else _table(game, ch.key[2])
                for part, fresh in ((ch.plain, False), (ch.fresh, True)):
                    rows, cols = np.nonzero(part)
                    for r, c in zip(rows, cols, strict=True):
                        way = (int(ch.rows[r]), int(ch.cols[c]), fresh)
                        found = ways.get(way)
                        if found is None:
                            found = ways[way] = np.zeros((len(by_member), span))
                        found[m] += part[r, c] * factor
        mem.append(len(kinds))
        order = sorted(ways, key=lambda way: (way[1], way[0], way[2]))
        counts.append(len(order))
        for m in range(len(by_member)):
            offs.append(stored)
            if order:
                table = np.stack([ways[way][m] for way in order], axis=-1)  # wounds, way
                weights.append(table.reshape(-1))
                stored += table.size
        for j, (d, to, fresh) in enumerate(order):
            source = int(fam.state_of[d]) + (size if fresh else 0)
            for g, active in enumerate(actives):
                if active[d]:
                    leaving[g][source].append((q, to, j))
    ptr = np.zeros((len(fam.signatures), 2 * size + 1), dtype=np.int64)
    group: list[int] = []
    col: list[int] = []
    widx: list[int] = []
    bit: list[int] = []
    first = [mem[q] for q in range(len(grouped))]
    bits = [
        plan.fams[into].groups()[0] if into is not None else fam.groups()[0] for into in targets
    ]
    laid = [plan.fams[into].laid() if into is not None else fam.laid() for into in targets]
    for g, sources in enumerate(leaving):
        for source, listed in enumerate(sources):
            ptr[g, source] = len(group)
            for q, to, j in sorted(listed):
                m = first[q]
                group.append(q)
                col.append(to if kinds[m] == END else int(laid[m][to]))
                widx.append(j)
                bit.append(0 if kinds[m] == END else int(bits[m][to]))
        ptr[g, 2 * size] = len(group)

    def ints(values: Sequence[Any]) -> Ints:
        return np.array(values, dtype=np.int64)

    return _Exits(
        kind=ints(kinds),
        axis=ints(axes),
        extra=ints(extras),
        targets=targets,
        strides=ints(member_strides).reshape(len(kinds), len(fam.members)),
        off=ints(offs),
        mem=ints(mem),
        count=ints(counts),
        ptr=ptr,
        group=ints(group),
        col=ints(col),
        widx=ints(widx),
        bit=ints(bit),
        weights=np.concatenate(weights) if weights else np.zeros(1),
    )


def _sweep_kernel(
    plan: _Plan,
    buffer: _Buffer,
    family: Family,
    pieces: _Pieces,
    loops: Floats,
    bounds: Sequence[float],
    out: Floats,
    trap: int,
    seen: np.ndarray[Any, np.dtype[np.uint8]],
    tally: Ints,
    floor: float = 0.0,
) -> None:
    """One family's sweep through the compiled kernel (:mod:`.encounter_kernel`);
    ``seen`` marks the cells mass entered, ``tally`` counts their states with mass;
    blocks under ``floor`` are let go (:data:`FLOOR_TOTAL`), counted in
    :attr:`_Plan.dropped`."""
    assert buffer.comps == COMPS
    fam = plan.fams[family]
    flat = _flat(plan, family, pieces)
    exits = _exits(plan, family)
    bases = [0 if t is None else buffer.base[t] for t in exits.targets]
    marks = [0 if t is None else buffer.tbase[t] for t in exits.targets]
    sizes = [0 if t is None else len(plan.fams[t].shapes) for t in exits.targets]
    bits, grouped, levels = fam.groups()
    group_of = np.repeat(np.arange(levels.shape[0]), levels[:, -1] - levels[:, 0])[fam.laid()]
    fixed = (
        np.array(fam.strides, dtype=np.int64),
        np.array(fam.sizes, dtype=np.int64),
        fam.sig_of_cell,
        np.array(fam.signatures, dtype=np.int64).reshape(len(fam.signatures), -1),
        pieces.escapes,
        bits,
        group_of,
        grouped,
        levels,
        *flat.qp,
        *flat.qr,
        pieces.round_states,
        np.ascontiguousarray(loops),
        np.array(bounds, dtype=np.float64),
        exits.kind,
        exits.axis,
        exits.extra,
        np.array(bases, dtype=np.int64),
        np.array(marks, dtype=np.int64),
        np.array(sizes, dtype=np.int64),
        exits.strides,
        exits.off,
        exits.mem,
        exits.count,
        exits.ptr,
        exits.group,
        exits.col,
        exits.widx,
        exits.bit,
        exits.weights,
    )
    ring = buffer.ring[family]

    workers = buffer.workers[family]
    layer = fam.strides[0] if fam.members else fam.cells
    layers = -(-fam.cells // layer)
    outs = np.zeros((layers, out.shape[0] + 1, out.shape[1]))  # and what is let go
    tallies = np.zeros((workers, 1), dtype=np.int64)

    def run(worker: int, at: int, first: int, last: int) -> None:
        sweep_blocks(
            buffer.mass,
            buffer.touched,
            buffer.base[family],
            buffer.tbase[family],
            len(fam.shapes),
            fam.cells,
            first,
            last,
            ring,
            *fixed,
            outs[at],
            trap,
            seen,
            tallies[worker],
            floor,
        )

    _pipeline(run, buffer.first[family], fam.cells, layer, _lag(fam), workers)
    for at in range(layers):  # in order: the same sums for any number of threads
        out += outs[at, :-1]
        plan.dropped += float(outs[at, -1, 0])
    tally += tallies.sum(axis=0)


PIPELINE_CELLS = 10_000
"""Cells a family needs for its sweep to be shared among threads (:func:`_pipeline`)."""
CHUNK = 1024
"""The most cells a thread sweeps between two looks at the others' progress (a
quarter of a layer, if less, but at least 64)."""


def _lag(fam: _Fam) -> int:
    """How far (in cells) a wound can lead within one layer of the first axis, plus
    one: the distance a thread sweeping the next layer keeps behind."""
    where = {m: i for i, m in enumerate(fam.members)}
    ahead = [
        ch.key[3] * fam.strides[where[ch.key[1]]]
        for ch in fam.channels
        if ch.key[0] == "hurt" and where[ch.key[1]] > 0
    ]
    return max(ahead, default=0) + 1


def _workers(fam: _Fam, threads: int | None = None) -> int:
    """Threads to sweep a family with: ``threads`` (at most one per layer of its first
    axis), or by default one per core (up to four) on a grid of at least
    :data:`PIPELINE_CELLS` cells."""
    if not compiled() or len(fam.members) < 2:
        return 1
    if threads is not None:
        return max(1, min(threads, fam.sizes[0]))
    if fam.cells < PIPELINE_CELLS:
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 4, fam.sizes[0]))


def _pipeline(
    run: Callable[[int, int, int, int], None],
    first: int,
    cells: int,
    layer: int,
    lag: int,
    workers: int,
) -> None:
    """Sweep cells ``first`` .. ``cells - 1`` on ``workers`` threads, a layer of the
    first axis (``layer`` cells) each in turn: layer ``a`` by thread ``a % workers``,
    each chunk of it once the thread of layer ``a - 1`` has swept ``lag`` cells past
    the chunk's end. A wound leads into the same layer at most ``lag - 1`` cells on, or
    into a later layer at the same place; so no two threads ever add to one block at
    once, and a block is read only once every block that leads into it is swept. The
    kernel releases the GIL; ``run(worker, layer, first, last)`` sweeps a chunk. The
    chunks are the same for any number of threads (one thread: no threads), so every
    sum is too."""
    layers = -(-cells // layer)
    chunk = max(64, min(CHUNK, layer // 4))
    done = [0] * layers
    failed: list[BaseException] = []
    ready = threading.Condition()

    def sweep(worker: int) -> None:
        try:
            for a in range(worker, layers, workers):
                start = a * layer
                size = min(layer, cells - start)
                x = max(0, first - start)
                while x < size:
                    end = min(x + chunk, size)
                    if a > 0:
                        need = min(end + lag, layer)
                        with ready:
                            ready.wait_for(lambda: done[a - 1] >= need or bool(failed))  # noqa: B023
                        if failed:
                            return
                    run(worker, a, start + x, start + end)
                    x = end
                    with ready:
                        done[a] = x if x < size else layer
                        ready.notify_all()
                if x >= size:
                    with ready:
                        done[a] = layer
                        ready.notify_all()
        except BaseException as error:  # passed on to the caller
            with ready:
                failed.append(error)
                ready.notify_all()

    if workers == 1:
        sweep(0)
        if failed:
            raise failed[0]
        return
    threads = [threading.Thread(target=sweep, args=(w,), daemon=True) for w in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failed:
        raise failed[0]


def _sweep_rounds(plan: _Plan) -> Floats:
    """The sweep again, over the cells the first one reached only, each state's mass a
    distribution over the rounds begun (0 .. :attr:`_Plan.n_cap`): the exact capped
    answer (compiled only). Returns (outcome, rounds begun) masses; a draw at the cap
    holds all its mass in its first column."""
    degrees = plan.n_cap + 1
    order = list(plan.fams)
    cell_base: dict[Family, int] = {}
    offsets: list[Ints] = []
    total = 0
    start = 0
    for family in order:
        fam = plan.fams[family]
        cell_base[family] = start
        start += fam.cells
        at = np.full(fam.cells, -1, dtype=np.int64)
        live = plan.live[family]
        at[live] = total + np.arange(live.size, dtype=np.int64) * (len(fam.shapes) * degrees)
        total += live.size * len(fam.shapes) * degrees
        offsets.append(at)
    offset = np.concatenate(offsets)
    mass = np.zeros(max(total, 1))
    for entry in plan.entries:
        fam = plan.fams[entry.family]
        at = offset[cell_base[entry.family] + fam.cell(entry.wounds)]
        mass[at + fam.index[entry.shape] * degrees + entry.rounds] += entry.p
    traps = {f: plan.outcome(("end", None, f), capped=True) for f in plan.fams}
    ends = [(p, plan.number(key), 0 if key[2] else rounds) for p, key, rounds in plan.ended]
    out = np.zeros((len(plan.outcomes), degrees))
    for p, end, column in ends:
        out[end, column] += p
    for family in sorted(plan.fams, key=len, reverse=True):
        fam = plan.fams[family]
        if not plan.live[family].size:
            continue
        pieces = plan.pieces[family]
        flat = _flat(plan, family, pieces)
        returns = np.zeros(
            (len(pieces.returns), pieces.round_states.size, pieces.round_states.size)
        )
        for g, c in enumerate(pieces.returns):
            returns[g] = c
        sweep_family_rounds(
            mass,
            offset,
            cell_base[family],
            len(fam.shapes),
            degrees,
            fam.cells,
            np.array(fam.strides, dtype=np.int64),
            np.array(fam.sizes, dtype=np.int64),
            fam.sig_of_cell,
            np.array(fam.signatures, dtype=np.int64).reshape(len(fam.signatures), -1),
            pieces.escapes,
            flat.topo,
            *flat.qp,
            *flat.qr,
            pieces.round_states,
            returns,
            fam.state_of,
            flat.kinds,
            flat.axes,
            flat.table_at,
            flat.extras,
            np.array([0 if t is None else cell_base[t] for t in flat.targets], dtype=np.int64),
            np.array(
                [traps[family] if t is None else traps[t] for t in flat.targets], dtype=np.int64
            ),
            flat.strides,
            flat.ptr,
            flat.tables,
            flat.e_dec,
            flat.e_col,
            flat.e_plain,
            flat.e_fresh,
            out,
            traps[family],
        )
    return out


def _csr(dense: Floats) -> tuple[Ints, Ints, Floats]:
    """A dense matrix's nonzeros row by row: row starts, columns, values."""
    rows, cols = np.nonzero(dense)
    ptr = np.searchsorted(rows, np.arange(dense.shape[0] + 1)).astype(np.int64)
    return ptr, cols.astype(np.int64), dense[rows, cols].astype(np.float64)
