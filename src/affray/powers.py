"""What a rule system is to affray: a record of its keys and its powers.

A system is a :class:`RuleSystem`: its name, its sheets, the encounter-file keys it
owns, and its powers, each a small protocol called with keywords (``exact(a, b,
rational=True)``, ``simulate(a, b, run=RunSpec(...))``). The powers a system does not
have are None; whoever asks checks, and says so in words. The registry
(:mod:`affray.registry`) finds the systems; nothing else needs to know one.
"""

from __future__ import annotations

__all__ = [
    "AnySystem",
    "EncounterKeys",
    "LiveOdds",
    "RuleSystem",
    "RulesetT",
    "SheetT",
    "StateT",
    "TacticsT",
]

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from affray.dice import Dice
from affray.encounter import (
    Action,
    Answers,
    Chooser,
    Cursor,
    Encounter,
    Ruleset,
    SheetT,
    StateT,
    Targeting,
)
from affray.events import Event
from affray.ladders import Ladders
from affray.totals import ExactFights, FastFights, First

if TYPE_CHECKING:
    from affray.answers import DuelAnswer, RoundsDistribution, RunSpec
    from affray.narration.core import Narration

TacticsT = TypeVar("TacticsT")
RulesetT = TypeVar("RulesetT", bound="Ruleset[Any, Any]")
"""A system's ruleset: a :class:`~affray.encounter.Ruleset` of its own sheets and
states (Python's generics cannot say "of ``SheetT`` and ``StateT``" in a bound)."""

SheetC = TypeVar("SheetC", contravariant=True)
SheetCo = TypeVar("SheetCo", covariant=True)
RulesetC = TypeVar("RulesetC", contravariant=True)
TacticsC = TypeVar("TacticsC", contravariant=True)
TacticsCo = TypeVar("TacticsCo", covariant=True)
ResultCo = TypeVar("ResultCo", covariant=True)


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


class ReadSheet(Protocol[SheetCo]):
    """Parsed sheet data (and the file, for errors) → a sheet; raises SheetError."""

    def __call__(self, data: Mapping[str, object], /, *, where: str | None) -> SheetCo: ...


class MakeTactics(Protocol[TacticsCo]):
    """A combatant's tactics from its target policy and tactics keys; raises SheetError
    naming ``where`` (the file) and ``at`` (``side 1 ("Wolves"), member 2``)."""

    def __call__(
        self, target: Targeting, keys: Mapping[str, object], /, *, where: str, at: str
    ) -> TacticsCo: ...


class MakeAI(Protocol[SheetT, StateT, RulesetC, TacticsC]):
    """The system's tactics AI for a ruleset and each combatant's tactics, whose own
    random choices come from ``dice``."""

    def __call__(
        self, ruleset: RulesetC, tactics: Mapping[str, TacticsC], /, *, dice: Dice
    ) -> Chooser[SheetT, StateT]: ...


class ExactDuel(Protocol[SheetC]):
    """Exact odds of a duel, A attacking first; with ``rational`` the exact fractions
    too (in the answer's detail, as text)."""

    def __call__(self, a: SheetC, b: SheetC, /, *, rational: bool = False) -> DuelAnswer: ...


class DuelRounds(Protocol[SheetC]):
    """How many rounds a duel lasts, by winner (exact)."""

    def __call__(self, a: SheetC, b: SheetC, /) -> RoundsDistribution: ...


class ExactWithin(Protocol[SheetC]):
    """The exact odds of this duel if they come within ``seconds``, else None (a duel
    asked no method then gets them; else it is simulated)."""

    def __call__(self, a: SheetC, b: SheetC, /, *, seconds: float) -> DuelAnswer | None: ...


class SimulateDuels(Protocol[SheetC]):
    """``run.n`` duels by the system's fast engine; raises NotModelledError naming what
    it does not play (and the reference engine plays instead)."""

    def __call__(self, a: SheetC, b: SheetC, /, *, run: RunSpec) -> DuelAnswer: ...


class FromCursor(Protocol[SheetT, StateT, RulesetC, TacticsC, ResultCo]):
    """A power over the fight from ``cursor`` (``first``: the action the combatant
    whose turn it is takes first): its fast engine's fights made ready
    (:class:`~affray.totals.FastFights`), its exact odds
    (:class:`~affray.totals.ExactFights`) or what they would take (steps, about
    linear in time, found at once). Raises NotModelledError naming what it does not
    play, or RulesError naming the limit past which it has no exact odds."""

    def __call__(
        self,
        ruleset: RulesetC,
        cursor: Cursor[SheetT, StateT],
        /,
        *,
        tactics: Mapping[str, TacticsC],
        first: First | None,
    ) -> ResultCo: ...


