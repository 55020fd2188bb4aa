"""``affray day DAY.toml -n N``: a party through a day of fights and rests, N times.

```toml
party = "The Company"              # a saved party (its members and the wounds they carry)
# or its members, fresh:
# [[members]]
# sheet = "sellsword.toml"         # relative to the day file, or a bestiary name
# name = "Brenna"                  # optional
[[steps]]
encounter = "ambush.toml"          # its side named "party" is the party
[[steps]]
rest = 2                           # days, by the system's healing rules
options = { setting = "tended" }   # the system's rest options (MST-2's setting)
[[steps]]
encounter = "ogre.toml"
```

Each fight starts from the wounds the last one left (what a party carries from a
table: :func:`affray.table.party_rules.carried`), and a rest heals them as ``party
rest`` does. A member who falls stays down as the rules' lethality says (a rest brings
back who can come back). A fight the party does not win (a loss, a rout, a draw at the
round cap) ends its day there. The fights are played on the system's fast engine where
it has one for a day (MST-2's group engine, every day's fight at once), else on the
reference engine, day by day.
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import Field

from affray import registry
from affray.dice import RandomDice
from affray.encounter import Answers, Cursor, Phase
from affray.encounter.cursor import proceed, sides_fighting
from affray.errors import AffrayError, NotModelledError, SheetError
from affray.estimates import Estimate
from affray.quoting import quoted
from affray.sheets import load_document
from affray.sheets.combatants import resolve_reference
from affray.sheets.encounters import EncounterSetup, encounter_from_data, tactics_dice
from affray.sheets.kinds import check_kind
from affray.sheets.validation import Strict, validate
from affray.sim.chunks import Submits, run_chunks
from affray.table.party_rules import Member, PartyState, carried, changed, fresh_values, rest

PARTY = "party"
"""The side of an encounter file the party takes."""
DAY_CHUNK = 20
"""Days a worker plays between two reports on the reference engine (the unit of
seeding)."""
REFERENCE = "reference engine"


class MemberEntry(Strict):
    DOCS: ClassVar[str] = "docs/design.md"
    PLACE: ClassVar[str | None] = "member"

    sheet: str = Field(min_length=1, max_length=500)
    name: str | None = Field(default=None, min_length=1, max_length=80)


class StepEntry(Strict):
    DOCS: ClassVar[str] = "docs/design.md"
    PLACE: ClassVar[str | None] = "step"

    encounter: str | None = Field(default=None, min_length=1, max_length=500)
    rest: int | None = Field(default=None, ge=1, le=365)
    options: dict[str, Any] = Field(default_factory=dict)


class DayFile(Strict):
    DOCS: ClassVar[str] = "docs/design.md"

    party: str | None = Field(default=None, min_length=1, max_length=200)
    members: list[MemberEntry] | None = Field(default=None, min_length=1, max_length=20)
    steps: list[StepEntry] = Field(min_length=1, max_length=50)


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a day: a fight (its encounter, the party's side filled with the
    party) or days of rest (with the system's options)."""

    kind: Literal["fight", "rest"]
    name: str
    encounter: str = ""
    """The encounter file's data as JSON, its party side's members the party's."""
    base: str = ""
    days: int = 0
    options: str = "{}"


@dataclass(frozen=True, slots=True)
class Day:
    """A checked day: the party (fresh, or as its party carries it) and its steps;
    plain data, picklable for the workers."""

    system: str
    members: tuple[Member, ...]
    steps: tuple[Step, ...]
    where: str
    fresh: tuple[Mapping[str, Any], ...] = ()
    """Each member's carried values fresh (what it carries when it carries nothing)."""

    @property
    def sheets(self) -> dict[str, Mapping[str, Any]]:
        return {_reference(i): m.sheet for i, m in enumerate(self.members)}


def _reference(index: int) -> str:
    return f"party-member-{index + 1}.json"


