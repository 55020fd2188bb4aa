"""Encounter files: sides, members (sheet paths or bestiary names, counts), tactics and
options, validated to the sheets' standard."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, ClassVar, Generic

from pydantic import AfterValidator, ConfigDict, Field, Tag

from affray import registry
from affray.answers import MAX_ROUNDS
from affray.dice import Dice, RandomDice
from affray.encounter import Answers, Encounter, Ruleset, SheetT, StateT, Targeting, named
from affray.encounter.cursor import DEFAULT_MAX_ROUNDS
from affray.encounter.model import Combatant
from affray.errors import AffrayError, SheetError
from affray.quoting import quoted
from affray.sheets import bestiary
from affray.sheets.combatants import (
    ForeignReferenceError,
    Sheet,
    UnknownReferenceError,
    article,
    resolve_reference,
    sheet_from_data,
)
from affray.sheets.documents import load_document
from affray.sheets.kinds import check_kind
from affray.sheets.validation import (
    EncounterSection,
    Name80,
    plain_name,
    text_or_table,
    validate,
)

MAX_COMBATANTS = 200


def _title(value: str) -> str:
    """An encounter's name: plain text, or empty for the file's name."""
    return plain_name(value) if value.strip() or not value else ""


class _Open(EncounterSection):
    """A table whose own keys are checked here and whose other keys belong to the
    encounter's rule system (checked by it)."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)


class MemberTable(_Open):
    """A member given as a table: ``{ sheet = "archer.toml", count = 2, tactics = "weakest" }``."""

    PLACE: ClassVar[str | None] = "member"

    sheet: str = Field(min_length=1, max_length=300)
    count: int = Field(default=1, ge=1, le=MAX_COMBATANTS)
    name: Name80 | None = None
    tactics: str | None = None


Member = Annotated[
    Annotated[str, Tag("name"), Field(max_length=300)] | Annotated[MemberTable, Tag("table")],
    text_or_table(
        'should be a sheet file or a bestiary creature such as "2 goblins", '
        'or a table such as { sheet = "goblin", count = 2 }'
    ),
]
"""A member: text (``"2 goblins"``, ``"archer.toml"``) or a :class:`MemberTable`."""


class SideTable(_Open):
    PLACE: ClassVar[str | None] = "side"

    name: Name80
    tactics: str = "nearest"
    members: list[Member] = Field(min_length=1, max_length=MAX_COMBATANTS)


class EncounterFile(_Open):
    """The keys of an encounter file every rule system shares (docs/encounters.md)."""

    name: Annotated[str, Field(max_length=120), AfterValidator(_title)] = ""
    system: str
    max_rounds: int = Field(default=DEFAULT_MAX_ROUNDS, ge=1, le=MAX_ROUNDS)
    sides: list[SideTable] = Field(min_length=2, max_length=20)


class JoiningFile(EncounterFile):
    """An encounter file imported into a table that may hold others already: one side
    will do (reinforcements)."""

    sides: list[SideTable] = Field(min_length=1, max_length=20)


@dataclass(frozen=True, slots=True)
class EncounterSetup(Generic[SheetT, StateT]):
    """A validated encounter, ready to run: its rule system, ruleset and state, and
    each combatant's tactics (what the system's AI follows)."""

    name: str
    system: registry.AnySystem
    ruleset: Ruleset[SheetT, StateT]
    encounter: Encounter[SheetT, StateT]
    max_rounds: int
    tactics: Mapping[str, object] = field(default_factory=dict)

    def answers(self, dice: Dice, *, seed: int | None = None) -> Answers[SheetT, StateT]:
        """``dice`` for the rules' dice, and the system's tactics AI for every choice.

        The AI's own random choices (a target picked at random) come from a source of
        its own, seeded from ``seed``, never from ``dice``: the rules' dice are the same
        whoever decides, so a fight replays from its dice and its answers."""
        return Answers(dice, self.system.ai(self.ruleset, self.tactics, dice=tactics_dice(seed)))


