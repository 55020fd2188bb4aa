"""The open format: a table or a party as one JSON document, to move a campaign
to another machine or to read it with another tool (docs/exchange.md; its JSON
Schema is docs/schema/affray-export.schema.json, made from the models below).

Pure: a document is built from what the store keeps (a row and its log), and read
back into what the store writes; files and terminals are the CLI's business.

A document carries the log whole: every change with the dice faces and answers it
used, undone changes and the undos too. So the table on the other machine is the
same table, undo and redo included, and exporting it there gives the same bytes.
Its ``state`` and ``sheets`` (a party's ``state``) are there for readers: an
import rebuilds them by replaying the log, through the same rules as the table
itself, and refuses a file where they disagree. A writer may leave them out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from typing import Annotated, Any, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from affray import registry
from affray.errors import AffrayError, SheetError, TableError
from affray.quoting import show
from affray.sheets.combatants import article, sheet_from_data
from affray.table import party_rules
from affray.table.commands import Add, command_from_data
from affray.table.fold import REDO, UNDO, Fold
from affray.table.model import Rules
from affray.table.party_rules import Member, PartyFold
from affray.table.party_store import PartyRow
from affray.table.store import ChangeRow, TableRow, slug
from affray.table.view import show_data

FORMAT = "affray"
VERSION = 1
"""The format's version: a reader refuses a document of a version it does not know."""
DOCS = "docs/exchange.md"
SCHEMA = "docs/schema/affray-export.schema.json"
MAX_CHARACTERS = 64 * 1024 * 1024
MAX_CHANGES = 100_000
NOT_IN_STATE = ("table", "name", "system", "pending")
"""Keys of ``table show --json`` a table document's ``state`` leaves out: the first
three are its ``table`` header's, and a command waiting for a die is not exported."""

__all__ = [
    "FORMAT",
    "VERSION",
    "ExchangeError",
    "PartyImport",
    "TableImport",
    "dumps",
    "party_document",
    "read_party",
    "read_table",
    "renamed",
    "schema_text",
    "table_document",
]


class ExchangeError(SheetError):
    """An export document that cannot be imported: not JSON, not affray's, of another
    version or kind, against the format, or a log that does not replay to what the
    document says."""


# -- the format, as models (validation at the edge, and the JSON Schema) ----------------


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


Id = Annotated[str, Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=64)]
Name = Annotated[str, Field(min_length=1, max_length=80)]
Stamp = Annotated[
    str,
    Field(
        min_length=1,
        max_length=40,
        description="A time, ISO 8601 in UTC (2026-11-30T20:15:07+00:00).",
    ),
]
Number = Annotated[int, Field(ge=1)]
Sheet = Annotated[
    dict[str, Any],
    Field(description="A sheet's data: the keys of a sheet file (docs/sheets.md)."),
]
Answer = Annotated[
    list[str],
    Field(
        min_length=3,
        max_length=3,
        description="An answer given: [who, topic, label] (whose question, its topic, "
        "the option chosen).",
    ),
]
Values = Annotated[
    dict[str, Any],
    Field(
        description="A member's carried values: what `table set` takes (the system's "
        "snapshot keys and `condition`), only those not as fresh."
    ),
]
CommandVerb = Literal[
    "add",
    "start",
    "act",
    "next",
    "run",
    "mark",
    "unmark",
    "note",
    "set",
    "remove",
    "rename",
    "hide",
    "reveal",
    "move",
]


class TableHeader(_Model):
    """The table: its id and name, its rule system and its rules (the options it was
    made with, as `table new --option` or an encounter file gives them)."""

    id: Id
    name: Name
    system: str
    options: dict[str, Any]
    created: Stamp
    archived: bool = False


