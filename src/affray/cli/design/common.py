"""What the designers' questions share: the options of their odds, where a question's
sheets come from, and how a chance is told."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from affray.cli.estimates import about, estimate_after
from affray.cli.options import seed_option
from affray.cli.output import ProgressBar, console
from affray.errors import AffrayError
from affray.explore import backend
from affray.explore.backends import check_address

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
        return lambda: backend(self.dask, self.count)

    @property
    def workers(self) -> int | None:
        return self.count if self.dask in (None, "local") else None

    def announce(self, seconds: float, left: int, sharing: int) -> None:
        """Refuse a question past the budget; say how long a long one will take."""
        if seconds > self.budget:
            raise AffrayError(
                f"this would take {about(seconds, left, self.what, sharing, stops=False)}, "
                "past the "
                f"budget of {self.budget:,.1f} s",
                hint="try fewer values (--values, --range), fewer duels (-n), more "
                "workers (--dask), or a larger --budget",
            )
        if seconds > estimate_after():
            click.echo(about(seconds, left, self.what, sharing), err=True)

    @contextmanager
    def progress(self, total: int) -> Iterator[Callable[[int], None]]:
        """A progress bar at a terminal (nothing when piped); Ctrl-C stops the workers
        and exits 130."""
        bar = ProgressBar(total, self.what + "s", threshold=1)
        try:
            with bar as advance:
                yield advance
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)


def method_words(chances: Sequence[Any]) -> str:
    """How the chances were found, in words: exact, simulated, or some of each."""
    found = [c for c in chances if c.p is not None]
    if all(c.exact for c in found):
        return "exact"
    if any(c.exact for c in found):
        return "exact where the exact odds reach, else simulated with 95% intervals"
    return "simulated, 95% intervals"


def say_notes(chances: Sequence[Any], values: Sequence[str]) -> None:
    """Why values were simulated where exact odds were asked, once for all of them."""
    said = [
        (value, chance.note)
        for chance, value in zip(chances, values, strict=True)
        if getattr(chance, "note", None)
    ]
    if not said:
        return
    where = ", ".join(value for value, _ in said)
    first, note = said[0]
    if len({n for _, n in said}) == 1:
        console().print(f"Simulated at {where}: {note}")
    else:  # the same limit, its figures differing value by value: the first told
        console().print(f"Simulated at {where}; at {first}: {note}")


def chance_text(chance: Any) -> str:
    if chance.p is None:
        return f"invalid sheet: {chance.error}"
    if chance.n is None:
        return f"{chance.p:.2%}"
    return f"{chance.p:.2%} [{chance.low:.2%}, {chance.high:.2%}]"
