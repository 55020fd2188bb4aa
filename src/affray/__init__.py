"""affray: rules, exact odds and simulation for MST-2 and Midian tabletop combat.

The public face: ``affray.load``, ``affray.duel``, ``affray.fight``,
``affray.narrate`` and ``affray.systems`` (see :mod:`affray.api`), the dice, and the
errors; every rule of a system is in ``affray.rulesystems.<system>``.
MST-2: Melee Fighting © 2021 Eiríkr Åsheim, CC BY 4.0.
"""

from typing import TYPE_CHECKING, Any

from affray.dice import (
    Dice,
    DieRoll,
    Distribution,
    RandomDice,
    RollResult,
    ScriptedDice,
    distribution,
    parse,
    roll,
)
from affray.errors import (
    AffrayError,
    DiceError,
    DiceLimitError,
    DiceSyntaxError,
    RulesError,
    ScriptedDiceError,
    SheetError,
)
from affray.events import Event

if TYPE_CHECKING:  # loaded on first use, so that ``affray --help`` stays quick
    from affray.api import (
        CombatantReport,
        DuelAnswer,
        FightResult,
        duel,
        duel_setup,
        fight,
        load,
        narrate,
        systems,
    )

_API = (
    "CombatantReport",
    "DuelAnswer",
    "FightResult",
    "duel",
    "duel_setup",
    "fight",
    "load",
    "narrate",
    "systems",
)


def __getattr__(name: str) -> Any:
    if name in _API:
        from affray import api

        return getattr(api, name)
    raise AttributeError(f"module 'affray' has no attribute {name!r}")


__all__ = [
    "AffrayError",
    "CombatantReport",
    "Dice",
    "DiceError",
    "DiceLimitError",
    "DiceSyntaxError",
    "DieRoll",
    "Distribution",
    "DuelAnswer",
    "Event",
    "FightResult",
    "RandomDice",
    "RollResult",
    "RulesError",
    "ScriptedDice",
    "ScriptedDiceError",
    "SheetError",
    "distribution",
    "duel",
    "duel_setup",
    "fight",
    "load",
    "narrate",
    "parse",
    "roll",
    "systems",
]