def load_day(path: str | Path, party: Sequence[Member] | None = None) -> Day:
    """Read and check a day file and every encounter it names.

    ``party``: the members of the saved party it names (the caller reads the
    database); None when it lists its own members.

    Raises:
        SheetError: the file, a step, a member's sheet or an encounter is invalid (an
            encounter with no side named ``party``, a name the party and the encounter
            share).
    """
    file = Path(path)
    where = str(file)
    data = load_document(file)
    check_kind(data, "day", where)
    table = validate(DayFile, data, where)
    if (table.party is None) == (table.members is None):
        raise SheetError(
            "give either party (a saved party) or [[members]] (their sheets)",
            path=where,
            hint='party = "The Company", or [[members]] with sheet = "sellsword.toml"',
        )
    members = tuple(party or ()) if table.party is not None else _members(table, file)
    if not members:
        raise SheetError(
            f"the party {table.party!r} has no members",
            path=where,
            key="party",
            hint="add one: affray party add PARTY SHEET",
        )
    systems = {_system_of(m) for m in members}
    if len(systems) != 1:
        raise SheetError(
            "the party's members are of more than one rule system", path=where, key="members"
        )
    system = systems.pop()
    steps = tuple(
        _step(entry, number, file, system, members)
        for number, entry in enumerate(table.steps, start=1)
    )
    if not any(step.kind == "fight" for step in steps):
        raise SheetError("a day needs a fight", path=where, key="steps", hint='encounter = "…"')
    chosen = registry.system(system)
    ruleset = chosen.duel_ruleset()
    fresh = tuple(fresh_values(chosen, ruleset, replace(m, values={})) for m in members)
    return Day(system, members, steps, where, fresh)


def _system_of(member: Member) -> str:
    from affray.sheets import sheet_from_data

    return registry.system_of(sheet_from_data(member.sheet, member.source)).name


def _members(table: DayFile, file: Path) -> tuple[Member, ...]:
    found = []
    taken: set[str] = set()
    for number, entry in enumerate(table.members or (), start=1):
        where = f"{file}, member {number}"
        try:
            reference = resolve_reference(entry.sheet, base=file.parent)
            sheet = reference.sheet()
        except AffrayError as error:
            raise SheetError(
                error.message, path=str(file), key="members", hint=error.hint
            ) from None
        name = entry.name or sheet.name
        if name.lower() in taken:
            raise SheetError(
                f"two members are called {quoted(name)}",
                path=str(file),
                at=f"member {number}",
                hint="give one a name = …",
            )
        taken.add(name.lower())
        source = str(reference.path) if reference.path is not None else f"bestiary {entry.sheet}"
        found.append(Member(name, source or where, dict(reference.data), {}))
    return tuple(found)


def _step(
    entry: StepEntry, number: int, file: Path, system: str, members: Sequence[Member]
) -> Step:
    where = str(file)
    at = f"step {number}"
    if (entry.encounter is None) == (entry.rest is None):
        raise SheetError(
            "a step is either an encounter or a rest",
            path=where,
            at=at,
            hint='encounter = "ambush.toml", or rest = 2 (days)',
        )
    if entry.rest is not None:
        try:  # its options, checked now: a day an hour in must not stop on them
            rest(
                registry.system(system), PartyState(tuple(members)), 1, RandomDice(0), entry.options
            )
        except AffrayError as error:
            raise SheetError(error.message, path=where, at=at, hint=error.hint) from None
        days = entry.rest
        name = f"rest {days} day{'s' if days != 1 else ''}"
        return Step("rest", name, days=days, options=json.dumps(entry.options, sort_keys=True))
    assert entry.encounter is not None
    path = file.parent / entry.encounter
    try:
        data = dict(load_document(path))
    except SheetError as error:
        raise SheetError(error.message, path=where, at=at, hint=error.hint) from None
    sides = data.get("sides")
    party_side = None
    if isinstance(sides, list):
        party_side = next(
            (s for s in sides if isinstance(s, dict) and str(s.get("name", "")).lower() == PARTY),
            None,
        )
    if party_side is None:
        raise SheetError(
            f"{entry.encounter} has no side named {quoted(PARTY)}",
            path=where,
            at=at,
            hint=f'name the side the party takes "{PARTY}" in {entry.encounter} (its '
            "members are replaced by the party's)",
        )
    party_side["name"] = PARTY
    party_side["members"] = [{"sheet": _reference(i), "name": m.id} for i, m in enumerate(members)]
    sheets = {_reference(i): m.sheet for i, m in enumerate(members)}
    try:
        setup = encounter_from_data(data, str(path), base=path.resolve().parent, sheets=sheets)
    except SheetError as error:
        raise SheetError(
            f"{entry.encounter}: {error.message}", path=where, at=at, hint=error.hint
        ) from None
    if setup.system.name != system:
        raise SheetError(
            f"{entry.encounter} is a {setup.system.title} fight, and the party is not",
            path=where,
            at=at,
        )
    return Step("fight", setup.name, json.dumps(data), str(path.resolve().parent))


