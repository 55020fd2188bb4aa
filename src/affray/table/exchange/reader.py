"""Reading an export: a document checked against the schema and replayed through the
same rules as the table itself, into what the store writes; a file whose state
disagrees with its log is refused, in plain words."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar, get_args

from pydantic import ValidationError

from affray import registry
from affray.errors import AffrayError, TableError
from affray.quoting import as_written
from affray.sheets.combatants import article, sheet_from_data
from affray.table import party_rules
from affray.table.commands import Add, command_from_data
from affray.table.exchange.schema import (
    DOCS,
    FORMAT,
    MAX_CHARACTERS,
    READS,
    SCHEMA,
    VERSION,
    CommandVerb,
    ExchangeError,
    Model,
    PartyDocument,
    TableDocument,
    affray_version,
)
from affray.table.exchange.writer import party_state, sheets_of, table_state
from affray.table.fold import REDO, UNDO, Fold
from affray.table.model import Rules
from affray.table.party_rules import Member, PartyFold
from affray.table.store import ChangeRow, TableRow, slug


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
                    f"the command's verb is {as_written(payload['command'].get('verb'))}, "
                    f"but the change's is {as_written(verb)}",
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
    _agrees(raw.get("sheets"), sheets_of(fold), where, "sheets", made_by)
    _agrees(raw.get("state"), table_state(row, fold), where, "state", made_by)
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
            try:
                party_rules.refuse_more(folded.state)
            except AffrayError as error:
                raise ExchangeError(error.message, path=where, at=at, hint=error.hint) from None
            if any(m.id.lower() == member["id"].lower() for m in folded.state.members):
                raise ExchangeError(
                    f"the party has a member called {as_written(member['id'])} already",
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
    _agrees(raw.get("state"), party_state(system, folded), where, "state", made_by)
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
            f"the key {as_written(str(error))} appears twice in one object",
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
            f"the format version is {as_written(version)}, not a whole number",
            path=where,
            at="version",
            hint=f"this affray reads format version {VERSION}",
        )
    if version not in READS:
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
            f"is {f'a {found}' if known else f'of kind {as_written(found)}'} export, "
            f"not a {kind}'s",
            path=where,
            at="kind",
            hint=f"import it with `affray {found} import FILE`"
            if known
            else 'kind is "table" or "party"',
        )
    return raw


def _validate(model: type[Model], raw: Mapping[str, Any], where: str) -> None:
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
        return f"{as_written(problem['ctx']['tag'])} is not one of {expected}"
    if kind == "extra_forbidden":
        return "is not a key of the format"
    message = str(problem["msg"]).removeprefix("Value error, ")  # our own words
    return f"{message[0].lower()}{message[1:]} (it is {as_written(problem.get('input'))})"


def _check_name(name: str, where: str, at: str) -> None:
    if " ".join(name.split()) != name or not name.isprintable():
        raise ExchangeError(
            f"the name {as_written(name)} is not plain text in one line",
            path=where,
            at=at,
            hint="a name is 1 to 80 characters, no spaces at its ends and no control characters",
        )


def _system(name: str, where: str, at: str) -> registry.AnySystem:
    if name not in registry.systems():
        raise ExchangeError(
            f"unknown rule system {as_written(name)}",
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
    here = f"affray {affray_version()}"
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
                there = "nothing" if key not in said else as_written(said[key])
                other = "nothing" if key not in replayed else as_written(replayed[key])
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
    return place, as_written(said), as_written(replayed)


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