def tactics_dice(seed: int | None) -> Dice:
    """The tactics AI's own dice, seeded apart from the rules' dice."""
    return RandomDice(random.Random(f"tactics {seed}") if seed is not None else None)


def load_encounter(path: str | Path) -> EncounterSetup[Any, Any]:
    """Load and validate an encounter file and every sheet it names.

    Raises:
        SheetError: the file, a key, a member or a referenced sheet is invalid.
    """
    file = Path(path)
    return encounter_from_data(
        load_document(file), str(path), base=file.resolve().parent, default_name=file.stem
    )


def encounter_from_data(
    data: Mapping[str, Any],
    where: str,
    *,
    base: Path,
    default_name: str = "encounter",
    sheets: Mapping[str, Mapping[str, Any]] | None = None,
) -> EncounterSetup[Any, Any]:
    """Build an encounter from parsed data; member sheet paths are relative to ``base``.

    ``sheets`` gives sheet data by reference, taken before a file or the bestiary (and
    validated as a file's would be): a sweep's cells use it for sheets with a key
    changed, kept in memory."""
    check_kind(data, "encounter", where)
    spec = validate(EncounterFile, data, where)
    names = registry.systems()
    if spec.system not in names:
        raise SheetError(
            f"unknown system {quoted(spec.system)}",
            path=where,
            key="system",
            hint="system is one of: " + ", ".join(f'"{n}"' for n in names),
        )
    system = registry.system(spec.system)
    options = _own(spec, system, where, "", system.option_keys)
    side_keys: dict[str, Mapping[str, object]] = {}
    side_at: dict[str, str] = {}
    members: list[tuple[str, str, Sheet, Any]] = []
    for s, side in enumerate(spec.sides):
        side_place = f"side {s + 1} ({quoted(side.name)})"
        own = _own(side, system, where, side_place, system.side_keys | system.tactics_keys)
        side_keys[side.name] = {k: v for k, v in own.items() if k in system.side_keys}
        side_tactics = {k: v for k, v in own.items() if k in system.tactics_keys}
        side_at[side.name] = side_place
        side_targeting = _targeting(side.tactics, where, side_place)
        system.tactics(side_targeting, side_tactics, where=where, at=side_place)  # blame the side
        for m, entry in enumerate(side.members):
            place = f"{side_place}, member {m + 1}"
            table = (
                entry if isinstance(entry, MemberTable) else _member_from_text(entry, where, place)
            )
            sheet = _member_sheet(table.sheet, base, where, place, system, sheets or {})
            mine = _own(table, system, where, place, system.tactics_keys)
            targeting = _targeting(
                table.tactics or side.tactics, where, place if table.tactics else side_place
            )
            tactics = system.tactics(targeting, {**side_tactics, **mine}, where=where, at=place)
            label = table.name or sheet.name  # repeated labels are numbered across sides
            members.extend((side.name, label, sheet, tactics) for _ in range(table.count))
            if len(members) > MAX_COMBATANTS:
                raise SheetError(
                    f"more than {MAX_COMBATANTS} combatants",
                    path=where,
                    at=place,
                    hint="split the fight into smaller encounters",
                )
    names_seen = [side.name for side in spec.sides]
    twice = next((name for name in names_seen if names_seen.count(name) > 1), None)
    if twice is not None:
        raise SheetError(
            f"two sides are called {quoted(twice)}",
            path=where,
            key="sides",
            hint="give every side a name of its own",
        )
    ids = _unique([label for _, label, _, _ in members])
    ruleset = system.ruleset(registry.EncounterKeys(options, side_keys, where, side_at))
    # the rules name fighters in their events: each takes its unique id as its name
    combatants = tuple(
        Combatant(cid, side, named(sheet, cid))
        for cid, (side, _, sheet, _) in zip(ids, members, strict=True)
    )
    states = {c.id: ruleset.initial_state(c.sheet) for c in combatants}
    tactics = {cid: t for cid, (_, _, _, t) in zip(ids, members, strict=True)}
    return EncounterSetup(
        spec.name or default_name,
        system,
        ruleset,
        Encounter(combatants, states),
        spec.max_rounds,
        tactics,
    )


