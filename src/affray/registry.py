"""The rule-system registry: the one door through which a rule system comes in.

A rule system registers once, with everything the rest of affray needs to know
about it: its sheets, its encounter-file keys, its ruleset, its tactics AI, its
narration, and its odds and fast simulator where it has them. Loading sheets and
encounters, duels, fights, narration and the table all go through here; nothing
outside ``rulesystems/<system>/`` branches on a system's name or sheet class.

The built-in systems register when first asked for; another one (a plug-in, or a
test's toy system) calls :func:`register`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from affray.dice import Dice
from affray.encounter import (
    Action,
    Chooser,
    Cursor,
    Encounter,
    Ruleset,
    SheetT,
    StateT,
    Targeting,
)
from affray.errors import AffrayError
from affray.events import Event

if TYPE_CHECKING:
    from affray.rulesystems.mst2.odds.duel import RoundsDistribution
    from affray.sim.chunks import Estimate
    from affray.sim.stats import DuelStats
    from affray.sim.totals import ExactFights, FastFights, First

TacticsT = TypeVar("TacticsT")
RulesetT = TypeVar("RulesetT", bound="Ruleset[Any, Any]")

BUILT_IN = ("affray.rulesystems.mst2.system", "affray.rulesystems.midian.system")
"""Modules that register the systems shipped with affray (imported on first use)."""

Progress = Callable[[int], None]
"""Hears how many more duels of a run are done."""
Announce = Callable[["Estimate"], None]
"""Hears, before a long run starts, how long it will take."""


@dataclass(frozen=True, slots=True)
class ExactDuel:
    """Exact odds of a duel: A attacks first; a draw at the round cap or when neither
    can ever win."""

    p_a_wins: float
    p_b_wins: float
    p_draw: float
    mean_rounds: float
    detail: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LiveOdds:
    """The odds of an action about to be taken: a sentence, and its figures."""

    text: str
    figures: Mapping[str, float]


@dataclass(frozen=True, slots=True)
class EncounterKeys:
    """The keys of an encounter file that a rule system owns, as the file gave them.

    Attributes:
        options: its top-level keys (lethality, distance, ...).
        sides: for each side by name, its side-level keys (surprised, ...).
        where: the file, for error messages.
        side_keys: for each side by name, where it is in the file.
    """

    options: Mapping[str, object]
    sides: Mapping[str, Mapping[str, object]]
    where: str
    side_keys: Mapping[str, str] = field(default_factory=dict)
    """Each side's place in the file (``side 2 ("Wolves")``), to name keys in errors."""


