"""The questions the MST-2 rules put to a combatant (their ``--choose`` words)."""

from __future__ import annotations

from enum import Enum


class Mst2Topic(Enum):
    CIRCUMSTANCE = "circumstance"  # what favours an attack (extra power)


TOPICS = tuple(topic.value for topic in Mst2Topic)
