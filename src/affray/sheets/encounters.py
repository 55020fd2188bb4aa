"""Encounter files: sides, members (sheet paths or catalog names, counts), tactics and
options, validated to the sheets' standard."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from affray import bestiary
from affray.encounter.model import Combatant, Encounter, Tactics
from affray.encounter.tactics import TARGET_POLICIES
from affray.errors import SheetError
from affray.rules.midian.attack import HitRule
from affray.rules.midian.character import Character
from affray.rules.midian.resolve import Rules as MidianRules
from affray.rules.midian.ruleset import MidianRuleset
from affray.rules.mst2.fighter import Fighter
from affray.rules.mst2.ruleset import Mst2Ruleset
from affray.rules.mst2.state import Lethality
from affray.sheets.combatants import Sheet, load_sheet, sheet_from_data
from affray.sheets.documents import load_document, parse_document
from affray.sheets.validation import Strict, validate

MAX_COMBATANTS = 200


Roles = Literal["fighter", "archer", "grappler", "disarmer", "pikeman"]
Stances = Literal["normal", "defensive", "total defence", "evasion"]
MST2_ROLES = ("fighter", "archer")
MST2_ONLY = ("lethality", "order", "counter_prevents_action", "ranged_extra_power")
MIDIAN_ONLY = ("distance", "hit_rule", "willpower", "critical_effects")
MIDIAN_TACTICS = ("stance", "defend_at")


class MemberTable(Strict):
    """A member given as a table: ``{ sheet = "archer.toml", count = 2, tactics = "weakest" }``."""

    sheet: str = Field(min_length=1, max_length=300)
    count: int = Field(default=1, ge=1, le=MAX_COMBATANTS)
    name: str | None = Field(default=None, min_length=1, max_length=80)
    tactics: str | None = None
    role: Roles | None = None
    retreat_at: int | None = Field(default=None, ge=1, le=1000)
    stance: Stances | None = None
    defend_at: int | None = Field(default=None, ge=1, le=10_000)


class SideTable(Strict):
    name: str = Field(min_length=1, max_length=80)
    tactics: str = "nearest"
    role: Roles = "fighter"
    retreat_at: int | None = Field(default=None, ge=1, le=1000)
    stance: Stances = "normal"
    defend_at: int | None = Field(default=None, ge=1, le=10_000)
    surprised: bool = False
    members: list[str | MemberTable] = Field(min_length=1, max_length=MAX_COMBATANTS)


class EncounterFile(Strict):
    """The keys of an encounter file (docs/encounters.md)."""

    name: str = Field(default="", max_length=120)
    system: Literal["mst2", "midian"]
    max_rounds: int = Field(default=100, ge=1, le=1000)
    sides: list[SideTable] = Field(min_length=2, max_length=20)
    # MST-2
    lethality: Literal["high", "standard", "optional"] = "standard"
    order: Literal["listed", "shuffled"] = "listed"
    counter_prevents_action: bool = False
    ranged_extra_power: bool = False
    # Midian
    distance: int = Field(default=0, ge=0, le=10_000)
    hit_rule: Literal["at-or-above", "exceed"] = "at-or-above"
    willpower: Literal["first", "each"] = "first"
    critical_effects: bool = False


@dataclass(frozen=True, slots=True)
class EncounterSetup:
    """A validated encounter, ready to run."""

    name: str
    ruleset: Mst2Ruleset | MidianRuleset
    encounter: Encounter
    max_rounds: int


def load_encounter(path: str | Path) -> EncounterSetup:
    """Load and validate an encounter file and every sheet it names.

    Raises:
        SheetError: the file, a key, a member or a referenced sheet is invalid.
    """
    file = Path(path)
    return encounter_from_data(
        load_document(file), str(path), base=file.resolve().parent, default_name=file.stem
    )


def encounter_from_data(
    data: Mapping[str, Any], where: str, *, base: Path, default_name: str = "encounter"
) -> EncounterSetup:
    """Build an encounter from parsed data; member sheet paths are relative to ``base``."""
    spec = validate(EncounterFile, data, where)
    _check_system_keys(spec, where)
    members: list[tuple[str, str, Sheet, Tactics]] = []
    for s, side in enumerate(spec.sides):
        for m, entry in enumerate(side.members):
            key = f"sides[{s}].members[{m}]"
            table = (
                entry if isinstance(entry, MemberTable) else _member_from_text(entry, where, key)
            )
            fighter = _member_sheet(table.sheet, base, where, key, spec.system)
            tactics = Tactics(
                target=table.tactics or side.tactics,
                role=table.role or side.role,
                retreat_at=table.retreat_at if table.retreat_at is not None else side.retreat_at,
                stance=table.stance or side.stance,
                defend_at=table.defend_at if table.defend_at is not None else side.defend_at,
            )
            if tactics.target not in TARGET_POLICIES:
                raise SheetError(
                    f"unknown tactics {tactics.target!r}",
                    path=where,
                    key=f"{key}.tactics" if table.tactics else f"sides[{s}].tactics",
                    hint=f"tactics is one of: {', '.join(TARGET_POLICIES)}",
                )
            if spec.system == "mst2" and tactics.role not in MST2_ROLES:
                raise SheetError(
                    f"role {tactics.role!r} is for Midian encounters",
                    path=where,
                    key=f"{key}.role" if table.role else f"sides[{s}].role",
                    hint=f"MST-2 roles are: {', '.join(MST2_ROLES)}",
                )
            label = table.name or fighter.name
            for number in range(1, table.count + 1):
                members.append(
                    (side.name, f"{label} {number}" if table.count > 1 else label, fighter, tactics)
                )
            if len(members) > MAX_COMBATANTS:
                raise SheetError(
                    f"more than {MAX_COMBATANTS} combatants",
                    path=where,
                    key=key,
                    hint="split the fight into smaller encounters",
                )
    if len({side.name for side in spec.sides}) != len(spec.sides):
        raise SheetError("two sides have the same name", path=where, key="sides")
    ids = _unique([label for _, label, _, _ in members])
    ruleset = _ruleset(spec)
    # the rules name fighters in their events: each takes its unique id as its name
    combatants = tuple(
        Combatant(cid, side, replace(fighter, name=cid), tactics)
        for cid, (side, _, fighter, tactics) in zip(ids, members, strict=True)
    )
    states = {c.id: ruleset.initial_state(c.sheet) for c in combatants}
    encounter = Encounter(combatants, states)
    return EncounterSetup(spec.name or default_name, ruleset, encounter, spec.max_rounds)


def _ruleset(spec: EncounterFile) -> Mst2Ruleset | MidianRuleset:
    if spec.system == "mst2":
        return Mst2Ruleset(
            lethality=Lethality(spec.lethality),
            order=spec.order,
            counter_prevents_action=spec.counter_prevents_action,
            ranged_extra_power=spec.ranged_extra_power,
        )
    return MidianRuleset(
        rules=MidianRules(HitRule(spec.hit_rule), spec.willpower),
        distance=spec.distance,
        surprised=[side.name for side in spec.sides if side.surprised],
        critical_effects=spec.critical_effects,
    )


def _check_system_keys(spec: EncounterFile, where: str) -> None:
    """Keys that belong to the other rule system are errors, not silently ignored."""
    foreign = MIDIAN_ONLY if spec.system == "mst2" else MST2_ONLY
    other = "Midian" if spec.system == "mst2" else "MST-2"
    for key in foreign:
        if key in spec.model_fields_set:
            raise SheetError(
                f"is a {other} option, but this is a {spec.system} encounter", path=where, key=key
            )
    if spec.system == "mst2":
        for s, side in enumerate(spec.sides):
            extra = [k for k in (*MIDIAN_TACTICS, "surprised") if k in side.model_fields_set]
            if extra:
                raise SheetError(
                    "is a Midian option, but this is an mst2 encounter",
                    path=where,
                    key=f"sides[{s}].{extra[0]}",
                )


def _member_from_text(text: str, where: str, key: str) -> MemberTable:
    """``"4 bandits"`` or ``"archer.toml"`` or ``"2 guards/pike.toml"``."""
    head, _, rest = text.strip().partition(" ")
    if head.isdigit() and rest.strip():
        count = int(head)
        if not 1 <= count <= MAX_COMBATANTS:
            raise SheetError(f"count {count} is not 1 to {MAX_COMBATANTS}", path=where, key=key)
        return MemberTable(sheet=rest.strip(), count=count)
    return MemberTable(sheet=text.strip())


def _member_sheet(reference: str, base: Path, where: str, key: str, system: str) -> Sheet:
    """A member's sheet, from a file or the catalog; it must be of the encounter's system."""
    if reference.lower().endswith((".toml", ".json")):
        try:
            sheet = load_sheet(base / reference)
        except SheetError as error:
            raise SheetError(
                f"member {reference!r}: {error.message}", path=where, key=key, hint=error.hint
            ) from None
    else:
        text = bestiary.text(system, reference)
        if text is None:
            raise SheetError(
                f"no sheet file or catalog creature called {reference!r}",
                path=where,
                key=key,
                hint="give a .toml/.json path relative to the encounter file, or one of: "
                + ", ".join(bestiary.names(system)),
            )
        label = f"catalog {reference}"
        sheet = sheet_from_data(parse_document(text, "toml", label), label)
    expected = Fighter if system == "mst2" else Character
    if not isinstance(sheet, expected):
        raise SheetError(
            f"member {reference!r} is not a {system} sheet",
            path=where,
            key=key,
            hint=f"every member of a {system} encounter needs a {system} sheet",
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
