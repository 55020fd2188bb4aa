"""Midian as a :class:`~affray.encounter.ruleset.Ruleset`: the chapter's round, played out.

Each round: everyone still fighting rolls initiative (last round's shock carried
in); every action slot (several for totals over 10) is a turn, highest first,
ties to the higher Wits. A defence that is not free spends the defender's next
unused action of the round. At the end of the round: holds squeeze, wounds
bleed, system shock is rolled at 0 life points or below, and this round's shock
becomes next round's initiative penalty. Decisions in docs/encounters.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from affray.dice import Dice
from affray.encounter.events import ActionChosen, Engaged, TurnSkipped
from affray.encounter.model import Encounter
from affray.encounter.tactics import target_policy
from affray.events import Event
from affray.rules.midian.character import UNARMED, Character, Encumbrance
from affray.rules.midian.criticals import critical_effect
from affray.rules.midian.damage import roll_damage
from affray.rules.midian.defence import DefencePool, Stance, evade
from affray.rules.midian.events import AttackRolled, CriticalEffect, StatusChanged
from affray.rules.midian.initiative import initiative_modifiers, order_slots, roll_initiative
from affray.rules.midian.injury import Health, end_of_round, take_damage
from affray.rules.midian.modifiers import Modifier, nonzero
from affray.rules.midian.resolve import AttackOutcome, Rules, Situation, resolve_attack
from affray.rules.midian.situations import (
    bodies_in_the_way,
    cover_penalty,
    disarm,
    strikes_obstacle,
)

CHARGE_RUN_UP = 20
KNOCKED_DOWN_ROUNDS = 2


@dataclass(frozen=True, slots=True)
class MidianState:
    """A Midian combatant's state in an encounter."""

    health: Health
    pool: DefencePool
    initiative: int = 0
    fled: bool = False
    surprised: bool = False
    set_against_charge: bool = False
    down_rounds: int = 0
    weapon_lost: bool = False
    holding: str | None = None
    held_by: str | None = None
    focus: str | None = None

    @property
    def fighting(self) -> bool:
        return self.health.fighting and not self.fled