@dataclass(frozen=True)
class DayTotals:
    """Totals of a batch of days; batches add up (``+``).

    Attributes:
        n: days played.
        reached, won: by step number, days that reached the fight and won it.
        survived: days the party won every fight.
        standing: by member, days it was still fighting at the end.
        carried: by step number, then member, then key: the sum of the carried value
            (numbers only) over the days that reached the fight.
    """

    n: int = 0
    reached: Mapping[int, int] = field(default_factory=dict)
    won: Mapping[int, int] = field(default_factory=dict)
    survived: int = 0
    standing: Mapping[str, int] = field(default_factory=dict)
    carried: Mapping[int, Mapping[str, Mapping[str, float]]] = field(default_factory=dict)

    def __add__(self, other: DayTotals) -> DayTotals:
        merged: dict[int, dict[str, dict[str, float]]] = {}
        for source in (self.carried, other.carried):
            for step, members in source.items():
                for member, values in members.items():
                    into = merged.setdefault(step, {}).setdefault(member, {})
                    for key, value in values.items():
                        into[key] = into.get(key, 0.0) + value
        return DayTotals(
            self.n + other.n,
            dict(Counter(self.reached) + Counter(other.reached)),
            dict(Counter(self.won) + Counter(other.won)),
            self.survived + other.survived,
            dict(Counter(self.standing) + Counter(other.standing)),
            merged,
        )


def play_day(day: Day, rng: random.Random, tactics_seed: int) -> DayTotals:
    """One day, its dice from ``rng``: what it reached and won, who stood at its end,
    and what each fight's party carried into it."""
    system = registry.system(day.system)
    state = PartyState(day.members)
    reached: Counter[int] = Counter()
    won: Counter[int] = Counter()
    carried_now: dict[int, dict[str, dict[str, float]]] = {}
    standing: list[str] = []
    survived = True
    dice = RandomDice(rng)
    for number, step in enumerate(day.steps, start=1):
        if step.kind == "rest":
            values, _ = rest(system, state, step.days, dice, json.loads(step.options))
            state = _with(state, values)
            continue
        reached[number] += 1
        carried_now[number] = {
            m.id: _summed(day.fresh[i] if i < len(day.fresh) else {}, m.values)
            for i, m in enumerate(state.members)
        }
        victory, values, standing = _fight(day, step, state, rng, tactics_seed + number)
        state = _with(state, values)
        if not victory:
            survived = False
            break
        won[number] += 1
    return DayTotals(
        1,
        dict(reached),
        dict(won),
        int(survived),
        dict(Counter(standing)),
        carried_now,
    )


def _summed(fresh: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, float]:
    """A member's carried values as sums: each number as it is (as fresh where it
    carries none: full hit points are not 0), and a word it carries (a condition) as
    one day that carried it (``condition: out``)."""
    found = {}
    for key, value in {**fresh, **values}.items():
        if isinstance(value, int | float) and not isinstance(value, bool):
            found[key] = float(value)
    for key, value in values.items():
        if isinstance(value, str):
            found[f"{key}: {value}"] = 1.0
    return found


def _with(state: PartyState, values: Mapping[str, Mapping[str, Any]]) -> PartyState:
    return replace(
        state,
        members=tuple(replace(m, values=dict(values.get(m.id, m.values))) for m in state.members),
    )


def _fight(
    day: Day, step: Step, state: PartyState, rng: random.Random, tactics_seed: int
) -> tuple[bool, dict[str, dict[str, Any]], list[str]]:
    """One fight of the day from the party as it stands: whether the party won, each
    member's carried values after it, and who of the party was still fighting."""
    setup = _setup(step.encounter, step.base, day.where, json.dumps(day.sheets, sort_keys=True))
    system, ruleset = setup.system, setup.ruleset
    encounter = setup.encounter
    for member in state.members:
        if member.values:
            assert system.edit is not None
            encounter = system.edit(
                encounter, member.id, dict(member.values), where=f"party member {member.id}"
            )
    cursor = Cursor(encounter, setup.max_rounds)
    ai = system.ai(ruleset, setup.tactics, dice=tactics_dice(tactics_seed))
    answers: Answers[Any, Any] = Answers(RandomDice(rng), ai)
    while cursor.phase(ruleset) is not Phase.OVER:
        cursor, _ = proceed(cursor, ruleset, answers, name=setup.name)
    after = cursor.encounter
    left = sides_fighting(after, ruleset)
    values = {
        m.id: changed(carried(system, ruleset, after, m.id), _fresh(step.encounter, m, setup))
        for m in state.members
    }
    fighting = [m.id for m in state.members if ruleset.fighting(after, m.id)]
    return list(left) == [PARTY], values, fighting


