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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import ClassVar

from affray.dice import Dice
from affray.encounter import (
    Action,
    Answers,
    Attack,
    Encounter,
    Flee,
    Hold,
    Outcome,
    Question,
    Shoot,
)
from affray.encounter.events import Disengaged, Engaged
from affray.errors import RulesError
from affray.events import Event
from affray.rulesystems.mst2.catalog import CIRCUMSTANCES, Circumstance, Reach
from affray.rulesystems.mst2.fighter import Fighter
from affray.rulesystems.mst2.ranged import Target, ranged_attack
from affray.rulesystems.mst2.reach import (
    Engagement,
    flee,
    melee_attack,
    non_combat_action,
    opening_distance,
    take_counter_attacks,
)
from affray.rulesystems.mst2.state import FighterState, Lethality
from affray.rulesystems.mst2.topics import Mst2Topic


@dataclass(frozen=True, slots=True)
class StepAway(Action):
    """Disengage from every foe and stay in the fight (free counter-attacks)."""

    kind: ClassVar[str] = "step away"
    words: ClassVar[str] = "steps back out of the melee"


@dataclass(frozen=True, slots=True)
class NonCombat(Action):
    """Anything that is not an attack (drink a potion, open a door): engaged foes in
    reach get a free counter-attack."""

    what: str = "acts"
    kind: ClassVar[str] = "non-combat"

    @property
    def name(self) -> str:
        return self.what

    def announce(self) -> str:
        return self.what


class TurnOrder(Enum):
    """The order of turns each round: as listed, or shuffled anew (with the dice)."""

    LISTED = "listed"
    SHUFFLED = "shuffled"


Mst2Encounter = Encounter[Fighter, FighterState]
Mst2Answers = Answers[Fighter, FighterState]
Mst2Outcome = Outcome[Fighter, FighterState]


@dataclass(frozen=True, slots=True)
class Plain:
    """No circumstance favours the attack."""

    @property
    def label(self) -> str:
        return "none"


PLAIN = Plain()


def ask_circumstance(
    encounter: Mst2Encounter, cid: str, target: str, answers: Mst2Answers, *, ask: bool = True
) -> tuple[Circumstance, ...]:
    """What favours ``cid``'s attack on ``target`` (a game master's call: helpless,
    sneak attack, ...); the answer's extra power dice join the attack. Not ``ask``:
    none (a table's default: the game master gives a circumstance by fiat, or asks
    for the question with the option ``ask_circumstance``)."""
    if not ask:
        return ()
    options: tuple[Plain | Circumstance, ...] = (PLAIN, *CIRCUMSTANCES.values())
    template = "{who} attacks {about}: does any circumstance add power?"
    question = Question.named(cid, Mst2Topic.CIRCUMSTANCE, template, options, about=target)
    answer = answers.ask(encounter, question)
    return (answer,) if isinstance(answer, Circumstance) else ()


