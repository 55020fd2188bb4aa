"""Situational rules: range, cover, firing into melee, called shots, movement,
charges, flanking, helpless and knocked-down targets, ganging up, brawling,
grappling and disarming. Each returns labelled modifiers or a small result.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from affray.dice import Dice, DieRoll
from affray.errors import RulesError
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.checks import challenge
from affray.rulesystems.midian.events import ChallengeResolved, CheckRolled
from affray.rulesystems.midian.modifiers import Modifier

RANGE_STEP = -2
MAX_INCREMENTS = {"hurled": 5, "device": 10}
BODY_COVER = 40
AWARE_OBSTACLE = 10
MAX_COVER = 90
FLANKING = 2
HELPLESS = 4
KNOCKED_DOWN = 4
MAX_GANG = 8
NON_GRAPPLER = -5
DISARM_TWO_HANDS = 4


# -- ranged ------------------------------------------------------------------------


def range_increments(distance: int, increment: int) -> int:
    """Increments passed: 34 ft at 10 ft → 3 (past 10, 20 and 30); 10 ft → 0."""
    if distance < 0 or increment <= 0:
        raise RulesError("distance must be 0 or more and the range increment positive")
    return max(0, -(-distance // increment) - 1)


def range_penalty(distance: int, increment: int, kind: str = "hurled") -> Modifier:
    """-2 per range increment passed; beyond 5 increments (hurled) or 10 (device-propelled)
    the target is out of range.

    Raises:
        RulesError: the target is out of range.
    """
    passed = range_increments(distance, increment)
    limit = MAX_INCREMENTS[kind]
    if distance > limit * increment:
        raise RulesError(
            f"{distance} ft is out of range: a {kind} weapon reaches {limit} increments "
            f"({limit * increment} ft)"
        )
    return Modifier(f"range ({passed} increments)", RANGE_STEP * passed)


def ceiling_needed(distance: int) -> int:
    """Ballistic missiles (arrows, thrown weapons) need a ceiling of a quarter of the
    distance (rounded up); line-of-sight ones (crossbows, firearms) need none."""
    return -(-distance // 4)


def cover_penalty(percent: int) -> Modifier:
    """-1 per full 5% of cover; 90% is the most a target can have and still be attacked.

    Raises:
        RulesError: more than 90% cover: the target cannot be attacked.
    """
    if not 0 <= percent <= MAX_COVER:
        raise RulesError(f"{percent}% cover: a target can be attacked behind at most {MAX_COVER}%")
    return Modifier(f"{percent}% cover", -(percent // 5))


def bodies_in_the_way(count: int, *, awareness: int = 0) -> int:
    """Cover from bodies in the line of fire: 40% each, an aware obstacle moving it 10%
    either way (``awareness`` -1, 0 or +1); at most 90%."""
    if awareness not in (-1, 0, 1):
        raise RulesError("awareness is -1 (ducking out of the way), 0 or +1 (shielding the target)")
    return min(MAX_COVER, max(0, count * (BODY_COVER + AWARE_OBSTACLE * awareness)))


def strikes_obstacle(total: int, cover: Modifier, target_ac: int, obstacle_ac: int) -> bool:
    """A shot that missed *because of* the cover hits the body in the way when its
    total without the cover penalty reaches that body's armour class."""
    uncovered = total - cover.value
    missed_by_cover = total < target_ac <= uncovered
    return missed_by_cover and uncovered >= obstacle_ac


class CalledShot(Enum):
    EASY = -2  # stabbing someone in the eye
    HARD = -5  # cutting a rope at 100 ft, shooting into a crowd without hitting anyone


def called_shot(difficulty: CalledShot | int) -> Modifier:
    value = difficulty.value if isinstance(difficulty, CalledShot) else difficulty
    if value > 0:
        raise RulesError("a called shot is a penalty (0 or less)")
    return Modifier("called shot", value)


def moving_attacker(speed: int) -> Modifier:
    """Ranged only: -1 per point of the attacker's speed while moving."""
    return Modifier("shooting on the move", -speed)


