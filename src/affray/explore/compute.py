"""Working out cells: what runs on a worker (this process, a pool's, or Dask's).

A batch is a list of jobs; its results come back in the same order. Each cell is
worked out alone, by the rule system's own exact odds or its simulator (the same
calls as ``affray duel``), so a batch's size never changes a result.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from affray.errors import AffrayError
from affray.explore.fight_cell import FightJob
from affray.explore.grid import AnyJob
from affray.explore.values import one_line


@dataclass(frozen=True, slots=True)
class Result:
    """One cell's odds (a draw at the round cap).

    Attributes:
        p_a_wins, p_b_wins: a duel's chances (None for an encounter's cell).
        method: how they were worked out: ``exact`` or ``monte-carlo`` (an exact
            cell the system refuses, such as one whose duels can last past the
            round cap beyond the exact budget, is simulated instead; ``note`` says).
        n: duels simulated (None for exact odds).
        ci95_low, ci95_high: the 95 % interval for A winning (Monte Carlo).
        seed: the seed that repeats it with ``affray duel -n N --seed SEED``.
        engine: the simulator that ran (``fast`` or ``reference``), else None.
        note: why the method or engine differs from the one asked for, else None.
        error: why the cell has no odds (the rules refused the duel), else None.
        seconds: how long it took to work out.
        p_wins: an encounter's cell: each side's chance to win, in the file's order
            (``ci95_low`` and ``ci95_high`` are then the first side's); None for a duel.
    """

    p_a_wins: float | None
    p_b_wins: float | None
    p_draw: float | None
    mean_rounds: float | None
    method: str
    n: int | None = None
    ci95_low: float | None = None
    ci95_high: float | None = None
    seed: int | None = None
    engine: str | None = None
    note: str | None = None
    error: str | None = None
    seconds: float = 0.0
    p_wins: tuple[float, ...] | None = None

    @property
    def p_first(self) -> float | None:
        """A's chance to win, or the first side's: what the heatmap shows (None when
        the cell has no odds)."""
        if self.p_wins is not None:
            return self.p_wins[0] if self.p_wins else None
        return self.p_a_wins

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        """A result read back from the cache.

        Raises:
            ValueError: the data is not a result (a hand-edited or damaged line).
        """
        fields = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        sides = fields.get("p_wins")
        if sides is not None:
            if not isinstance(sides, list) or not sides:
                raise ValueError("not a side's chances")
            fields["p_wins"] = tuple(sides)
        result = cls(**fields)
        chances: tuple[float | None, ...] = (result.p_a_wins, result.p_b_wins, result.p_draw)
        if result.p_wins is not None:
            if result.p_a_wins is not None or result.p_b_wins is not None:
                raise ValueError("a duel's and an encounter's odds")
            chances = (*result.p_wins, result.p_draw)
        if result.method not in ("exact", "monte-carlo"):
            raise ValueError("not a method")
        for chance in chances:
            if chance is not None and not (
                isinstance(chance, int | float) and 0.0 <= chance <= 1.0
            ):
                raise ValueError("not a chance")
        given = [chance is not None for chance in (*chances, result.mean_rounds)]
        if any(given) and not all(given):
            raise ValueError("odds in part")
        if all(given) and abs(sum(c for c in chances if c is not None) - 1.0) > 1e-6:
            raise ValueError("chances that do not add up")
        for number in (result.mean_rounds, result.ci95_low, result.ci95_high, result.seconds):
            if number is not None and not isinstance(number, int | float):
                raise ValueError("not a number")
        for count in (result.n, result.seed):
            if count is not None and (not isinstance(count, int) or isinstance(count, bool)):
                raise ValueError("not a count")
        for text in (result.engine, result.note, result.error):
            if text is not None and not isinstance(text, str):
                raise ValueError("not text")
        return result


def run_batch(jobs: Sequence[AnyJob]) -> list[Result]:
    """Work out each job of a batch, in order (a worker's task)."""
    return [run_job(job) for job in jobs]


def run_job(job: AnyJob) -> Result:
    """One cell's odds: exact where asked and the system can, else simulated (an
    encounter's cell: its fights simulated)."""
    if isinstance(job, FightJob):
        return _fights(job)
    from affray.registry import system_of
    from affray.sheets import sheet_from_data

    started = time.perf_counter()
    try:
        a = sheet_from_data(job.a, "a")
        b = sheet_from_data(job.b, "b")
    except AffrayError as error:  # checked before: only a changed bestiary lands here
        return Result(None, None, None, None, job.method, error=one_line(error))
    from affray.duels import Method, RunSpec, answer_duel

    method: Method = "exact" if job.method == "exact" else "monte-carlo"
    try:
        answer = answer_duel(
            system_of(a),
            a,
            b,
            method=method,
            run=RunSpec(job.n, job.seed),
            engine=job.engine,
            fall_back=True,
        )
    except AffrayError as error:
        return Result(None, None, None, None, "monte-carlo", job.n, error=one_line(error))
    seconds = time.perf_counter() - started
    if answer.method == "exact":
        return Result(
            answer.p_a_wins,
            answer.p_b_wins,
            answer.p_draw,
            answer.mean_rounds,
            "exact",
            seconds=seconds,
        )
    low, high = answer.ci95_a_wins
    return Result(
        answer.p_a_wins,
        answer.p_b_wins,
        answer.p_draw,
        answer.mean_rounds,
        "monte-carlo",
        answer.n,
        low,
        high,
        job.seed,
        answer.engine,
        answer.note,
        seconds=seconds,
    )


def _fights(job: FightJob) -> Result:
    """An encounter's cell: its exact odds where asked and its system has them (as
    ``affray fight --exact`` works them out), else ``job.n`` fights from its start, as
    ``affray fight -n`` fights them (``--seed`` with the cell's seed repeats them)."""
    from affray.sim.fights import simulate_fights

    started = time.perf_counter()
    note = None
    if job.method == "exact":
        try:
            return _exact_fights(job, started)
        except AffrayError as refused:
            note = f"exact odds refused ({refused.message}); simulated instead"
    try:
        odds = simulate_fights(job.start, job.n, seed=job.seed, workers=1)
    except AffrayError as error:  # checked before: only a changed bestiary lands here
        return Result(None, None, None, None, "monte-carlo", job.n, error=one_line(error))
    low, high = odds.ci95(job.sides[0])
    return Result(
        None,
        None,
        odds.p_draw,
        odds.totals.mean_rounds,
        "monte-carlo",
        odds.n,
        low,
        high,
        job.seed,
        note=note,
        seconds=time.perf_counter() - started,
        p_wins=tuple(odds.p_wins(side) for side in job.sides),
    )


def _exact_fights(job: FightJob, started: float) -> Result:
    """An encounter's exact odds.

    Raises:
        AffrayError: its system has no exact odds of whole encounters, or refuses
            these (past its budget).
    """
    from affray.encounter import Cursor

    setup = job.start.setup()
    solve = setup.system.exact_fights
    if solve is None:
        raise AffrayError(f"{setup.system.title} has no exact odds of whole encounters")
    cursor = Cursor(setup.encounter, setup.max_rounds)
    odds = solve(setup.ruleset, cursor, tactics=setup.tactics, first=None)
    return Result(
        None,
        None,
        odds.p_draw,
        odds.mean_rounds,
        "exact",
        seconds=time.perf_counter() - started,
        p_wins=tuple(odds.p_wins.get(side, 0.0) for side in job.sides),
    )
