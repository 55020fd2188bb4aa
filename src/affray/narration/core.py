"""The narrator's core: lines of styled segments, and how events are told.

A :class:`Narration` tells, for each event type it knows, the segments of the event
and whether they continue the current line (power, shock and damage continue their
attack's line) or start a new one. The encounter engine's events are told by
:data:`affray.narration.encounter.ENCOUNTER`; each rule system brings its own
narration in its :class:`~affray.powers.RuleSystem`; the table passes its own
(:data:`affray.table.events.TABLE`) where it tells its events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

from affray.dice import DieRoll
from affray.events import Event

Segment = tuple[str, str]
"""``(text, style)``; style names: name, hit, miss, wound, out, dim, or ""."""
Line = tuple[Segment, ...]
Told = tuple[list[Segment], bool]
"""An event's segments, and whether they continue the line before."""
E = TypeVar("E", bound=Event)


@dataclass(frozen=True, slots=True)
class Narration:
    """How the events of one rule system (or of the engine, or the table) are told.

    Built one event type at a time, each handler typed by its event::

        NARRATION = Narration().on(AttackRolled, _attack).on(Wounded, _wounded)
    """

    _handlers: Mapping[type[Event], Callable[[Any], Told]] = field(
        default_factory=lambda: MappingProxyType({})
    )

    def on(self, kind: type[E], handler: Callable[[E], Told]) -> Narration:
        """This narration, telling events of ``kind`` with ``handler`` too."""
        return Narration(MappingProxyType({**self._handlers, kind: handler}))

    def __or__(self, other: Narration) -> Narration:
        """Both narrations (``other``'s handler where both tell a type)."""
        return Narration(MappingProxyType({**self._handlers, **other._handlers}))

    def __contains__(self, kind: object) -> bool:
        return kind in self._handlers

    def kinds(self) -> frozenset[type[Event]]:
        """The event types it tells."""
        return frozenset(self._handlers)

    def tell(self, event: Event) -> Told | None:
        """The event's segments and whether they continue the line; None if it does
        not know the event's type."""
        handler = self._handlers.get(type(event))
        return None if handler is None else handler(event)


def plain(line: Line) -> str:
    """A line without styles."""
    return "".join(text for text, _ in line)


def faces(dice: Sequence[DieRoll]) -> str:
    return "[" + ",".join(str(die.face) for die in dice) + "]"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
