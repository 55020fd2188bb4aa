"""Healing by days of rest (section *Healing*).

Low fantasy, exactly as written: roll the hit dice; if the result is *less than*
the wounds, heal one wound. (Read literally this heals the badly hurt and not the
lightly hurt; docs/rules/mst2.md fixes this reading.) High fantasy: roll the hit dice and
heal that many wounds. The roll includes the hit-dice bonus, as the shock check
does. The dead do not heal.

A fighter who was out of the last fight (knocked out by a failed shock check, or
fled) is back on their feet after a day's rest: "out" is out of that fight, not of the
campaign (docs/rules/mst2.md). Incapacitated and dying fighters stay as they are:
whether they recover is the story's call (the game master's ``set``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, ClassVar, Literal

from affray.dice import Dice
from affray.events import Event
from affray.rulesystems.mst2.events import BackOnFeet, Healed
from affray.rulesystems.mst2.fighter import Fighter
from affray.rulesystems.mst2.state import Condition, FighterState
from affray.sheets.validation import Strict, validate

if TYPE_CHECKING:
    from affray.rulesystems.mst2.ruleset import Mst2Encounter


class Setting(Enum):
    LOW_FANTASY = "low"
    HIGH_FANTASY = "high"


BACK_ON_FEET = (Condition.OUT, Condition.FLED)
"""Conditions a day of rest ends."""


@dataclass(frozen=True, slots=True)
class HealingResult:
    state: FighterState
    event: Healed | None
    back: BackOnFeet | None = None


def rest_one_day(
    fighter: Fighter, state: FighterState, setting: Setting, dice: Dice
) -> HealingResult:
    """One day of rest. No roll is made for the unwounded or the dead; one who was out
    of the last fight is back on their feet."""
    back = None
    if state.condition in BACK_ON_FEET:
        back = BackOnFeet(fighter.name, state.condition.value)
        state = replace(state, condition=Condition.FIGHTING)
    if state.wounds == 0 or state.condition is Condition.DEAD:
        return HealingResult(state, None, back)
    rolled = dice.roll_pool(fighter.hit_dice.pool, f"{fighter.name}'s healing, hit die")
    total = sum(die.face for die in rolled) + fighter.hit_dice.bonus
    if setting is Setting.LOW_FANTASY:
        healed = 1 if total < state.wounds else 0
    else:
        healed = min(max(total, 0), state.wounds)
    new = replace(state, wounds=state.wounds - healed)
    return HealingResult(
        new, Healed(fighter.name, setting.value, rolled, total, healed, new.wounds), back
    )


class RestOptions(Strict):
    """What a day of rest takes: the setting (``low``, as written, or ``high``)."""

    DOCS: ClassVar[str] = "docs/table.md"

    setting: Literal["low", "high"] = "low"


def rest(
    encounter: Mst2Encounter, cid: str, /, *, dice: Dice, options: Mapping[str, object]
) -> tuple[Mst2Encounter, list[Event]]:
    """The registry's day of rest: :func:`rest_one_day` for ``cid``, in the setting
    ``options`` names (low fantasy by default).

    Raises:
        SheetError: an option it does not take, or a setting it does not know.
    """
    chosen = validate(RestOptions, options, "rest")
    result = rest_one_day(
        encounter.sheet(cid), encounter.states[cid], Setting(chosen.setting), dice
    )
    events: list[Event] = [e for e in (result.back, result.event) if e is not None]
    return encounter.with_state(cid, result.state), events
