"""The one door through which a rule system plugs into the encounter engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from affray.dice import Dice
from affray.encounter.model import Encounter
from affray.events import Event


class Ruleset(Protocol):
    """What the engine needs from a rule system (MST-2 now, Midian next).

    The engine owns the round loop and the end of the fight; the ruleset owns
    everything the rules say: who acts when, what an action does, what a
    combatant's state means.
    """

    system: str

    def initial_state(self, sheet: Any) -> Any:
        """A fresh per-fight state for a combatant with this sheet."""

    def fighting(self, encounter: Encounter, cid: str) -> bool:
        """Whether ``cid`` still takes part (acts, and keeps its side in the fight)."""

    def condition(self, encounter: Encounter, cid: str) -> str:
        """A word for ``cid``'s state: fighting, out, fled, dead, ..."""

    def snapshot(self, encounter: Encounter, cid: str) -> dict[str, Any]:
        """``cid``'s state as plain data (wounds, hit points, ...) for reports."""

    def weakness(self, encounter: Encounter, cid: str) -> float:
        """How close ``cid`` is to falling; higher is weaker (for target policies)."""

    def begin_round(
        self, encounter: Encounter, dice: Dice
    ) -> tuple[Encounter, list[Event], Sequence[str]]:
        """Start a round (roll initiative, reset what resets) and say who acts, in
        order; a combatant may appear more than once (several actions)."""

    def take_turn(
        self, encounter: Encounter, cid: str, dice: Dice
    ) -> tuple[Encounter, list[Event]]:
        """``cid`` chooses an action by its tactics and carries it out."""

    def end_round(self, encounter: Encounter, dice: Dice) -> tuple[Encounter, list[Event]]:
        """Anything the rules do at the end of a round (bleeding, fire, ...)."""