def _at(place: str, key: str) -> str:
    """``side 1 ("A"), key 'tactics'``: a key of a table at ``place`` in the file."""
    return f"{place}, key '{key}'" if place else f"key '{key}'"


def _own(
    table: _Open, system: registry.AnySystem, where: str, at: str, allowed: frozenset[str]
) -> dict[str, object]:
    """The keys of ``table`` (at the place ``at`` in the file) that belong to the rule
    system; a key it does not know is an error (saying which other system it belongs
    to, if any)."""
    extra = dict(table.model_extra or {})
    for key in extra:
        if key in allowed:
            continue
        other = next(
            (
                o
                for o in registry.all_systems()
                if o.name != system.name and key in o.option_keys | o.side_keys | o.tactics_keys
            ),
            None,
        )
        if other is not None:
            raise SheetError(
                f"is {article(other.title)} {other.title} option, but this is "
                f"{article(system.title)} {system.title} encounter",
                path=where,
                key=key,
                at=_at(at, key),
                hint=f'system = "{other.name}" takes it',
            )
        known = [k for k in type(table).model_fields if k != "system" or not at] + sorted(allowed)
        raise SheetError(
            f"unknown key; allowed keys are: {', '.join(known)}",
            path=where,
            key=key,
            at=_at(at, key),
            hint="check the key's spelling; docs/encounters.md lists every key",
            unknown=True,
        )
    return extra


def _targeting(name: str, where: str, place: str) -> Targeting:
    """The target policy named by the ``tactics`` key of the table at ``place``."""
    try:
        return Targeting.named(name)
    except AffrayError as error:
        raise SheetError(
            f"unknown tactics {quoted(name)}",
            path=where,
            key="tactics",
            at=_at(place, "tactics"),
            hint="tactics is one of: " + ", ".join(t.value for t in Targeting),
        ) from error


def _member_from_text(text: str, where: str, place: str) -> MemberTable:
    """``"4 bandits"`` or ``"archer.toml"`` or ``"2 guards/pike.toml"``."""
    if not text.strip():
        raise SheetError(
            "is an empty member",
            path=where,
            at=place,
            hint='name a sheet file or a bestiary creature, e.g. "2 bandits"',
        )
    head, _, rest = text.strip().partition(" ")
    if head.isdigit() and rest.strip():
        count = int(head)
        if not 1 <= count <= MAX_COMBATANTS:
            raise SheetError(
                f"count {count} is not 1 to {MAX_COMBATANTS}",
                path=where,
                at=place,
                hint="split the fight into smaller encounters" if count else "count from 1",
            )
        return MemberTable(sheet=rest.strip(), count=count)
    return MemberTable(sheet=text.strip())


def _member_sheet(
    reference: str,
    base: Path,
    where: str,
    place: str,
    system: registry.AnySystem,
    given: Mapping[str, Mapping[str, Any]],
) -> Sheet:
    """A member's sheet, from ``given``, a file or the bestiary; it must be of the
    encounter's system."""
    if reference in given:
        try:
            sheet = sheet_from_data(given[reference], None)
        except SheetError as error:
            raise SheetError(
                f"{quoted(reference)}: {error.message}", path=where, at=place, hint=error.hint
            ) from None
    else:
        try:
            sheet = resolve_reference(reference, system.name, strict=True, base=base).sheet()
        except UnknownReferenceError:
            raise SheetError(
                f"no sheet file or bestiary creature called {quoted(reference)}",
                path=where,
                at=place,
                hint="give a .toml/.json path relative to the encounter file, or one of: "
                + ", ".join(bestiary.names(system.name)),
            ) from None
        except ForeignReferenceError as error:  # it names the reference itself
            raise SheetError(error.message, path=where, at=place, hint=error.hint) from None
        except SheetError as error:
            raise SheetError(
                f"{quoted(reference)}: {error.message}", path=where, at=place, hint=error.hint
            ) from None
    if not system.owns(sheet):
        raise SheetError(
            f"{quoted(reference)} is not a {system.name} sheet",
            path=where,
            at=place,
            hint=f"every member of a {system.name} encounter needs a {system.name} sheet",
        )
    return sheet


