"""The narrator's core: lines of styled segments, and the registry of event handlers.

Each rule system registers, per event type, a handler that turns the event into
segments and says whether they continue the current line (power, shock and
damage continue their attack's line) or start a new one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from affray.dice import DieRoll
from affray.events import Event

Segment = tuple[str, str]
"""``(text, style)``; style names: name, hit, miss, wound, out, dim, or ""."""
Line = tuple[Segment, ...]
Handler = Callable[[Any], tuple[list[Segment], bool]]
HANDLERS: dict[type[Event], Handler] = {}


def register(handlers: dict[type[Event], Handler]) -> None:
    """Add a rule system's handlers (one per event type)."""
    HANDLERS.update(handlers)


def plain(line: Line) -> str:
    """A line without styles."""
    return "".join(text for text, _ in line)


def narrate(events: Iterable[Event]) -> list[Line]:
    """Turn an event log into lines. Events that continue an action (power, shock,
    succumbing) are appended to the line of the attack they belong to."""
    from affray.registry import systems

    systems()  # every registered system's handlers are in
    lines: list[list[Segment]] = []
    for event in events:
        handler = HANDLERS.get(type(event))
        if handler is None:
            lines.append([(f"{event.kind}: {event.to_dict()}", "dim")])
            continue
        segments, continues = handler(event)
        if not segments:
            continue
        if continues and lines:
            lines[-1].extend([("; ", ""), *segments])
        else:
            lines.append(list(segments))
    return [tuple(line) for line in lines]


def narrate_text(events: Iterable[Event]) -> list[str]:
    """:func:`narrate` as plain strings."""
    return [plain(line) for line in narrate(events)]


def faces(dice: Sequence[DieRoll]) -> str:
    return "[" + ",".join(str(die.face) for die in dice) + "]"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
