"""Monte Carlo of whole encounters: any encounter, any system, many sides.

Each fight is the turn cursor moved to the end by the combatants' tactics, as in
``affray fight`` (the reference engine). The run is cut into seeded chunks
(:mod:`affray.sim.chunks`): chunk ``i`` draws from ``SeedSequence(seed,
spawn_key=(i,))``, so ``-n`` and ``--workers`` never change an answer for a seed,
memory stays flat in ``n``, and Ctrl-C stops the workers at once. A fight starts
where its :class:`Start` says: a fresh encounter (a file), or a table as it stands.

Where the system has a fast engine (``fast_fights`` in its registry entry) and the
engine plays everything the fight needs, the fights are the fast engine's (by
default, ``engine="auto"``); otherwise the reference engine plays them, and the
answer says why (:attr:`FightOdds.note`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from affray import registry
from affray.dice import RandomDice
from affray.encounter import Action, Answers, Cursor, Encounter, Phase, Ruleset
from affray.encounter.cursor import act, action_question, proceed, sides_fighting
from affray.errors import NotModelledError
from affray.estimates import Estimate
from affray.sheets.encounters import tactics_dice
from affray.sim.chunks import run_chunks
from affray.stats import wilson_interval
from affray.totals import ExactFights, FastFights, FightTotals, First

__all__ = [
    "REFERENCE",
    "EncounterFile",
    "Engine",
    "ExactFights",
    "FastFights",
    "FightOdds",
    "FightTotals",
    "Fighting",
    "Start",
    "encounter_file",
    "fast_fights",
    "fight_many",
    "set_out",
    "simulate_fights",
]

FIGHT_CHUNK = 200
"""Fights per chunk of the reference engine: the unit of seeding and of work for a
worker process."""

REFERENCE = "reference engine"
Engine = Literal["auto", "fast", "reference"]
"""Which engine plays: the system's fast one where it can (``auto``), the fast one or
an error saying why not (``fast``), or the reference engine."""


@dataclass(frozen=True, slots=True)
class Fighting:
    """Everything a fight needs to be played from where it stands."""

    system: registry.AnySystem
    ruleset: Ruleset[Any, Any]
    cursor: Cursor[Any, Any]
    tactics: Mapping[str, object]
    name: str = ""
    first: First | None = None
    """The action (its name and target) the combatant whose turn it is takes first,
    instead of the one its tactics would choose; the tactics play the rest."""


class Start(Protocol):
    """Where fights start: picklable (it crosses to worker processes), and able to set
    out the fight (once per process: the result is kept)."""

    def fighting(self) -> Fighting: ...


@dataclass(frozen=True, slots=True)
class EncounterFile:
    """Fights of an encounter file, from its start (its round cap, or ``max_rounds``)."""

    path: str
    max_rounds: int | None = None
    stamp: tuple[int, int] = (0, 0)
    """The file's modification time and size when it was named: an edited file is
    another start (kept fights are never of an older version of it)."""

    def fighting(self) -> Fighting:
        from affray.sheets import load_encounter

        setup = load_encounter(self.path)
        cap = self.max_rounds or setup.max_rounds
        return Fighting(
            setup.system, setup.ruleset, Cursor(setup.encounter, cap), setup.tactics, setup.name
        )


@dataclass(frozen=True, slots=True)
class FightOdds:
    """The odds of an encounter from ``n`` simulated fights, side by side."""

    totals: FightTotals
    sides: tuple[str, ...]
    combatants: tuple[str, ...]
    seed: int
    name: str = ""
    engine: str = REFERENCE
    """The engine that played the fights."""
    note: str | None = None
    """Why the reference engine played them where the system has a fast one."""

    @property
    def n(self) -> int:
        return self.totals.n

    def p_wins(self, side: str) -> float:
        return self.totals.wins.get(side, 0) / self.n if self.n else 0.0

    def ci95(self, side: str) -> tuple[float, float]:
        return wilson_interval(self.totals.wins.get(side, 0), self.n)

    @property
    def p_draw(self) -> float:
        return self.totals.draws / self.n if self.n else 0.0

    def p_standing(self, cid: str) -> float:
        return self.totals.standing.get(cid, 0) / self.n if self.n else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``affray fight -n`` (docs/encounters.md), with the distribution of
        rounds and the seed."""
        return {
            "method": "monte-carlo",
            "n": self.n,
            "sides": {
                side: {
                    "wins": self.totals.wins.get(side, 0),
                    "p_wins": self.p_wins(side),
                    "ci95": list(self.ci95(side)),
                }
                for side in self.sides
            },
            "draws": self.totals.draws,
            "p_draw": self.p_draw,
            "mean_rounds": self.totals.mean_rounds,
            "rounds": {str(r): c for r, c in sorted(self.totals.rounds.items())},
            "combatants": {cid: {"p_standing": self.p_standing(cid)} for cid in self.combatants},
            "seed": self.seed,
            "engine": self.engine,
            **({"note": self.note} if self.note else {}),
        }


_SET_OUT: dict[Start, Fighting] = {}


def set_out(start: Start) -> Fighting:
    """The fight ``start`` sets out, made once in each process."""
    found = _SET_OUT.get(start)
    if found is None:
        if len(_SET_OUT) > 32:
            _SET_OUT.clear()
        found = _SET_OUT[start] = start.fighting()
    return found


_FAST: dict[Start, FastFights | NotModelledError] = {}


