"""Hit points, life points, shock, bleeding, Willpower and system shock
(Part II: the sections on damage, shock, negative life points, serious wounds,
system shock, fatigue and regeneration).

A rule decision (docs/rules/midian.md):
hit points are a pool that damage takes away first; what is left
spills into life points. affray's readings of the rest (docs/rules/midian.md):

- *Willpower check*: when damage leaves a character with no hit points but some
  life points, a Willpower check (2d20 at or under Willpower, shock and fatigue
  applied) keeps them conscious; failing it, they pass out. By default once
  (``willpower="first"``: "if you succeed ... you need not make any additional
  rolls"); ``"each"`` checks at every such hit.
- *System shock* (d100 at or under the chance, 5% less per life point below 0,
  at most 100%): due when a character already at 0 life points or below takes
  any damage, and at the end of every round spent at 0 or below. Failing it
  below 0 is death; failing it at exactly 0 is a coma.
- *Bleeding* at the end of each round, unless the wounds are tended: one point
  per serious wound (each full 10 points of one attack), and, below 0 life
  points, as many points as the character is below 0 (-1 → -2 → -4 → -8).
- *Shock*: each point of damage is -1 to every roll for the rest of the round and
  to the next initiative; bleeding counts too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum

from affray.dice import Dice
from affray.events import Event
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.checks import check
from affray.rulesystems.midian.equipment import armour_row
from affray.rulesystems.midian.events import (
    Bled,
    CheckRolled,
    DamageTaken,
    Regenerated,
    RetestUsed,
    StatusChanged,
    SystemShockRolled,
    WoundsTended,
)
from affray.rulesystems.midian.modifiers import Modifier, nonzero

SERIOUS_WOUND = 10


class RollKind(StrEnum):
    """Kinds of roll a retest may reroll (a source is spent once per kind in a battle)."""

    WILLPOWER = "willpower"
    SYSTEM_SHOCK = "system shock"
    ATTACK = "attack"


Retest = Callable[[RollKind, Event], str | None]
"""Asked after a roll fails — its kind and the failed roll — for the retest source to
spend on a reroll, or None to let it stand."""


def no_retest(kind: RollKind, failed: Event) -> str | None:
    """Never retest (the default)."""
    return None


class WillpowerShock(StrEnum):
    """Which shock penalises the Willpower check to stay conscious: ``earlier`` — the
    shock of the round's earlier blows, not of the blow that forced the check (the
    default: the chapter expects the check to be passable, "if you succeed—and run
    away"); ``all`` — that blow's shock too."""

    EARLIER = "earlier"
    ALL = "all"


class WillpowerRule(StrEnum):
    """When a Willpower check to stay conscious is due at 0 life points or below:
    ``first`` — once (a success means no more checks); ``each`` — after every blow."""

    FIRST = "first"
    EACH = "each"


SHOCK_STEP = 5
WINDED_PENALTY = 6
"""Wind knocked out: "-6 to all rolls"."""
OFF_BALANCE_PENALTY = 3
"""Hit in the ear: "-3 attack and parry"."""


@dataclass(frozen=True, slots=True)
class Health:
    """A Midian character's changing state in a fight."""

    hit_points: int
    life_points: int
    max_life_points: int
    conscious: bool = True
    alive: bool = True
    coma: bool = False
    serious_wounds: int = 0
    tended: bool = False
    shock: int = 0
    carried_shock: int = 0
    fatigue: int = 0
    willpower_checked: bool = False
    fell_to_zero: bool = False
    """Life points have been at 0 or below (hit points then wait for half of them)."""
    winded: int = 0
    """Rounds left with the wind knocked out: -6 to every roll (a critical's numbers)."""
    off_balance: bool = False
    """Hit in the ear: -3 to attacks and parries and no dodging, for the rest of the
    fight (a critical's numbers)."""
    dying_in: int = 0
    """Rounds left to live with a severe throat wound (0: none; a critical's numbers)."""

    @classmethod
    def fresh(cls, character: Character) -> Health:
        return cls(character.hit_points, character.life_points, character.life_points)

    @property
    def fighting(self) -> bool:
        return self.alive and self.conscious

    @property
    def penalty(self) -> int:
        """This round's penalty to every roll: shock taken so far plus fatigue (and the
        wind knocked out)."""
        return self.shock + self.fatigue + (WINDED_PENALTY if self.winded else 0)

    @property
    def status(self) -> str:
        if not self.alive:
            return "dead"
        if self.coma:
            return "coma"
        return "conscious" if self.conscious else "unconscious"


