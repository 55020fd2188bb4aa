"""A test driver for a ruleset: plays rounds and turns with given dice, answering
choices with the rule system's tactics AI (as the encounter engine does)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from affray.dice import Dice
from affray.encounter import (
    Action,
    Answers,
    Combatant,
    Encounter,
    Ruleset,
    action_question,
    named,
    play_turn,
)
from affray.events import Event
from affray.registry import system_of


@dataclass
class Driver:
    """A ruleset, the tactics of each combatant, and the system's AI to answer for them."""

    ruleset: Ruleset[Any, Any]
    tactics: Mapping[str, Any] = field(default_factory=dict)

    def answers(self, dice: Dice, sheet: object) -> Answers[Any, Any]:
        return Answers(dice, system_of(sheet).ai(self.ruleset, self.tactics, dice=dice))

    def begin_round(
        self, encounter: Encounter[Any, Any], dice: Dice
    ) -> tuple[Encounter[Any, Any], list[Event], Sequence[str]]:
        return self.ruleset.begin_round(encounter, self._answers(encounter, dice))

    def take_turn(
        self, encounter: Encounter[Any, Any], cid: str, dice: Dice
    ) -> tuple[Encounter[Any, Any], list[Event]]:
        return play_turn(encounter, self.ruleset, cid, self._answers(encounter, dice))

    def end_round(
        self, encounter: Encounter[Any, Any], dice: Dice
    ) -> tuple[Encounter[Any, Any], list[Event]]:
        return self.ruleset.end_round(encounter, self._answers(encounter, dice))

    def choose(self, encounter: Encounter[Any, Any], cid: str, dice: Dice) -> Action:
        """The action the tactics AI picks for ``cid`` from the legal ones."""
        question = action_question(encounter, self.ruleset, cid)
        return self._answers(encounter, dice).ask(encounter, question)

    def perform(
        self, encounter: Encounter[Any, Any], cid: str, action: Action, dice: Dice
    ) -> tuple[Encounter[Any, Any], list[Event]]:
        return self.ruleset.perform(encounter, cid, action, self._answers(encounter, dice))

    def _answers(self, encounter: Encounter[Any, Any], dice: Dice) -> Answers[Any, Any]:
        return self.answers(dice, encounter.combatants[0].sheet)


def build(
    ruleset: Ruleset[Any, Any], *members: tuple[str, str, Any, Any]
) -> tuple[Encounter[Any, Any], Driver]:
    """An encounter of ``(id, side, sheet, tactics)`` members, and its driver."""
    combatants = tuple(Combatant(cid, side, named(sheet, cid)) for cid, side, sheet, _ in members)
    encounter = Encounter(combatants, {c.id: ruleset.initial_state(c.sheet) for c in combatants})
    tactics = {cid: t for cid, _, _, t in members if t is not None}
    return encounter, Driver(ruleset, tactics)


def with_actions(encounter: Encounter[Any, Any], cid: str, actions: int) -> Encounter[Any, Any]:
    """A Midian combatant with ``actions`` actions left this round."""
    from dataclasses import replace

    state = encounter.states[cid]
    return encounter.with_state(cid, replace(state, pool=replace(state.pool, actions=actions)))
