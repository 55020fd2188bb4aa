"""What a table is (pure values): its rules and its state, apart from what each
command does to them (:mod:`affray.table.state`, :mod:`affray.table.fiat`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, runtime_checkable

from affray import registry
from affray.dice import Dice
from affray.encounter import Chooser, Encounter, Ruleset
from affray.encounter import cursor as turns
from affray.encounter.cursor import Cursor, Phase
from affray.errors import RulesError, UnknownCombatantError
from affray.table.commands import ALLOWED, Edge

KEY_MARK = "~"
"""What every combatant's key starts with (no name a table takes does)."""
RULES_KEYS = ("max_rounds", "sides", "physical_dice", *ALLOWED)
"""Table options that are not the system's own: the round cap, each side's keys, whether
every die is typed (``physical_dice``: affray rolls none), and what the players are
allowed at first (:class:`affray.table.commands.Allow`)."""
LEGACY_MAX_ROUNDS = 1_000_000
"""The round cap of changes logged before the table had one (era 1)."""
CURSOR_ERA = 2
"""The first era of the one turn cursor (the round cap, a decided fight closing its round)."""
ERA = 4
"""How the table plays a command: 1, before the one turn cursor (a fight decided in
mid-round did not close its round, and there was no round cap); 2, the cursor's; 3,
Midian's third round of fidelity to its text; 4, its fourth. A ruleset whose rules
changed since plays a change logged in an older era as it played then (:meth:`Rules.at`)."""


@dataclass(frozen=True, slots=True)
class Condition:
    """A condition the game master keeps (the rules do not read it)."""

    combatant: str
    text: str
    ends: Edge | None = None
    of: str | None = None
    turns: int = 1
    public: bool = False

    @property
    def until(self) -> str:
        if self.ends is None or self.of is None:
            return ""
        which = "next turn" if self.turns == 1 else f"turn {self.turns} turns from now"
        return f"the {self.ends.value} of {self.of}'s {which}"


