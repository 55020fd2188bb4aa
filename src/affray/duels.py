"""A duel's answer decided in one place: :func:`answer_duel` is where "exact, else
simulate" is decided, for ``affray duel``, the explorer's cells and
:func:`affray.duel` alike (the answer's data is :mod:`affray.answers`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affray.answers import (
    DEFAULT_DUELS,
    ENGINES,
    MAX_ROUNDS,
    Announce,
    DuelAnswer,
    Engine,
    Method,
    Progress,
    RoundsDistribution,
    RunSpec,
)
from affray.errors import AffrayError, NotModelledError

if TYPE_CHECKING:
    from affray.encounter import Named
    from affray.registry import AnySystem

__all__ = [
    "DEFAULT_DUELS",
    "ENGINES",
    "MAX_ROUNDS",
    "QUICK_SECONDS",
    "SLOW",
    "Announce",
    "DuelAnswer",
    "Engine",
    "Method",
    "Progress",
    "RoundsDistribution",
    "RunSpec",
    "answer_duel",
    "method_for",
    "simulate_duels",
]


def method_for(system: AnySystem, asked: Method | None = None) -> Method:
    """How a duel of ``system`` is answered: as asked, else exactly where the system
    has exact odds that are always quick, else by simulation (a system whose exact odds
    can take long, ``exact_within``, gives them unasked only where they come within
    :data:`QUICK_SECONDS`: :func:`answer_duel` tries them).

    Raises:
        AffrayError: exact odds asked of a system without them.
    """
    if asked == "exact" and system.exact is None:
        raise AffrayError(
            f"{system.title} has no exact duel odds",
            hint=f"simulate the duel instead: affray duel A B -n {DEFAULT_DUELS}",
        )
    if asked is not None:
        return asked
    if system.exact is None or system.exact_within is not None:
        return "monte-carlo"
    return "exact"


QUICK_SECONDS = 1.0
"""How long a duel asked no method waits for exact odds that can take long."""

SLOW = "exact odds of this duel would take more than a second: simulated"
"""The note of a duel simulated because its exact odds would take long."""


def answer_duel(
    system: AnySystem,
    a: Named,
    b: Named,
    *,
    method: Method | None = None,
    run: RunSpec,
    engine: Engine = "fast",
    rational: bool = False,
    fall_back: bool = False,
) -> DuelAnswer:
    """Who wins the duel: exact odds where asked (``method="exact"``) or, with no
    method, where the system has them; else ``run.n`` simulated duels.

    Args:
        fall_back: simulate when the system has no exact odds (as if none had been
            asked) or refuses them (past their limits: with a note saying so);
            without it they raise.

    Raises:
        AffrayError: exact odds asked of a system without them, or refused.
    """
    exact = system.exact
    if fall_back and exact is None:
        method = None  # simulated, as if none had been asked
    if method is None and exact is not None and system.exact_within is not None:
        quick = system.exact_within(a, b, seconds=QUICK_SECONDS)
        if quick is not None:
            return quick
        return simulate_duels(system, a, b, run=run, engine=engine).noted(SLOW)
    if method_for(system, method) == "exact" and exact is not None:
        try:
            return exact(a, b, rational=rational)
        except AffrayError as refused:
            if not fall_back:
                raise
            note = f"exact odds refused ({refused.message}); simulated instead"
        return simulate_duels(system, a, b, run=run, engine=engine).noted(note)
    return simulate_duels(system, a, b, run=run, engine=engine)


def simulate_duels(
    system: AnySystem, a: Named, b: Named, *, run: RunSpec, engine: Engine = "fast"
) -> DuelAnswer:
    """``run.n`` duels with the engine asked for: the system's fast engine where it has
    one, else (or when the fast engine does not model these sheets, which the note
    says) the reference engine, each duel through the encounter engine."""
    if run.n < 1:
        raise AffrayError(f"n is {run.n}", hint="simulate at least one duel")
    note = None
    if engine == "fast" and system.simulate is not None:
        try:
            return system.simulate(a, b, run=run)
        except NotModelledError as refused:
            note = f"{refused.message}: the reference engine plays these duels"
    from affray.sim.encounters import simulate_reference  # numpy and the engine: on need

    stats, used = simulate_reference(
        a,
        b,
        system.duel_ruleset(),
        run.n,
        seed=run.seed,
        workers=run.workers,
        progress=run.progress,
        max_rounds=run.max_rounds,
        estimate=run.announce,
    )
    return DuelAnswer.simulated(stats, engine="reference", seed=used, note=note)