class CommandPayload(_Model):
    """What a command's change keeps: the command, every die face it used (typed in
    or rolled) and every answer, in order; with them the change replays exactly."""

    command: dict[str, Any] = Field(
        description='The command: {"verb": ..., and its fields} (docs/exchange.md).'
    )
    faces: list[int] = []
    answers: list[Answer] = []
    era: int = Field(
        default=1,
        ge=1,
        description="How the table played it (3: the Midian rules of fidelity round 3; "
        "2: the one turn cursor; absent: 1).",
    )
    events: list[dict[str, Any]] = Field(
        default=[], description="What happened, as the rules' events (for readers)."
    )
    lines: list[str] = Field(default=[], description="What happened, narrated (for readers).")


class MovePayload(_Model):
    """An undo's or a redo's change: how many steps it moved."""

    steps: Number
    versions: list[int] = Field(default=[], description="The changes it moved (for readers).")
    commands: list[dict[str, Any]] = Field(default=[], description="Their commands (for readers).")


class CommandChange(_Model):
    """A change that played a command."""

    version: Number
    verb: CommandVerb
    at: Stamp
    payload: CommandPayload


class MoveChange(_Model):
    """A change that undid or redid earlier changes."""

    version: Number
    verb: Literal["undo", "redo"]
    at: Stamp
    payload: MovePayload


TableChange = Annotated[CommandChange | MoveChange, Field(discriminator="verb")]


class KeptCondition(_Model):
    text: str
    until: str
    public: bool


class Engagement(_Model):
    with_: str = Field(alias="with")
    distance: str | None


class ShownCombatant(_Model):
    """A combatant as `table show --json` shows it."""

    id: str
    side: str
    condition: str
    state: dict[str, Any] = Field(description="The system's snapshot (MST-2: wounds; ...).")
    conditions: list[KeptCondition]
    source: str
    player: bool
    hidden: bool
    engaged: list[Engagement]


class TableShown(_Model):
    """The table's state, as `table show --json` prints it (less `table`, `name`,
    `system` and `pending`): for readers; an import checks it against its log."""

    round: int
    turn: str | None
    version: int
    phase: str
    queue: list[str]
    order: list[str]
    winner: str | None
    combatants: list[ShownCombatant]
    notes: list[str]
    can_undo: int
    can_redo: int


class TableDocument(_Model):
    """A table: its rules and its whole log (which an import replays), the sheets of
    its combatants and its state."""

    format: Literal["affray"]
    version: Literal[1]
    kind: Literal["table"]
    affray: str = Field(description="The affray that wrote it (for people).")
    table: TableHeader
    log: list[TableChange] = Field(max_length=MAX_CHANGES)
    sheets: dict[str, Sheet] | None = Field(
        default=None,
        description="Each combatant at the table now, by id: its sheet's data, as it "
        "joined (for readers; an import checks it against the log).",
    )
    state: TableShown | None = None


class PartyHeader(_Model):
    """The party: its id and name, its rule system."""

    id: Id
    name: Name
    system: str
    created: Stamp


class PartyMember(_Model):
    """A member as it joins: its name, where its sheet came from, the sheet's data."""

    id: Name
    source: str
    sheet: Sheet
    values: Values


class AddPayload(_Model):
    member: PartyMember


class RestPayload(_Model):
    """Days of rest: each member's carried values after them."""

    days: Number
    options: dict[str, Any]
    values: dict[str, Values]
    lines: list[str] = []


class EndPayload(_Model):
    """A table's end: its party members' values written back."""

    table: str
    table_version: int
    values: dict[str, Values]
    lines: list[str] = []


class UndoPayload(_Model):
    """A party's undo: the change it took back."""

    version: int
    verb: str


class PartyAdd(_Model):
    version: Number
    verb: Literal["add"]
    at: Stamp
    payload: AddPayload


class PartyRest(_Model):
    version: Number
    verb: Literal["rest"]
    at: Stamp
    payload: RestPayload


class PartyEnd(_Model):
    version: Number
    verb: Literal["end"]
    at: Stamp
    payload: EndPayload


