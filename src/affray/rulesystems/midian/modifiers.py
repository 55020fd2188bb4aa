"""Labelled modifiers: every bonus and penalty a roll receives, kept so that the
narration can show why a total is what it is."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Modifier:
    """A signed bonus (``+2 flanking``) or penalty (``-3 shock``)."""

    label: str
    value: int

    def __str__(self) -> str:
        return f"{self.value:+d} {self.label}"


def total(modifiers: Iterable[Modifier]) -> int:
    return sum(m.value for m in modifiers)


def nonzero(*modifiers: Modifier) -> tuple[Modifier, ...]:
    """Drop modifiers worth 0 (they clutter the narration)."""
    return tuple(m for m in modifiers if m.value)


def describe(modifiers: Iterable[Modifier]) -> str:
    return " ".join(str(m) for m in modifiers)