class MidianRuleset:
    """The Midian rules for the encounter engine.

    Args:
        rules: the hit and Willpower options.
        distance: feet between the sides when the fight opens (0: already at blows).
        surprised: names of the sides caught by surprise.
        critical_effects: roll the critical-effect table on every critical (knocked
            down, knocked out and decapitated take effect; the others are narrated).
    """

    system = "midian"

    def __init__(
        self,
        *,
        rules: Rules | None = None,
        distance: int = 0,
        surprised: Sequence[str] = (),
        critical_effects: bool = False,
    ) -> None:
        self.rules = rules or Rules()
        self.distance = distance
        self.surprised = frozenset(surprised)
        self.critical_effects = critical_effects

    # -- the Ruleset protocol ---------------------------------------------------------

    def initial_state(self, sheet: Character) -> MidianState:
        return MidianState(Health.fresh(sheet), DefencePool.fresh(sheet, actions=0))

    def fighting(self, encounter: Encounter, cid: str) -> bool:
        return self._state(encounter, cid).fighting

    def condition(self, encounter: Encounter, cid: str) -> str:
        state = self._state(encounter, cid)
        return "fled" if state.fled else state.health.status

    def snapshot(self, encounter: Encounter, cid: str) -> dict[str, Any]:
        health = self._state(encounter, cid).health
        return {
            "hit_points": health.hit_points,
            "life_points": health.life_points,
            "conscious": health.conscious,
            "alive": health.alive,
        }

    def weakness(self, encounter: Encounter, cid: str) -> float:
        health = self._state(encounter, cid).health
        return -float(health.hit_points + max(health.life_points, 0))

    def begin_round(
        self, encounter: Encounter, dice: Dice
    ) -> tuple[Encounter, list[Event], Sequence[str]]:
        events: list[Event] = []
        active = [c for c in encounter.combatants if self.fighting(encounter, c.id)]
        if encounter.round == 1 and self.surprised:
            sides = set(encounter.sides)
            if self.surprised >= sides:
                for c in active:
                    events.append(TurnSkipped(c.id, "surprised: everyone stands dumbfounded"))
                return encounter, events, []
            order = []
            for c in active:
                caught = c.side in self.surprised
                state = self._state(encounter, c.id)
                pool = DefencePool.fresh(c.sheet, actions=0 if caught else 1)
                encounter = encounter.with_state(c.id, replace(state, pool=pool, surprised=caught))
                if not caught:
                    order.append(c.id)
            return encounter, events, order
        entries: list[tuple[str, int, int]] = []
        for c in active:
            state = self._state(encounter, c.id)
            sheet = self._sheet(encounter, c.id)
            if state.holding is not None:  # a continuing hold rolls no initiative
                pool = DefencePool.fresh(sheet, actions=0, stance=self._stance(encounter, c.id))
                encounter = encounter.with_state(c.id, replace(state, pool=pool))
                continue
            rolled = roll_initiative(
                sheet,
                dice,
                modifiers=initiative_modifiers(
                    sheet, shock=state.health.carried_shock, fatigue=state.health.fatigue
                ),
            )
            events.append(rolled)
            stance = self._stance(encounter, c.id)
            pool = DefencePool.fresh(sheet, actions=len(rolled.slots), stance=stance)
            health = replace(state.health, carried_shock=0)
            if stance is Stance.EVASION:  # one dodge roll at -6 stands for the whole round
                evasion = evade(sheet, dice, penalty=health.penalty)
                events.append(evasion)
                pool = replace(pool, evasion_total=evasion.total)
            encounter = encounter.with_state(
                c.id,
                replace(state, health=health, pool=pool, initiative=rolled.total, surprised=False),
            )
            entries.append((c.id, rolled.total, sheet.wits))
        return encounter, events, [slot.character for slot in order_slots(entries)]

    def take_turn(
        self, encounter: Encounter, cid: str, dice: Dice
    ) -> tuple[Encounter, list[Event]]:
        state = self._state(encounter, cid)
        if state.pool.actions <= 0:
            return encounter, [TurnSkipped(cid, "its action went on defending")]
        encounter = encounter.with_state(
            cid, replace(state, pool=replace(state.pool, actions=state.pool.actions - 1))
        )
        state = self._state(encounter, cid)
        if state.down_rounds:
            return encounter, [TurnSkipped(cid, "getting back up")]
        if state.held_by is not None:
            return self._escape(encounter, cid, dice)
        return self._act(encounter, cid, dice)

    def end_round(self, encounter: Encounter, dice: Dice) -> tuple[Encounter, list[Event]]:
        events: list[Event] = []
        for c in encounter.combatants:
            state = self._state(encounter, c.id)
            if state.holding is not None and state.fighting:
                encounter, more = self._squeeze(encounter, c.id, state.holding, dice)
                events.extend(more)
        for c in encounter.combatants:
            state = self._state(encounter, c.id)
            if not state.health.alive or state.fled:
                continue
            health, more = end_of_round(c.sheet, state.health, dice)
            events.extend(more)
            encounter = encounter.with_state(
                c.id, replace(state, health=health, down_rounds=max(0, state.down_rounds - 1))
            )
            encounter = self._release_fallen(encounter, c.id)
        return encounter, events

    # -- tactics ---------------------------------------------------------------------------

    def _stance(self, encounter: Encounter, cid: str) -> Stance:
        """The stance the tactics pick for the round: total defence once the damage taken
        reaches ``defend_at``, otherwise the tactics' own stance."""
        tactics = encounter.combatant(cid).tactics
        if tactics.defend_at is not None and self._lost(encounter, cid) >= tactics.defend_at:
            return Stance.TOTAL_DEFENCE
        return Stance(tactics.stance)

    def _lost(self, encounter: Encounter, cid: str) -> int:
        """Hit and life points lost so far."""
        sheet, health = self._sheet(encounter, cid), self._state(encounter, cid).health
        return sheet.hit_points + sheet.life_points - health.hit_points - health.life_points

    def _act(self, encounter: Encounter, cid: str, dice: Dice) -> tuple[Encounter, list[Event]]:
        me = encounter.combatant(cid)
        state = self._state(encounter, cid)
        sheet = self._sheet(encounter, cid)
        lost = self._lost(encounter, cid)
        if (
            me.tactics.retreat_at is not None
            and lost >= me.tactics.retreat_at
            and state.holding is None
        ):
            return self._flee(encounter, cid)
        if state.pool.stance in (Stance.TOTAL_DEFENCE, Stance.EVASION):
            return encounter, [ActionChosen(cid, state.pool.stance.value)]
        foes = [f.id for f in encounter.foes(cid) if self.fighting(encounter, f.id)]
        if not foes:
            return encounter, [ActionChosen(cid, "hold")]
        if state.holding is not None:
            return encounter, [ActionChosen(cid, "keeps the hold", state.holding)]
        engaged = [f for f in encounter.engaged_with(cid) if f in foes]
        policy = target_policy(me.tactics.target)
        role = me.tactics.role
        if role == "archer" and sheet.weapon.ranged and not engaged:
            target = policy(encounter, self, cid, foes, dice)
            return self._shoot(encounter, cid, target, dice)
        if (
            role == "pikeman"
            and not engaged
            and self.distance >= CHARGE_RUN_UP
            and not state.set_against_charge
        ):
            encounter = encounter.with_state(cid, replace(state, set_against_charge=True))
            return encounter, [ActionChosen(cid, "sets against a charge")]
        if role == "pikeman" and not engaged and state.set_against_charge:
            return encounter, [ActionChosen(cid, "holds the spear set")]
        target = policy(encounter, self, cid, engaged or foes, dice)
        if (
            role == "grappler"
            and sheet.grappling
            and self._state(encounter, target).held_by is None
        ):
            return self._grapple(encounter, cid, target, dice)
        if (
            role == "disarmer"
            and not self._state(encounter, target).weapon_lost
            and self._sheet(encounter, target).weapon is not UNARMED
        ):
            return self._disarm(encounter, cid, target, dice)
        return self._melee(encounter, cid, target, dice)

    # -- actions -----------------------------------------------------------------------

    def _melee(
        self, encounter: Encounter, cid: str, target: str, dice: Dice
    ) -> tuple[Encounter, list[Event]]:
        events: list[Event] = [ActionChosen(cid, "melee", target)]
        engaged_anyone = bool(encounter.engaged_with(cid))
        charging = (
            self.distance >= CHARGE_RUN_UP
            and not engaged_anyone
            and encounter.distance(cid, target) is None
        )
        if encounter.distance(cid, target) is None:
            encounter = encounter.engage(cid, target, "melee")
            events.append(Engaged(cid, target, "charge" if charging else "melee"))
        target_state = self._state(encounter, target)
        if charging and target_state.set_against_charge:
            me, them = self._sheet(encounter, cid), self._sheet(encounter, target)
            if them.weapon.reach > me.weapon.reach:
                encounter, more = self._strike(
                    encounter, target, cid, dice, Situation(set_against_charge=True)
                )
                events.extend(more)
                if not self.fighting(encounter, cid):
                    return self._unset(encounter, target), events
        encounter, more = self._strike(encounter, cid, target, dice, Situation(charging=charging))
        events.extend(more)
        return self._unset(encounter, target), events

    def _meet(self, encounter: Encounter, cid: str, target: str, events: list[Event]) -> Encounter:
        """Engage ``target`` in melee if not engaged yet (recording it)."""
        if encounter.distance(cid, target) is not None:
            return encounter
        events.append(Engaged(cid, target, "melee"))
        return encounter.engage(cid, target, "melee")

    def _unset(self, encounter: Encounter, cid: str) -> Encounter:
        """Once a charge has met it, a set weapon is no longer set."""
        state = self._state(encounter, cid)
        if not state.set_against_charge:
            return encounter
        return encounter.with_state(cid, replace(state, set_against_charge=False))

    def _strike(
        self,
        encounter: Encounter,
        cid: str,
        target: str,
        dice: Dice,
        situation: Situation,
    ) -> tuple[Encounter, list[Event]]:
        """One attack with everything the positions say. Two or more foes on one target
        gang up: +2 each; the one the target is not facing strikes from the flank (+2,
        only a dodge defends). Knocked down: +4 to hit the fallen, -4 for them. No
        active defence for the surprised or a set defender being charged."""
        me = self._state(encounter, cid)
        them = self._state(encounter, target)
        foes_on_target = [
            f
            for f in encounter.engaged_with(target)
            if self.fighting(encounter, f)
            and encounter.combatant(f).side != encounter.combatant(target).side
        ]
        flanked = len(foes_on_target) >= 2 and them.focus not in (None, cid)
        situation = replace(
            situation,
            from_behind=situation.from_behind or flanked,
            ganging=len(foes_on_target),
            target_down=them.down_rounds > 0,
            attacker_down=me.down_rounds > 0,
            surprised=them.surprised or (situation.charging and them.set_against_charge),
            attacker_defensive=me.pool.stance is Stance.DEFENSIVE,
            defender_stance=them.pool.stance,
        )
        outcome = resolve_attack(
            self._armed(encounter, cid),
            self._sheet(encounter, target),
            them.health,
            dice,
            situation=situation,
            rules=self.rules,
            attacker_penalty=me.health.penalty,
            pool=them.pool,
        )
        encounter = encounter.with_state(
            target, replace(them, health=outcome.health, pool=outcome.pool)
        )
        encounter = encounter.with_state(cid, replace(self._state(encounter, cid), focus=target))
        events = list(outcome.events)
        if outcome.critical and outcome.damage and self.critical_effects:
            encounter, more = self._critical(encounter, target, dice)
            events.extend(more)
        return self._release_fallen(encounter, target), events

    def _shoot(
        self, encounter: Encounter, cid: str, target: str, dice: Dice
    ) -> tuple[Encounter, list[Event]]:
        me = encounter.combatant(cid)
        allies_in_the_way = [
            a
            for a in encounter.engaged_with(target)
            if encounter.combatant(a).side == me.side and self.fighting(encounter, a)
        ]
        cover = bodies_in_the_way(len(allies_in_the_way)) if allies_in_the_way else 0
        situation = Situation(ranged=True, distance=self.distance, cover=cover)
        events: list[Event] = [ActionChosen(cid, "shoot", target)]
        them = self._state(encounter, target)
        sheet = self._sheet(encounter, cid)
        outcome: AttackOutcome = resolve_attack(
            sheet,
            self._sheet(encounter, target),
            them.health,
            dice,
            situation=situation,
            rules=self.rules,
            attacker_penalty=self._state(encounter, cid).health.penalty,
            pool=them.pool,
        )
        events.extend(outcome.events)
        encounter = encounter.with_state(
            target, replace(them, health=outcome.health, pool=outcome.pool)
        )
        if not outcome.hit and allies_in_the_way and not outcome.fumble:
            attack = outcome.events[0]
            assert isinstance(attack, AttackRolled)
            obstacle = allies_in_the_way[0]
            obstacle_sheet = self._sheet(encounter, obstacle)
            if strikes_obstacle(
                attack.total, cover_penalty(cover), attack.armour_class, obstacle_sheet.armour_class
            ):
                encounter, more = self._stray(encounter, cid, obstacle, dice)
                events.extend(more)
        return self._release_fallen(encounter, target), events

    def _stray(
        self, encounter: Encounter, cid: str, obstacle: str, dice: Dice
    ) -> tuple[Encounter, list[Event]]:
        """The shot strikes the ally in the way instead."""
        shooter, victim = self._sheet(encounter, cid), self._sheet(encounter, obstacle)
        damage = roll_damage(shooter, victim, dice, critical=False, modifiers=())
        encounter, hurt = self._hurt(encounter, obstacle, damage.final, dice, f"{cid}'s stray shot")
        struck = StatusChanged(obstacle, "struck", f"in the way of {cid}'s shot")
        return encounter, [struck, damage.event, *hurt]

    def _hurt(
        self, encounter: Encounter, cid: str, amount: int, dice: Dice, source: str
    ) -> tuple[Encounter, list[Event]]:
        """Damage outside an attack roll (a stray shot, a hold): take it, and fall if it fells."""
        state = self._state(encounter, cid)
        injury = take_damage(
            self._sheet(encounter, cid),
            state.health,
            amount,
            dice,
            source=source,
            willpower=self.rules.willpower,
        )
        encounter = encounter.with_state(cid, replace(state, health=injury.health))
        return self._release_fallen(encounter, cid), list(injury.events)

    def _grapple(
        self, encounter: Encounter, cid: str, target: str, dice: Dice
    ) -> tuple[Encounter, list[Event]]:
        events: list[Event] = [ActionChosen(cid, "grapple", target)]
        encounter = self._meet(encounter, cid, target, events)
        them = self._state(encounter, target)
        outcome = resolve_attack(
            self._sheet(encounter, cid),
            self._sheet(encounter, target),
            them.health,
            dice,
            situation=Situation(touch=True),
            rules=self.rules,
            attacker_penalty=self._state(encounter, cid).health.penalty,
            pool=them.pool,
        )
        events.extend(outcome.events)
        them = replace(them, health=outcome.health, pool=outcome.pool)
        if outcome.hit and not outcome.defended:
            them = replace(them, held_by=cid)
            encounter = encounter.with_state(
                cid, replace(self._state(encounter, cid), holding=target)
            )
            events.append(StatusChanged(target, "held", f"in {cid}'s hold"))
        encounter = encounter.with_state(target, them)
        return self._release_fallen(encounter, target), events

    def _squeeze(
        self, encounter: Encounter, holder: str, held: str, dice: Dice
    ) -> tuple[Encounter, list[Event]]:
        """A continuing hold does its damage at the end of the round, without a roll to hit."""
        grip, victim = self._sheet(encounter, holder), self._sheet(encounter, held)
        natural = grip.weapon.encumbrance is Encumbrance.NONE
        dice_text = grip.weapon.damage if natural else "0"
        damage = roll_damage(
            grip,
            victim,
            dice,
            critical=False,
            modifiers=nonzero(Modifier("damage bonus", grip.damage_bonus)),
            damage_dice=dice_text,
            damage_type="smashing",
        )
        encounter, hurt = self._hurt(encounter, held, damage.final, dice, f"{holder}'s hold")
        return encounter, [ActionChosen(holder, "squeezes", held), damage.event, *hurt]

    def _escape(self, encounter: Encounter, cid: str, dice: Dice) -> tuple[Encounter, list[Event]]:
        from affray.rules.midian.situations import escape_hold

        state = self._state(encounter, cid)
        holder = state.held_by
        assert holder is not None
        result, checks = escape_hold(
            self._sheet(encounter, cid), self._sheet(encounter, holder), dice
        )
        events: list[Event] = [
            ActionChosen(cid, "tries to break the hold", holder),
            *checks,
            result,
        ]
        if result.winner == cid:
            encounter = self._break_hold(encounter, holder, cid)
            events.append(StatusChanged(cid, "free", f"broke {holder}'s hold"))
        return encounter, events

    def _disarm(
        self, encounter: Encounter, cid: str, target: str, dice: Dice
    ) -> tuple[Encounter, list[Event]]:
        events: list[Event] = [ActionChosen(cid, "disarm", target)]
        encounter = self._meet(encounter, cid, target, events)
        me, them = self._armed(encounter, cid), self._armed(encounter, target)
        result = disarm(
            me,
            them,
            dice,
            attacker_two_hands=me.weapon.hands == 2,
            defender_two_hands=them.weapon.hands == 2,
        )
        loser = {"disarmed": target, "reversed": cid}.get(result.outcome)
        events.append(
            StatusChanged(
                loser or target,
                "disarmed" if loser else result.outcome,
                f"disarm: {result.attacker_total} against {result.defender_total}",
            )
        )
        if loser is not None:
            encounter = encounter.with_state(
                loser, replace(self._state(encounter, loser), weapon_lost=True)
            )
        return encounter, events

    def _flee(self, encounter: Encounter, cid: str) -> tuple[Encounter, list[Event]]:
        state = self._state(encounter, cid)
        if state.held_by is not None:
            return encounter, [ActionChosen(cid, "cannot flee: held")]
        encounter = encounter.with_state(cid, replace(state, fled=True)).release(cid)
        return encounter, [ActionChosen(cid, "flee"), StatusChanged(cid, "fled", "left the fight")]

    def _critical(
        self, encounter: Encounter, target: str, dice: Dice
    ) -> tuple[Encounter, list[Event]]:
        rolled = critical_effect(target, dice)
        effect: CriticalEffect = rolled[0]
        state = self._state(encounter, target)
        events: list[Event] = list(rolled)
        if effect.effect == "knocked down":
            state = replace(state, down_rounds=KNOCKED_DOWN_ROUNDS)
        elif effect.effect == "blow to the jaw or skull" and state.health.alive:
            state = replace(state, health=replace(state.health, conscious=False))
            events.append(StatusChanged(target, "unconscious", "critical: blow to the jaw"))
        elif effect.effect == "decapitated":
            state = replace(state, health=replace(state.health, alive=False, conscious=False))
            events.append(StatusChanged(target, "dead", "critical: decapitated"))
        return encounter.with_state(target, state), events

    # -- helpers ------------------------------------------------------------------------

    def _sheet(self, encounter: Encounter, cid: str) -> Character:
        sheet = encounter.combatant(cid).sheet
        assert isinstance(sheet, Character)
        return sheet

    def _armed(self, encounter: Encounter, cid: str) -> Character:
        """The sheet with the weapon actually in hand (fists once disarmed)."""
        sheet = self._sheet(encounter, cid)
        return replace(sheet, weapon=UNARMED) if self._state(encounter, cid).weapon_lost else sheet

    def _state(self, encounter: Encounter, cid: str) -> MidianState:
        state = encounter.states[cid]
        assert isinstance(state, MidianState)
        return state

    def _break_hold(self, encounter: Encounter, holder: str, held: str) -> Encounter:
        encounter = encounter.with_state(
            holder, replace(self._state(encounter, holder), holding=None)
        )
        return encounter.with_state(held, replace(self._state(encounter, held), held_by=None))

    def _release_fallen(self, encounter: Encounter, cid: str) -> Encounter:
        state = self._state(encounter, cid)
        if state.fighting:
            return encounter
        if state.holding is not None:
            encounter = self._break_hold(encounter, cid, state.holding)
        if state.held_by is not None:
            encounter = self._break_hold(encounter, state.held_by, cid)
        return encounter.release(cid)