class PartyUndo(_Model):
    version: Number
    verb: Literal["undo"]
    at: Stamp
    payload: UndoPayload


PartyChange = Annotated[PartyAdd | PartyRest | PartyEnd | PartyUndo, Field(discriminator="verb")]


class MemberShown(_Model):
    """A member as it is now: its sheet, its carried values and its whole state."""

    id: str
    source: str
    sheet: Sheet
    values: Values
    state: dict[str, Any] = Field(description="All it carries (as `party show --json`).")


class Written(_Model):
    table: str
    version: int


class PartyShown(_Model):
    """The party now (for readers; an import checks it against its log)."""

    version: int
    members: list[MemberShown]
    written: list[Written] = Field(description="The tables (and versions) written back.")


class PartyDocument(_Model):
    """A party: its whole log (which an import replays) and its members now."""

    format: Literal["affray"]
    version: Literal[1]
    kind: Literal["party"]
    affray: str = Field(description="The affray that wrote it (for people).")
    party: PartyHeader
    log: list[PartyChange] = Field(max_length=MAX_CHANGES)
    state: PartyShown | None = None


Document = Annotated[TableDocument | PartyDocument, Field(discriminator="kind")]


def schema_text() -> str:
    """The format's JSON Schema, as docs/schema/affray-export.schema.json holds it."""
    schema = TypeAdapter(Document).json_schema(by_alias=True)
    return (
        json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "title": "affray export",
                "description": f"A table or a party exported by affray, format version "
                f"{VERSION} ({DOCS}).",
                **schema,
            },
            indent=2,
        )
        + "\n"
    )


# -- writing ----------------------------------------------------------------------------


def table_document(row: TableRow, changes: Sequence[ChangeRow]) -> dict[str, Any]:
    """The document of a table: ``changes`` are its whole log, as the store keeps it.

    Raises:
        TableError: the log does not replay (written by another version of the rules).
    """
    fold = _table_fold(Rules.of(row.system, row.options), changes)
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": "table",
        "affray": _affray(),
        "table": {
            "id": row.id,
            "name": row.name,
            "system": row.system,
            "options": dict(row.options),
            "created": row.created,
            "archived": row.archived,
        },
        "log": [_change(change) for change in changes],
        "sheets": _sheets(fold),
        "state": _table_state(row, fold),
    }


def party_document(row: PartyRow, changes: Sequence[ChangeRow]) -> dict[str, Any]:
    """The document of a party: ``changes`` are its whole log, as the store keeps it."""
    folded = party_rules.fold([(c.version, c.verb, c.payload) for c in changes])
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": "party",
        "affray": _affray(),
        "party": {"id": row.id, "name": row.name, "system": row.system, "created": row.created},
        "log": [_change(change) for change in changes],
        "state": _party_state(registry.system(row.system), folded),
    }


def dumps(document: Mapping[str, Any]) -> str:
    """A document's text: the same document always gives the same bytes (ASCII, keys in
    the order written, two spaces of indent, a final newline)."""
    return json.dumps(document, indent=2) + "\n"


def _change(change: ChangeRow) -> dict[str, Any]:
    return {
        "version": change.version,
        "verb": change.verb,
        "at": change.created,
        "payload": change.payload,
    }


def _table_fold(rules: Rules, changes: Sequence[ChangeRow]) -> Fold:
    fold = Fold(rules)
    for change in changes:
        fold.feed(change.version, change.verb, change.payload)
    return fold


def _table_state(row: TableRow, fold: Fold) -> dict[str, Any]:
    shown = show_data(row, fold)
    return _plain({key: value for key, value in shown.items() if key not in NOT_IN_STATE})


