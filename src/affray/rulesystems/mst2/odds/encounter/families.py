"""Families: the wounds grid of those still fighting, its states and their groups,
and the ways out of each state."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from affray.encounter import Targeting
from affray.rulesystems.mst2.odds.encounter.answers import Eng, Family, Floats, Ints, Shape
from affray.rulesystems.mst2.odds.encounter.game import Dest, Move, _Game
from affray.rulesystems.mst2.odds.encounter_kernel import (
    SPILL,
)

# -- families: the wounds grid of those still fighting ----------------------------------------


class _Fam:
    """One set of combatants still fighting: its wounds grid (one axis each, in listing
    order), the code of each cell (the answers the policy reads), its states within a
    block, and (once swept) its matrices. Working state of one computation."""

    def __init__(self, game: _Game, members: Family) -> None:
        self.members = tuple(sorted(members))
        self.family = members
        self.sizes = tuple(game.axis[m] for m in self.members)
        self.cells = math.prod(self.sizes)
        strides = []
        step = 1
        for size in reversed(self.sizes):
            strides.append(step)
            step *= size
        self.strides = tuple(reversed(strides))
        flat = np.arange(self.cells)
        self.coords = (
            np.stack([(flat // s) % n for s, n in zip(self.strides, self.sizes, strict=True)])
            if self.members
            else np.zeros((0, 1), dtype=np.int64)
        )
        self.code = self._codes(game)
        _, first_at, self.code_of = np.unique(self.code, return_index=True, return_inverse=True)
        self.code_of = self.code_of.reshape(-1)
        self.representative = [self.wounds(game, int(c)) for c in first_at]
        self.shapes: list[Shape] = []
        self.index: dict[Shape, int] = {}
        self.turns: dict[tuple[int, int], tuple[tuple[Any, ...], list[Move]]] = {}
        self._groups: tuple[Ints, Ints, Ints] | None = None

    def _codes(self, game: _Game) -> np.ndarray[Any, np.dtype[np.int64]]:
        """Each cell's answers to what the policy asks of wounds: who has reached its
        ``retreat_at``, and which of two is weaker (wounds minus mean hit dice)."""
        code = np.zeros(self.cells, dtype=np.int64)
        bit = 0
        where = {m: i for i, m in enumerate(self.members)}
        for m in self.members:
            at = game.tactics[m].retreat_at
            if at is not None:
                code |= (self.coords[where[m]] >= at).astype(np.int64) << bit
                bit += 1
        weighs = any(
            game.tactics[m].target in (Targeting.WEAKEST, Targeting.FOCUS) for m in self.members
        )
        if weighs:
            for i, j in combinations(self.members, 2):
                left = 2 * self.coords[where[i]] - game.twice_mean[i]
                right = 2 * self.coords[where[j]] - game.twice_mean[j]
                code |= (left >= right).astype(np.int64) << bit
                bit += 1
        return code

    def by_diag(self) -> list[Ints]:
        """The cells of each diagonal (total of wounds), in flat order (the numpy sweep
        takes a diagonal at once: its blocks never lead into each other)."""
        diag = self.coords.sum(axis=0)
        order = np.argsort(diag, kind="stable")
        counts = np.bincount(diag, minlength=int(diag.max()) + 1)
        starts = np.concatenate([[0], np.cumsum(counts)])
        return [order[starts[d] : starts[d + 1]] for d in range(counts.size)]

    def groups(self) -> tuple[Ints, Ints, Ints]:
        """The states in groups, one per engagements, and within a group by the turns
        left in the round, most first (the compiled sweep's order): each state's group
        bit (:data:`.encounter_kernel.SPILL`), the states in that order, and where each
        group's states of each level start (group, level; one more: the end)."""
        if self._groups is None:
            engs: dict[Eng, int] = {}
            for eng, _ in self.shapes:
                engs.setdefault(eng, len(engs))
            levels = max((len(queue) for _, queue in self.shapes), default=0)
            keyed = sorted(
                range(len(self.shapes)),
                key=lambda s: (engs[self.shapes[s][0]], -len(self.shapes[s][1]), s),
            )
            ptr = np.zeros((len(engs), levels + 1), dtype=np.int64)
            at = 0
            for q in range(len(engs)):
                ptr[q, 0] = at
                for level in range(levels):
                    while at < len(keyed):
                        eng, queue = self.shapes[keyed[at]]
                        if engs[eng] != q or len(queue) != levels - level:
                            break
                        at += 1
                    ptr[q, level + 1] = at
            bits = np.array([1 << min(engs[eng], SPILL) for eng, _ in self.shapes], dtype=np.int64)
            self._groups = (bits, np.array(keyed, dtype=np.int64), ptr)
        return self._groups

    def laid(self) -> Ints:
        """Where each state is in a block laid out in the groups' order."""
        ordered = self.groups()[1]
        where = np.empty_like(ordered)
        where[ordered] = np.arange(ordered.size)
        return where

    def wounds(self, game: _Game, cell: int) -> list[int]:
        """Every combatant's wounds at ``cell`` (0 for those not in the family)."""
        wounds = [0] * game.n
        for i, m in enumerate(self.members):
            wounds[m] = int(self.coords[i, cell])
        return wounds

    def cell(self, wounds: Sequence[int]) -> int:
        return sum(wounds[m] * s for m, s in zip(self.members, self.strides, strict=True))

    def shape(self, shape: Shape) -> tuple[int, bool]:
        """The index of ``shape``, and whether it is new."""
        found = self.index.get(shape)
        if found is not None:
            return found, False
        self.index[shape] = len(self.shapes)
        self.shapes.append(shape)
        return len(self.shapes) - 1, True

    # -- matrices (once every state is known) ------------------------------------------

    def build(self, outcome: Callable[[Dest], int], place: Callable[[Dest], int]) -> None:
        """Decision states (a state with one set of choices), the moves inside a block
        (``Q``, split into moves that do and do not begin a round), the ways out of it
        (channels: wounds that stay in the family, falls into a smaller one, ends), and
        which cells make which choices (signatures). ``outcome`` numbers an end,
        ``place`` a state of another family."""
        size = len(self.shapes)
        decision: dict[tuple[int, tuple[Any, ...]], int] = {}
        moves: list[list[Move]] = []
        signature_of: dict[tuple[int, ...], int] = {}
        code_signature: list[int] = []
        state_of: list[int] = []
        for c in range(len(self.representative)):
            row = []
            for s in range(size):
                choices, made = self.turns[(s, c)]
                d = decision.setdefault((s, choices), len(moves))
                if d == len(moves):
                    moves.append(made)
                    state_of.append(s)
                row.append(d)
            code_signature.append(signature_of.setdefault(tuple(row), len(signature_of)))
        self.signatures = [np.array(row, dtype=np.int64) for row in signature_of]
        self.sig_of_cell = np.array(code_signature, dtype=np.int64)[self.code_of]
        self.state_of = np.array(state_of, dtype=np.int64)
        count = len(moves)
        self.q_plain = np.zeros((count, size))
        self.q_round = np.zeros((count, size))
        channels: dict[tuple[Any, ...], list[tuple[int, int, float, bool]]] = {}
        for d, made in enumerate(moves):
            for share, out, dest in made:
                weight = share * out.p
                if not weight:
                    continue
                if dest[0] == "live" and dest[1] == self.family and out.table is None:
                    target = self.q_round if dest[3] else self.q_plain
                    target[d, self.index[dest[2]]] += weight
                    continue
                key: tuple[Any, ...]
                if dest[0] == "live" and dest[1] == self.family:
                    key, to, fresh = (
                        ("hurt", out.victim, out.table, out.add),
                        self.index[dest[2]],
                        dest[3],
                    )
                elif dest[0] == "live":
                    key, to, fresh = ("fall", out.victim, out.table, dest[1]), place(dest), dest[3]
                else:
                    key, to, fresh = ("end", out.victim, out.table, None), outcome(dest), False
                channels.setdefault(key, []).append((d, to, weight, fresh))
        self.decisions = count
        self.exits = np.zeros(count, dtype=bool)
        self.channels: list[_Channel] = []
        for key, entries in channels.items():
            rows = sorted({d for d, _, _, _ in entries})
            cols = sorted({to for _, to, _, _ in entries})
            plain = np.zeros((len(rows), len(cols)))
            fresh = np.zeros((len(rows), len(cols)))
            for d, to, weight, new_round in entries:
                (fresh if new_round else plain)[rows.index(d), cols.index(to)] += weight
                self.exits[d] = True
            self.channels.append(_Channel(key, np.array(rows), np.array(cols), plain, fresh))


@dataclass(frozen=True, slots=True, eq=False)
class _Channel:
    """A way out of a block: ``key`` = (kind, victim whose wounds its table reads, the
    table, the wounds added / the family fallen into); from decision states ``rows`` to
    states (or ends) ``cols``, weights split by whether the move begins a round."""

    key: tuple[Any, ...]
    rows: np.ndarray[Any, np.dtype[np.int64]]
    cols: np.ndarray[Any, np.dtype[np.int64]]
    plain: np.ndarray[Any, np.dtype[np.float64]]
    fresh: np.ndarray[Any, np.dtype[np.float64]]


@dataclass(frozen=True, slots=True, eq=False)
class _Pieces:
    """A family's loops inside a block, for each signature (the decision of each state):
    which states can leave the block, the moves that begin no round (a DAG: each turn
    shortens the queue) solved, ``N = (I - Q_plain)^-1``, and the round states' return
    weights ``C = (N Q_round)`` on the round states (those a new round begins in)."""

    escapes: Ints
    """(signatures, S): 1 where a state can leave the block (else it is a trap)."""
    solved: list[Floats]
    """``N`` of each signature (S x S)."""
    into_rounds: list[Floats]
    """``N Q_round`` on the round states' columns, each signature (S x R)."""
    returns: list[Floats]
    """``C`` of each signature (R x R)."""
    round_states: Ints
    radius: float
    """The largest spectral radius of ``C``: the loops converge for ``z < 1/radius``."""


def _pieces(fam: _Fam) -> _Pieces:
    rounds = np.flatnonzero(fam.q_round.any(axis=0))
    escapes = []
    solved: list[Floats] = []
    into_rounds: list[Floats] = []
    returns: list[Floats] = []
    radius = 0.0
    size = len(fam.shapes)
    for sig in fam.signatures:
        escaping = fam.exits[sig].copy()
        linked = (fam.q_plain[sig] + fam.q_round[sig]) > 0
        while True:
            more = escaping | (linked & escaping[None, :]).any(axis=1)
            if (more == escaping).all():
                break
            escaping = more
        keep = escaping[:, None]
        plain = np.where(keep, fam.q_plain[sig], 0.0)
        fresh = np.where(keep, fam.q_round[sig], 0.0)[:, rounds]
        n: Floats = np.linalg.inv(np.eye(size) - plain).astype(np.float64)
        into: Floats = n @ fresh
        c: Floats = into[rounds]
        if c.any():
            radius = max(radius, float(np.abs(np.linalg.eigvals(c)).max()))
        escapes.append(escaping)
        solved.append(n)
        into_rounds.append(into)
        returns.append(c)
    return _Pieces(
        np.array(escapes, dtype=np.int64).reshape(len(fam.signatures), size),
        solved,
        into_rounds,
        returns,
        rounds.astype(np.int64),
        radius,
    )
