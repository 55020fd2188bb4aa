"""MST-2 as a :class:`~affray.encounter.ruleset.Ruleset`: fights with many combatants.

Each round every combatant still fighting acts once, in the order listed or
shuffled each round. Melee follows the reach rule per pair of engaged
combatants; shooting, fleeing, stepping away and non-combat actions draw free
counter-attacks from engaged foes in reach. Decisions (see docs/encounters.md):

- Engaging: a combatant attacking a foe it is not engaged with meets it at the
  longer of their two reaches (as a duel opens), then the reach rule applies.
  Attacking a second foe does not free the first.
- Near (for stray shots): the combatants in the target's melee, i.e. joined to
  it through engagements. An unengaged target has no one near.
- A combatant out of the fight (or fled) leaves all its engagements.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from affray.dice import Dice
from affray.encounter.events import ActionChosen, Disengaged, Engaged
from affray.encounter.model import Encounter
from affray.encounter.tactics import target_policy
from affray.events import Event
from affray.rules.mst2.catalog import Reach
from affray.rules.mst2.fighter import Fighter
from affray.rules.mst2.ranged import Target, ranged_attack
from affray.rules.mst2.reach import (
    Engagement,
    flee,
    melee_attack,
    non_combat_action,
    opening_distance,
    take_counter_attacks,
)
from affray.rules.mst2.state import FighterState, Lethality


@dataclass(frozen=True, slots=True)
class Melee:
    target: str


@dataclass(frozen=True, slots=True)
class Shoot:
    target: str


@dataclass(frozen=True, slots=True)
class StepAway:
    """Disengage from every foe and stay in the fight (free counter-attacks)."""


@dataclass(frozen=True, slots=True)
class Flee:
    """Disengage and leave the fight (free counter-attacks)."""


@dataclass(frozen=True, slots=True)
class NonCombat:
    label: str


@dataclass(frozen=True, slots=True)
class Hold:
    """Do nothing this turn."""


Action = Melee | Shoot | StepAway | Flee | NonCombat | Hold


class Mst2Ruleset:
    """The MST-2 rules for the encounter engine.

    Args:
        lethality: what a failed shock check means.
        order: ``listed`` (turns in listing order) or ``shuffled`` (a new random
            order each round, drawn with the Dice source).
        counter_prevents_action: whether a hit spoils a non-combat action.
        ranged_extra_power: whether extra power dice add to missiles.
    """

    system = "mst2"

    def __init__(
        self,
        *,
        lethality: Lethality = Lethality.STANDARD,
        order: str = "listed",
        counter_prevents_action: bool = False,
        ranged_extra_power: bool = False,
    ) -> None:
        if order not in ("listed", "shuffled"):
            raise ValueError(f"order must be listed or shuffled, not {order!r}")
        self.lethality = lethality
        self.order = order
        self.counter_prevents_action = counter_prevents_action
        self.ranged_extra_power = ranged_extra_power

    # -- the Ruleset protocol ---------------------------------------------------------

    def initial_state(self, sheet: Fighter) -> FighterState:
        return FighterState()

    def fighting(self, encounter: Encounter, cid: str) -> bool:
        return self._state(encounter, cid).fighting

    def condition(self, encounter: Encounter, cid: str) -> str:
        return self._state(encounter, cid).condition.value

    def snapshot(self, encounter: Encounter, cid: str) -> dict[str, Any]:
        return {"wounds": self._state(encounter, cid).wounds}

    def weakness(self, encounter: Encounter, cid: str) -> float:
        """Wounds minus the mean hit-dice total: the nearer a shock check is to failing."""
        sheet = self._sheet(encounter, cid)
        mean = sum(
            (Fraction(s + 1, 2) for s in sheet.hit_dice.pool), Fraction(sheet.hit_dice.bonus)
        )
        return float(self._state(encounter, cid).wounds - mean)

    def begin_round(
        self, encounter: Encounter, dice: Dice
    ) -> tuple[Encounter, list[Event], Sequence[str]]:
        order = [c.id for c in encounter.combatants if self.fighting(encounter, c.id)]
        if self.order == "shuffled":
            for i in range(len(order) - 1, 0, -1):  # Fisher-Yates, with the Dice source
                j = dice.roll(i + 1, f"round {encounter.round} order").face - 1
                order[i], order[j] = order[j], order[i]
        return encounter, [], order

    def take_turn(
        self, encounter: Encounter, cid: str, dice: Dice
    ) -> tuple[Encounter, list[Event]]:
        action = self.choose(encounter, cid, dice)
        encounter, events = self.perform(encounter, cid, action, dice)
        return encounter, [_announce(cid, action), *events]

    def end_round(self, encounter: Encounter, dice: Dice) -> tuple[Encounter, list[Event]]:
        return encounter, []

    # -- tactics ---------------------------------------------------------------------

    def choose(self, encounter: Encounter, cid: str, dice: Dice) -> Action:
        """The action ``cid``'s tactics pick: flee when hurt enough, shoot as an archer
        while no foe is on it, otherwise melee with a target from its policy."""
        me = encounter.combatant(cid)
        tactics = me.tactics
        state = self._state(encounter, cid)
        if tactics.retreat_at is not None and state.wounds >= tactics.retreat_at:
            return Flee()
        foes = [f.id for f in encounter.foes(cid) if self.fighting(encounter, f.id)]
        if not foes:
            return Hold()
        engaged = [f for f in encounter.engaged_with(cid) if f in foes]
        policy = target_policy(tactics.target)
        if tactics.role == "archer" and me.sheet.missile is not None and not engaged:
            return Shoot(policy(encounter, self, cid, foes, dice))
        return Melee(policy(encounter, self, cid, engaged or foes, dice))

    # -- actions ---------------------------------------------------------------------

    def perform(
        self, encounter: Encounter, cid: str, action: Action, dice: Dice
    ) -> tuple[Encounter, list[Event]]:
        """Carry out ``action`` for ``cid`` (what a game master's tracker calls directly)."""
        match action:
            case Melee(target):
                return self._melee(encounter, cid, target, dice)
            case Shoot(target):
                return self._shoot(encounter, cid, target, dice)
            case StepAway():
                return self._step_away(encounter, cid, dice)
            case Flee():
                return self._flee(encounter, cid, dice)
            case NonCombat(label):
                return self._non_combat(encounter, cid, label, dice)
            case Hold():
                return encounter, []
        raise AssertionError(f"unknown action {action!r}")  # pragma: no cover

    def _melee(
        self, encounter: Encounter, cid: str, target: str, dice: Dice
    ) -> tuple[Encounter, list[Event]]:
        me, foe = self._sheet(encounter, cid), self._sheet(encounter, target)
        events: list[Event] = []
        distance = encounter.distance(cid, target)
        if distance is None:
            distance = opening_distance(me, foe)
            encounter = encounter.engage(cid, target, distance)
            events.append(Engaged(cid, target, distance.label))
        result = melee_attack(
            me,
            self._state(encounter, cid),
            foe,
            self._state(encounter, target),
            distance,
            dice,
            lethality=self.lethality,
        )
        events.extend(result.events)
        encounter = encounter.with_state(cid, result.attacker).with_state(target, result.defender)
        encounter = encounter.engage(cid, target, result.distance)
        return self._release_fallen(encounter, (cid, target)), events

    def _shoot(
        self, encounter: Encounter, cid: str, target: str, dice: Dice
    ) -> tuple[Encounter, list[Event]]:
        me = self._sheet(encounter, cid)
        near = [n for n in encounter.cluster(target) if n != cid and self.fighting(encounter, n)]
        candidates = [target, *near]
        result = ranged_attack(
            me,
            self._state(encounter, cid),
            Target(self._sheet(encounter, target), self._state(encounter, target)),
            dice,
            nearby=[Target(self._sheet(encounter, n), self._state(encounter, n)) for n in near],
            engaged=self._engagements(encounter, cid),
            extra_power=self.ranged_extra_power,
            lethality=self.lethality,
        )
        encounter = encounter.with_state(cid, result.shooter)
        if result.attack is not None and result.victim is not None:
            encounter = encounter.with_state(candidates[result.victim], result.attack.defender)
        return self._release_fallen(encounter, (cid, *candidates)), list(result.events)

    def _step_away(
        self, encounter: Encounter, cid: str, dice: Dice
    ) -> tuple[Encounter, list[Event]]:
        foes = encounter.engaged_with(cid)
        counters = take_counter_attacks(
            self._sheet(encounter, cid),
            self._state(encounter, cid),
            self._engagements(encounter, cid),
            dice,
            reason="disengaging",
            lethality=self.lethality,
        )
        events: list[Event] = list(counters.events)
        encounter = encounter.with_state(cid, counters.state)
        if counters.state.fighting and foes:
            encounter = encounter.release(cid)
            events.append(Disengaged(cid, tuple(foes)))
        return self._release_fallen(encounter, (cid,)), events

    def _flee(self, encounter: Encounter, cid: str, dice: Dice) -> tuple[Encounter, list[Event]]:
        result = flee(
            self._sheet(encounter, cid),
            self._state(encounter, cid),
            self._engagements(encounter, cid),
            dice,
            lethality=self.lethality,
        )
        encounter = encounter.with_state(cid, result.state)
        return encounter.release(cid), list(result.events)

    def _non_combat(
        self, encounter: Encounter, cid: str, label: str, dice: Dice
    ) -> tuple[Encounter, list[Event]]:
        result = non_combat_action(
            self._sheet(encounter, cid),
            self._state(encounter, cid),
            label,
            self._engagements(encounter, cid),
            dice,
            counter_prevents=self.counter_prevents_action,
            lethality=self.lethality,
        )
        encounter = encounter.with_state(cid, result.state)
        return self._release_fallen(encounter, (cid,)), list(result.events)

    # -- helpers -----------------------------------------------------------------------

    def _sheet(self, encounter: Encounter, cid: str) -> Fighter:
        sheet = encounter.combatant(cid).sheet
        assert isinstance(sheet, Fighter)
        return sheet

    def _state(self, encounter: Encounter, cid: str) -> FighterState:
        state = encounter.states[cid]
        assert isinstance(state, FighterState)
        return state

    def _engagements(self, encounter: Encounter, cid: str) -> list[Engagement]:
        """Engaged foes still fighting, with their distances, in listing order."""
        return [
            Engagement(
                self._sheet(encounter, f),
                self._state(encounter, f),
                _reach(encounter.distance(cid, f)),
            )
            for f in encounter.engaged_with(cid)
            if self.fighting(encounter, f)
            and encounter.combatant(f).side != encounter.combatant(cid).side
        ]

    def _release_fallen(self, encounter: Encounter, ids: Sequence[str]) -> Encounter:
        for cid in dict.fromkeys(ids):
            if not self.fighting(encounter, cid):
                encounter = encounter.release(cid)
        return encounter


def _announce(cid: str, action: Action) -> ActionChosen:
    match action:
        case Melee(target):
            return ActionChosen(cid, "melee", target)
        case Shoot(target):
            return ActionChosen(cid, "shoot", target)
        case StepAway():
            return ActionChosen(cid, "step away")
        case Flee():
            return ActionChosen(cid, "flee")
        case NonCombat(label):
            return ActionChosen(cid, label)
        case Hold():
            return ActionChosen(cid, "hold")
    raise AssertionError(f"unknown action {action!r}")  # pragma: no cover


def _reach(distance: object) -> Reach:
    assert isinstance(distance, Reach)
    return distance