class Mst2Ruleset:
    """The MST-2 rules for the encounter engine.

    Args:
        lethality: what a failed shock check means.
        order: ``listed`` (turns in listing order) or ``shuffled`` (a new random
            order each round, drawn with the Dice source).
        counter_prevents_action: whether a hit spoils a non-combat action.
        ranged_extra_power: whether extra power dice add to missiles.
        ask_circumstance: whether each attack asks what circumstance favours it (else
            none does).
    """

    system = "mst2"

    def __init__(
        self,
        *,
        lethality: Lethality = Lethality.STANDARD,
        order: TurnOrder = TurnOrder.LISTED,
        counter_prevents_action: bool = False,
        ranged_extra_power: bool = False,
        ask_circumstance: bool = True,
    ) -> None:
        self.lethality = lethality
        self.order = order
        self.counter_prevents_action = counter_prevents_action
        self.ranged_extra_power = ranged_extra_power
        self.ask_circumstance = ask_circumstance

    # -- the Ruleset protocol ---------------------------------------------------------

    def initial_state(self, sheet: Fighter) -> FighterState:
        return FighterState()

    def fighting(self, encounter: Mst2Encounter, cid: str) -> bool:
        return encounter.states[cid].fighting

    def condition(self, encounter: Mst2Encounter, cid: str) -> str:
        return encounter.states[cid].condition.value

    def snapshot(self, encounter: Mst2Encounter, cid: str) -> Mapping[str, object]:
        return {"wounds": encounter.states[cid].wounds}

    def weakness(self, encounter: Mst2Encounter, cid: str) -> float:
        """Wounds minus the mean hit-dice total: the nearer a shock check is to failing."""
        sheet = encounter.sheet(cid)
        mean = sum(
            (Fraction(s + 1, 2) for s in sheet.hit_dice.pool), Fraction(sheet.hit_dice.bonus)
        )
        return float(encounter.states[cid].wounds - mean)

    def begin_round(
        self, encounter: Mst2Encounter, answers: Mst2Answers
    ) -> tuple[Mst2Encounter, list[Event], Sequence[str]]:
        order = [c.id for c in encounter.combatants if self.fighting(encounter, c.id)]
        if self.order is TurnOrder.SHUFFLED:
            for i in range(len(order) - 1, 0, -1):  # Fisher-Yates, with the Dice source
                j = answers.dice.roll(i + 1, f"round {encounter.round} order").face - 1
                order[i], order[j] = order[j], order[i]
        return encounter, [], order

    def begin_turn(
        self, encounter: Mst2Encounter, cid: str, answers: Mst2Answers
    ) -> tuple[Mst2Encounter, list[Event], bool]:
        return encounter, [], True

    def actions(self, encounter: Mst2Encounter, cid: str) -> Sequence[Action]:
        """Attack any foe still fighting (an engaged one, or meet a new one), shoot one
        with a missile weapon, step away while engaged, flee, act otherwise, hold."""
        foes = [f.id for f in encounter.foes(cid) if self.fighting(encounter, f.id)]
        legal: list[Action] = [Attack(f) for f in foes]
        if encounter.sheet(cid).missile is not None:
            legal.extend(Shoot(f) for f in foes)
        if encounter.engaged_with(cid):
            legal.append(StepAway())
        legal.extend((Flee(), NonCombat(), Hold()))
        return legal

    def end_round(self, encounter: Mst2Encounter, answers: Mst2Answers) -> Mst2Outcome:
        return encounter, []

    # -- actions ---------------------------------------------------------------------

    def perform(
        self, encounter: Mst2Encounter, cid: str, action: Action, answers: Mst2Answers
    ) -> Mst2Outcome:
        """Carry out ``action`` for ``cid``."""
        dice = answers.dice
        match action:
            case Attack(target=str(target)):
                favour = ask_circumstance(
                    encounter, cid, target, answers, ask=self.ask_circumstance
                )
                return self._melee(encounter, cid, target, dice, favour)
            case Shoot(target=str(target)):
                favour = ask_circumstance(
                    encounter, cid, target, answers, ask=self.ask_circumstance
                )
                return self._shoot(encounter, cid, target, dice, favour)
            case StepAway():
                return self._step_away(encounter, cid, dice)
            case Flee():
                return self._flee(encounter, cid, dice)
            case NonCombat(what=what):
                return self._non_combat(encounter, cid, what, dice)
            case Hold():
                return encounter, []
        raise RulesError(
            f"{action.label!r} is not an MST-2 action",
            hint="choose one of: " + ", ".join(a.label for a in self.actions(encounter, cid)),
        )

    def _melee(
        self,
        encounter: Mst2Encounter,
        cid: str,
        target: str,
        dice: Dice,
        circumstances: Sequence[Circumstance] = (),
    ) -> Mst2Outcome:
        me, foe = encounter.sheet(cid), encounter.sheet(target)
        events: list[Event] = []
        engaged_at = encounter.distance(cid, target)
        if engaged_at is not None:
            distance = Reach.named(engaged_at)
        else:
            distance = opening_distance(me, foe)
            encounter = encounter.engage(cid, target, distance.label)
            events.append(Engaged(cid, target, distance.label))
        result = melee_attack(
            me,
            encounter.state(cid),
            foe,
            encounter.state(target),
            distance,
            dice,
            circumstances=circumstances,
            lethality=self.lethality,
        )
        events.extend(result.events)
        encounter = encounter.with_state(cid, result.attacker).with_state(target, result.defender)
        encounter = encounter.engage(cid, target, result.distance.label)
        return self._release_fallen(encounter, (cid, target)), events

    def _shoot(
        self,
        encounter: Mst2Encounter,
        cid: str,
        target: str,
        dice: Dice,
        circumstances: Sequence[Circumstance] = (),
    ) -> Mst2Outcome:
        me = encounter.sheet(cid)
        near = [n for n in encounter.cluster(target) if n != cid and self.fighting(encounter, n)]
        candidates = [target, *near]
        result = ranged_attack(
            me,
            encounter.state(cid),
            Target(encounter.sheet(target), encounter.state(target)),
            dice,
            nearby=[Target(encounter.sheet(n), encounter.state(n)) for n in near],
            engaged=self._engagements(encounter, cid),
            extra_power=self.ranged_extra_power,
            circumstances=circumstances,
            lethality=self.lethality,
        )
        encounter = encounter.with_state(cid, result.shooter)
        if result.attack is not None and result.victim is not None:
            encounter = encounter.with_state(candidates[result.victim], result.attack.defender)
        return self._release_fallen(encounter, (cid, *candidates)), list(result.events)

    def _step_away(self, encounter: Mst2Encounter, cid: str, dice: Dice) -> Mst2Outcome:
        foes = encounter.engaged_with(cid)
        counters = take_counter_attacks(
            encounter.sheet(cid),
            encounter.state(cid),
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

    def _flee(self, encounter: Mst2Encounter, cid: str, dice: Dice) -> Mst2Outcome:
        result = flee(
            encounter.sheet(cid),
            encounter.state(cid),
            self._engagements(encounter, cid),
            dice,
            lethality=self.lethality,
        )
        encounter = encounter.with_state(cid, result.state)
        return encounter.release(cid), list(result.events)

    def _non_combat(
        self, encounter: Mst2Encounter, cid: str, label: str, dice: Dice
    ) -> Mst2Outcome:
        result = non_combat_action(
            encounter.sheet(cid),
            encounter.state(cid),
            label,
            self._engagements(encounter, cid),
            dice,
            counter_prevents=self.counter_prevents_action,
            lethality=self.lethality,
        )
        encounter = encounter.with_state(cid, result.state)
        return self._release_fallen(encounter, (cid,)), list(result.events)

    # -- helpers -----------------------------------------------------------------------

    def _engagements(self, encounter: Mst2Encounter, cid: str) -> list[Engagement]:
        """Engaged foes still fighting, with their distances, in listing order."""
        return [
            Engagement(
                encounter.sheet(f),
                encounter.state(f),
                _reach(encounter.distance(cid, f)),
            )
            for f in encounter.engaged_with(cid)
            if self.fighting(encounter, f)
            and encounter.combatant(f).side != encounter.combatant(cid).side
        ]

    def _release_fallen(self, encounter: Mst2Encounter, ids: Sequence[str]) -> Mst2Encounter:
        for cid in dict.fromkeys(ids):
            if not self.fighting(encounter, cid):
                encounter = encounter.release(cid)
        return encounter


def _reach(distance: str | None) -> Reach:
    if distance is None:
        raise ValueError("not engaged")
    return Reach.named(distance)