def _sheets(fold: Fold) -> dict[str, Any]:
    """Each combatant at the table now: the sheet it joined with (found by its serial,
    which follows renames)."""
    by_serial: dict[int, Mapping[str, Any]] = {}
    for applied in fold.done:
        command = applied.command
        if isinstance(command, Add):
            by_serial[applied.state.serials[command.combatant]] = command.sheet
    state = fold.state
    return _plain({c.id: dict(by_serial[state.serials[c.id]]) for c in state.encounter.combatants})


def _party_state(system: registry.AnySystem, folded: PartyFold) -> dict[str, Any]:
    ruleset = system.duel_ruleset()
    state = folded.state
    return _plain(
        {
            "version": folded.version,
            "members": [
                {
                    **member.data(),
                    "state": party_rules.carried(
                        system, ruleset, party_rules.solo(system, ruleset, member), member.id
                    ),
                }
                for member in state.members
            ],
            "written": [{"table": t, "version": v} for t, v in sorted(state.written)],
        }
    )


# -- reading ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableImport:
    """A table document read and checked: what the store writes
    (:meth:`~affray.table.store.Store.restore`)."""

    id: str
    name: str
    system: str
    options: Mapping[str, Any]
    created: str
    archived: bool
    changes: tuple[ChangeRow, ...]

    @property
    def version(self) -> int:
        return self.changes[-1].version if self.changes else 0


@dataclass(frozen=True, slots=True)
class PartyImport:
    """A party document read and checked: what the store writes
    (:meth:`~affray.table.store.PartyStore.restore`)."""

    id: str
    name: str
    system: str
    created: str
    changes: tuple[ChangeRow, ...]

    @property
    def version(self) -> int:
        return self.changes[-1].version if self.changes else 0


Imported = TypeVar("Imported", TableImport, PartyImport)


def read_table(text: str, where: str) -> TableImport:
    """A table document, read, validated and replayed.

    Args:
        text: the document.
        where: what to call it in messages (its file).

    Raises:
        ExchangeError: not JSON, not an affray table export of this version, against
            the format, or a log that does not replay to the state the file carries.
        SheetError: a sheet in the log is invalid (its own message, naming where).
    """
    raw = _document(text, where, "table")
    _validate(TableDocument, raw, where)
    header = raw["table"]
    _check_name(header["name"], where, "table.name")
    system = _system(header["system"], where, "table.system")
    try:
        rules = Rules.of(system.name, header["options"])
    except AffrayError as error:
        raise ExchangeError(
            f"option {error.message}", path=where, at="table.options", hint=error.hint
        ) from None
    made_by = _made_by(raw)
    fold = Fold(rules)
    changes: list[ChangeRow] = []
    for index, change in enumerate(raw["log"]):
        version, verb, payload = change["version"], change["verb"], change["payload"]
        at = f"log[{index}]"
        label = f"{at} (change {version}, {verb})"
        if verb not in (UNDO, REDO):
            if payload["command"].get("verb") != verb:
                raise ExchangeError(
                    f"the command's verb is {show(payload['command'].get('verb'))}, "
                    f"but the change's is {show(verb)}",
                    path=where,
                    at=f"{at}.payload.command.verb",
                    hint="a change plays one command, of its own verb",
                )
            try:
                command = command_from_data(payload["command"])
            except TableError as error:
                raise ExchangeError(
                    error.message, path=where, at=f"{at}.payload.command", hint=error.hint
                ) from None
            if isinstance(command, Add):
                _check_sheet(
                    system,
                    command.sheet,
                    f"{where}: {at} (change {version}, add {command.combatant}): sheet",
                )
        try:
            fold.feed(version, verb, payload)
        except AffrayError as error:
            raise ExchangeError(
                error.message, path=where, at=label, hint=_replay_hint(error, made_by)
            ) from None
        changes.append(ChangeRow(version, verb, payload, change["at"]))
    row = TableRow(
        header["id"], header["name"], system.name, header["options"], "", "", header["created"]
    )
    _agrees(raw.get("sheets"), _sheets(fold), where, "sheets", made_by)
    _agrees(raw.get("state"), _table_state(row, fold), where, "state", made_by)
    return TableImport(
        header["id"],
        header["name"],
        system.name,
        header["options"],
        header["created"],
        header.get("archived", False),
        tuple(changes),
    )


