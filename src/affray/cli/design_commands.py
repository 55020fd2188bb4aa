"""The rules asked backwards: ``affray solve``, ``sensitivity`` and ``frontier``
(docs/design.md; SPEC part 4)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from affray.cli.options import json_option, seed_option

F = TypeVar("F", bound=Callable[..., Any])

BUDGET_S = 3600.0
"""How long a question may take by default before it is refused (after its first
duel is timed): an hour."""


def odds_options(func: F) -> F:
    """--exact, -n, --seed, --engine, --dask, --workers and --budget: how each moved
    duel's odds are worked out, and where."""
    for option in reversed(
        (
            click.option(
                "--exact", is_flag=True, help="Exact odds (where the system has them; the default)."
            ),
            click.option(
                "-n",
                "count",
                type=click.IntRange(min=1, max=10**9),
                default=None,
                help="Simulate N duels of each moved pair instead (with 95% intervals).",
            ),
            seed_option,
            click.option(
                "--engine",
                type=click.Choice(["fast", "reference"]),
                default="fast",
                show_default=True,
                help="Monte Carlo engine.",
            ),
            click.option(
                "--dask",
                metavar="local|ADDRESS",
                default=None,
                help="Work on Dask: 'local' starts a cluster here; tcp://HOST:PORT uses a "
                "running scheduler.",
            ),
            click.option(
                "--workers",
                type=click.IntRange(min=1, max=256),
                default=None,
                help="Worker processes here (default: one per CPU). Results do not depend on it.",
            ),
            click.option(
                "--budget",
                type=click.FloatRange(min=0.1),
                default=BUDGET_S,
                show_default=True,
                metavar="SECONDS",
                help="Refuse a question that would take longer (estimated once its first "
                "duel is timed).",
            ),
        )
    ):
        func = option(func)
    return func


class Where:
    """Where the duels are worked out, and the progress shown while they are."""

    def __init__(self, dask: str | None, workers: int | None, budget: float, what: str) -> None:
        from affray.explore.backends import check_address

        if dask is not None:
            check_address(dask)
            if dask != "local" and workers is not None:
                raise click.UsageError(
                    "--workers sets the workers of this machine or of --dask local; a "
                    "running scheduler has its own"
                )
        self.dask = dask
        self.count = workers if workers is not None else (os.cpu_count() or 1)
        self.budget = budget
        self.what = what

    def backend(self) -> Callable[[], Any]:
        from affray.explore import backend

        return lambda: backend(self.dask, self.count)

    @property
    def workers(self) -> int | None:
        return self.count if self.dask in (None, "local") else None

    def announce(self, seconds: float, left: int, sharing: int) -> None:
        """Refuse a question past the budget; say how long a long one will take."""
        from affray.cli.estimates import about, estimate_after
        from affray.errors import AffrayError

        if seconds > self.budget:
            raise AffrayError(
                f"this would take {about(seconds, left, self.what, sharing)}, past the "
                f"budget of {self.budget:,.0f} s",
                hint="try fewer values (--values, --range), fewer duels (-n), more "
                "workers (--dask), or a larger --budget",
            )
        if seconds > estimate_after():
            click.echo(about(seconds, left, self.what, sharing), err=True)

    @contextmanager
    def progress(self, total: int) -> Iterator[Callable[[int], None]]:
        """A progress bar at a terminal (nothing when piped); Ctrl-C stops the workers
        and exits 130."""
        from affray.cli.output import ProgressBar

        bar = ProgressBar(total, self.what + "s", threshold=1)
        try:
            with bar as advance:
                yield advance
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)


@click.command("solve")
@click.argument("a", type=click.Path(dir_okay=False, path_type=str))
@click.argument("b", type=click.Path(dir_okay=False, path_type=str))
@click.option(
    "--vary",
    required=True,
    metavar="SIDE.KEY",
    help="The key to move: a.skill (the first sheet's), b.armor (the second's).",
)
@click.option(
    "--target",
    required=True,
    type=click.FloatRange(0.0, 1.0),
    help="The chance sought (0.5: an even chance).",
)
@click.option(
    "--for",
    "side",
    type=click.Choice(["a", "b"]),
    default="a",
    show_default=True,
    help="Whose chance to win.",
)
@click.option(
    "--values", default=None, metavar="V,V,…", help="The values to try (default: every one)."
)
@click.option(
    "--range",
    "span",
    type=(int, int),
    default=None,
    metavar="LOW HIGH",
    help="A number's values to try, both ends included.",
)
@odds_options
@json_option
def solve_command(
    a: str,
    b: str,
    vary: str,
    target: float,
    side: str,
    values: str | None,
    span: tuple[int, int] | None,
    exact: bool,
    count: int | None,
    seed: int | None,
    engine: str,
    dask: str | None,
    workers: int | None,
    budget: float,
    as_json: bool,
) -> None:
    """The value of one key that brings a side's chance to a TARGET, in the duel of
    sheets A and B.

    Every value of the key is tried (skill 0 to 20, every armour, every weapon …) and
    each place where the chance passes the target is told: the values either side,
    their chances, and for a number the equivalent between them. Exact where the
    system has exact odds; -n N simulates, and then says when two neighbours cannot
    be told apart.
    """
    from affray.design.duels import pair, settings
    from affray.design.solve import plan, solve_duel

    if exact and count is not None:
        raise click.UsageError("choose one of --exact and -n N")
    if values is not None and span is not None:
        raise click.UsageError("choose one of --values and --range")
    first, second = pair(a, b)
    how = settings(first.system, exact, count, seed, engine)
    where = Where(dask, workers, budget, "duel")
    listed = [v for v in values.split(",") if v.strip()] if values is not None else None
    tried = plan(first, second, vary, listed, span)[2]
    with where.progress(len(tried)) as advance:
        solved = solve_duel(
            first,
            second,
            vary,
            target,
            "a" if side == "a" else "b",
            how,
            values=listed,
            span=span,
            backend=where.backend(),
            progress=advance,
            announce=where.announce,
        )
    if as_json:
        from affray.cli.output import emit_json

        emit_json(solved.to_dict())
        return
    _say_solved(solved, first.name if side == "a" else second.name)


def _say_solved(solved: Any, whose: str) -> None:
    from affray.cli.output import console

    out = console()
    how = "exact" if solved.method == "exact" else "simulated, 95% intervals"
    out.print(f"{whose}'s chance to win as {solved.vary} moves ({how}); target {solved.target:.1%}")
    for point in solved.points:
        out.print(f"  {point.value!s:>24}  {_chance_text(point.chance)}")
    if not solved.crossings:
        out.print(f"The chance never reaches {solved.target:.1%} over these values.")
    for crossing in solved.crossings:
        line = (
            f"Crossing between {crossing.below.value} ({_chance_text(crossing.below.chance)}) "
            f"and {crossing.above.value} ({_chance_text(crossing.above.chance)})"
        )
        if crossing.equivalent is not None:
            key = solved.vary.split(".", 1)[1]
            line += f": {key} {crossing.equivalent:.1f}"
        if not crossing.told_apart:
            line += "; the two cannot be told apart at this many duels (more: -n)"
        out.print(line)
    if not solved.monotonic:
        out.print(
            "The chance is not monotonic in this key: it rises and falls, so each crossing is told."
        )


def _chance_text(chance: Any) -> str:
    if chance.p is None:
        return f"invalid sheet: {chance.error}"
    if chance.n is None:
        return f"{chance.p:.2%}"
    return f"{chance.p:.2%} [{chance.low:.2%}, {chance.high:.2%}]"