def system_shock_chance(character: Character, life_points: int) -> int:
    """The percentage to roll at or under: the sheet's chance, 5% less per point below 0."""
    return max(0, min(100, character.system_shock - SHOCK_STEP * max(0, -life_points)))


def roll_system_shock(
    character: Character,
    health: Health,
    dice: Dice,
    *,
    reason: str,
    retest: Retest = no_retest,
) -> tuple[Health, list[Event]]:
    """Roll system shock; failing below 0 life points is death, at 0 a coma. A failed
    roll may be retested (the last roll counts)."""
    chance = system_shock_chance(character, health.life_points)
    events: list[Event] = []
    while True:
        die = dice.roll(100, f"{character.name}'s system shock ({reason})")
        success = die.face <= chance
        rolled = SystemShockRolled(character.name, die, chance, success, reason)
        events.append(rolled)
        source = None if success else retest(RollKind.SYSTEM_SHOCK, rolled)
        if source is None:
            break
        events.append(RetestUsed(character.name, source, RollKind.SYSTEM_SHOCK.value))
    if success:
        return health, events
    if health.life_points < 0:
        events.append(
            StatusChanged(character.name, "dead", "failed system shock below 0 life points")
        )
        return replace(health, alive=False, conscious=False), events
    events.append(StatusChanged(character.name, "coma", "failed system shock at 0 life points"))
    return replace(health, conscious=False, coma=True), events


@dataclass(frozen=True, slots=True)
class InjuryOutcome:
    health: Health
    events: tuple[Event, ...]
    willpower: CheckRolled | None
    system_shock: SystemShockRolled | None


def take_damage(
    character: Character,
    health: Health,
    amount: int,
    dice: Dice,
    *,
    source: str,
    willpower: WillpowerRule = WillpowerRule.FIRST,
    serious: bool = True,
    retest: Retest = no_retest,
    willpower_shock: WillpowerShock = WillpowerShock.EARLIER,
) -> InjuryOutcome:
    """Apply ``amount`` points of damage and make whatever rolls it calls for, in the
    The dice order (docs/rules/midian.md): the Willpower check (2d20), then system shock (d100).

    Args:
        serious: whether the damage can open serious wounds (bleeding itself does not).
        retest: asked after a failed roll for a retest to spend (each reroll's dice
            come right after the failed roll's).
    """
    if amount <= 0 or not health.alive:
        return InjuryOutcome(health, (), None, None)
    was_at_or_below_zero = health.life_points <= 0
    from_hit_points = min(health.hit_points, amount)
    life_points = health.life_points - (amount - from_hit_points)
    wounds = amount // SERIOUS_WOUND if serious else 0
    health = replace(
        health,
        hit_points=health.hit_points - from_hit_points,
        life_points=life_points,
        fell_to_zero=health.fell_to_zero or life_points <= 0,
        serious_wounds=health.serious_wounds + wounds,
        tended=health.tended and not wounds,
        shock=health.shock + amount,
    )
    events: list[Event] = [
        DamageTaken(
            character.name,
            amount,
            source,
            health.hit_points,
            health.life_points,
            health.serious_wounds,
            health.shock,
        )
    ]
    will: CheckRolled | None = None
    check_penalty = health.penalty - (amount if willpower_shock is WillpowerShock.EARLIER else 0)
    if (
        health.conscious
        and health.hit_points == 0
        and health.life_points > 0
        and (willpower is WillpowerRule.EACH or not health.willpower_checked)
    ):
        while True:
            will = check(
                character,
                "willpower",
                dice,
                purpose="check to stay conscious",
                modifiers=nonzero(Modifier("shock and fatigue", -check_penalty)),
            )
            events.append(will)
            spent = None if will.success else retest(RollKind.WILLPOWER, will)
            if spent is None:
                break
            events.append(RetestUsed(character.name, spent, RollKind.WILLPOWER.value))
        health = replace(health, willpower_checked=True)
        if not will.success:
            health = replace(health, conscious=False)
            events.append(
                StatusChanged(character.name, "unconscious", "failed the Willpower check")
            )
    shock: SystemShockRolled | None = None
    if was_at_or_below_zero:
        health, more = roll_system_shock(
            character, health, dice, reason="damage at 0 life points or below", retest=retest
        )
        shock = [e for e in more if isinstance(e, SystemShockRolled)][-1]
        events.extend(more)
    return InjuryOutcome(health, tuple(events), will, shock)


