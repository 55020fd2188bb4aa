"""Events: the data every rule returns about what happened.

Events are the single source of truth for a fight: narration, ``--json`` output,
the table's log in SQLite and its undo and redo are all views of an event log.
"""

from __future__ import annotations

import dataclasses
import re
from enum import Enum
from typing import Any, ClassVar


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """Base of all events. Subclasses are frozen dataclasses of plain values."""

    told_before_its_dice: ClassVar[bool] = False
    """It tells the outcome of dice that the events after it hold (a round's order,
    told before the initiative dice that made it): while any of those dice is not yet
    given, it is not known."""

    @property
    def kind(self) -> str:
        """The event's name in snake case (``AttackRolled`` → ``attack_rolled``)."""
        return _snake(type(self).__name__)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"event": kind, ...fields}``."""
        data = _plain(self)
        assert isinstance(data, dict)
        return {"event": self.kind, **data}
