"""Loading and validating sheets: the only file I/O of the core.

A sheet is a TOML or JSON file describing one combatant (keys in SPEC.md and
docs/sheets.md). Everything a user can get wrong becomes a :class:`SheetError`
naming the file, the key, the bad value and what is allowed; nothing here lets
a traceback, a hang or a huge allocation through: files are capped in size and
nesting before they are parsed further.
"""

from __future__ import annotations

import json
import reprlib
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, ValidationError

from affray import bestiary
from affray.dice import parse
from affray.encounter.model import Combatant, Encounter, Tactics
from affray.encounter.tactics import TARGET_POLICIES
from affray.errors import AffrayError, SheetError
from affray.rules.midian.attack import HitRule
from affray.rules.midian.character import DAMAGE_TYPES, UNARMED, Character, Encumbrance, Experience
from affray.rules.midian.character import Shield as MidianShield
from affray.rules.midian.character import Weapon as MidianWeapon
from affray.rules.midian.resolve import Rules as MidianRules
from affray.rules.midian.ruleset import MidianRuleset
from affray.rules.mst2 import catalog
from affray.rules.mst2.catalog import Grip, Missile, Reach, Weapon
from affray.rules.mst2.fighter import Fighter, HitDice, parse_pool
from affray.rules.mst2.ruleset import Mst2Ruleset
from affray.rules.mst2.state import Lethality

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

MAX_FILE_BYTES = 256 * 1024
MAX_NESTING = 32

_T = TypeVar("_T")
Sheet = Fighter | Character
_short = reprlib.Repr()
_short.maxstring = 40
_short.maxother = 40
_short.maxlevel = 2


# -- documents ------------------------------------------------------------------


def load_document(path: str | Path) -> dict[str, Any]:
    """Read a TOML or JSON file (by extension) into a dict, safely.

    Raises:
        SheetError: missing, unreadable, too large, not UTF-8, not valid TOML/JSON,
            nested too deeply, or not a table at the top.
    """
    where = str(path)
    file = Path(path)
    suffix = file.suffix.lower()
    if suffix not in (".toml", ".json"):
        raise SheetError(
            f"unknown file type {suffix or '(none)'!r}",
            path=where,
            hint="sheets and encounters are .toml or .json files",
        )
    try:
        if not file.is_file():
            raise SheetError(
                "no such file" if not file.exists() else "not a file",
                path=where,
                hint="check the path",
            )
        size = file.stat().st_size
        if size > MAX_FILE_BYTES:
            raise SheetError(
                f"file is {size:,} bytes; the limit is {MAX_FILE_BYTES:,}",
                path=where,
                hint="a sheet is a few dozen lines",
            )
        raw = file.read_bytes()[: MAX_FILE_BYTES + 1]
    except OSError as error:
        raise SheetError(f"cannot read the file ({error.strerror})", path=where) from None
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark is harmless
    except UnicodeDecodeError as error:
        raise SheetError(
            f"not UTF-8 text (byte {error.start})", path=where, hint="save the file as UTF-8"
        ) from None
    return parse_document(text, suffix.lstrip("."), where)


def parse_document(text: str, kind: str, where: str | None = None) -> dict[str, Any]:
    """Parse TOML or JSON text into a dict, translating every parser failure."""
    if kind not in ("toml", "json"):
        raise SheetError(f"unknown document kind {kind!r}", path=where, hint="toml or json")
    if len(text) > MAX_FILE_BYTES:
        raise SheetError(f"document is larger than {MAX_FILE_BYTES:,} characters", path=where)
    _check_bracket_depth(text, where)
    try:
        data: Any = tomllib.loads(text) if kind == "toml" else json.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SheetError(f"not valid TOML: {error}", path=where) from None
    except json.JSONDecodeError as error:
        raise SheetError(
            f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})", path=where
        ) from None
    except (RecursionError, MemoryError):  # defensive: the depth check runs first
        raise SheetError("nested too deeply", path=where) from None
    except ValueError as error:  # e.g. an integer literal thousands of digits long
        raise SheetError(
            f"unreadable value: {str(error).split(';')[0]}",
            path=where,
            hint="numbers in sheets are small integers",
        ) from None
    if not isinstance(data, dict):
        raise SheetError(
            f"the top level is {type(data).__name__}, not a table of keys",
            path=where,
            hint='a sheet is a table such as {"system": "mst2", "name": ...}',
        )
    return data