def end_of_round(
    character: Character, health: Health, dice: Dice, *, retest: Retest = no_retest
) -> tuple[Health, list[Event]]:
    """Bleeding, heroic-armour fatigue and the round's system shock roll (which may be
    retested); then this round's shock becomes next round's initiative penalty."""
    events: list[Event] = []
    if health.alive and not health.tended and not character.regenerates:
        below = -health.life_points if health.life_points < 0 else 0
        if below:
            health = _bleed(character, health, below, "below 0 life points", events)
        if health.serious_wounds:
            health = _bleed(character, health, health.serious_wounds, "serious wounds", events)
    fatigue = armour_row(character).fatigue_per_round
    if fatigue and health.alive:
        health = replace(health, fatigue=health.fatigue + fatigue)
    if health.alive and health.life_points <= 0:
        health, more = roll_system_shock(
            character,
            health,
            dice,
            reason="end of round at 0 life points or below",
            retest=retest,
        )
        events.extend(more)
    if character.regenerates and health.alive and health.life_points < health.max_life_points:
        health, more = _regenerate(character, health)
        events.extend(more)
    return replace(health, carried_shock=health.shock, shock=0), events


REGENERATION_PER_ROUND = 1
"""Life points a regenerating creature gets back at the end of each round (decision: the
chapter gives no rate; see docs/rules/midian.md)."""


def _regenerate(character: Character, health: Health) -> tuple[Health, list[Event]]:
    """The wounds close: a life point back; above 0 again, it wakes (not from a coma)."""
    life = min(health.max_life_points, health.life_points + REGENERATION_PER_ROUND)
    gained = life - health.life_points
    woke = life > 0 and not health.conscious and not health.coma
    health = replace(health, life_points=life, conscious=health.conscious or woke)
    return health, [Regenerated(character.name, gained, life, woke)]


def _bleed(
    character: Character, health: Health, amount: int, source: str, events: list[Event]
) -> Health:
    """Lose ``amount`` points (hit points first) to bleeding; it shocks like any damage."""
    events.append(Bled(character.name, amount, source))
    from_hit_points = min(health.hit_points, amount)
    life_points = health.life_points - (amount - from_hit_points)
    return replace(
        health,
        hit_points=health.hit_points - from_hit_points,
        life_points=life_points,
        fell_to_zero=health.fell_to_zero or life_points <= 0,
        shock=health.shock + amount,
    )


def tend_wounds(character: Character, health: Health) -> tuple[Health, list[Event]]:
    """Binding the wounds stops all bleeding. An unconscious character below 0 life
    points is then in a coma; at exactly 0 one may act but still rolls system shock."""
    events: list[Event] = [WoundsTended(character.name)]
    health = replace(health, tended=True)
    if health.alive and not health.conscious and health.life_points < 0 and not health.coma:
        health = replace(health, coma=True)
        events.append(
            StatusChanged(character.name, "coma", "wounds bound while unconscious below 0")
        )
    return health, events


def heal(
    character: Character, health: Health, *, life_points: int = 0, hit_points: int = 0
) -> Health:
    """Healing: life points first; no hit points come back until life points are at least
    half their maximum again (once they have fallen to 0 or below)."""
    life = min(health.max_life_points, health.life_points + life_points)
    hit = health.hit_points
    if not health.fell_to_zero or life * 2 >= health.max_life_points:
        hit = min(character.hit_points, hit + hit_points)
    return replace(health, life_points=life, hit_points=hit)


def regeneration_check(
    character: Character, health: Health, dice: Dice
) -> tuple[Health, list[Event]]:
    """A regenerating creature brought below 0 life points survives (and heals) only by
    passing system shock at -5% per point below 0."""
    return roll_system_shock(character, health, dice, reason="regeneration below 0 life points")


def add_fatigue(health: Health, points: int) -> Health:
    return replace(health, fatigue=max(0, health.fatigue + points))