def read_party(text: str, where: str) -> PartyImport:
    """A party document, read, validated and replayed (as :func:`read_table`); every
    member's sheet and carried values are checked as a party checks its own.

    Raises:
        ExchangeError: as :func:`read_table`.
        SheetError: a member's sheet or values are invalid (their own message).
    """
    raw = _document(text, where, "party")
    _validate(PartyDocument, raw, where)
    header = raw["party"]
    _check_name(header["name"], where, "party.name")
    system = _system(header["system"], where, "party.system")
    if system.edit is None:
        raise ExchangeError(
            f"{system.title} cannot carry a member's state, so it has no parties",
            path=where,
            at="party.system",
            hint="a party is of a system whose table takes `table set`",
        )
    ruleset = system.duel_ruleset()
    made_by = _made_by(raw)
    folded = PartyFold()
    changes: list[ChangeRow] = []
    for index, change in enumerate(raw["log"]):
        version, verb, payload = change["version"], change["verb"], change["payload"]
        at = f"log[{index}]"
        label = f"{at} (change {version}, {verb})"
        if verb == party_rules.ADD:
            member = payload["member"]
            _check_name(member["id"], where, f"{at}.payload.member.id")
            if any(m.id.lower() == member["id"].lower() for m in folded.state.members):
                raise ExchangeError(
                    f"the party has a member called {show(member['id'])} already",
                    path=where,
                    at=f"{at}.payload.member.id",
                    hint="each member of a party has a name of its own",
                )
            _check_sheet(
                system,
                member["sheet"],
                f"{where}: {at} (change {version}, add {member['id']}): sheet",
            )
        try:
            folded = folded.feed(version, verb, payload)
        except AffrayError as error:
            raise ExchangeError(
                error.message, path=where, at=label, hint=_replay_hint(error, made_by)
            ) from None
        # what a change sets is checked as `table set` checks it (an undo brings
        # back values checked when they were set)
        if verb == party_rules.ADD:
            named = {payload["member"]["id"]}
        else:
            named = set(payload.get("values", {}))
        for member in folded.state.members:
            if member.id in named:
                _check_values(system, ruleset, member, f"{where}: {label}")
        changes.append(ChangeRow(version, verb, payload, change["at"]))
    _agrees(raw.get("state"), _party_state(system, folded), where, "state", made_by)
    return PartyImport(header["id"], header["name"], system.name, header["created"], tuple(changes))


def renamed(imported: Imported, name: str) -> Imported:
    """The import under another name (``--as``), with the id made from it.

    Raises:
        TableError: not a name (1 to 80 characters of plain text).
    """
    what = "table" if isinstance(imported, TableImport) else "party"
    name = " ".join(name.split())
    if not name or len(name) > 80 or not name.isprintable():
        raise TableError(
            f"--as: a {what}'s name is 1 to 80 characters of plain text",
            hint='e.g. --as "Ford, again"',
        )
    return replace(imported, id=slug(name, what), name=name)