def _check_bracket_depth(text: str, where: str | None) -> None:
    """Reject deep nesting before a recursive parser sees it (brackets inside strings
    count too, which only makes the check stricter for odd files)."""
    depth = 0
    for char in text:
        if char in "[{":
            depth += 1
            if depth > MAX_NESTING:
                raise SheetError(
                    f"nested more than {MAX_NESTING} levels deep",
                    path=where,
                    hint="sheets need only a few levels of tables",
                )
        elif char in "]}":
            depth = max(0, depth - 1)


# -- MST-2 sheets ------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class WeaponTable(_Strict):
    """An inline weapon: ``{ name = "Greatsword", reach = "mid", power = "3d6", hands = 2 }``.

    ``two_handed_power`` makes a weapon usable either way: ``power`` is then its
    one-handed power (``hands`` must be 1).
    """

    name: str = Field(min_length=1, max_length=60)
    reach: Literal["close", "mid", "far"]
    power: str = Field(min_length=1, max_length=100)
    hands: Literal[1, 2] = 1
    two_handed_power: str | None = Field(default=None, min_length=1, max_length=100)


class MissileTable(_Strict):
    """An inline missile: ``{ name = "Javelin", power = "1d8" }``."""

    name: str = Field(min_length=1, max_length=60)
    power: str = Field(min_length=1, max_length=100)


def _by_type(value: Any) -> str | None:
    if isinstance(value, str):
        return "name"
    if isinstance(value, Mapping):
        return "table"
    return None


def _name_or_table(model: type[BaseModel], what: str) -> Any:
    return Annotated[
        Annotated[str, Tag("name"), Field(min_length=1, max_length=60)]
        | Annotated[model, Tag("table")],
        Discriminator(
            _by_type,
            custom_error_type="name_or_table",
            custom_error_message=f"must be a catalog {what} name or an inline table",
        ),
    ]


class Mst2Sheet(_Strict):
    """The keys of an MST-2 fighter sheet (SPEC "Sheets")."""

    system: Literal["mst2"]
    name: str = Field(min_length=1, max_length=80)
    skill: int = Field(default=0, ge=0, le=100)
    weapon: _name_or_table(WeaponTable, "weapon") = "unarmed"  # type: ignore[valid-type]
    grip: Literal["one-handed", "two-handed"] | None = None
    armor: str = Field(default="none", min_length=1, max_length=40)
    shield: bool = False
    evasion_bonus: int = Field(default=0, ge=-20, le=20)
    hit_dice: str | None = Field(default=None, min_length=1, max_length=100)
    role: str | None = Field(default=None, min_length=1, max_length=40)
    species: str | None = Field(default=None, min_length=1, max_length=40)
    tenacity: str | None = Field(default=None, min_length=1, max_length=40)
    hit_dice_bonus: int | None = Field(default=None, ge=-20, le=100)
    extra_power: str | None = Field(default=None, min_length=1, max_length=100)
    missile: _name_or_table(MissileTable, "missile") | None = None  # type: ignore[valid-type]


class MidianAttributes(_Strict):
    strength: int = Field(ge=1, le=100)
    agility: int = Field(ge=1, le=100)
    wits: int = Field(ge=1, le=100)
    willpower: int = Field(ge=1, le=100)
    stamina: int = Field(ge=1, le=100)
    speed: int | None = Field(default=None, ge=0, le=100)
    awareness: int | None = Field(default=None, ge=1, le=100)
    grace: int | None = Field(default=None, ge=1, le=100)
    appearance: int | None = Field(default=None, ge=1, le=100)
    intellect: int | None = Field(default=None, ge=1, le=100)
    luck: int | None = Field(default=None, ge=1, le=100)


Encumbrances = Literal["none", "light", "medium", "heavy", "very heavy", "heroic"]


class MidianWeaponTable(_Strict):
    """``{ name = "Claymore", damage = "2d6", type = "hacking", hands = 2, ... }``."""

    name: str = Field(min_length=1, max_length=60)
    damage: str = Field(min_length=1, max_length=100)
    type: str = Field(min_length=1, max_length=30)
    hands: Literal[1, 2] = 1
    two_hand_grip: bool = False
    skill: int = Field(default=0, ge=0, le=20)
    encumbrance: Encumbrances = "light"
    reach: Literal["close", "mid", "far"] = "mid"
    ranged: Literal["hurled", "device"] | None = None
    range_increment: int | None = Field(default=None, ge=1, le=10_000)
    extra_damage: int = Field(default=0, ge=-50, le=100)


