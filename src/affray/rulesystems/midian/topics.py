"""The questions the Midian rules put to a combatant (their ``--choose`` words)."""

from __future__ import annotations

from enum import Enum


class MidianTopic(Enum):
    DEFENCE = "defence"  # parry, block, dodge or take it
    STANCE = "stance"  # how to fight this round
    RETEST = "retest"  # spend a retest on a failed roll
    INTERRUPT = "interrupt"  # act just before someone else's action
    CRITICAL = "critical"  # which critical effect (rolled, or the game master's pick)
    FUMBLE = "fumble"  # what a fumble does (when fumble effects are on)


TOPICS = tuple(topic.value for topic in MidianTopic)
