"""The one door through which a rule system plugs into the encounter engine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from affray.encounter.actions import Action
from affray.encounter.model import Encounter, SheetT, StateT
from affray.encounter.questions import Answers
from affray.events import Event

Outcome = tuple[Encounter[SheetT, StateT], list[Event]]
"""A change: the encounter after it, and the events that say what happened."""


class Ruleset(Protocol[SheetT, StateT]):
    """What the engine needs from a rule system.

    The engine owns the round loop and the end of the fight; the ruleset owns
    everything the rules say: who acts when, which actions are legal, what an
    action does, what a combatant's state means. It decides nothing itself:
    every choice is a question put to ``answers`` (and every die too).
    """

    system: str

    def initial_state(self, sheet: SheetT) -> StateT:
        """A fresh per-fight state for a combatant with this sheet."""
        ...

    def fighting(self, encounter: Encounter[SheetT, StateT], cid: str) -> bool:
        """Whether ``cid`` still takes part (acts, and keeps its side in the fight)."""
        ...

    def condition(self, encounter: Encounter[SheetT, StateT], cid: str) -> str:
        """A word for ``cid``'s state: fighting, out, fled, dead, ..."""
        ...

    def snapshot(self, encounter: Encounter[SheetT, StateT], cid: str) -> Mapping[str, object]:
        """``cid``'s state as plain data (wounds, hit points, ...) for reports."""
        ...

    def weakness(self, encounter: Encounter[SheetT, StateT], cid: str) -> float:
        """How close ``cid`` is to falling; higher is weaker (for target policies)."""
        ...

    def begin_round(
        self, encounter: Encounter[SheetT, StateT], answers: Answers[SheetT, StateT]
    ) -> tuple[Encounter[SheetT, StateT], list[Event], Sequence[str]]:
        """Start a round (roll initiative, reset what resets) and say who acts, in
        order; a combatant may appear more than once (several actions)."""
        ...

    def begin_turn(
        self, encounter: Encounter[SheetT, StateT], cid: str, answers: Answers[SheetT, StateT]
    ) -> tuple[Encounter[SheetT, StateT], list[Event], bool]:
        """The bookkeeping of ``cid``'s turn (spending the action it uses, anything that
        happens before it, such as an interrupt); False, with events that say why, when
        ``cid`` cannot act this turn after all."""
        ...

    def actions(self, encounter: Encounter[SheetT, StateT], cid: str) -> Sequence[Action]:
        """Every action ``cid`` may take now, each with its target; never empty."""
        ...

    def perform(
        self,
        encounter: Encounter[SheetT, StateT],
        cid: str,
        action: Action,
        answers: Answers[SheetT, StateT],
    ) -> Outcome[SheetT, StateT]:
        """Carry out ``action`` (one of :meth:`actions`) for ``cid``."""
        ...

    def end_round(
        self, encounter: Encounter[SheetT, StateT], answers: Answers[SheetT, StateT]
    ) -> Outcome[SheetT, StateT]:
        """Anything the rules do at the end of a round (bleeding, fire, ...)."""
        ...
