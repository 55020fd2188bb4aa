"""Midian as a :class:`~affray.encounter.ruleset.Ruleset`: the chapter's round, played out.

The round's bookkeeping is in :mod:`.round`, blows in :mod:`.strikes`, close work in
:mod:`.wrestling`, the tactics AI in :mod:`.tactics`; this module lists the legal
actions and performs the one chosen. Decisions in docs/encounters.md.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import replace

from affray.encounter import Action, Attack, Flee, Hold, Shoot
from affray.errors import RulesError
from affray.events import Event
from affray.rulesystems.midian import round as rounds
from affray.rulesystems.midian.actions import (
    DEFENDING,
    AimedAttack,
    BothWeapons,
    Defend,
    Disarm,
    Escape,
    Grapple,
    KeepHold,
    KeepSet,
    SetAgainstCharge,
    TendWounds,
    Wait,
)
from affray.rulesystems.midian.character import Character, Encumbrance
from affray.rulesystems.midian.defence import DefencePool
from affray.rulesystems.midian.events import StatusChanged
from affray.rulesystems.midian.initiative import action_slots
from affray.rulesystems.midian.injury import Health, tend_wounds
from affray.rulesystems.midian.interrupts import interruptions
from affray.rulesystems.midian.resolve import FIDELITY, Readings
from affray.rulesystems.midian.situations import CalledShot
from affray.rulesystems.midian.state import (
    CHARGE_RUN_UP,
    MidianAnswers,
    MidianEncounter,
    MidianOptions,
    MidianOutcome,
    MidianState,
    armed,
    foes_fighting,
    within_reach,
)
from affray.rulesystems.midian.strikes import both_weapons, melee, shoot
from affray.rulesystems.midian.wrestling import disarm, escape, grapple


class MidianRuleset:
    """The Midian rules for the encounter engine; the arguments are the encounter's
    options (:class:`~affray.rulesystems.midian.state.MidianOptions` says what each means)."""

    system = "midian"

    def __init__(
        self,
        *,
        rules: Readings | None = None,
        distance: int = 0,
        surprised: Sequence[str] = (),
        critical_effects: bool = False,
        fumble_effects: bool = False,
        melee_cover: int = 0,
        fidelity: int = FIDELITY,
        critical_numbers: bool = False,
    ) -> None:
        self.options = MidianOptions(
            rules or Readings(),
            distance,
            frozenset(surprised),
            critical_effects,
            fumble_effects,
            melee_cover,
            fidelity,
            critical_numbers,
        )
        self.interruptible = True

    def at_era(self, era: int) -> MidianRuleset:
        """These rules as a table played a change logged in its ``era``
        (:data:`affray.table.state.ERA`): round 3 of fidelity came with era 3 and round
        4 with era 4, so a change of an older era replays with the round of its own
        (docs/table.md, "Old tables")."""
        if era >= FIDELITY:
            return self
        other = copy.copy(self)
        other.options = replace(self.options, fidelity=3 if era == 3 else 2)
        return other

    def uninterrupted(self) -> MidianRuleset:
        """The same rules, where no one may interrupt (for the turn of an interrupt)."""
        other = copy.copy(self)
        other.interruptible = False
        return other

    # -- the Ruleset protocol ---------------------------------------------------------

    def initial_state(self, sheet: Character) -> MidianState:
        return MidianState(Health.fresh(sheet), DefencePool.fresh(sheet, actions=0))

    def fighting(self, encounter: MidianEncounter, cid: str) -> bool:
        return encounter.states[cid].fighting

    def condition(self, encounter: MidianEncounter, cid: str) -> str:
        state = encounter.states[cid]
        return "fled" if state.fled else state.health.status

    def snapshot(self, encounter: MidianEncounter, cid: str) -> Mapping[str, object]:
        state = encounter.states[cid]
        health = state.health
        return {
            "hit_points": health.hit_points,
            "life_points": health.life_points,
            "conscious": health.conscious,
            "alive": health.alive,
            "serious_wounds": health.serious_wounds,  # each bleeds at the end of a round
            "shock": health.shock,  # this round's penalty to every roll so far
            "initiative": state.initiative,
            "actions_left": state.pool.actions,
            "stance": state.pool.stance.value,  # how it fights this round
        }

    def weakness(self, encounter: MidianEncounter, cid: str) -> float:
        health = encounter.states[cid].health
        return -float(health.hit_points + max(health.life_points, 0))

    def begin_round(
        self, encounter: MidianEncounter, answers: MidianAnswers
    ) -> tuple[MidianEncounter, list[Event], Sequence[str]]:
        return rounds.begin_round(self.options, encounter, answers)

    def begin_turn(
        self, encounter: MidianEncounter, cid: str, answers: MidianAnswers
    ) -> tuple[MidianEncounter, list[Event], bool]:
        encounter, events, free = rounds.begin_turn(encounter, cid)
        if not free or not self.interruptible:
            return encounter, events, free
        encounter, more, free = interruptions(self, encounter, cid, answers)
        return encounter, [*events, *more], free

    def actions(self, encounter: MidianEncounter, cid: str) -> Sequence[Action]:
        return legal_actions(self.options, encounter, cid)

    def perform(
        self, encounter: MidianEncounter, cid: str, action: Action, answers: MidianAnswers
    ) -> MidianOutcome:
        return perform(self.options, encounter, cid, action, answers)

    def end_round(self, encounter: MidianEncounter, answers: MidianAnswers) -> MidianOutcome:
        return rounds.end_round(self.options, encounter, answers)


def legal_actions(options: MidianOptions, encounter: MidianEncounter, cid: str) -> Sequence[Action]:
    """Every action open to ``cid`` now.

    Held: only trying to break free of a holder, or (with the grappling skill, not
    holding anyone yet) grappling a holder back. On total defence or evasion: defending, fleeing
    or holding. Holding someone: keeping the hold (or fleeing is out: let go first).
    Otherwise attack (plainly, or with an easy or hard called shot), shoot (with a
    ranged weapon), grapple (with the grappling skill, a foe not yet held) or disarm
    (a foe with a weapon) any foe still fighting; set a weapon against a charge
    while there is room to charge; bind the bleeding wounds of oneself or an ally;
    flee. Always: wait for the next in the round's order still fighting to act (if
    there is one, and this turn is not already a waited one), or hold.
    """
    state = encounter.states[cid]
    if state.held_by:  # held: break free, or (with the skill) grapple a holder back
        grip = [Grapple(h) for h in state.held_by if encounter.sheet(cid).grappling]
        if state.holding is not None:
            grip = []  # already holding one of them
        return [*(Escape(h) for h in state.held_by), *grip]
    legal: list[Action] = []
    if state.pool.stance in DEFENDING:
        legal.append(Defend(stance=state.pool.stance))
    elif state.holding is not None:
        legal.append(KeepHold(state.holding))
    else:
        sheet = armed(encounter, cid)
        foes = foes_fighting(encounter, cid)
        near = within_reach(encounter, cid)
        engaged = [f for f in encounter.engaged_with(cid) if f in foes]
        legal.extend(Attack(f) for f in near)
        legal.extend(AimedAttack(f, difficulty) for f in near for difficulty in CalledShot)
        if sheet.off_hand is not None and not state.weapon_lost:
            legal.extend(BothWeapons(f) for f in near)
        if sheet.weapon.ranged:
            legal.extend(Shoot(f) for f in foes)
        if sheet.grappling:
            legal.extend(Grapple(f) for f in near if cid not in encounter.states[f].held_by)
        if disarmable(encounter, cid):  # one needs a weapon to strike a weapon away
            legal.extend(Disarm(f) for f in near if disarmable(encounter, f))
        if not engaged and options.distance >= CHARGE_RUN_UP:
            legal.append(KeepSet() if state.set_against_charge else SetAgainstCharge())
        legal.extend(TendWounds(a) for a in _bleeding(encounter, cid, round3=options.round3))
    if state.holding is None:
        legal.append(Flee())
    later = [o for o in encounter.queue if o != cid and encounter.states[o].fighting]
    if later and not state.waited and state.waiting_for is None:  # not a waited turn
        legal.append(Wait(later[0]))
    legal.append(Hold())
    return legal


def disarmable(encounter: MidianEncounter, cid: str) -> bool:
    """Whether ``cid`` holds a weapon that can be struck away (not fists, claws or
    other natural weapons, and not one already lost)."""
    weapon = encounter.sheet(cid).weapon
    return not encounter.states[cid].weapon_lost and weapon.encumbrance is not Encumbrance.NONE


def bleeds(health: Health) -> bool:
    """Whether untended wounds bleed at the end of the round: serious wounds, or life
    points below 0 ("If you receive treatment to your wounds, you stop taking additional
    damage")."""
    return (
        health.alive and not health.tended and (health.serious_wounds > 0 or health.life_points < 0)
    )


def _bleeding(encounter: MidianEncounter, cid: str, *, round3: bool) -> list[str]:
    """``cid`` and its allies still alive and on the field whose wounds bleed (before
    round 3 of fidelity: only serious wounds could be bound)."""
    side = encounter.combatant(cid).side
    if not round3:
        return [
            c.id
            for c in encounter.combatants
            if c.side == side
            and encounter.states[c.id].health.alive
            and not encounter.states[c.id].fled
            and encounter.states[c.id].health.serious_wounds > 0
            and not encounter.states[c.id].health.tended
        ]
    return [
        c.id
        for c in encounter.combatants
        if c.side == side
        and not encounter.states[c.id].fled
        and bleeds(encounter.states[c.id].health)
    ]


def perform(
    options: MidianOptions,
    encounter: MidianEncounter,
    cid: str,
    action: Action,
    answers: MidianAnswers,
) -> MidianOutcome:
    """Carry out ``action`` (one of :func:`legal_actions`) for ``cid``."""
    match action:
        case Attack(target=str(target)):
            return melee(options, encounter, cid, target, answers)
        case BothWeapons(target=str(target)):
            return both_weapons(options, encounter, cid, target, answers)
        case AimedAttack(target=str(target), difficulty=difficulty):
            return melee(options, encounter, cid, target, answers, called=difficulty.value)
        case Shoot(target=str(target)):
            return shoot(options, encounter, cid, target, answers)
        case Grapple(target=str(target)):
            return grapple(options, encounter, cid, target, answers)
        case Disarm(target=str(target)):
            return disarm(encounter, cid, target, answers.dice)
        case Escape(target=str(holder)):
            return escape(encounter, cid, holder, answers.dice)
        case SetAgainstCharge():
            state = encounter.states[cid]
            return encounter.with_state(cid, _set(state)), []
        case Flee():
            return _flee(encounter, cid)
        case Wait(target=str(other)) if not options.round3:
            # before round 3 of fidelity, a wait kept the initiative and every action
            state = encounter.states[cid]  # the action is not used up: it comes later
            state = replace(
                state,
                pool=replace(state.pool, actions=state.pool.actions + 1),
                waiting_for=other,
            )
            return encounter.with_state(cid, state).wait_for(cid, other), []
        case Wait(target=str(other)):
            return wait(encounter, cid, other), []
        case TendWounds(target=str(target)):
            patient = encounter.states[target]
            health, events = tend_wounds(encounter.sheet(target), patient.health)
            return encounter.with_state(target, replace(patient, health=health)), events
        case Defend():
            # on total defence or evasion the turn's action is kept for defending
            state = encounter.states[cid]
            state = replace(state, pool=replace(state.pool, actions=state.pool.actions + 1))
            return encounter.with_state(cid, state), []
        case KeepSet() | KeepHold() | Hold():
            return encounter, []
    raise RulesError(
        f"{action.label!r} is not a Midian action",
        hint="choose one of: " + ", ".join(a.label for a in legal_actions(options, encounter, cid)),
    )


def upcoming(encounter: MidianEncounter, cid: str) -> list[int]:
    """The initiative of each of ``cid``'s turns still to come this round, in order: the
    last of its action slots (those before are taken; a waiter's initiative is the one
    it waited down to)."""
    state = encounter.states[cid]
    slots = action_slots(state.initiative if state.waited_to is None else state.waited_to)
    count = encounter.queue.count(cid)
    values = list(slots[max(0, len(slots) - count) :])
    return [values[0]] * (count - len(values)) + values  # more turns than slots: a GM's


def wait(encounter: MidianEncounter, cid: str, other: str) -> MidianEncounter:
    """``cid`` holds its action until ``other`` (the next to act) has acted: "you
    voluntarily lower your initiative one 'step' at a time until you use your action.
    This may prevent you from having multiple attacks if you reduce your initiative
    until it is 10 or lower." Its initiative becomes that of ``other``'s turn, and its
    later turns fall with it (N - 10, N - 20, ... while positive): those now below 0
    are lost, the rest move to their new places in the order."""
    state = encounter.states[cid]
    lowered = upcoming(encounter, other)[0]
    keep = len(action_slots(lowered)) - 1  # later turns at the new initiative
    later = encounter.queue.count(cid)
    values = {c: upcoming(encounter, c) for c in set(encounter.queue) if c != cid}
    seen: dict[str, int] = {}
    others: list[tuple[str, int]] = []
    for c in encounter.queue:
        if c != cid:
            others.append((c, values[c][seen.get(c, 0)]))
            seen[c] = seen.get(c, 0) + 1
    queue = [c for c, _ in others]
    at = queue.index(other) + 1
    queue.insert(at, cid)  # the waited turn, right after the one waited for
    for k in range(1, min(keep, later) + 1):  # each later turn at its new initiative
        value = lowered - 10 * k
        place = at + 1
        while place < len(queue) and _value_at(queue, others, place) >= value:
            place += 1
        queue.insert(place, cid)
    actions = min(state.pool.actions + 1, 1 + keep)  # the waited action is not used up
    state = replace(
        state,
        waited_to=lowered,
        pool=replace(state.pool, actions=actions),
        waiting_for=other,
    )
    return encounter.with_state(cid, state).queued(tuple(queue))


def _value_at(queue: list[str], others: list[tuple[str, int]], place: int) -> int:
    """The initiative of the turn at ``place`` of ``queue`` (one of ``others``'s; a
    waiter's own turns, already placed, count as the highest)."""
    before = sum(1 for c in queue[:place] if c == queue[place])
    mine = [v for c, v in others if c == queue[place]]
    return mine[before] if before < len(mine) else 10**9


def _set(state: MidianState) -> MidianState:
    return replace(state, set_against_charge=True)


def _flee(encounter: MidianEncounter, cid: str) -> MidianOutcome:
    state = encounter.states[cid]
    encounter = encounter.with_state(cid, replace(state, fled=True)).release(cid)
    return encounter, [StatusChanged(cid, "fled", "left the fight")]