def fast_fights(start: Start) -> FastFights | NotModelledError:
    """The fights of ``start`` made ready for its system's fast engine, or why they
    cannot be (made once in each process)."""
    found = _FAST.get(start)
    if found is None:
        if len(_FAST) > 32:
            _FAST.clear()
        fighting = set_out(start)
        make = fighting.system.fast_fights
        if make is None:
            title = fighting.system.title
            found = NotModelledError(
                f"fast {title} engine",
                (),
                message=f"{title} has no fast engine of whole fights",
            )
        else:
            try:
                found = make(
                    fighting.ruleset,
                    fighting.cursor,
                    tactics=fighting.tactics,
                    first=fighting.first,
                )
            except NotModelledError as refused:
                found = refused
        _FAST[start] = found
    return found


def _fast_chunk(start: Start, entropy: int, index: int, size: int) -> FightTotals:
    fast = fast_fights(start)
    assert not isinstance(fast, NotModelledError)
    return fast.fights(entropy, index, size)


def _chunk(start: Start, entropy: int, index: int, size: int) -> FightTotals:
    """``size`` fights with chunk ``index``'s own generator (seeded from the run's)."""
    fighting = set_out(start)
    stream = np.random.SeedSequence(entropy, spawn_key=(index,))
    dice = RandomDice(random.Random(int(stream.generate_state(2, dtype=np.uint64)[0])))
    ai = fighting.system.ai(
        fighting.ruleset, fighting.tactics, dice=tactics_dice(entropy * 1_000_003 + index)
    )
    return fight_many(fighting, Answers(dice, ai), size)


def fight_many(fighting: Fighting, answers: Answers[Any, Any], n: int) -> FightTotals:
    """``n`` fights from ``fighting``'s cursor, every choice to ``answers``."""
    ruleset = fighting.ruleset
    wins: Counter[str] = Counter()
    rounds: Counter[int] = Counter()
    standing: Counter[str] = Counter()
    draws = 0
    total_rounds = 0
    for _ in range(n):
        cursor = fighting.cursor
        if fighting.first is not None and cursor.phase(ruleset) is Phase.TURN:
            cursor, _ = act(cursor, ruleset, answers, partial(_first, fighting, answers))
        while cursor.phase(ruleset) is not Phase.OVER:
            cursor, _ = proceed(cursor, ruleset, answers, name=fighting.name)
        encounter = cursor.encounter
        left = sides_fighting(encounter, ruleset)
        if len(left) == 1:
            wins[left[0]] += 1
        else:
            draws += 1
        rounds[cursor.round] += 1
        total_rounds += cursor.round
        standing.update(c.id for c in encounter.combatants if ruleset.fighting(encounter, c.id))
    return FightTotals(n, dict(wins), draws, total_rounds, dict(rounds), dict(standing))


def _first(
    fighting: Fighting, answers: Answers[Any, Any], encounter: Encounter[Any, Any]
) -> Action:
    """The first action, if it is still legal once the turn's bookkeeping is done (an
    interrupt may have changed the fight); else what the tactics choose."""
    cid = fighting.cursor.current
    assert cid is not None and fighting.first is not None
    name, target = fighting.first
    for action in fighting.ruleset.actions(encounter, cid):
        if (action.name, action.target) == (name, target):
            return action
    return answers.ask(encounter, action_question(encounter, fighting.ruleset, cid))


def simulate_fights(
    start: Start,
    n: int,
    *,
    seed: int | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    estimate: Callable[[Estimate], None] | None = None,
    engine: Engine = "auto",
) -> FightOdds:
    """``n`` fights from ``start``, counted: each side's wins, draws, rounds, and who
    was still standing at the end. The seed used (``seed``, or a fresh one) is in the
    answer, so that any run can be repeated.

    Raises:
        NotModelledError: ``engine="fast"`` and the fast engine cannot play the fight.
    """
    fighting = set_out(start)
    note = None
    job: Callable[[int, int, int], FightTotals] = partial(_chunk, start)
    chunk, played_by = FIGHT_CHUNK, REFERENCE
    if engine != "reference":
        fast = fast_fights(start)
        if isinstance(fast, NotModelledError):
            if engine == "fast":
                raise fast
            if fighting.system.fast_fights is not None:
                note = f"{fast.message}: the reference engine played every fight"
        else:
            fast.fights(0, 0, 1)  # load (or compile) it first: the pilot times fights only
            job, chunk, played_by = partial(_fast_chunk, start), fast.chunk, fast.engine
    totals, used = run_chunks(
        job,
        n,
        chunk,
        seed=seed,
        workers=workers,
        progress=progress,
        estimate=estimate,
        zero=FightTotals(),
    )
    encounter = fighting.cursor.encounter
    return FightOdds(
        totals,
        encounter.sides,
        tuple(c.id for c in encounter.combatants),
        used,
        fighting.name,
        played_by,
        note,
    )


def encounter_file(path: str | Path, max_rounds: int | None = None) -> EncounterFile:
    """The start of fights of the encounter file at ``path`` (checked at once: a bad
    file is a :class:`~affray.errors.SheetError` here, not in a worker)."""
    file = Path(path)
    try:
        status = file.stat()
        stamp = (status.st_mtime_ns, status.st_size)
    except OSError:
        stamp = (0, 0)  # loading says what is wrong with it
    start = EncounterFile(str(file), max_rounds, stamp)
    set_out(start)
    return start
