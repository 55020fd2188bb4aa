"""What a Midian combatant carries through an encounter, and the encounter's options."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from affray.encounter import Answers, Encounter, Outcome
from affray.rulesystems.midian.character import UNARMED, Character
from affray.rulesystems.midian.defence import DefencePool
from affray.rulesystems.midian.injury import Health, RollKind
from affray.rulesystems.midian.resolve import FIDELITY, ROUND3, Readings
from affray.rulesystems.midian.situations import MAX_GANG

CHARGE_RUN_UP = 20
"""Feet of open ground a charge needs."""
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
    holding_since: int = 0
    """The round the hold was taken (it squeezes from the next round's end on)."""
    held_by: tuple[str, ...] = ()
    """Everyone holding this combatant (several may, and it may hold one of them back)."""
    charged: int = 0
    """The round of this combatant's last charge (no active defence for its rest)."""
    closed_in: bool = False
    """It has been in melee: no run-up is left for a charge ("one must first have at
    least 20—30 feet to build up speed"), and the encounter has no way to move away."""
    focus: str | None = None
    retests_used: frozenset[tuple[str, RollKind]] = frozenset()
    """(source, kind of roll) pairs spent this battle."""
    interrupts_left: int = 0
    waiting_for: str | None = None
    """Whom this combatant is waiting for (it may try to pre-empt them)."""
    waited: bool = False
    """This turn is one it waited for: it cannot wait again."""
    waited_to: int | None = None
    """The initiative it waited down to this round (its turns to come count from it;
    ``initiative`` keeps the roll)."""
    on_fire: bool = False
    """It burns at the end of every round until the fire is put out (a hazard the game
    master brought: :mod:`affray.rulesystems.midian.hazard_powers`)."""
    in_blaze: bool = False
    """Burning in continuous contact (doused in burning tar, trapped in a blaze): each
    round's save is against the damage of the contact so far."""
    burnt: int = 0
    """The fire damage of this fire so far (the save's target in continuous contact)."""
    burnt_in: int = -1
    """The round its fire last burnt (it burns once a round)."""

    @property
    def fighting(self) -> bool:
        return self.health.fighting and not self.fled


@dataclass(frozen=True, slots=True)
class MidianOptions:
    """The rules of one encounter.

    Attributes:
        rules: the hit and Willpower options.
        distance: feet between the sides when the fight opens (0: already at blows).
        surprised: names of the sides caught by surprise.
        critical_effects: roll the critical-effect table on every critical (knocked
            down, knocked out and decapitated take effect; the others are narrated).
        fumble_effects: a fumble drops or breaks the weapon, or trips the fumbler.
        melee_cover: percent of cover between the sides in melee (a wall, a barricade,
            a table): "For melee weapons, cover applies equally to both combatants."
        fidelity: the round of fidelity to the chapter played
            (:data:`~affray.rulesystems.midian.resolve.FIDELITY`; 2 for a table's changes
            logged before round 3).
        critical_numbers: with ``critical_effects``, the effects the text gives numbers
            for take effect too: the wind knocked out (-6 to every roll for 1d8
            rounds), hit in the ear (-3 to attacks and parries, no dodging, for the rest
            of the fight), a severe throat wound (death in 2d6 rounds).
    """

    rules: Readings = field(default_factory=Readings)
    distance: int = 0
    surprised: frozenset[str] = frozenset()
    critical_effects: bool = False
    fumble_effects: bool = False
    melee_cover: int = 0
    fidelity: int = FIDELITY
    critical_numbers: bool = False

    @property
    def round3(self) -> bool:
        """Whether the third round of fidelity's rules hold (docs/rules/midian.md)."""
        return self.fidelity >= ROUND3

    @property
    def round4(self) -> bool:
        """Whether the fourth round of fidelity's rules hold (docs/rules/midian.md)."""
        return self.fidelity >= 4


MidianEncounter = Encounter[Character, MidianState]
MidianAnswers = Answers[Character, MidianState]
MidianOutcome = Outcome[Character, MidianState]


def lost(encounter: MidianEncounter, cid: str) -> int:
    """Hit and life points ``cid`` has lost so far."""
    sheet, health = encounter.sheet(cid), encounter.states[cid].health
    return sheet.hit_points + sheet.life_points - health.hit_points - health.life_points


def armed(encounter: MidianEncounter, cid: str) -> Character:
    """The sheet with the weapon actually in hand: once disarmed, bare hands, and the
    attack bonus without the lost weapon's skill."""
    sheet = encounter.sheet(cid)
    if not encounter.states[cid].weapon_lost:
        return sheet
    return replace(sheet, weapon=UNARMED, attack_bonus=sheet.attack_bonus - sheet.weapon.skill)


def break_hold(encounter: MidianEncounter, holder: str, held: str) -> MidianEncounter:
    """``holder`` lets go of (or loses its hold on) ``held``."""
    encounter = encounter.with_state(holder, replace(encounter.states[holder], holding=None))
    them = encounter.states[held]
    return encounter.with_state(
        held, replace(them, held_by=tuple(h for h in them.held_by if h != holder))
    )


def release_fallen(encounter: MidianEncounter, cid: str) -> MidianEncounter:
    """A combatant who fell or fled lets go of holds, is let go, leaves its melee."""
    state = encounter.states[cid]
    if state.fighting:
        return encounter
    if state.holding is not None:
        encounter = break_hold(encounter, cid, state.holding)
    for holder in state.held_by:
        encounter = break_hold(encounter, holder, cid)
    return encounter.release(cid)


def foes_fighting(encounter: MidianEncounter, cid: str) -> list[str]:
    return [f.id for f in encounter.foes(cid) if encounter.states[f.id].fighting]


def knock_down(
    encounter: MidianEncounter, cid: str, *, fidelity: int = FIDELITY
) -> MidianEncounter:
    """``cid`` is knocked down: "must spend 2 rounds getting back up". The rounds are
    counted in turns lost: the rest of this round counts only if a turn of it is still
    to come (knocked down after its last turn, it spends the next two rounds on the
    ground). Fallen, its weapon is no longer set against a charge. (Before round 3 of
    ``fidelity``: two round ends, the weapon still set.)"""
    state = encounter.states[cid]
    if fidelity < ROUND3:
        return encounter.with_state(cid, replace(state, down_rounds=KNOCKED_DOWN_ROUNDS))
    to_come = cid in encounter.queue and state.pool.actions > 0
    down = KNOCKED_DOWN_ROUNDS + (0 if to_come else 1)
    return encounter.with_state(cid, replace(state, down_rounds=down, set_against_charge=False))


def close_in(encounter: MidianEncounter, *cids: str) -> MidianEncounter:
    """``cids`` meet in melee: none of them has a run-up for a charge any more."""
    for cid in cids:
        state = encounter.states[cid]
        if not state.closed_in:
            encounter = encounter.with_state(cid, replace(state, closed_in=True))
    return encounter


def has_run_up(options: MidianOptions, encounter: MidianEncounter, cid: str) -> bool:
    """Whether ``cid``'s next first blow would be a charge: the encounter opens at 20 ft
    or more and ``cid`` has not been in melee yet ("In order to charge, one must first
    have at least 20—30 feet to build up speed"). Before round 3 of fidelity, being in
    melee before did not count."""
    return (
        options.distance >= CHARGE_RUN_UP
        and not (options.round3 and encounter.states[cid].closed_in)
        and not encounter.engaged_with(cid)
    )


def defenceless(encounter: MidianEncounter, cid: str) -> bool:
    """No active defence: surprised, or charged this round."""
    state = encounter.states[cid]
    return state.surprised or (state.charged != 0 and state.charged == encounter.round)


def within_reach(encounter: MidianEncounter, cid: str) -> list[str]:
    """The foes ``cid`` can come to blows with: those it is already engaged with, and
    those not yet surrounded ("Up to 8 people can gang up against a single target on
    open ground")."""
    mine = set(encounter.engaged_with(cid))
    return [
        f
        for f in foes_fighting(encounter, cid)
        if f in mine or len(_foes_on(encounter, f)) < MAX_GANG
    ]


def _foes_on(encounter: MidianEncounter, cid: str) -> list[str]:
    side = encounter.combatant(cid).side
    return [
        f
        for f in encounter.engaged_with(cid)
        if encounter.states[f].fighting and encounter.combatant(f).side != side
    ]