def _document(text: str, where: str, kind: str) -> dict[str, Any]:
    """The document's JSON, checked to be an affray export of this version and of
    ``kind`` (before the rest of the format is, so that the message says the thing
    that matters)."""
    if len(text) > MAX_CHARACTERS:
        raise ExchangeError(
            f"the file is larger than {MAX_CHARACTERS:,} characters",
            path=where,
            hint="an export of even a long campaign is a few megabytes",
        )
    try:
        raw: Any = json.loads(
            text, object_pairs_hook=_refuse_duplicates, parse_constant=_refuse_constant
        )
    except json.JSONDecodeError as error:
        raise ExchangeError(
            f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})",
            path=where,
            hint=f"an export is the JSON that `affray {kind} export` writes",
        ) from None
    except _DuplicateKeyError as error:
        raise ExchangeError(
            f"the key {show(str(error))} appears twice in one object",
            path=where,
            hint="keep one of them",
        ) from None
    except _ConstantError as error:
        raise ExchangeError(
            f"{error} is not a JSON number", path=where, hint="numbers in an export are finite"
        ) from None
    except RecursionError:
        raise ExchangeError("nested too deeply to read", path=where) from None
    except ValueError:  # an integer thousands of digits long
        raise ExchangeError("a number is too large to read", path=where) from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        hint = f"make one with `affray {kind} export {kind.upper()} -o FILE`"
        if kind == "table":
            hint += "; an encounter file's members join a table with `affray table import TABLE "
            hint += "ENCOUNTER`"
        raise ExchangeError(
            'is not an affray export (it has no "format": "affray")', path=where, hint=hint
        )
    version = raw.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ExchangeError(
            f"the format version is {show(version)}, not a whole number",
            path=where,
            at="version",
            hint=f"this affray reads format version {VERSION}",
        )
    if version != VERSION:
        newer = version > VERSION
        raise ExchangeError(
            f"is format version {version}; this affray reads version {VERSION}",
            path=where,
            at="version",
            hint=f"upgrade affray here (the file says it was made by {_made_by(raw)})"
            if newer
            else f"there is no format version {version}",
        )
    found = raw.get("kind")
    if found != kind:
        known = found in ("table", "party")
        raise ExchangeError(
            f"is {f'a {found}' if known else f'of kind {show(found)}'} export, not a {kind}'s",
            path=where,
            at="kind",
            hint=f"import it with `affray {found} import FILE`"
            if known
            else 'kind is "table" or "party"',
        )
    return raw


def _validate(model: type[_Model], raw: Mapping[str, Any], where: str) -> None:
    try:
        model.model_validate(raw)
    except ValidationError as error:
        problem = error.errors(include_url=False)[0]
        raise ExchangeError(
            _problem(problem),
            path=where,
            at=_place(_tagged(problem)),
            hint=f"{DOCS} describes every key (JSON Schema: {SCHEMA})",
        ) from None


def _tagged(problem: Mapping[str, Any]) -> tuple[str | int, ...]:
    """Where the problem is; for a change's verb, the verb's place itself."""
    loc: tuple[str | int, ...] = tuple(problem["loc"])
    if problem["type"] in ("union_tag_invalid", "union_tag_not_found"):
        return (*loc, str(problem["ctx"]["discriminator"]).strip("'"))
    return loc


_TAGS = frozenset({*get_args(CommandVerb), "undo", "redo", "rest", "end"})
"""The verbs a change's type is told by (pydantic puts the one it took in a place)."""


def _place(loc: Sequence[str | int]) -> str:
    """A place in the document as a reader writes it: ``log[3].payload.faces[0]``."""
    parts = list(loc)
    if len(parts) >= 3 and parts[0] == "log" and isinstance(parts[1], int) and parts[2] in _TAGS:
        del parts[2]
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text


def _problem(problem: Mapping[str, Any]) -> str:
    kind = problem["type"]
    if kind in ("missing", "union_tag_not_found"):
        return "is missing"
    if kind == "union_tag_invalid":
        expected = problem["ctx"]["expected_tags"]
        return f"{show(problem['ctx']['tag'])} is not one of {expected}"
    if kind == "extra_forbidden":
        return "is not a key of the format"
    message = str(problem["msg"])
    return f"{message[0].lower()}{message[1:]} (it is {show(problem.get('input'))})"


def _check_name(name: str, where: str, at: str) -> None:
    if " ".join(name.split()) != name or not name.isprintable():
        raise ExchangeError(
            f"the name {show(name)} is not plain text in one line",
            path=where,
            at=at,
            hint="a name is 1 to 80 characters, no spaces at its ends and no control characters",
        )


