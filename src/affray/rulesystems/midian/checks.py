"""Ability checks, challenges, repeated actions, retests and saving throws.

- Check: roll 2d20; success when the total is **at or under** the effective
  attribute (the attribute with every bonus and penalty applied to it, not to the
  roll). The text says "roll under"; its example ("I got a 7. That's 4 under my
  strength") and the guard who "rolled a 25. Failure" fit either; affray reads it
  as at-or-under, and ``strict=True`` gives the strictly-under reading.
- Challenge: each side checks; the highest total that is not over its own
  effective score wins. A tie or both failing is undetermined (try next round).
- Repeated action: -2 to the attribute for each attempt after the first.
- Retests: each source may be used once per situation; the last roll stands,
  even if an earlier one was better.
- Saving throw: d20 + bonuses at or above the target; natural 1-2 always fail,
  natural 19-20 always succeed; bonuses stack.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from affray.dice import Dice
from affray.errors import RulesError
from affray.events import Event
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.events import ChallengeResolved, CheckRolled, RetestUsed, SaveRolled
from affray.rulesystems.midian.modifiers import Modifier, total

REPEAT_PENALTY = -2


class SaveType(Enum):
    """The text's kinds of saving throw."""

    DISEASE = "disease"
    RADIATION = "radiation"
    POISON = "poison"
    FIRE = "fire"
    HEAT = "heat"
    COLD = "cold"
    CRUSHING = "crushing"
    MENTAL = "mental"
    PARALYSIS = "paralysis"
    PETRIFICATION = "petrification"

    @classmethod
    def named(cls, name: str) -> SaveType | str:
        """The text's save of that name (or alias); any other name the game master gives
        is a save of its own ("Other types of saving throws are possible, in
        bewildering variety")."""
        key = " ".join(name.strip().lower().split())
        aliases = {"chemicals": "poison", "shapeshift": "petrification", "neural": "paralysis"}
        if not key:
            raise RulesError("a saving throw needs a name", hint="e.g. poison, fire, electricity")
        try:
            return cls(aliases.get(key, key))
        except ValueError:
            return key


def repeat_penalty(attempt: int) -> Modifier:
    """The modifier for the ``attempt``-th try at the same thing (1 for the first)."""
    if attempt < 1:
        raise RulesError("attempts are counted from 1")
    return Modifier("repeated attempt", REPEAT_PENALTY * (attempt - 1))


def check(
    character: Character,
    attribute: str,
    dice: Dice,
    *,
    modifiers: Sequence[Modifier] = (),
    purpose: str = "check",
    strict: bool = False,
) -> CheckRolled:
    """One ability check: 2d20 against the attribute with ``modifiers`` applied to it."""
    score = character.attribute(attribute)
    effective = score + total(modifiers)
    rolled = dice.roll_pool((20, 20), f"{character.name}'s {attribute} {purpose}, d20")
    result = sum(d.face for d in rolled)
    success = result < effective if strict else result <= effective
    return CheckRolled(
        character.name,
        attribute,
        rolled,
        result,
        score,
        tuple(modifiers),
        effective,
        success,
        purpose,
    )


@dataclass(frozen=True, slots=True)
class CheckOutcome:
    """The final check after any retests, and every event on the way."""

    final: CheckRolled
    events: tuple[Event, ...]

    @property
    def success(self) -> bool:
        return self.final.success


def check_with_retests(
    character: Character,
    attribute: str,
    dice: Dice,
    *,
    retests: Sequence[str] = (),
    modifiers: Sequence[Modifier] = (),
    purpose: str = "check",
    strict: bool = False,
) -> CheckOutcome:
    """A check that spends the named retests, in order, while it fails. Each source is
    used at most once; the last roll made is the result."""
    if len(set(retests)) != len(retests):
        raise RulesError("each retest may be used once per situation", hint="list each source once")
    events: list[Event] = []
    result = check(character, attribute, dice, modifiers=modifiers, purpose=purpose, strict=strict)
    events.append(result)
    for source in retests:
        if result.success:
            break
        events.append(RetestUsed(character.name, source))
        result = check(
            character, attribute, dice, modifiers=modifiers, purpose=purpose, strict=strict
        )
        events.append(result)
    return CheckOutcome(result, tuple(events))


def challenge(
    first: Character,
    first_attribute: str,
    second: Character,
    second_attribute: str,
    dice: Dice,
    *,
    first_modifiers: Sequence[Modifier] = (),
    second_modifiers: Sequence[Modifier] = (),
) -> tuple[ChallengeResolved, tuple[CheckRolled, CheckRolled]]:
    """An ability challenge; ``winner`` is None when undetermined."""
    a = check(first, first_attribute, dice, modifiers=first_modifiers, purpose="challenge")
    b = check(second, second_attribute, dice, modifiers=second_modifiers, purpose="challenge")
    winner: str | None = None
    if a.success and (not b.success or a.total > b.total):
        winner = first.name
    elif b.success and (not a.success or b.total > a.total):
        winner = second.name
    return ChallengeResolved((first.name, second.name), (a.total, b.total), winner), (a, b)


def saving_throw(
    character: Character,
    save: SaveType | str,
    target: int,
    dice: Dice,
    *,
    modifiers: Sequence[Modifier] = (),
) -> SaveRolled:
    """d20 + ``modifiers`` at or above ``target``; natural 1-2 fail and 19-20 succeed."""
    kind = save.value if isinstance(save, SaveType) else save
    die = dice.roll(20, f"{character.name}'s saving throw against {kind}")
    result = die.face + total(modifiers)
    if die.face <= 2:
        success = False
    elif die.face >= 19:
        success = True
    else:
        success = result >= target
    return SaveRolled(character.name, kind, die, tuple(modifiers), result, target, success)
