"""What the commands of long runs share: how long a run will take, said before it
starts when no progress bar shows; times for people; the files written."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from affray.extras import installed

if TYPE_CHECKING:
    from collections.abc import Callable

    from affray.estimates import Estimate


ESTIMATE_AFTER = 10.0
"""Runs estimated to take longer than this (seconds) say so before they start, when
no progress bar shows; the environment variable ``AFFRAY_ESTIMATE_SECONDS`` sets it."""


def announce_duels(estimate: Estimate) -> None:
    """One line on stderr for a long run (a progress bar says as much at a terminal)."""
    if estimate.seconds > estimate_after():
        click.echo(estimate_line(estimate), err=True)
        faster()


def announcer(what: str, *, bar: bool = False) -> Callable[[Estimate], None]:
    """:func:`announce_duels` for a run of other things than duels (``fight``); with
    ``bar`` (a progress bar shows how long), only what would make it faster."""

    def announce(estimate: Estimate) -> None:
        if estimate.seconds > estimate_after():
            if not bar:
                line = about(estimate.seconds, estimate.duels, what, estimate.workers)
                click.echo(line, err=True)
            faster()

    return announce


def duels_announcer(*, bar: bool = False) -> Callable[[Estimate], None]:
    """:func:`announce_duels`, or with ``bar`` only what would make the run faster."""
    return faster_only if bar else announce_duels


def faster_only(estimate: Estimate) -> None:
    if estimate.seconds > estimate_after():
        faster()


def faster() -> None:
    """A long run without the compiled engines says what to install."""
    if not installed("numba"):
        click.echo(
            "tip: pip install 'affray[fast]' (numba) compiles the fast engines: about "
            "twenty times faster",
            err=True,
        )


def estimate_after() -> float:
    """Seconds above which a run with no progress bar says how long it will take."""
    try:
        return float(os.environ.get("AFFRAY_ESTIMATE_SECONDS", ESTIMATE_AFTER))
    except ValueError:
        return ESTIMATE_AFTER


def estimate_line(estimate: Estimate) -> str:
    """``about 2 min 10 s for 100,000,000 duels on 4 workers; Ctrl-C stops``."""
    return about(estimate.seconds, estimate.duels, "duel", estimate.workers)


def about(seconds: float, count: int, what: str, workers: int, *, stops: bool = True) -> str:
    """``about 45 s for 1,000 cells on 2 workers; Ctrl-C stops``: a long run, before
    it starts (``stops=False``: without how to stop it, for a run refused)."""
    things = f"{count:,} {what}{'' if count == 1 else 's'}"
    workers_said = f"{workers} worker{'' if workers == 1 else 's'}"
    said = f"about {duration(seconds)} for {things} on {workers_said}"
    return f"{said}; Ctrl-C stops" if stops else said


def duration(seconds: float) -> str:
    """A time for people, to the two largest units: ``45 s``, ``2 min 10 s``,
    ``3 h 20 min``, ``2 days 4 h``."""
    whole = max(1, round(seconds))
    if whole < 60:
        return f"{whole} s"
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min {secs} s" if secs else f"{minutes} min"
    whole_minutes = round(seconds / 60)
    hours, minutes = divmod(whole_minutes, 60)
    if hours < 24:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    days, hours = divmod(round(seconds / 3600), 24)
    unit = "day" if days == 1 else "days"
    return f"{days} {unit} {hours} h" if hours else f"{days} {unit}"


def wrote(path: str, as_json: bool) -> None:
    """Say the file written: after the table, or on stderr beside --json's output."""
    click.echo(f"wrote {path}", err=as_json)