@functools.lru_cache(maxsize=64)
def _setup(encounter: str, base: str, where: str, sheets: str) -> EncounterSetup[Any, Any]:
    """A fight's encounter, built once a process (setups are values: every day starts
    from the same one)."""
    return encounter_from_data(
        json.loads(encounter), where, base=Path(base), sheets=json.loads(sheets)
    )


_FRESH: dict[tuple[str, str], dict[str, Any]] = {}


def _fresh(encounter: str, member: Member, setup: EncounterSetup[Any, Any]) -> dict[str, Any]:
    """``member``'s carried values fresh, by the fight's rules, once a process."""
    key = (encounter, member.id)
    if key not in _FRESH:
        _FRESH[key] = fresh_values(setup.system, setup.ruleset, replace(member, values={}))
    return _FRESH[key]


def _days(day: Day, entropy: int, index: int, size: int) -> DayTotals:
    """``size`` days with chunk ``index``'s own generator (seeded from the run's), every
    fight on the reference engine."""
    stream = np.random.SeedSequence(entropy, spawn_key=(index,))
    rng = random.Random(int(stream.generate_state(2, dtype=np.uint64)[0]))
    total = DayTotals()
    for k in range(size):
        total = total + play_day(day, rng, (entropy * 1_000_003 + index) * 997 + k)
    return total


def _days_fast(day: Day, entropy: int, index: int, size: int) -> DayTotals:
    """``size`` days with chunk ``index``'s own generators, step by step: each fight of
    every day still going at once on the system's fast engine (``fight_ends``), each
    from the wounds its day's party carries; the rests by the system's healing rules."""
    system = registry.system(day.system)
    assert system.fight_ends is not None
    stream = np.random.SeedSequence(entropy, spawn_key=(index,))
    seeds = [int(s) for s in stream.generate_state(1 + len(day.steps), dtype=np.uint32)]
    rng = random.Random(seeds[0])
    dice = RandomDice(rng)
    parties = [PartyState(day.members)] * size
    going = list(range(size))
    reached: Counter[int] = Counter()
    won: Counter[int] = Counter()
    carried_sums: dict[int, dict[str, dict[str, float]]] = {}
    standing: list[list[str]] = [[] for _ in range(size)]
    for number, step in enumerate(day.steps, start=1):
        if not going:
            break
        if step.kind == "rest":
            options = json.loads(step.options)
            for d in going:
                values, _ = rest(system, parties[d], step.days, dice, options)
                parties[d] = _with(parties[d], values)
            continue
        reached[number] += len(going)
        sums = carried_sums.setdefault(number, {})
        for d in going:
            for i, member in enumerate(parties[d].members):
                into = sums.setdefault(member.id, {})
                fresh = day.fresh[i] if i < len(day.fresh) else {}
                for key, value in _summed(fresh, member.values).items():
                    into[key] = into.get(key, 0.0) + value
        setup = _setup(step.encounter, step.base, day.where, json.dumps(day.sheets, sort_keys=True))
        cursors = [_start(step, day, setup, parties[d]) for d in going]
        ends = system.fight_ends(setup.ruleset, cursors, tactics=setup.tactics, seed=seeds[number])
        still = []
        for d, end in zip(going, ends, strict=True):
            ruleset = setup.ruleset
            values = {
                m.id: changed(carried(system, ruleset, end, m.id), _fresh(step.encounter, m, setup))
                for m in parties[d].members
            }
            parties[d] = _with(parties[d], values)
            standing[d] = [m.id for m in parties[d].members if ruleset.fighting(end, m.id)]
            if list(sides_fighting(end, ruleset)) == [PARTY]:
                won[number] += 1
                still.append(d)
        going = still
    return DayTotals(
        size,
        dict(reached),
        dict(won),
        len(going),
        dict(Counter(name for names in standing for name in names)),
        carried_sums,
    )


_STARTS: dict[tuple[str, str], Cursor[Any, Any]] = {}
_MOST_STARTS = 20_000
"""Starts kept a process (a day's parties come to a fight in far fewer states)."""