@runtime_checkable
class _Dated(Protocol):
    """A ruleset whose rules changed at some era: it plays an older era's change as it
    played then."""

    def at_era(self, era: int) -> Ruleset[Any, Any]: ...


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules a table plays by: its system, that system's ruleset (options set),
    and the round cap."""

    system: registry.AnySystem
    ruleset: Ruleset[Any, Any]
    max_rounds: int = turns.DEFAULT_MAX_ROUNDS
    options: Mapping[str, object] = field(default_factory=dict)
    """The table options these rules were made from."""
    _eras: dict[int, Rules] = field(default_factory=dict, compare=False, repr=False)
    """The rules of each older era asked for so far (made once: a fold asks per change)."""

    def at(self, era: int) -> Rules:
        """These rules as the table played a change logged in ``era``: the same, but
        for a ruleset whose rules changed since (Midian's round 3 of fidelity came with
        era 3: an older change replays with the rules before it, so that nothing saved
        is lost)."""
        if era >= ERA or not isinstance(self.ruleset, _Dated):
            return self
        older = self._eras.get(era)
        if older is None:
            older = self._eras[era] = replace(self, ruleset=self.ruleset.at_era(era), _eras={})
        return older

    @classmethod
    def of(cls, system: str, options: Mapping[str, object]) -> Rules:
        """The rules of a table of ``system`` with these options: the system's own
        encounter options, ``max_rounds`` and ``sides`` (each side's keys, by name).

        Raises:
            AffrayError: no such system, or an option it does not take.
        """
        chosen = registry.system(system)
        own = {k: v for k, v in options.items() if k not in RULES_KEYS}
        sides = options.get("sides", {})
        if not isinstance(sides, Mapping) or not all(
            isinstance(v, Mapping) for v in sides.values()
        ):
            raise RulesError("sides must map each side's name to its keys")
        for key in (*ALLOWED, "physical_dice"):
            if not isinstance(options.get(key, False), bool):
                raise RulesError(f"{key} is {options[key]!r}", hint=f"{key} is true or false")
        cap = options.get("max_rounds", turns.DEFAULT_MAX_ROUNDS)
        if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= 1000:
            raise RulesError(f"max_rounds is {cap!r}", hint="max_rounds is from 1 to 1000")
        keys = registry.EncounterKeys(own, dict(sides), "table options")
        return cls(chosen, chosen.ruleset(keys), cap, dict(options))

    def ai(self, state: TableState, dice: Dice) -> Chooser[Any, Any]:
        """The combatants' tactics, answering what no one at the table answered."""
        return self.system.ai(self.ruleset, state.tactics, dice=dice)

    @property
    def topics(self) -> tuple[str, ...]:
        """The words of the questions these rules ask (``--choose`` keys)."""
        return ("action", *self.system.topics)


@dataclass(frozen=True, slots=True)
class TableState:
    cursor: Cursor[Any, Any] = field(default_factory=lambda: Cursor(Encounter((), {})))
    sources: Mapping[str, str] = field(default_factory=dict)
    tactics: Mapping[str, object] = field(default_factory=dict)
    players: frozenset[str] = frozenset()
    """Player characters: their sides are the players' friends."""
    hidden: frozenset[str] = frozenset()
    """Combatants the players do not see (they fight, for the game master)."""
    serials: Mapping[str, int] = field(default_factory=dict)
    """Each combatant's serial: the how-manieth to join the table it was. It stays with
    the combatant through a rename, and is never given again (a player's link names
    its combatant by it)."""
    joined: int = 0
    """How many combatants have joined the table (the last serial given)."""
    keys: Mapping[str, str] = field(default_factory=dict)
    """Each combatant's key: its identity for good (:func:`affray.table.identity.new_key`).
    No rename, removal or later combatant of the same name ever takes it; the log names
    combatants by it, and names are only what each is called at a moment."""
    conditions: tuple[Condition, ...] = ()
    allowed: Mapping[str, bool] = field(default_factory=dict)
    """What the game master allowed the players since the table began (the ``allow``
    verb); the table's options say it before that (:meth:`allows`)."""

    @classmethod
    def empty(cls) -> TableState:
        return cls()

    @property
    def encounter(self) -> Encounter[Any, Any]:
        return self.cursor.encounter

    @property
    def round(self) -> int:
        return self.cursor.round

    @property
    def started(self) -> bool:
        return self.cursor.started

    @property
    def current(self) -> str | None:
        return self.cursor.current

    @property
    def order(self) -> tuple[str, ...]:
        return self.cursor.order

    def phase(self, rules: Rules) -> Phase:
        return self.cursor.phase(rules.ruleset)

    def allows(self, rules: Rules, key: str) -> bool:
        """Whether the players are allowed ``key`` (one of
        :data:`affray.table.commands.ALLOWED`) now."""
        return bool(self.allowed.get(key, rules.options.get(key, False)))

    def conditions_of(self, cid: str) -> list[Condition]:
        return [c for c in self.conditions if c.combatant == cid]

    def whose_die(self, purpose: str) -> str | None:
        """The combatant a die is rolled by, as its purpose names it first
        (``"Guard's wits challenge"``, ``"Guard 2 hits"``: the longest name that fits),
        or None (a die of no one's: the game master's)."""
        ids = [c.id for c in self.encounter.combatants]
        named = [cid for cid in ids if purpose.startswith((f"{cid}'s", f"{cid} "))]
        return max(named, key=len) if named else None

    def key_of(self, cid: str) -> str:
        """The key of the combatant called ``cid`` now (its id; one of a table state
        made before keys were is keyed by its serial)."""
        return self.keys.get(cid) or f"#{self.serials.get(cid, 0)}"

    def keys_named(self) -> dict[str, str]:
        """Each combatant's id (its name now), by its key."""
        return {key: cid for cid, key in self.keys.items()}

    def named(self, key: str) -> str | None:
        """The id (the name now) of the combatant whose key is ``key``, if it is at the
        table."""
        return next((cid for cid, k in self.keys.items() if k == key), None)

    def resolve(self, name: str, among: Iterable[str] | None = None) -> str:
        """The id of the combatant ``name`` names: its key, or what it is called (case
        forgiven; a unique start will do), of everyone at the table or only of those
        ``among`` (whom a refusal lists).

        Raises:
            RulesError: no one, or more than one, is called that.
        """
        ids = [c.id for c in self.encounter.combatants] if among is None else list(among)
        keyed = self.named(name) if name.startswith(KEY_MARK) else None
        if keyed is not None and keyed in ids:
            return keyed
        wanted = " ".join(name.lower().split())
        exact = [cid for cid in ids if cid.lower() == wanted]
        found = exact or [cid for cid in ids if cid.lower().startswith(wanted)]
        if len(found) == 1:
            return found[0]
        raise UnknownCombatantError(name, found, ids)
