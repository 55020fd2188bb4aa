"""The odds of a tracked fight from where it stands: the rest of the fight played
many times over by the combatants' tactics with random dice, from the table's own
turn cursor (wounds, distances, whose turn, what is left of the round), and the
chance of the side whose turn it is after each action open to it (the best move).

Two ways to ask: :func:`table_odds` (``affray table odds``: a given number of fights
in seeded chunks, on worker processes, the same answer for any number of them), and
:func:`quick_odds` (the web's "fight from here": as many fights as a time budget
allows, in this process, stopping as soon as the answer is no longer wanted).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from affray.dice import RandomDice
from affray.encounter import Action, Answers, Phase
from affray.errors import NotModelledError, RulesError, TableError
from affray.estimates import Estimate
from affray.sheets.encounters import tactics_dice
from affray.sim.fights import (
    REFERENCE,
    ExactFights,
    FastFights,
    Fighting,
    FightOdds,
    FightTotals,
    fast_fights,
    fight_many,
    simulate_fights,
)
from affray.table.model import Rules, TableState


def from_state(
    rules: Rules, state: TableState, name: str = "", first: tuple[str, str | None] | None = None
) -> Fighting:
    """The fight of a table as it stands (its round cap included), to play on."""
    cursor = replace(state.cursor, max_rounds=rules.max_rounds, decided_closes=True)
    return Fighting(rules.system, rules.ruleset, cursor, state.tactics, name, first)


@dataclass(frozen=True, slots=True)
class TableAt:
    """Fights of the table ``table_id`` of the database ``db`` as it stood at
    ``version`` (what crosses to a worker process, which folds the log itself)."""

    db: str
    table_id: str
    version: int
    first: tuple[str, str | None] | None = None

    def fighting(self) -> Fighting:
        from affray.table.service import Tables
        from affray.table.store import Store

        tables = Tables(Store(self.db, readonly=True))  # a worker only reads
        try:
            row = tables.table(self.table_id)
            fold = tables.fold(row)
        finally:
            tables.store.close()
        if fold.version != self.version:
            raise TableError(
                f"table {self.table_id} is at version {fold.version} now, not {self.version}",
                hint="ask again for the odds of the table as it is",
            )
        return from_state(fold.rules, fold.state, row.name, self.first)


@dataclass(frozen=True, slots=True)
class ActionOdds:
    """The chance that ``side`` wins if its combatant takes this action now."""

    label: str
    name: str
    target: str | None
    p_win: float
    n: int | None
    """The fights it rests on; None when it is exact."""
    engine: str | None = None
    """What played its fights (None: exact, or the same as the whole fight's)."""


@dataclass(frozen=True, slots=True)
class TableOdds:
    """The fight from here: its odds (exact, or simulated), and those of each action
    open to ``who``."""

    odds: FightOdds | ExactFights
    round: int
    who: str | None = None
    side: str | None = None
    actions: tuple[ActionOdds, ...] = ()

    @property
    def exact(self) -> bool:
        return not isinstance(self.odds, FightOdds)

    @property
    def n(self) -> int | None:
        """The fights the answer rests on; None when it is exact."""
        return self.odds.n if isinstance(self.odds, FightOdds) else None

    @property
    def method(self) -> str:
        """``exact``, or the engine that played the fights."""
        return self.odds.engine if isinstance(self.odds, FightOdds) else "exact"

    @property
    def wins(self) -> dict[str, float]:
        if isinstance(self.odds, FightOdds):
            return {side: self.odds.p_wins(side) for side in self.odds.sides}
        return dict(self.odds.p_wins)

    @property
    def draw(self) -> float:
        return self.odds.p_draw

    @property
    def mean_rounds(self) -> float:
        if isinstance(self.odds, FightOdds):
            return self.odds.totals.mean_rounds
        return self.odds.mean_rounds

    @property
    def more_rounds(self) -> float:
        """How many more rounds the fight lasts, on average (this one counted if it
        has turns left)."""
        return max(0.0, self.mean_rounds - self.round)

    def to_dict(self) -> dict[str, Any]:
        """The keys of ``fight -n`` (or ``fight --exact``) from the table's state, plus
        ``actions``: for whoever's turn it is, its side's chance after each legal
        action (with the fights it rests on, ``n``, when simulated)."""
        return {
            **self.odds.to_dict(),
            "round": self.round,
            "turn": self.who,
            "actions": [
                {
                    "action": a.name,
                    "target": a.target,
                    "p_win": a.p_win,
                    **({} if a.n is None else {"n": a.n}),
                    **({} if a.engine is None else {"engine": a.engine}),
                }
                for a in self.actions
            ],
        }


def _ready(rules: Rules, state: TableState) -> None:
    """Raises TableError when there is no fight to have odds of."""
    phase = state.phase(rules)
    if phase is Phase.OVER:
        raise TableError("the fight is over: there are no odds left to work out")
    if phase is Phase.SETUP and len(state.encounter.sides) < 2:
        raise TableError(
            "a fight needs combatants on at least two sides",
            hint="add combatants on a second side",
        )


def table_odds(
    db: str,
    table_id: str,
    rules: Rules,
    state: TableState,
    version: int,
    *,
    n: int,
    seed: int | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    estimate: Callable[[Estimate], None] | None = None,
    simulate: bool = False,
) -> TableOdds:
    """``n`` fights from the table as it stands at ``version``, and ``n`` more after
    each action open to whoever's turn it is (the others play by their tactics); the
    exact odds instead where the system has them within :data:`TABLE_WORK`, unless
    ``simulate`` says to simulate all the same.

    Raises:
        TableError: the fight is over, or has fewer than two sides.
    """
    _ready(rules, state)

    def simulated(action: Action, side: str, engine: str | None, used: int | None) -> ActionOdds:
        """``n`` fights after ``action`` (as many as the reference engine plays for a
        whole table where the fast engine does not play it: a hundred times slower, it
        would take minutes)."""
        first = (action.name, action.target)
        start = TableAt(db, table_id, version, first)
        count = n
        if engine != REFERENCE and isinstance(fast_fights(start), NotModelledError):
            count = min(n, REFERENCE_FIGHTS)
            if progress is not None:
                progress(n - count)
        after = simulate_fights(start, count, seed=used, workers=workers, progress=progress)
        played = after.engine if after.engine != engine else None
        return ActionOdds(action.label, *first, after.p_wins(side), after.n, played)

    if not simulate:
        exact = exact_odds(
            rules,
            state,
            work=TABLE_WORK,
            other=lambda action, side: simulated(action, side, None, seed),
        )
        if exact is not None:
            return exact
    overall = simulate_fights(
        TableAt(db, table_id, version),
        n,
        seed=seed,
        workers=workers,
        progress=progress,
        estimate=estimate,
    )
    who = state.current if state.phase(rules) is Phase.TURN else None
    if who is None:
        return TableOdds(overall, state.round)
    side = state.encounter.combatant(who).side
    actions = [
        simulated(action, side, overall.engine, overall.seed)
        for action in rules.ruleset.actions(state.encounter, who)
    ]
    return TableOdds(overall, state.round, who, side, tuple(actions))


def exact_odds(
    rules: Rules,
    state: TableState,
    *,
    work: int | None = None,
    other: Callable[[Action, str], ActionOdds] | None = None,
) -> TableOdds | None:
    """The exact odds of the fight from here and after each action open now, where the
    system has exact odds of whole fights and this one is within their limits (and
    within ``work`` steps of the chain, if given: the web's time budget); else None.
    An action the exact odds do not reach (Midian's: a stance, a grapple) has the odds
    ``other`` gives it (simulated: its side's name given), if given; else the whole
    answer is None."""
    solve = rules.system.exact_fights
    if solve is None:
        return None
    base = from_state(rules, state)
    try:
        measure = rules.system.exact_work
        steps = (
            measure(base.ruleset, base.cursor, tactics=base.tactics, first=None) if measure else 0
        )
        if work is not None and steps > work:
            return None
        overall = solve(base.ruleset, base.cursor, tactics=base.tactics, first=None)
        who = state.current if state.phase(rules) is Phase.TURN else None
        if who is None:
            return TableOdds(overall, state.round)
        side = state.encounter.combatant(who).side
        actions = []
        for action in rules.ruleset.actions(state.encounter, who):
            first = (action.name, action.target)
            try:
                after = solve(base.ruleset, base.cursor, tactics=base.tactics, first=first)
            except NotModelledError:
                if other is None:
                    raise
                actions.append(other(action, side))
                continue
            actions.append(ActionOdds(action.label, *first, after.p_wins.get(side, 0.0), None))
    except (RulesError, NotModelledError, _StoppedError):
        return None
    return TableOdds(overall, state.round, who, side, tuple(actions))


class _StoppedError(Exception):
    """The answer is no longer wanted (the web's quick odds, between batches)."""


REFERENCE_FIGHTS = 1_000
"""Fights ``table odds`` plays on the reference engine: of a table, or of an action the
fast engine does not play."""


def default_fights(rules: Rules, state: TableState) -> int:
    """How many fights ``table odds`` plays by default: 20,000 where the system's fast
    engine plays them, :data:`REFERENCE_FIGHTS` with the reference engine."""
    return REFERENCE_FIGHTS if _fast(from_state(rules, state)) is None else 20_000


TABLE_WORK = 1_200_000_000
"""The largest exact chain ``table odds`` works out (its steps, :func:`exact_odds`: about
a second of processor time for the fight at most, some 0.4 s on a grid of four the
fights fill, and as much again for each action open now); past it (the ogre under the
bridge: five fighting, 2*10^9 steps), the fast engine simulates."""

WEB_WORK = 250_000_000
"""The largest exact chain (its steps, :func:`exact_odds`) the web's quick odds work out
(a few tenths of a second at most); past it, the fast engine simulates."""

BATCH = 25
"""Fights of the reference engine between two looks at the clock (and at whether the
answer is still wanted)."""
FAST_BATCH = 1000
"""Fights of a fast engine between two looks."""
MIN_BATCH = 100
"""The fewest fights a fast engine plays after an action, however little time is left
(a figure of fewer is noise: its standard error would be past five points)."""


def quick_odds(
    rules: Rules,
    state: TableState,
    *,
    name: str = "",
    n: int = 20_000,
    per_action: int = 5_000,
    seed: int = 0,
    budget_s: float = 1.5,
    stop: Callable[[], bool] | None = None,
) -> TableOdds | None:
    """As many fights from the table as it stands as ``budget_s`` allows (at most
    ``n``; half the time when there are actions to weigh too), then up to
    ``per_action`` after each action open to whoever's turn it is, sharing the rest
    of the time. None when there is no fight to have odds of, or when ``stop`` says
    the answer is no longer wanted."""
    try:
        _ready(rules, state)
    except TableError:
        return None
    started = time.perf_counter()
    base = from_state(rules, state, name)
    who = state.current if state.phase(rules) is Phase.TURN else None
    legal = list(rules.ruleset.actions(state.encounter, who)) if who is not None else []

    def simulated(action: Action, side: str) -> ActionOdds:
        """Fights after an action the exact odds do not reach, in its share of the time."""
        share = budget_s / max(len(legal), 1)
        now = time.perf_counter()
        first = (action.name, action.target)
        k = legal.index(action)
        totals = _batches(
            replace(base, first=first), per_action, seed + k + 1, now + share, stop,
            batch=MIN_BATCH,
        )  # fmt: skip
        if totals is None:
            raise _StoppedError
        p_win = totals.wins.get(side, 0) / totals.n if totals.n else 0.0
        return ActionOdds(action.label, *first, p_win, totals.n)

    exact = exact_odds(rules, state, work=WEB_WORK, other=simulated)
    if exact is not None:
        return exact
    engine = _fast(base)
    until = started + budget_s * (0.5 if legal else 1.0)
    overall = _batches(base, n, seed, until, stop, engine)
    if overall is None:
        return None
    ids = tuple(c.id for c in state.encounter.combatants)
    played_by = REFERENCE if engine is None else engine.engine
    odds = FightOdds(overall, state.encounter.sides, ids, seed, name, played_by)
    if who is None:
        return TableOdds(odds, state.round)
    side = state.encounter.combatant(who).side
    per_fight = (time.perf_counter() - started) / max(overall.n, 1)
    actions = []
    for k, action in enumerate(legal):
        now = time.perf_counter()
        share = max((started + budget_s - now) / (len(legal) - k), 0.02)
        # a batch that fits the action's share: forty actions of a slow fight would
        # overrun the budget twice over at a thousand fights each
        batch = max(MIN_BATCH, min(FAST_BATCH, int(share / max(per_fight, 1e-9))))
        first = (action.name, action.target)
        totals = _batches(
            replace(base, first=first), per_action, seed + k + 1, now + share, stop, batch=batch
        )
        if totals is None:
            return None
        p_win = totals.wins.get(side, 0) / totals.n if totals.n else 0.0
        actions.append(ActionOdds(action.label, *first, p_win, totals.n))
    return TableOdds(odds, state.round, who, side, tuple(actions))


def _fast(fighting: Fighting) -> FastFights | None:
    """The fights made ready for the system's fast engine, if it has one that plays them."""
    make = fighting.system.fast_fights
    if make is None:
        return None
    try:
        return make(
            fighting.ruleset, fighting.cursor, tactics=fighting.tactics, first=fighting.first
        )
    except NotModelledError:
        return None


def _batches(
    fighting: Fighting,
    n: int,
    seed: int,
    deadline: float,
    stop: Callable[[], bool] | None,
    ready: FastFights | None = None,
    *,
    batch: int = FAST_BATCH,
) -> FightTotals | None:
    """Fights in batches until ``n`` are done or ``deadline`` passes (one batch at
    least), by the system's fast engine where it plays them (``ready``: ``fighting``
    made ready for it already; ``batch``: its fights between two looks at the clock);
    None if ``stop`` says so between batches."""
    totals = FightTotals()
    index = 0
    began = time.perf_counter()
    fast = ready if ready is not None else _fast(fighting)
    while fast is not None and totals.n < n:
        totals = totals + fast.fights(seed, index, min(batch, n - totals.n))
        index += 1
        if stop is not None and stop():
            return None
        now = time.perf_counter()
        if now + (now - began) / index > deadline:  # the next batch would end past it
            break
    while fast is None and totals.n < n:
        stream = np.random.SeedSequence(seed, spawn_key=(index,))
        rng = random.Random(int(stream.generate_state(1, dtype=np.uint64)[0]))
        ai = fighting.system.ai(
            fighting.ruleset, fighting.tactics, dice=tactics_dice(rng.getrandbits(32))
        )
        now = time.perf_counter()
        fits = (deadline - now) / ((now - began) / totals.n) if totals.n else 1
        totals = totals + fight_many(
            fighting, Answers(RandomDice(rng), ai), max(1, min(BATCH, int(fits), n - totals.n))
        )  # the first batch is one fight, to learn how long one takes
        index += 1
        if stop is not None and stop():
            return None
        if time.perf_counter() > deadline:
            break
    return totals