class MidianShieldTable(_Strict):
    armour_class: int = Field(default=1, ge=0, le=10)
    skill: int = Field(default=0, ge=0, le=20)
    encumbrance: Encumbrances = "light"


class MidianArmourTable(_Strict):
    encumbrance: Encumbrances = "none"
    trained: bool = True


class MidianSheet(_Strict):
    """The keys of a Midian character sheet (SPEC "Sheets")."""

    system: Literal["midian"]
    name: str = Field(min_length=1, max_length=80)
    attributes: MidianAttributes
    attack_bonus: int = Field(default=0, ge=-50, le=50)
    damage_bonus: int = Field(default=0, ge=-50, le=100)
    initiative_bonus: int = Field(default=0, ge=-50, le=50)
    armour_class: int = Field(default=5, ge=0, le=60)
    damage_reduction: int = Field(default=0, ge=0, le=100)
    resistances: dict[str, int] = Field(default_factory=dict, max_length=20)
    hit_points: int = Field(ge=0, le=10_000)
    life_points: int = Field(ge=1, le=10_000)
    system_shock: int = Field(default=80, ge=0, le=100)
    weapon: MidianWeaponTable | None = None
    dodge: int = Field(default=0, ge=0, le=20)
    shield: MidianShieldTable | None = None
    experience: Literal["never seen", "observed", "veteran"] = "veteran"
    armour: MidianArmourTable | None = None
    grappling: int = Field(default=0, ge=0, le=20)
    ambidextrous: bool = False
    regenerates: bool = False
    natural_armour_class: int = Field(default=5, ge=0, le=60)


_SHEET_KEYS: dict[str, type[BaseModel]] = {"mst2": Mst2Sheet, "midian": MidianSheet}
_NESTED: dict[str, type[BaseModel]] = {
    "weapon": WeaponTable,
    "missile": MissileTable,
}
_MIDIAN_NESTED: dict[str, type[BaseModel]] = {
    "weapon": MidianWeaponTable,
    "shield": MidianShieldTable,
    "armour": MidianArmourTable,
    "attributes": MidianAttributes,
}


def load_sheet(path: str | Path) -> Sheet:
    """Load and validate a sheet file.

    Raises:
        SheetError: the file or any key is invalid; the message names both.
    """
    return sheet_from_data(load_document(path), str(path))


def sheet_from_data(data: Mapping[str, Any], where: str | None = None) -> Sheet:
    """Build a combatant (an MST-2 Fighter or a Midian Character) from parsed sheet data."""
    system = data.get("system")
    if system not in _SHEET_KEYS:
        raise SheetError(
            f"unknown system {_short.repr(system)}" if system is not None else "is required",
            path=where,
            key="system",
            hint='system is one of: "mst2", "midian"',
        )
    if system == "midian":
        return _midian_character(_validate(MidianSheet, data, where), where)
    return _mst2_fighter(_validate(Mst2Sheet, data, where), where)


def _validate(model: type[_T], data: Mapping[str, Any], where: str | None) -> _T:
    try:
        return model.model_validate(data)  # type: ignore[attr-defined, no-any-return]
    except ValidationError as error:
        problems = [_describe(detail, model) for detail in error.errors()]
        raise _sheet_error(problems, where) from None


def _sheet_error(problems: list[tuple[str, str]], where: str | None) -> SheetError:
    if len(problems) == 1:
        key, message = problems[0]
        return SheetError(message, path=where, key=key)
    lines = "\n".join(f"  key '{key}': {message}" for key, message in problems)
    return SheetError(f"{len(problems)} problems:\n{lines}", path=where)


def _describe(detail: ErrorDetails, model: type[Any]) -> tuple[str, str]:
    loc = [str(part) for part in detail["loc"]]
    if len(loc) >= 2 and loc[0] in _NESTED and loc[1] in ("name", "table"):
        del loc[1]  # the union's branch tag, not a key of the sheet
    key = ".".join(loc) or "(top level)"
    kind = detail["type"]
    got = _short.repr(detail.get("input"))
    if kind == "extra_forbidden":
        allowed = _allowed_keys(model, loc[:-1])
        return key, f"unknown key; allowed keys are: {', '.join(allowed)}"
    if kind == "missing":
        return key, "is required"
    return key, f"{detail['msg'].replace('Input should', 'should')} (got {got})"


def _allowed_keys(model: type[Any], parent: list[str]) -> list[str]:
    nested = _MIDIAN_NESTED if model is MidianSheet else _NESTED
    current = nested.get(parent[0], model) if parent else model
    return list(current.model_fields)