def _unique(labels: list[str]) -> list[str]:
    """Number repeated display names (Goblin 1, Goblin 2) so that every id is unique."""
    seen: dict[str, int] = {}
    totals = {label: labels.count(label) for label in labels}
    ids: list[str] = []
    for label in labels:
        if totals[label] == 1:
            ids.append(label)
            continue
        seen[label] = seen.get(label, 0) + 1
        ids.append(f"{label} {seen[label]}")
    taken = set()
    result = []
    for cid in ids:
        while cid in taken:
            cid += "'"
        taken.add(cid)
        result.append(cid)
    return result


@dataclass(frozen=True, slots=True)
class RosterEntry:
    """One line of an encounter file's roster, unresolved: a sheet file (relative to
    the encounter file) or a bestiary name, how many, under which name and tactics."""

    side: str
    sheet: str
    count: int
    name: str | None
    tactics: str
    keys: Mapping[str, object] = field(default_factory=dict)
    """The side's and the member's own keys (the system's tactics keys among them)."""


@dataclass(frozen=True, slots=True)
class Roster:
    """An encounter file's system, rules and members, with no sheet read.

    Attributes:
        options: the system's own top-level keys (lethality, order, ...).
        sides: each side's own keys (surprised, ...), by side name (sides with none
            left out).
    """

    system: str
    members: list[RosterEntry]
    options: Mapping[str, object]
    sides: Mapping[str, Mapping[str, object]]
    max_rounds: int
    name: str


def roster(data: Mapping[str, Any], where: str) -> Roster:
    """The system, rules and members of an encounter file, side by side, validated as
    :func:`encounter_from_data` does but with no sheet read (the table does that), and
    with one side allowed (reinforcements for a table)."""
    spec = validate(JoiningFile, data, where)
    found: list[RosterEntry] = []
    system = registry.system(spec.system) if spec.system in registry.systems() else None
    options: dict[str, object] = {}
    sides: dict[str, Mapping[str, object]] = {}
    if system is not None:
        options = _own(spec, system, where, "", system.option_keys)
        for s, side in enumerate(spec.sides):
            place = f"side {s + 1} ({quoted(side.name)})"
            own = _own(side, system, where, place, system.side_keys | system.tactics_keys)
            if keys := {k: v for k, v in own.items() if k in system.side_keys}:
                sides[side.name] = keys
    for s, side in enumerate(spec.sides):
        for m, entry in enumerate(side.members):
            place = f"side {s + 1} ({quoted(side.name)}), member {m + 1}"
            table = (
                entry if isinstance(entry, MemberTable) else _member_from_text(entry, where, place)
            )
            tactics = table.tactics or side.tactics
            keys = {**(side.model_extra or {}), **(table.model_extra or {})}
            found.append(
                RosterEntry(side.name, table.sheet, table.count, table.name, tactics, keys)
            )
    return Roster(spec.system, found, options, sides, spec.max_rounds, spec.name)


def unique_ids(labels: list[str], taken: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The ids an encounter gives members of these labels (Goblin 1, Goblin 2), none of
    them one of ``taken`` (lower case): the fight's ids, at a table too."""
    ids = []
    seen = set(taken)
    for cid in _unique(labels):
        while cid.lower() in seen:
            cid += "'"
        seen.add(cid.lower())
        ids.append(cid)
    return ids
