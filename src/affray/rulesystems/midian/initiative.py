"""Initiative: who acts when, and how often (section II. Initiative and the notes
on waiting, changing actions, interrupts, action windows and surprise).

A rule decision (docs/rules/midian.md): d10 + modifiers; a total above 10 gives more actions, at N,
N-10, N-20, ... while positive; a total of 0 or less still acts once, last; ties
go to the higher Wits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from affray.dice import Dice
from affray.errors import RulesError
from affray.rulesystems.midian.character import Character, Experience
from affray.rulesystems.midian.equipment import armour_modifiers, weapon_modifiers
from affray.rulesystems.midian.events import InitiativeRolled
from affray.rulesystems.midian.modifiers import Modifier, nonzero, total

CHANGE_DELAY = 4
FIRST_COMBAT = {
    Experience.NEVER_SEEN: {"initiative": -6, "attack": -4, "damage": -2},
    Experience.OBSERVED: {"initiative": -3, "attack": -2, "damage": -1},
    Experience.VETERAN: {},
}


def first_combat(character: Character, roll: str) -> tuple[Modifier, ...]:
    """Never seen battle: -6 initiative, -4 attack, -2 damage; observed only: half."""
    value = FIRST_COMBAT[character.experience].get(roll, 0)
    return nonzero(Modifier(f"first combat ({character.experience.value})", value))


def initiative_modifiers(
    character: Character, *, shock: int = 0, fatigue: int = 0, extra: Sequence[Modifier] = ()
) -> tuple[Modifier, ...]:
    """Everything that adjusts an initiative roll: the sheet's bonus, weapon speed,
    armour encumbrance, first combat, last round's shock and fatigue."""
    return (
        *nonzero(Modifier("initiative bonus", character.initiative_bonus)),
        *weapon_modifiers(character.weapon, "initiative"),
        *armour_modifiers(character, "initiative"),
        *first_combat(character, "initiative"),
        *nonzero(Modifier("shock from last round", -shock), Modifier("fatigue", -fatigue)),
        *extra,
    )


def action_slots(initiative: int) -> tuple[int, ...]:
    """When the actions fall: 23 → (23, 13, 3); 11 → (11, 1); 10 → (10,); 0 → (0,)."""
    if initiative <= 0:
        return (initiative,)
    return tuple(range(initiative, 0, -10))


def roll_initiative(
    character: Character, dice: Dice, *, modifiers: Sequence[Modifier] = ()
) -> InitiativeRolled:
    die = dice.roll(10, f"{character.name}'s initiative")
    result = die.face + total(modifiers)
    return InitiativeRolled(character.name, die, tuple(modifiers), result, action_slots(result))


@dataclass(frozen=True, slots=True)
class Slot:
    """One action in the round's order."""

    character: str
    initiative: float
    wits: int
    action: int


def order_slots(entries: Sequence[tuple[str, int, int]]) -> list[Slot]:
    """Every action of the round, highest initiative first, ties to the higher Wits,
    then to the earlier listed. ``entries`` are (name, initiative total, Wits)."""
    slots = [
        (Slot(name, value, wits, number), index)
        for index, (name, initiative, wits) in enumerate(entries)
        for number, value in enumerate(action_slots(initiative), start=1)
    ]
    slots.sort(key=lambda pair: (-pair[0].initiative, -pair[0].wits, pair[1]))
    return [slot for slot, _ in slots]


def wait(initiative: int, steps: int) -> int:
    """Waiting lowers initiative one step at a time (and may cost later actions)."""
    if steps < 0:
        raise RulesError("waiting lowers initiative; steps must be 0 or more")
    return initiative - steps


def change_action(initiative: int, delay: int = CHANGE_DELAY) -> int:
    """A changed action happens ``delay`` places later (4 by default): 12 becomes 8."""
    return initiative - delay


def interrupt(target_slot: float) -> float:
    """An interrupt acts just before the interrupted action; it adds no action."""
    return target_slot + 0.5


def stop_window(natural: int, penalty: int) -> tuple[int, int]:
    """An action with an initiative penalty begins at the natural roll and ends with the
    penalty added: natural 7 with -4 runs from 7 down to 3."""
    if penalty > 0:
        raise RulesError("only actions with an initiative penalty take time")
    return natural, natural + penalty


def interruption(natural: int, penalty: int, other: int) -> str:
    """Whether someone acting at ``other`` stops the action ``before`` it begins (above
    the natural roll), ``during`` it (inside the window), or acts ``after`` it."""
    start, end = stop_window(natural, penalty)
    if other > start:
        return "before"
    if other >= end:
        return "during"
    return "after"


def surprise(surprised: Sequence[bool]) -> str:
    """The surprise round for sides flagged surprised: ``none`` (fight as usual),
    ``both`` (everyone loses a round), or ``ambush`` (the unsurprised act freely,
    the surprised have no active defence and no counter-attack until next round)."""
    if not any(surprised):
        return "none"
    if all(surprised):
        return "both"
    return "ambush"
