"""The Midian tactics AI: answers a combatant's questions (its stance for the round,
its action, its defences) from the legal options, following its tactics."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from affray.dice import Dice, mean
from affray.encounter import Action, Attack, Flee, Hold, Question, Shoot, Targeting, Topic
from affray.encounter.questions import OptionT
from affray.rulesystems.midian.actions import (
    DEFENDING,
    BothWeapons,
    Defend,
    Disarm,
    Escape,
    Grapple,
    KeepHold,
    KeepSet,
    SetAgainstCharge,
)
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.damage import striking_dice
from affray.rulesystems.midian.defence import Choice, Cost, Stance
from affray.rulesystems.midian.ruleset import MidianRuleset, disarmable
from affray.rulesystems.midian.state import (
    CHARGE_RUN_UP,
    MidianEncounter,
    armed,
    foes_fighting,
    lost,
    within_reach,
)
from affray.rulesystems.midian.topics import MidianTopic


class Role(Enum):
    """How a combatant fights: ``fighter`` (melee), ``archer`` (shoots while no foe is
    on it), ``grappler`` (seizes foes), ``disarmer`` (takes weapons first), ``pikeman``
    (sets against a charge while there is room for one)."""

    FIGHTER = "fighter"
    ARCHER = "archer"
    GRAPPLER = "grappler"
    DISARMER = "disarmer"
    PIKEMAN = "pikeman"


@dataclass(frozen=True, slots=True)
class MidianTactics:
    """How the AI fights for one combatant (named in the encounter file).

    Attributes:
        target: how it picks a foe.
        role: its way of fighting.
        retreat_at: flee once the points of damage taken reach this (``None``: never).
        stance: its stance each round.
        defend_at: switch to total defence once the damage taken reaches this.
    """

    target: Targeting = Targeting.NEAREST
    role: Role = Role.FIGHTER
    retreat_at: int | None = None
    stance: Stance = Stance.NORMAL
    defend_at: int | None = None


@dataclass(slots=True)
class MidianAI:
    """The tactics AI. Stance: total defence once hurt past ``defend_at``, otherwise
    its own. Action: flee when hurt past ``retreat_at`` (unless holding someone); stay
    on the defence its stance calls for; keep a hold; otherwise what its role says,
    at a target its policy picks (an engaged foe first), with both weapons when it
    has two. Defence: the best one open
    (a free parry or block first). Other questions get their first option."""

    ruleset: MidianRuleset
    dice: Dice
    tactics: Mapping[str, MidianTactics] = field(default_factory=dict)

    def choose(self, encounter: MidianEncounter, question: Question[OptionT]) -> OptionT:
        wanted: object
        if question.topic is MidianTopic.STANCE:
            wanted = self.stance(encounter, question.who)
        elif question.topic is Topic.ACTION:
            wanted = self.action(encounter, question.who)
        elif question.topic is MidianTopic.DEFENCE:
            return self.defence(encounter, question)
        else:
            return question.options[0]
        for option in question.options:
            if option == wanted:
                return option
        return question.options[0]

    def defence(self, encounter: MidianEncounter, question: Question[OptionT]) -> OptionT:
        """A free defence always. One that costs an action (the next turn) only when it
        is worth that turn: another action is left this round, or the defender is on
        the defensive, or the blow would likely empty its hit points."""
        best = question.options[0]
        if not isinstance(best, Choice) or best.cost is Cost.FREE:
            return best
        state = encounter.states[question.who]
        attacker = question.about
        likely = likely_damage(encounter, attacker) if attacker is not None else None
        if worth_an_action(state.pool.actions, state.pool.stance, likely, state.health.hit_points):
            return best
        return question.options[-1]  # take it, and keep the action to strike back

    def stance(self, encounter: MidianEncounter, cid: str) -> Stance:
        tactics = self.tactics.get(cid, MidianTactics())
        if tactics.defend_at is not None and lost(encounter, cid) >= tactics.defend_at:
            return Stance.TOTAL_DEFENCE
        return tactics.stance

    def action(self, encounter: MidianEncounter, cid: str) -> Action:
        tactics = self.tactics.get(cid, MidianTactics())
        state = encounter.states[cid]
        if state.held_by:
            return Escape(state.held_by[0])  # break free of the first who took hold
        if (
            tactics.retreat_at is not None
            and lost(encounter, cid) >= tactics.retreat_at
            and state.holding is None
        ):
            return Flee()
        if state.pool.stance in DEFENDING:
            return Defend(stance=state.pool.stance)
        foes = foes_fighting(encounter, cid)
        if not foes:
            return Hold()
        if state.holding is not None:
            return KeepHold(state.holding)
        engaged = [f for f in encounter.engaged_with(cid) if f in foes]
        pick = tactics.target.pick
        role = tactics.role
        sheet = armed(encounter, cid)
        room_to_charge = not engaged and self.ruleset.options.distance >= CHARGE_RUN_UP
        if role is Role.ARCHER and sheet.weapon.ranged and not engaged:
            return Shoot(pick(encounter, self.ruleset, cid, foes, self.dice))
        if role is Role.PIKEMAN and room_to_charge:
            return KeepSet() if state.set_against_charge else SetAgainstCharge()
        near = within_reach(encounter, cid)
        if not near:
            return Hold()  # every foe is surrounded by others
        target = pick(encounter, self.ruleset, cid, engaged or near, self.dice)
        them = encounter.states[target]
        if role is Role.GRAPPLER and sheet.grappling and not them.held_by:
            return Grapple(target)
        if role is Role.DISARMER and disarmable(encounter, cid) and disarmable(encounter, target):
            return Disarm(target)
        if sheet.off_hand is not None and not state.weapon_lost:
            return BothWeapons(target)
        return Attack(target)


def worth_an_action(actions: int, stance: Stance, likely: float | None, hit_points: int) -> bool:
    """Whether a defence that costs an action is worth it: another action is left this
    round (``actions`` counts the one the defence would take), the defender is on the
    defensive, or the attacker's likely damage (None: unknown) would empty its hit points.
    The fast duel engine (:mod:`affray.rulesystems.midian.sim.duels`) follows the same rule."""
    if actions >= 2 or stance is not Stance.NORMAL:
        return True
    return likely is not None and likely >= hit_points


def likely_damage(encounter: MidianEncounter, attacker: str) -> float:
    """The mean damage of ``attacker``'s weapon and damage bonus (before the target's
    resistance and reduction): a tactician's quick estimate."""
    return mean_damage(armed(encounter, attacker))


def mean_damage(sheet: Character) -> float:
    """The mean of a sheet's weapon dice (by linearity: no distribution needed; none for
    an untrained brawler) plus its damage bonus."""
    return float(mean(striking_dice(sheet))) + sheet.damage_bonus
