"""Coin's rules: its sheets, states, event, question and ruleset, and its AI."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import ClassVar

from affray.dice import Dice
from affray.encounter import (
    Action,
    Answers,
    Attack,
    Encounter,
    Hold,
    Outcome,
    Question,
    Targeting,
    Topic,
)
from affray.encounter.questions import OptionT
from affray.events import Event


@dataclass(frozen=True, slots=True)
class Coin:
    name: str
    hits: int
    knack: int


@dataclass(frozen=True, slots=True)
class CoinState:
    hits: int


@dataclass(frozen=True, slots=True)
class Flipped(Event):
    attacker: str
    target: str
    face: int
    hit: bool
    ducked: bool
    hits_left: int


class CoinTopic(Enum):
    """The toy's own question: whether the target ducks (``--choose duck=...``)."""

    DUCK = "duck"


@dataclass(frozen=True, slots=True)
class Duck:
    label: ClassVar[str] = "duck"


@dataclass(frozen=True, slots=True)
class TakeIt:
    label: ClassVar[str] = "take it"


CoinEncounter = Encounter[Coin, CoinState]


class CoinRuleset:
    system = "coin"

    def __init__(self, *, knack_bonus: int = 0) -> None:
        self.knack_bonus = knack_bonus

    def initial_state(self, sheet: Coin) -> CoinState:
        return CoinState(sheet.hits)

    def fighting(self, encounter: CoinEncounter, cid: str) -> bool:
        return encounter.states[cid].hits > 0

    def condition(self, encounter: CoinEncounter, cid: str) -> str:
        return "fighting" if self.fighting(encounter, cid) else "out"

    def snapshot(self, encounter: CoinEncounter, cid: str) -> Mapping[str, object]:
        return {"hits": encounter.states[cid].hits}

    def weakness(self, encounter: CoinEncounter, cid: str) -> float:
        return -float(encounter.states[cid].hits)

    def begin_round(
        self, encounter: CoinEncounter, answers: Answers[Coin, CoinState]
    ) -> tuple[CoinEncounter, list[Event], Sequence[str]]:
        return encounter, [], [c.id for c in encounter.combatants if self.fighting(encounter, c.id)]

    def begin_turn(
        self, encounter: CoinEncounter, cid: str, answers: Answers[Coin, CoinState]
    ) -> tuple[CoinEncounter, list[Event], bool]:
        return encounter, [], True

    def actions(self, encounter: CoinEncounter, cid: str) -> Sequence[Action]:
        foes = [f.id for f in encounter.foes(cid) if self.fighting(encounter, f.id)]
        return [*(Attack(f) for f in foes), Hold()]

    def perform(
        self,
        encounter: CoinEncounter,
        cid: str,
        action: Action,
        answers: Answers[Coin, CoinState],
    ) -> Outcome[Coin, CoinState]:
        if not isinstance(action, Attack) or action.target is None:
            return encounter, []
        target = action.target
        face = answers.dice.roll(6, f"{cid}'s flip").face
        hit = face + encounter.sheet(cid).knack + self.knack_bonus >= 4
        ducked = False
        if hit:
            choice = answers.ask(
                encounter, Question(target, CoinTopic.DUCK, "duck?", (Duck(), TakeIt()))
            )
            if isinstance(choice, Duck):
                ducked = answers.dice.roll(6, f"{target}'s duck").face >= 5
        state = encounter.states[target]
        if hit and not ducked:
            state = replace(state, hits=state.hits - 1)
            encounter = encounter.with_state(target, state)
        return encounter, [Flipped(cid, target, face, hit, ducked, state.hits)]

    def end_round(
        self, encounter: CoinEncounter, answers: Answers[Coin, CoinState]
    ) -> Outcome[Coin, CoinState]:
        return encounter, []


@dataclass(slots=True)
class CoinAI:
    ruleset: CoinRuleset
    dice: Dice
    tactics: Mapping[str, Targeting]

    def choose(self, encounter: CoinEncounter, question: Question[OptionT]) -> OptionT:
        if question.topic is Topic.ACTION:
            targets = [o.target for o in question.options if isinstance(o, Attack) and o.target]
            if targets:
                policy = self.tactics.get(question.who, Targeting.NEAREST)
                wanted = Attack(
                    policy.pick(encounter, self.ruleset, question.who, targets, self.dice)
                )
                return next(o for o in question.options if o == wanted)
        return question.options[0]