class FightEnds(Protocol[SheetT, StateT, RulesetC, TacticsC]):
    """One fight from each of ``cursors`` (one encounter before it starts, its
    combatants' states differing: a day's fight as each day's party comes to it),
    played by the system's fast engine, the tactics choosing every turn, its dice from
    ``seed``: the encounter at each one's end. Raises NotModelledError naming what it
    does not play."""

    def __call__(
        self,
        ruleset: RulesetC,
        cursors: Sequence[Cursor[SheetT, StateT]],
        /,
        *,
        tactics: Mapping[str, TacticsC],
        seed: int,
    ) -> Sequence[Encounter[SheetT, StateT]]: ...


@dataclass(frozen=True, slots=True)
class HazardKind:
    """A hazard the game master can bring on a combatant at a table (a fall, fire):
    its name, what it is in words, and the keys it takes (``feet``, ``surface``)."""

    name: str
    words: str
    keys: tuple[str, ...] = ()


class ApplyHazard(Protocol[SheetT, StateT, RulesetC]):
    """``who`` suffers the hazard ``kind`` (a name of the system's ``hazards``) with
    ``values`` (its keys), its dice and questions (a retest) from ``answers``: the
    encounter after it, and what happened. Raises RulesError for a kind or a value it
    does not take."""

    def __call__(
        self,
        ruleset: RulesetC,
        encounter: Encounter[SheetT, StateT],
        who: str,
        kind: str,
        values: Mapping[str, object],
        /,
        *,
        answers: Answers[SheetT, StateT],
    ) -> tuple[Encounter[SheetT, StateT], list[Event]]: ...


class OddsOfAction(Protocol[SheetT, StateT, RulesetC]):
    """The exact odds of ``who``'s ``action``, about to be taken (live odds), or None
    when the system has none for it."""

    def __call__(
        self,
        ruleset: RulesetC,
        encounter: Encounter[SheetT, StateT],
        /,
        *,
        who: str,
        action: Action,
    ) -> LiveOdds | None: ...


class Edit(Protocol[SheetT, StateT]):
    """The game master's fiat: the encounter with ``who``'s snapshot keys (and
    ``condition``) set to ``values``, checked like sheet values (SheetError naming
    ``where`` and the key)."""

    def __call__(
        self,
        encounter: Encounter[SheetT, StateT],
        who: str,
        values: Mapping[str, object],
        /,
        *,
        where: str,
    ) -> Encounter[SheetT, StateT]: ...


class Health(Protocol[SheetT, StateT]):
    """How ``who``, still fighting, looks from across the table (unhurt, hurt, ...)."""

    def __call__(self, encounter: Encounter[SheetT, StateT], who: str, /) -> str: ...


class StatBlock(Protocol[SheetC]):
    """A sheet as a game master or a player reads it: each line a label and its value
    (what the sheet derives included: MST-2's evasion with a shield)."""

    def __call__(self, sheet: SheetC, /) -> tuple[tuple[str, str], ...]: ...


class Rest(Protocol[SheetT, StateT]):
    """One day of rest by the system's healing rules: the encounter with ``who`` as it
    is after the day, and what happened. ``options`` are the system's own (MST-2:
    ``setting``), checked (SheetError naming the key). The dead do not heal."""

    def __call__(
        self,
        encounter: Encounter[SheetT, StateT],
        who: str,
        /,
        *,
        dice: Dice,
        options: Mapping[str, object],
    ) -> tuple[Encounter[SheetT, StateT], list[Event]]: ...


