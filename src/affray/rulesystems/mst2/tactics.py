"""The MST-2 tactics AI: answers a combatant's questions from the same legal
actions a person would see, following the combatant's tactics."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from affray.dice import Dice
from affray.encounter import Action, Attack, Flee, Hold, Question, Shoot, Targeting, Topic
from affray.encounter.questions import OptionT
from affray.rulesystems.mst2.ruleset import Mst2Encounter, Mst2Ruleset


class Role(Enum):
    """``fighter``: melee. ``archer``: shoots while no foe is on it."""

    FIGHTER = "fighter"
    ARCHER = "archer"


@dataclass(frozen=True, slots=True)
class Mst2Tactics:
    """How the AI fights for one combatant (named in the encounter file).

    Attributes:
        target: how it picks a foe.
        role: fighter or archer.
        retreat_at: flee once its wounds reach this many (``None``: never).
    """

    target: Targeting = Targeting.NEAREST
    role: Role = Role.FIGHTER
    retreat_at: int | None = None


@dataclass(slots=True)
class Mst2AI:
    """The tactics AI: flee when hurt enough, shoot as an archer while no foe is on
    it, otherwise attack a target its policy picks (an engaged foe first). Any other
    question gets its first option."""

    ruleset: Mst2Ruleset
    dice: Dice
    tactics: Mapping[str, Mst2Tactics] = field(default_factory=dict)

    def choose(self, encounter: Mst2Encounter, question: Question[OptionT]) -> OptionT:
        if question.topic is not Topic.ACTION:
            return question.options[0]
        wanted = self.action(encounter, question.who)
        for option in question.options:
            if option == wanted:
                return option
        return question.options[0]

    def action(self, encounter: Mst2Encounter, cid: str) -> Action:
        tactics = self.tactics.get(cid, Mst2Tactics())
        if tactics.retreat_at is not None and encounter.states[cid].wounds >= tactics.retreat_at:
            return Flee()
        foes = [f.id for f in encounter.foes(cid) if self.ruleset.fighting(encounter, f.id)]
        if not foes:
            return Hold()
        engaged = [f for f in encounter.engaged_with(cid) if f in foes]
        pick = tactics.target.pick
        if tactics.role is Role.ARCHER and encounter.sheet(cid).missile is not None and not engaged:
            return Shoot(pick(encounter, self.ruleset, cid, foes, self.dice))
        return Attack(pick(encounter, self.ruleset, cid, engaged or foes, self.dice))