def _field(where: str | None, key: str, build: Callable[[], _T]) -> _T:
    """Run a catalog look-up or rules check, blaming ``key`` if it fails."""
    try:
        return build()
    except AffrayError as error:
        raise SheetError(error.message, path=where, key=key, hint=error.hint) from None


def _mst2_fighter(sheet: Mst2Sheet, where: str | None) -> Fighter:
    weapon = _field(where, "weapon", lambda: _weapon(sheet.weapon))
    grip = Grip(sheet.grip) if sheet.grip else None
    if grip is not None and grip not in weapon.grips:
        allowed = " or ".join(g.value for g in weapon.grips)
        raise SheetError(
            f"the {weapon.name} cannot be wielded {grip.value}",
            path=where,
            key="grip",
            hint=f"its grip is {allowed}",
        )
    if grip is Grip.TWO_HANDED and sheet.shield:
        raise SheetError(
            "a two-handed grip leaves no hand free for the shield",
            path=where,
            key="shield",
            hint='set shield = false or grip = "one-handed"',
        )
    if sheet.shield and grip is None and weapon.default_grip is Grip.TWO_HANDED:
        raise SheetError(
            f"the {weapon.name} needs both hands, leaving none for the shield",
            path=where,
            key="shield",
            hint="set shield = false or choose a one-handed weapon",
        )
    armor = _field(where, "armor", lambda: catalog.armor(sheet.armor))
    hit_dice = _hit_dice(sheet, where)
    extra_text, missile_value = sheet.extra_power, sheet.missile
    extra = (
        _field(where, "extra_power", lambda: parse_pool(extra_text, "extra power"))
        if extra_text
        else ()
    )
    missile = _field(where, "missile", lambda: _missile(missile_value)) if missile_value else None
    return _field(
        where,
        "name",
        lambda: Fighter(
            name=sheet.name,
            skill=sheet.skill,
            weapon=weapon,
            armor=armor,
            hit_dice=hit_dice,
            grip=grip,
            shield=sheet.shield,
            evasion_bonus=sheet.evasion_bonus,
            extra_power=extra,
            missile=missile,
        ),
    )


def _weapon(value: str | WeaponTable) -> Weapon:
    if isinstance(value, str):
        return catalog.weapon(value)
    power = parse_pool(value.power, "weapon power")
    reach = Reach.named(value.reach)
    if value.two_handed_power is not None:
        if value.hands != 1:
            raise SheetError(
                "with two_handed_power, 'power' is the one-handed power, so hands must be 1"
            )
        return Weapon(
            value.name, reach, power, parse_pool(value.two_handed_power, "two-handed power")
        )
    if value.hands == 1:
        return Weapon(value.name, reach, power, None)
    return Weapon(value.name, reach, None, power)


def _missile(value: str | MissileTable) -> Missile:
    if isinstance(value, str):
        return catalog.missile(value)
    return Missile(value.name, parse_pool(value.power, "missile power"))


def _hit_dice(sheet: Mst2Sheet, where: str | None) -> HitDice:
    by_role = [
        k
        for k in ("role", "species", "tenacity", "hit_dice_bonus")
        if getattr(sheet, k) is not None
    ]
    if sheet.hit_dice is not None:
        if by_role:
            raise SheetError(
                "give either hit_dice or role/species with tenacity, not both "
                f"(also found: {', '.join(by_role)})",
                path=where,
                key="hit_dice",
                hint='e.g. hit_dice = "2d10+1", or role = "fighter", tenacity = "veteran", '
                "hit_dice_bonus = 1",
            )
        text = sheet.hit_dice
        return _field(where, "hit_dice", lambda: HitDice.parse(text))
    if sheet.role is not None and sheet.species is not None:
        raise SheetError("give role or species, not both", path=where, key="species")
    creature = sheet.role or sheet.species
    if creature is None:
        raise SheetError(
            "hit dice are missing",
            path=where,
            key="hit_dice",
            hint='add hit_dice = "2d10" or role = "fighter" (with optional tenacity = "veteran")',
        )
    die = _field(where, "role" if sheet.role else "species", lambda: catalog.hit_die(creature))
    count = _field(where, "tenacity", lambda: catalog.tenacity(sheet.tenacity or "standard"))
    return HitDice((die,) * count, sheet.hit_dice_bonus or 0)


# -- encounters --------------------------------------------------------------------

MAX_COMBATANTS = 200


