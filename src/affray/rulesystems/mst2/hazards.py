"""Damage and wounds from other sources (section *Other types of damage and wounds*).

Falling deals 1 wound per full 10 feet, poison 1 to 3 wounds by toxicity; both
ignore armour and wound directly. Being burned rolls 1d12 and being on fire 1d12
each round; these roll like power dice, each die above protection is a wound
(the issue's and this project's reading: armour and layers mitigate fire). Every
wound leads to the usual shock check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal

from pydantic import Field

from affray.dice import Dice
from affray.encounter import Encounter
from affray.errors import RulesError, SheetError
from affray.events import Event
from affray.powers import HazardKind
from affray.rulesystems.mst2.events import HazardStruck
from affray.rulesystems.mst2.fighter import Fighter
from affray.rulesystems.mst2.shock import suffer_wounds
from affray.rulesystems.mst2.state import FighterState, Lethality
from affray.sheets.validation import Strict, validate

FIRE_POWER = (12,)
TOXICITY = {"mild": 1, "moderate": 2, "severe": 3}


@dataclass(frozen=True, slots=True)
class HazardResult:
    state: FighterState
    wounds: int
    shock_total: int | None
    events: tuple[Event, ...]


def _wound_directly(
    fighter: Fighter,
    state: FighterState,
    hazard: str,
    detail: str,
    wounds: int,
    dice: Dice,
    lethality: Lethality,
) -> HazardResult:
    outcome = suffer_wounds(fighter, state, wounds, dice, source=hazard, lethality=lethality)
    struck = HazardStruck(fighter.name, hazard, detail, (), None, wounds)
    return HazardResult(outcome.state, wounds, outcome.shock_total, (struck, *outcome.events))


def fall(
    fighter: Fighter,
    state: FighterState,
    feet: int,
    dice: Dice,
    *,
    lethality: Lethality = Lethality.STANDARD,
) -> HazardResult:
    """Falling: 1 wound per full 10 feet, ignoring armour."""
    if feet < 0:
        raise RulesError(
            f"a fall of {feet} feet is impossible", hint="give the height in feet, 0 or more"
        )
    return _wound_directly(fighter, state, "falling", f"{feet} ft", feet // 10, dice, lethality)


def poison(
    fighter: Fighter,
    state: FighterState,
    toxicity: int | str,
    dice: Dice,
    *,
    lethality: Lethality = Lethality.STANDARD,
) -> HazardResult:
    """Poison: 1 (mild) to 3 (severe) wounds, ignoring armour."""
    wounds = TOXICITY.get(toxicity, 0) if isinstance(toxicity, str) else toxicity
    if wounds not in (1, 2, 3):
        raise RulesError(
            f"poison toxicity {toxicity!r} is not allowed",
            hint="toxicity is 1, 2 or 3 (or mild, moderate, severe)",
        )
    return _wound_directly(fighter, state, "poison", f"toxicity {wounds}", wounds, dice, lethality)


def burn(
    fighter: Fighter,
    state: FighterState,
    dice: Dice,
    *,
    on_fire: bool = False,
    armor_mitigates: bool = True,
    lethality: Lethality = Lethality.STANDARD,
) -> HazardResult:
    """Burned (once) or on fire (each round): 1d12 against protection.

    Args:
        armor_mitigates: when ``False`` (fire that ignores armour), protection
            counts as 0, so the die always wounds.
    """
    hazard = "on fire" if on_fire else "burned"
    rolled = dice.roll_pool(FIRE_POWER, f"{fighter.name} {hazard}: damage die")
    protection = fighter.protection if armor_mitigates else 0
    wounds = sum(die.face > protection for die in rolled)
    outcome = suffer_wounds(fighter, state, wounds, dice, source=hazard, lethality=lethality)
    struck = HazardStruck(fighter.name, hazard, "1d12", rolled, protection, wounds)
    return HazardResult(outcome.state, wounds, outcome.shock_total, (struck, *outcome.events))


# -- at a table: the game master's hazards (``affray table hazard``) ----------------------

FALL, POISON, BURNED, ON_FIRE = "fall", "poison", "burned", "on-fire"

HAZARDS = (
    HazardKind(FALL, "a fall: 1 wound per full 10 feet, ignoring armour", ("feet",)),
    HazardKind(POISON, "poison: 1 to 3 wounds by toxicity, ignoring armour", ("toxicity",)),
    HazardKind(BURNED, "burned once: 1d12 against protection", ("armor_mitigates",)),
    HazardKind(
        ON_FIRE,
        "a round on fire: 1d12 against protection (bring it each round it burns)",
        ("armor_mitigates",),
    ),
)


class _Fall(Strict):
    DOCS: ClassVar[str] = "docs/table.md"

    feet: int = Field(ge=0, le=100_000)


class _Poison(Strict):
    DOCS: ClassVar[str] = "docs/table.md"

    toxicity: int | Literal["mild", "moderate", "severe"]


class _Fire(Strict):
    DOCS: ClassVar[str] = "docs/table.md"

    armor_mitigates: bool = True


def apply_hazard(
    lethality: Lethality,
    encounter: Encounter[Fighter, FighterState],
    who: str,
    kind: str,
    values: Mapping[str, object],
    dice: Dice,
) -> tuple[Encounter[Fighter, FighterState], list[Event]]:
    """``who`` suffers the hazard ``kind`` with ``values`` (:data:`HAZARDS` lists them),
    the wounds' shock check by the table's lethality.

    Raises:
        RulesError: no such kind, or a value it does not take.
    """
    fighter, state = encounter.sheet(who), encounter.states[who]
    where = f"hazard {kind}"
    if not state.condition.alive:
        raise RulesError(f"{who} is dead", hint="a hazard befalls the living")
    try:
        if kind == FALL:
            feet = validate(_Fall, values, where).feet
            result = fall(fighter, state, feet, dice, lethality=lethality)
        elif kind == POISON:
            toxicity = validate(_Poison, values, where).toxicity
            result = poison(fighter, state, toxicity, dice, lethality=lethality)
        elif kind in (BURNED, ON_FIRE):
            mitigates = validate(_Fire, values, where).armor_mitigates
            result = burn(
                fighter,
                state,
                dice,
                on_fire=kind == ON_FIRE,
                armor_mitigates=mitigates,
                lethality=lethality,
            )
        else:
            kinds = ", ".join(h.name for h in HAZARDS)
            raise RulesError(f"no hazard called {kind!r}", hint=f"one of: {kinds}")
    except SheetError as error:
        raise RulesError(error.message, hint=error.hint) from None
    return encounter.with_state(who, result.state), list(result.events)