@dataclass(frozen=True, slots=True)
class RestOption:
    """One option of a system's days of rest, as a form offers it: its key, what it
    is called, and its choices (each a value and its words; the first is the
    default)."""

    key: str
    label: str
    choices: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class RuleSystem(Generic[SheetT, StateT, RulesetT, TacticsT]):
    """Everything affray knows about one rule system.

    Attributes:
        name: the ``system`` key of its sheets and encounter files (``mst2``).
        title: its name for people (``MST-2``).
        sheet_type: the class of its sheets.
        read_sheet: validates parsed sheet data into a sheet.
        option_keys, side_keys, tactics_keys: the encounter-file keys it owns, at
            the top, on a side, and on a side or a member (tactics).
        ruleset: its ruleset for an encounter file's keys; raises SheetError.
        duel_ruleset: its ruleset for a plain duel (default options).
        tactics: a combatant's tactics from its target policy and tactics keys.
        ai: its tactics AI.
        narration: how its events are told.
        topics: the words of the topics of the questions its rules ask, beside the
            action every system asks (the keys ``--choose`` takes).
        conditions: the words ``edit`` takes for ``condition``.
        bestiary: its folder of ready-made sheets (``ogre.toml``) that sheet
            references name.
        listed: its place in lists of the systems.
        who_first: how a duel opens, in words (``{a}`` is the first sheet's name).
        rest_options: what its days of rest can be asked (``rest``'s options), for a
            form or a command to offer.

    The powers below are None where the system has none: ``exact`` and ``rounds``
    (exact duel odds), ``simulate`` (a fast duel engine), ``fast_fights``,
    ``exact_fights`` and ``exact_work`` (whole fights), ``live_odds``, ``edit``,
    ``health`` (else it is measured by the ruleset's ``weakness``) and ``rest``.
    """

    name: str
    title: str
    sheet_type: type[SheetT]
    read_sheet: ReadSheet[SheetT]
    option_keys: frozenset[str]
    side_keys: frozenset[str]
    tactics_keys: frozenset[str]
    ruleset: Callable[[EncounterKeys], RulesetT]
    duel_ruleset: Callable[[], RulesetT]
    tactics: MakeTactics[TacticsT]
    ai: MakeAI[SheetT, StateT, RulesetT, TacticsT]
    narration: Narration
    topics: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()
    bestiary: Traversable | None = None
    listed: int = 100
    """Its place in lists of the systems, lower first (then by name): affray lists its
    own first, MST-2 (0) then Midian (1)."""
    who_first: str = "Initiative decides who acts first"
    rest_options: tuple[RestOption, ...] = ()
    exact: ExactDuel[SheetT] | None = None
    rounds: DuelRounds[SheetT] | None = None
    exact_within: ExactWithin[SheetT] | None = None
    """Where exact duel odds can take long (Midian's chain): the odds if they come
    within ``seconds``, else None; None here: they are always quick."""
    simulate: SimulateDuels[SheetT] | None = None
    fast_fights: FromCursor[SheetT, StateT, RulesetT, TacticsT, FastFights] | None = None
    exact_fights: FromCursor[SheetT, StateT, RulesetT, TacticsT, ExactFights] | None = None
    exact_fights_by_round: (
        FromCursor[SheetT, StateT, RulesetT, TacticsT, Sequence[ExactFights]] | None
    ) = None
    """``exact_fights`` with the round cap at each round from the cursor's on (round 1
    at the least), in one run (Midian's chain pushed round by round); where a system
    has none, ``fight --exact --by-round`` asks ``exact_fights`` once a round."""
    fight_ends: FightEnds[SheetT, StateT, RulesetT, TacticsT] | None = None
    """Many fights of one encounter, each from its own states, to their ends (a day
    of fights on the fast engine)."""
    effects: Callable[[Encounter[SheetT, StateT], str], Sequence[str]] | None = None
    """What lasts on a combatant beside its figures, in words (Midian: on fire, winded
    for 2 more rounds): shown with its conditions; ``set`` clears each."""
    hazards: tuple[HazardKind, ...] = ()
    """The hazards a game master can bring on a combatant at a table (``hazard``)."""
    hazard: ApplyHazard[SheetT, StateT, RulesetT] | None = None
    fight_ends_compiles_first: Callable[[], bool] | None = None
    """Whether ``fight_ends`` will compile the system's machine code first."""
    exact_work: FromCursor[SheetT, StateT, RulesetT, TacticsT, int] | None = None
    live_odds: OddsOfAction[SheetT, StateT, RulesetT] | None = None
    edit: Edit[SheetT, StateT] | None = None
    health: Health[SheetT, StateT] | None = None
    rest: Rest[SheetT, StateT] | None = None
    stat_block: StatBlock[SheetT] | None = None
    exact_compiles_first: Callable[[], bool] | None = None
    """Whether the first exact odds of a whole fight will compile the system's machine
    code first (a command says so before the wait)."""
    ladders: Ladders | None = None
    """The keys of a sheet a designer moves, each a ladder of values in order
    (``solve``, ``sensitivity``, ``frontier``: :mod:`affray.ladders`)."""
    table_defaults: Mapping[str, object] = field(default_factory=dict)
    """Options a new table takes unless it is given others (MST-2: no circumstance
    question)."""
    quick_keys: tuple[str, ...] = ()
    """State keys the game master's board steps by one with − and + (MST-2: wounds;
    Midian: hit and life points)."""
    game_masters_topics: tuple[str, ...] = ()
    """Topics of questions a table asks of the game master, never of a player's link
    (MST-2's circumstance)."""

    def owns(self, sheet: object) -> bool:
        """Whether ``sheet`` is one of this system's sheets."""
        return isinstance(sheet, self.sheet_type)


AnySystem = RuleSystem[Any, Any, Any, Any]
"""A system of whichever sheets: what the registry hands to generic code."""