def _start(
    step: Step, day: Day, setup: EncounterSetup[Any, Any], party: PartyState
) -> Cursor[Any, Any]:
    """The fight of ``step`` before it starts, its party as ``party`` carries it (one
    cursor a process for each state the party comes in: the same values, the same
    cursor)."""
    values = json.dumps([m.values for m in party.members], sort_keys=True)
    key = (step.encounter, json.dumps(day.sheets, sort_keys=True) + values)
    found = _STARTS.get(key)
    if found is None:
        encounter = setup.encounter
        for member in party.members:
            if member.values:
                assert setup.system.edit is not None
                encounter = setup.system.edit(
                    encounter, member.id, dict(member.values), where=f"party member {member.id}"
                )
        if len(_STARTS) >= _MOST_STARTS:
            _STARTS.clear()
        found = _STARTS[key] = Cursor(encounter, setup.max_rounds)
    return found


@dataclass(frozen=True, slots=True)
class DayOdds:
    """The days played, and what they say."""

    day: Day
    totals: DayTotals
    seed: int
    engine: str = REFERENCE

    def to_dict(self) -> dict[str, Any]:
        n = max(self.totals.n, 1)
        steps = []
        for number, step in enumerate(self.day.steps, start=1):
            if step.kind == "rest":
                steps.append({"step": number, "kind": "rest", "name": step.name})
                continue
            reached = self.totals.reached.get(number, 0)
            sums = self.totals.carried.get(number, {})
            steps.append(
                {
                    "step": number,
                    "kind": "fight",
                    "name": step.name,
                    "p_reached": reached / n,
                    "p_won": self.totals.won.get(number, 0) / n,
                    "carried": {
                        member: {k: v / max(reached, 1) for k, v in values.items()}
                        for member, values in sums.items()
                    },
                }
            )
        return {
            "n": self.totals.n,
            "seed": self.seed,
            "engine": self.engine,
            "p_survive": self.totals.survived / n,
            "steps": steps,
            "members": {
                m.id: {"p_standing": self.totals.standing.get(m.id, 0) / n}
                for m in self.day.members
            },
        }


Engine = Literal["auto", "fast", "reference"]
FAST_DAY_CHUNK = 1_000
"""Days a worker plays between two reports on the fast engine (its unit of seeding)."""


def day_engine(day: Day, engine: Engine = "auto") -> str:
    """The engine ``day``'s fights are played on, for people: the system's fast engine
    where it has one for a day (``auto``, ``fast``), else the reference engine.

    Raises:
        NotModelledError: ``fast`` was asked and the system has none for a day.
    """
    system = registry.system(day.system)
    if engine == "reference":
        return REFERENCE
    if system.fight_ends is None:
        if engine == "fast":
            raise NotModelledError(
                f"fast {system.title} engine", (f"a day of {system.title} fights",)
            )
        return REFERENCE
    return f"fast {system.title} group engine"


def day_compiles_first(day: Day) -> bool:
    """Whether the day's fast engine compiles its machine code before its first fight
    (once per machine: a command says so before the wait)."""
    first = registry.system(day.system).fight_ends_compiles_first
    return first is not None and first()


def simulate_days(
    day: Day,
    n: int,
    *,
    seed: int | None = None,
    workers: int = 1,
    progress: Any = None,
    estimate: Any = None,
    engine: Engine = "auto",
    on: Submits | None = None,
) -> DayOdds:
    """``n`` days, in seeded chunks, on ``workers`` processes here or ``on`` a cluster
    (the answer depends on the seed, ``n`` and the engine only, never on the workers
    or where they are).

    Raises:
        NotModelledError: ``engine="fast"`` and the system has no fast engine for a day.
    """
    used_engine = day_engine(day, engine)
    fast = used_engine != REFERENCE
    totals, used = run_chunks(
        partial(_days_fast if fast else _days, day),
        n,
        FAST_DAY_CHUNK if fast else DAY_CHUNK,
        seed=seed,
        workers=workers,
        progress=progress,
        estimate=estimate,
        zero=DayTotals(),
        on=on,
    )
    return DayOdds(day, totals, used, used_engine)


__all__ = [
    "Day",
    "DayOdds",
    "DayTotals",
    "Engine",
    "Estimate",
    "day_compiles_first",
    "day_engine",
    "load_day",
    "play_day",
    "simulate_days",
]