def _system(name: str, where: str, at: str) -> registry.AnySystem:
    if name not in registry.systems():
        raise ExchangeError(
            f"unknown rule system {show(name)}",
            path=where,
            at=at,
            hint="this affray plays: " + ", ".join(registry.systems()),
        )
    return registry.system(name)


def _check_sheet(system: registry.AnySystem, data: Mapping[str, Any], where: str) -> None:
    """A sheet in the document, checked as a sheet file is (its own messages)."""
    sheet = sheet_from_data(data, where)
    if not system.owns(sheet):
        raise ExchangeError(
            f"is not {article(system.title)} {system.title} sheet",
            path=where,
            key="system",
            hint=f"every sheet of a {system.name} table or party is a {system.name} sheet",
        )


def _check_values(system: registry.AnySystem, ruleset: Any, member: Member, where: str) -> None:
    """A member's carried values, checked as ``table set`` checks them."""
    try:
        party_rules.solo(system, ruleset, member)
    except AffrayError as error:  # its message names the member
        raise ExchangeError(error.message, path=where, hint=error.hint) from None


def _made_by(raw: Mapping[str, Any]) -> str:
    made = raw.get("affray")
    return f"affray {made}" if isinstance(made, str) else "an unknown affray"


def _replay_hint(error: AffrayError, made_by: str) -> str:
    here = f"affray {_affray()}"
    if made_by == here:
        return error.hint or f"the log is not one affray writes ({DOCS})"
    return f"the file was made by {made_by}, this is {here}: its rules may differ"


def _agrees(carried: Any, rebuilt: Mapping[str, Any], where: str, key: str, made_by: str) -> None:
    """The ``key`` the file carries, if it does, is what its log replays to."""
    if carried is None:
        return
    found = _difference(carried, rebuilt, key)
    if found is not None:
        place, said, replayed = found
        raise ExchangeError(
            f"the log does not replay to the {key} the file carries: the file has "
            f"{said}, the log gives {replayed}",
            path=where,
            at=place,
            hint=f'was it edited? Leave out "{key}" to take the log as it is '
            f"(the file says it was made by {made_by})",
        )


def _difference(said: Any, replayed: Any, place: str) -> tuple[str, str, str] | None:
    """The first place where two JSON values differ, and each one's value there
    (``true`` is not ``1``, nor ``1`` ``1.0``)."""
    if isinstance(said, dict) and isinstance(replayed, dict):
        for key in [*said, *(k for k in replayed if k not in said)]:
            if key not in said or key not in replayed:
                there = "nothing" if key not in said else show(said[key])
                other = "nothing" if key not in replayed else show(replayed[key])
                return f"{place}.{key}", there, other
            found = _difference(said[key], replayed[key], f"{place}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(said, list) and isinstance(replayed, list):
        for index, (one, other) in enumerate(zip(said, replayed, strict=False)):
            found = _difference(one, other, f"{place}[{index}]")
            if found is not None:
                return found
        if len(said) != len(replayed):
            return place, f"{len(said)} items", f"{len(replayed)} items"
        return None
    if type(said) is type(replayed) and said == replayed:
        return None
    return place, show(said), show(replayed)


def _plain(value: Mapping[str, Any]) -> dict[str, Any]:
    """``value`` as JSON reads it back (tuples as lists, and so on)."""
    plain: dict[str, Any] = json.loads(json.dumps(value))
    return plain


def _affray() -> str:
    try:
        return package_version("affray")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        return "unknown"


class _DuplicateKeyError(ValueError):
    pass


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKeyError(key)
        seen[key] = value
    return seen


class _ConstantError(ValueError):
    pass


def _refuse_constant(name: str) -> Any:
    """JSON has no NaN nor Infinity (Python's reader takes them unless told not to)."""
    raise _ConstantError(name)