Roles = Literal["fighter", "archer", "grappler", "disarmer", "pikeman"]
Stances = Literal["normal", "defensive", "total defence"]
MST2_ROLES = ("fighter", "archer")
MST2_ONLY = ("lethality", "order", "counter_prevents_action", "ranged_extra_power")
MIDIAN_ONLY = ("distance", "hit_rule", "willpower", "critical_effects")
MIDIAN_TACTICS = ("stance", "defend_at")


class MemberTable(_Strict):
    """A member given as a table: ``{ sheet = "archer.toml", count = 2, tactics = "weakest" }``."""

    sheet: str = Field(min_length=1, max_length=300)
    count: int = Field(default=1, ge=1, le=MAX_COMBATANTS)
    name: str | None = Field(default=None, min_length=1, max_length=80)
    tactics: str | None = None
    role: Roles | None = None
    retreat_at: int | None = Field(default=None, ge=1, le=1000)
    stance: Stances | None = None
    defend_at: int | None = Field(default=None, ge=1, le=10_000)


class SideTable(_Strict):
    name: str = Field(min_length=1, max_length=80)
    tactics: str = "nearest"
    role: Roles = "fighter"
    retreat_at: int | None = Field(default=None, ge=1, le=1000)
    stance: Stances = "normal"
    defend_at: int | None = Field(default=None, ge=1, le=10_000)
    surprised: bool = False
    members: list[str | MemberTable] = Field(min_length=1, max_length=MAX_COMBATANTS)


class EncounterFile(_Strict):
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
    where = str(path)
    spec = _validate(EncounterFile, load_document(path), where)
    _check_system_keys(spec, where)
    base = Path(path).resolve().parent
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
    return EncounterSetup(spec.name or Path(path).stem, ruleset, encounter, spec.max_rounds)


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


# -- Midian sheets ---------------------------------------------------------------------


def _midian_character(sheet: MidianSheet, where: str | None) -> Character:
    for damage_type, percent in sheet.resistances.items():
        if damage_type not in DAMAGE_TYPES:
            raise SheetError(
                f"unknown damage type {damage_type!r}",
                path=where,
                key=f"resistances.{damage_type}",
                hint=f"damage types are: {', '.join(DAMAGE_TYPES)}",
            )
        if not 0 <= percent <= 1000:
            raise SheetError(
                f"resistance {percent}% is not 0 to 1000",
                path=where,
                key=f"resistances.{damage_type}",
                hint="100 or more is immunity",
            )
    table = sheet.weapon
    weapon = _field(where, "weapon", lambda: _midian_weapon(table)) if table else UNARMED
    shield = (
        MidianShield(
            sheet.shield.armour_class,
            sheet.shield.skill,
            Encumbrance.named(sheet.shield.encumbrance),
        )
        if sheet.shield
        else None
    )
    attributes = {k: v for k, v in sheet.attributes.model_dump().items() if v is not None}
    armour = sheet.armour or MidianArmourTable()
    return _field(
        where,
        "name",
        lambda: Character(
            name=sheet.name,
            attributes=attributes,
            attack_bonus=sheet.attack_bonus,
            damage_bonus=sheet.damage_bonus,
            initiative_bonus=sheet.initiative_bonus,
            armour_class=sheet.armour_class,
            damage_reduction=sheet.damage_reduction,
            resistances=dict(sheet.resistances),
            hit_points=sheet.hit_points,
            life_points=sheet.life_points,
            system_shock=sheet.system_shock,
            weapon=weapon,
            dodge=sheet.dodge,
            shield=shield,
            experience=Experience(sheet.experience),
            armour_encumbrance=Encumbrance.named(armour.encumbrance),
            armour_trained=armour.trained,
            grappling=sheet.grappling,
            ambidextrous=sheet.ambidextrous,
            regenerates=sheet.regenerates,
            natural_armour_class=sheet.natural_armour_class,
        ),
    )


def _midian_weapon(table: MidianWeaponTable) -> MidianWeapon:
    parse(table.damage)  # a clear dice error, blamed on the weapon key
    return MidianWeapon(
        name=table.name,
        damage=table.damage,
        type=table.type,
        hands=table.hands,
        two_hand_grip=table.two_hand_grip,
        skill=table.skill,
        encumbrance=Encumbrance.named(table.encumbrance),
        reach={"close": 1, "mid": 2, "far": 3}[table.reach],
        ranged=table.ranged,
        range_increment=table.range_increment,
        extra_damage=table.extra_damage,
    )