@dataclass(frozen=True, slots=True)
class RuleSystem(Generic[SheetT, StateT, RulesetT, TacticsT]):
    """Everything affray knows about one rule system.

    Attributes:
        name: the ``system`` key of its sheets and encounter files (``mst2``).
        title: its name for people (``MST-2``).
        sheet_type: the class of its sheets.
        sheet_from_data: validates parsed sheet data (and the file name for errors)
            into a sheet; raises SheetError.
        option_keys, side_keys, tactics_keys: the encounter-file keys it owns, at
            the top, on a side, and on a side or a member (tactics).
        ruleset: its ruleset for an encounter file's keys; raises SheetError.
        duel_ruleset: its ruleset for a plain duel (default options).
        tactics: a combatant's tactics from its target policy and tactics keys
            (the file, and the place of the keys in it such as ``side 1 ("Wolves"),
            member 2``, for errors: ``validate(..., at=place)``); raises SheetError.
        ai: its tactics AI for a ruleset, the tactics of each combatant and a Dice.
        narration: the narrator's handler for each of its event types.
        exact_duel: exact odds of a duel of A and B, if it has them: ``(a, b,
            rational)``, floats, and with ``rational`` the exact fractions too (in
            the detail, as text).
        rounds_distribution: how many rounds such a duel lasts, if it has it.
        fast_duels: a fast simulator of n duels, if it has one:
            ``(a, b, n, seed, workers, progress, max_rounds, estimate) -> (stats, seed
            used)``; ``estimate``, if given, hears how long the run will take before
            it starts (``affray.sim.chunks.run_chunks``).
        fast_fights: its fast engine of whole fights, if it has one: ``(ruleset,
            cursor, tactics, first)`` → the fights from that cursor (``first``: the
            action the combatant whose turn it is takes first) made ready for it
            (:class:`~affray.sim.totals.FastFights`); raises NotModelledError naming
            what it does not play, and the reference engine plays instead.
        exact_fights: exact odds of a whole fight, if it has them: ``(ruleset, cursor,
            tactics, first)`` as ``fast_fights`` takes them; raises RulesError naming
            the limit past which it has none (or NotModelledError).
        exact_work: what ``exact_fights`` would take (steps of its work, about
            linear in time), found at once; raises as ``exact_fights`` does past the
            limits.
        attack_odds: the exact odds of an action about to be taken in an encounter,
            if it has them (live odds).
        topics: the words of the topics of the questions its rules ask, beside the
            action every system asks (the keys ``--choose`` takes).
        edit: the game master's fiat, if it takes it: ``(encounter, who, values,
            where)`` → the encounter with ``who``'s snapshot keys (and ``condition``)
            set to ``values``, checked like sheet values (SheetError naming
            ``where`` and the key).
        conditions: the words ``edit`` takes for ``condition``.
        health: how a combatant still fighting looks from across the table (unhurt,
            hurt, bloodied), if the system says it its own way; else it is
            measured by the ruleset's ``weakness``.
        rest: one day of rest by the system's healing rules, if it has them:
            ``(encounter, who, dice, options)`` → the encounter with ``who`` as it is
            after the day, and what happened; ``options`` are the system's own
            (MST-2: ``setting``), checked (SheetError naming the key). The dead do not
            heal.
    """

    name: str
    title: str
    sheet_type: type[SheetT]
    sheet_from_data: Callable[[Mapping[str, Any], str | None], SheetT]
    option_keys: frozenset[str]
    side_keys: frozenset[str]
    tactics_keys: frozenset[str]
    ruleset: Callable[[EncounterKeys], RulesetT]
    duel_ruleset: Callable[[], RulesetT]
    tactics: Callable[[Targeting, Mapping[str, object], str, str], TacticsT]
    ai: Callable[[RulesetT, Mapping[str, TacticsT], Dice], Chooser[SheetT, StateT]]
    narration: Mapping[type[Event], Callable[[Any], tuple[list[tuple[str, str]], bool]]]
    exact_duel: Callable[[SheetT, SheetT, bool], ExactDuel] | None = None
    rounds_distribution: Callable[[SheetT, SheetT], RoundsDistribution] | None = None
    fast_duels: (
        Callable[
            [SheetT, SheetT, int, int | None, int, Progress | None, int, Announce | None],
            tuple[DuelStats, int],
        ]
        | None
    ) = None
    fast_fights: (
        Callable[
            [RulesetT, Cursor[SheetT, StateT], Mapping[str, TacticsT], First | None],
            FastFights,
        ]
        | None
    ) = None
    exact_fights: (
        Callable[
            [RulesetT, Cursor[SheetT, StateT], Mapping[str, TacticsT], First | None],
            ExactFights,
        ]
        | None
    ) = None
    exact_work: (
        Callable[[RulesetT, Cursor[SheetT, StateT], Mapping[str, TacticsT], First | None], int]
        | None
    ) = None
    attack_odds: (
        Callable[[RulesetT, Encounter[SheetT, StateT], str, Action], LiveOdds | None] | None
    ) = None
    topics: tuple[str, ...] = ()
    edit: (
        Callable[
            [Encounter[SheetT, StateT], str, Mapping[str, object], str], Encounter[SheetT, StateT]
        ]
        | None
    ) = None
    conditions: tuple[str, ...] = ()
    health: Callable[[Encounter[SheetT, StateT], str], str] | None = None
    rest: (
        Callable[
            [Encounter[SheetT, StateT], str, Dice, Mapping[str, object]],
            tuple[Encounter[SheetT, StateT], list[Event]],
        ]
        | None
    ) = None
    bestiary: Traversable | None = None
    """Its folder of ready-made sheets (``ogre.toml``), which sheet references name."""

    def owns(self, sheet: object) -> bool:
        """Whether ``sheet`` is one of this system's sheets."""
        return isinstance(sheet, self.sheet_type)


AnySystem = RuleSystem[Any, Any, Any, Any]
_SYSTEMS: dict[str, AnySystem] = {}
_loaded = False


def register(
    system: RuleSystem[SheetT, StateT, RulesetT, TacticsT],
) -> RuleSystem[SheetT, StateT, RulesetT, TacticsT]:
    """Add a rule system (its narration too); registering a name again replaces it."""
    from affray.narration.core import register as register_narration

    _SYSTEMS[system.name] = system
    register_narration(dict(system.narration))
    return system


def unregister(name: str) -> None:
    """Remove a rule system (a test's toy system, say)."""
    _SYSTEMS.pop(name, None)


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in BUILT_IN:
            importlib.import_module(module)


def systems() -> list[str]:
    """The names of the registered rule systems."""
    _load()
    return list(_SYSTEMS)


def all_systems() -> Sequence[AnySystem]:
    _load()
    return list(_SYSTEMS.values())


def system(name: str) -> AnySystem:
    """The rule system called ``name``.

    Raises:
        AffrayError: no system has that name; the message lists those there are.
    """
    _load()
    try:
        return _SYSTEMS[name]
    except KeyError:
        raise AffrayError(
            f"unknown rule system {name!r}",
            hint="system is one of: " + ", ".join(f'"{n}"' for n in _SYSTEMS),
        ) from None


def system_of(sheet: object) -> AnySystem:
    """The rule system a sheet belongs to.

    Raises:
        AffrayError: no registered system owns this kind of sheet.
    """
    _load()
    for candidate in _SYSTEMS.values():
        if candidate.owns(sheet):
            return candidate
    raise AffrayError(
        f"{type(sheet).__name__} is not a sheet of any registered rule system",
        hint="load sheets with affray.load",
    )


def live_odds(
    system: AnySystem,
    ruleset: Ruleset[Any, Any],
    before: Encounter[Any, Any],
    events: Sequence[Event],
) -> LiveOdds | None:
    """The system's exact odds of the action these events open with, as a sentence,
    from the encounter ``before`` it (None when it has no such odds)."""
    from affray.encounter.events import ActionChosen

    if system.attack_odds is None:
        return None
    chosen = next((e for e in events if isinstance(e, ActionChosen)), None)
    if chosen is None:
        return None
    return system.attack_odds(ruleset, before, chosen.combatant, chosen.action)