def moving_target(speed: int) -> Modifier:
    """Ranged only: the target's speed / 5 (a Human at 10: -2; an Elf at 20: -4)."""
    return Modifier("moving target", -(speed // 5))


# -- positions -------------------------------------------------------------------------


def flanking() -> Modifier:
    """From behind or a blind side: +2, and only a dodge can defend."""
    return Modifier("flanking", FLANKING)


def helpless_target() -> Modifier:
    """Unconscious, tied up or unmoving: +4 (melee in battle, and ranged)."""
    return Modifier("helpless target", HELPLESS)


def knocked_down_target() -> Modifier:
    return Modifier("target knocked down", KNOCKED_DOWN)


def attacking_from_the_ground() -> Modifier:
    return Modifier("attacking from the ground", -KNOCKED_DOWN)


def ganging_up(attackers: int, *, large_target: bool = False) -> Modifier:
    """Attackers on opposite sides of a target each get the flanking +2. Up to 8 can gang up
    on one target on open ground (more on a larger one).

    Raises:
        RulesError: more than 8 attackers on an ordinary target.
    """
    if attackers > MAX_GANG and not large_target:
        raise RulesError(
            f"at most {MAX_GANG} can gang up on one target", hint="unless it is larger"
        )
    return Modifier("ganging up", FLANKING if attackers >= 2 else 0)


# -- charges ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChargeOrder:
    """Who strikes first when someone charges: the longer reach. Both the charger and
    one who set a weapon against the charge do double damage on a hit, and neither
    may actively defend."""

    first: str
    second: str
    double_damage: tuple[str, ...]


def charge(charger: Character, defender: Character, *, set_against: bool) -> ChargeOrder:
    if defender.weapon.reach > charger.weapon.reach:
        first, second = defender.name, charger.name
    else:
        first, second = charger.name, defender.name
    doubled = (charger.name, defender.name) if set_against else (charger.name,)
    return ChargeOrder(first, second, doubled)


# -- grappling and disarming ----------------------------------------------------------------


def escape_hold(
    escaper: Character,
    holder: Character,
    dice: Dice,
    *,
    escaper_penalty: int = 0,
    holder_penalty: int = 0,
) -> tuple[ChallengeResolved, tuple[CheckRolled, CheckRolled]]:
    """Escaping a hold: a Strength or Agility challenge (each uses the better), with -5
    for one who knows no grappling, and each side's shock and fatigue penalty. The
    winner decides whether the hold goes on."""

    def best(character: Character) -> str:
        return max(("strength", "agility"), key=character.attribute)

    def mods(character: Character, penalty: int) -> tuple[Modifier, ...]:
        found = [] if character.grappling else [Modifier("no grappling skill", NON_GRAPPLER)]
        if penalty:
            found.append(Modifier("shock and fatigue", -penalty))
        return tuple(found)

    return challenge(
        escaper,
        best(escaper),
        holder,
        best(holder),
        dice,
        first_modifiers=mods(escaper, escaper_penalty),
        second_modifiers=mods(holder, holder_penalty),
    )


@dataclass(frozen=True, slots=True)
class DisarmResult:
    """``outcome``: ``disarmed`` (the defender loses the weapon), ``kept``, ``locked``
    (a tie: roll again next round) or ``reversed`` (the attacker loses their own);
    a lost weapon lands ``distance`` feet away (1 per point of the margin)."""

    attacker_die: DieRoll
    defender_die: DieRoll | None
    attacker_total: int
    defender_total: int
    outcome: str
    distance: int


def disarm(
    attacker: Character,
    defender: Character,
    dice: Dice,
    *,
    attacker_two_hands: bool = False,
    defender_two_hands: bool = False,
    attacker_penalty: int = 0,
    defender_penalty: int = 0,
    defenceless: bool = False,
) -> DisarmResult:
    """d20 + attack bonus against d20 + parry bonus (the weapon skill), +4 for whoever holds
    with both hands, less each side's shock and fatigue penalty; the higher decides. A
    natural 1-2 for the attacker, or a natural 19-20 for the defender, reverses it: the
    attacker's weapon is lost. A natural 19-20 for the attacker, or 1-2 for the
    defender, disarms whatever the totals. When both sides roll one of these they
    cancel out and the totals decide. A ``defenceless`` defender (surprised, or
    charging) rolls nothing: the weapon goes unless the attacker fumbles."""
    a = dice.roll(20, f"{attacker.name}'s disarm")
    if defenceless:
        a_total = a.face + attacker.attack_bonus - attacker_penalty
        outcome = "reversed" if a.face <= 2 else "disarmed"
        return DisarmResult(a, None, a_total, 0, outcome, max(a_total, 0))
    d = dice.roll(20, f"{defender.name} holds on to the weapon")
    a_total = (
        a.face
        + attacker.attack_bonus
        + (DISARM_TWO_HANDS if attacker_two_hands else 0)
        - attacker_penalty
    )
    d_total = (
        d.face
        + defender.weapon.skill
        + (DISARM_TWO_HANDS if defender_two_hands else 0)
        - defender_penalty
    )
    margin = abs(a_total - d_total)
    # a critical or a fumble decides, unless both sides have one (they cancel out)
    attacker_decides = a.face >= 19 or d.face <= 2
    defender_decides = a.face <= 2 or d.face >= 19
    if defender_decides and not attacker_decides:
        return DisarmResult(a, d, a_total, d_total, "reversed", margin)
    if (attacker_decides and not defender_decides) or a_total > d_total:
        return DisarmResult(a, d, a_total, d_total, "disarmed", margin)
    if d_total > a_total:
        return DisarmResult(a, d, a_total, d_total, "kept", 0)
    return DisarmResult(a, d, a_total, d_total, "locked", 0)


JOINT_LOCK_INJURIES = ("sprain", "dislocation", "broken bone")


def joint_lock(dice: Dice, holder: str, *, struggling: bool, forced: bool) -> str | None:
    """A joint lock hurts but does no damage unless the victim struggles or the holder
    spends an action to force the joint; then one die picks a sprain, a dislocation or
    a broken bone (affray's way of letting the game master roll for it)."""
    if not (struggling or forced):
        return None
    return JOINT_LOCK_INJURIES[dice.roll(3, f"{holder}'s joint lock").face - 1]
