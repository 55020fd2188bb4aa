"""Turning an event log into lines: the engine's narration with whichever others
the caller hands over (its rule system's, the table's)."""

from __future__ import annotations

from collections.abc import Iterable

from affray.events import Event
from affray.narration.core import Line, Narration, Segment, plain
from affray.narration.encounter import ENCOUNTER


def narrate(events: Iterable[Event], *narrations: Narration) -> list[Line]:
    """Turn an event log into lines. Events that continue an action (power, shock,
    succumbing) are appended to the line of the attack they belong to.

    The engine's events are told, and those of ``narrations`` (the rule system's
    whose fight it is; the table's). An event no narration knows is shown as its
    data."""
    told = ENCOUNTER
    for extra in narrations:
        told = told | extra
    lines: list[list[Segment]] = []
    for event in events:
        said = told.tell(event)
        if said is None:
            lines.append([(f"{event.kind}: {event.to_dict()}", "dim")])
            continue
        segments, continues = said
        if not segments:
            continue
        if continues and lines:
            lines[-1].extend([("; ", ""), *segments])
        else:
            lines.append(list(segments))
    return [tuple(line) for line in lines]


def tell_alone(event: Event, *narrations: Narration) -> str:
    """What one event says on its own ("2 wounds" for one that continues an attack's
    line), as plain text; empty for one no narration tells."""
    told = ENCOUNTER
    for extra in narrations:
        told = told | extra
    said = told.tell(event)
    return "" if said is None else plain(tuple(said[0]))


def narrate_text(events: Iterable[Event], *narrations: Narration) -> list[str]:
    """:func:`narrate` as plain strings."""
    return [plain(line) for line in narrate(events, *narrations)]
