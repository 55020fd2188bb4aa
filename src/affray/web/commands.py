"""Commands as the web sends them: JSON (the API) or a form (the game master's
page), checked at the edge and turned into the table's own commands."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from affray.errors import TableError
from affray.sheets.combatants import names_a_file
from affray.sheets.documents import parse_document
from affray.table import (
    Act,
    Command,
    Edge,
    Mark,
    Next,
    Note,
    Run,
    Start,
    TableRow,
    Tables,
    Unmark,
)
from affray.table.commands import (
    ALLOWED,
    COMMANDS,
    Add,
    Allow,
    Hazard,
    Hide,
    Move,
    Remove,
    Rename,
    Reveal,
    Set,
    parse_pairs,
)
from affray.table.roster import MAX_AT_ONCE
from affray.table.submission import Submission
from affray.web.sheets import Shelf
from affray.web.text import in_error

REQUESTS = ("import", "answer", "cancel", "undo", "redo")
"""What the web asks of a table beside its commands (:data:`COMMANDS`): an encounter's
adds at once, an answer to what waits, dropping it, undo and redo."""
VERBS = (*COMMANDS, *REQUESTS)
MAX_FACES = 1000
_DIGITS = re.compile("[0-9]{1,6}")


Request = Submission
"""A change as the web asks it (:class:`~affray.table.submission.Submission`)."""


def parse(
    tables: Tables, table: TableRow, data: Mapping[str, Any], shelf: Shelf | None = None
) -> Request:
    """A request from a command's JSON (``{"verb": "act", "actor": ..., ...}``); a
    sheet it names comes from ``shelf`` (the bestiary, and the folders ``serve
    --sheets`` named), and from nowhere else on the server.

    Raises:
        TableError: an unknown verb, or a field missing or of the wrong kind.
    """
    verb = data.get("verb")
    if verb not in VERBS:
        raise TableError(
            f"unknown verb {in_error(verb)}", hint="verb is one of: " + ", ".join(VERBS)
        )
    answered = Request(
        verb,
        rolls=_faces(data.get("rolls", [])),
        choices=tuple(_choices(data.get("choose", {}))),
        seed=_optional_int(data, "seed"),
        roll_missing=_bool(data, "roll_missing", True),
        choose_missing=_bool(data, "choose_missing", True),
        roll_rest=_bool(data, "roll_rest", False),
    )
    match verb:
        case "undo" | "redo":
            return Request(verb, steps=_int(data, "steps", 1))
        case "answer":
            question = data.get("question")
            if question is not None and (not isinstance(question, str) or len(question) > 64):
                raise TableError("question is the id of the question answered", hint="a text")
            return replace(
                answered,
                tactics_rest=_bool(data, "tactics_rest", False),
                question=question or None,
                rolled_one=_bool(data, "rolled_one", False),
            )
        case "cancel":
            return Request(verb)
        case "run":
            to_end = _bool(data, "to_end", False)
            return replace(answered, command=Run(1 if to_end else _int(data, "turns", 1), to_end))
        case "add":
            return _hidden(_adding(tables, table, data, shelf), _bool(data, "hidden", False))
        case "import":
            text = data.get("encounter_text")
            if not isinstance(text, str) or not text.strip() or len(text) > 100_000:
                raise TableError(
                    "encounter_text must be an encounter file's text (at most 100,000 characters)"
                )
            kind = "json" if text.lstrip().startswith("{") else "toml"
            parsed = parse_document(text, kind, "uploaded encounter")
            _bestiary_only(table, parsed, shelf or Shelf())
            importing = tables.importing(table, parsed, "uploaded encounter", None)
            return Request(verb, commands=tuple(importing.commands), options=importing.options)
        case "start":
            return replace(answered, command=Start())
        case "next":
            return replace(answered, command=Next())
        case "act":
            target = _optional_text(data, "target")
            command = Act(_text(data, "actor"), _text(data, "action"), target)
            return replace(answered, command=command)
        case "mark":
            until = _optional_text(data, "until")
            if until not in (None, "start", "end"):
                raise TableError(f"until is {in_error(until)}", hint='until is "start" or "end"')
            ends = Edge(until) if until else None
            mark = Mark(
                _text(data, "who"),
                _text(data, "text"),
                ends,
                _optional_text(data, "of"),
                _int(data, "turns", 1),
                _bool(data, "public", False),
            )
            return Request(verb, mark)
        case "unmark":
            return Request(verb, Unmark(_text(data, "who"), _text(data, "text")))
        case "set":
            values = data.get("values")
            if values is None and isinstance(data.get("pairs"), str):  # the page's field
                values = parse_pairs(data["pairs"].split())
            adds = data.get("adds")
            if isinstance(adds, str):  # the page's quick keys: "wounds=1", "hit_points=-1"
                adds = parse_pairs(adds.split(), flag="adds", example="wounds=1")
            if values is None and adds is not None:
                values = {}
            if not isinstance(values, Mapping) or len(values) > 20:
                raise TableError('values must be {"KEY": VALUE, ...}', hint='e.g. {"wounds": 2}')
            if adds is not None and (not isinstance(adds, Mapping) or len(adds) > 20):
                raise TableError('adds must be {"KEY": NUMBER, ...}', hint='e.g. {"wounds": 1}')
            if not values and not adds:
                raise TableError('values must be {"KEY": VALUE, ...}', hint='e.g. {"wounds": 2}')
            told = {str(k): v for k, v in values.items()}
            fiat = Set(_text(data, "who"), told, {str(k): v for k, v in (adds or {}).items()})
            return Request(verb, fiat, beside=quick(data))
        case "hazard":
            values = data.get("values")
            if values is None:  # the page's field: KEY=VALUE words, or none
                pairs = data.get("hazard_values", "")
                values = parse_pairs(pairs.split()) if isinstance(pairs, str) and pairs else {}
            if not isinstance(values, Mapping) or len(values) > 20:
                raise TableError('values must be {"KEY": VALUE, ...}', hint='e.g. {"feet": 30}')
            hazard = Hazard(
                _text(data, "who"), _text(data, "kind"), {str(k): v for k, v in values.items()}
            )
            return replace(answered, command=hazard)
        case "remove":
            return Request(verb, Remove(_text(data, "who")))
        case "hide":
            return Request(verb, Hide(_text(data, "who")))
        case "reveal":
            return Request(verb, Reveal(_text(data, "who")))
        case "rename":
            return Request(verb, Rename(_text(data, "who"), _text(data, "name")))
        case "allow":
            values = data.get("values")
            if values is None:  # the page's fields: each key present, on or off
                values = {k: data[k] for k in ALLOWED if k in data}
            if not isinstance(values, Mapping) or len(values) > len(ALLOWED):
                raise TableError(
                    'values must be {"players_choose": true, ...}', hint=", ".join(ALLOWED)
                )
            return Request(verb, Allow.of({str(k): v for k, v in values.items()}))
        case "move":
            before, after = _optional_text(data, "before"), _optional_text(data, "after")
            if data.get("where") in ("before", "after"):  # the page's two fields
                before, after = (None, None)
                if data["where"] == "before":
                    before = _text(data, "other")
                else:
                    after = _text(data, "other")
            return Request(verb, Move(_text(data, "who"), before, after))
        case _:
            return Request(verb, Note(_text(data, "text"), _optional_text(data, "about")))


def quick(data: Mapping[str, Any]) -> bool:
    """Whether ``data`` is a quick key of the game master's page (± beside a number):
    a ``set`` that only adds, sent with no version (two quick clicks make +2)."""
    return (
        data.get("verb") == "set"
        and bool(data.get("adds"))
        and not data.get("values")
        and not data.get("pairs")
    )


def _adding(
    tables: Tables, table: TableRow, data: Mapping[str, Any], shelf: Shelf | None
) -> Request:
    """An ``add``: one combatant, N of one sheet (one change each) or a whole party."""
    sheet = data.get("sheet")
    if isinstance(sheet, str) and sheet.startswith("party:"):  # every member at once
        from affray.table.parties import Parties

        tactics = _optional_text(data, "tactics") or "nearest"
        joining = Parties(tables).joining(table, sheet[6:], tactics=tactics)
        return Request("import", commands=tuple(joining))
    count = _int(data, "count", 1)
    if not 1 <= count <= MAX_AT_ONCE:
        raise TableError(f"add 1 to {MAX_AT_ONCE} at once", hint="count is how many")
    if count > 1 and not data.get("sheet_text"):  # Goblin 1 … Goblin N, one change each
        sheet_data, source = (shelf or Shelf()).sheet(table.system, _text(data, "sheet"))
        many = tables.joining_many(
            table,
            sheet_data,
            source,
            count,
            side=_optional_text(data, "side"),
            name=_optional_text(data, "as"),
            tactics=_optional_text(data, "tactics") or "nearest",
        )
        return Request("import", commands=tuple(many))
    return Request("add", _add(tables, table, data, shelf or Shelf()))


def _hidden(request: Request, hidden: bool) -> Request:
    """The adds of ``request`` hidden from the players in the same changes (``hidden``)."""
    if not hidden:
        return request
    if isinstance(request.command, Add):
        return replace(request, command=replace(request.command, hidden=True))
    adds = tuple(replace(c, hidden=True) if isinstance(c, Add) else c for c in request.commands)
    return replace(request, commands=adds)


def _add(tables: Tables, table: TableRow, data: Mapping[str, Any], shelf: Shelf) -> Command:
    """``sheet`` (a bestiary name, or a sheet file in a folder of ``shelf``) or
    ``sheet_text`` (a sheet's TOML or JSON, uploaded), with ``side``, ``as``,
    ``tactics``, ``player``."""
    side = _optional_text(data, "side")
    name = _optional_text(data, "as")
    tactics = _optional_text(data, "tactics") or "nearest"
    player = _bool(data, "player", False)
    text = data.get("sheet_text")
    if text:
        if not isinstance(text, str) or len(text) > 100_000:
            raise TableError("sheet_text must be a sheet's text, at most 100,000 characters")
        kind = "json" if text.lstrip().startswith("{") else "toml"
        parsed = parse_document(text, kind, "uploaded sheet")
        return tables.joining_data(
            table, parsed, "uploaded sheet", side=side, name=name, tactics=tactics, player=player
        )
    sheet_data, source = shelf.sheet(table.system, _text(data, "sheet"))
    return tables.joining_data(
        table, sheet_data, source, side=side, name=name, tactics=tactics, player=player
    )


def _bestiary_only(table: TableRow, parsed: Mapping[str, Any], shelf: Shelf) -> None:
    """Refuse an uploaded encounter whose member names something that is neither a
    bestiary creature of the table's system nor a sheet file (which an upload cannot
    reach, and is said so by the table): a path on the server, say."""
    from affray.sheets.encounters import roster

    for member in roster(parsed, "uploaded encounter").members:
        if not names_a_file(member.sheet, anywhere=False):
            shelf.sheet(table.system, member.sheet)  # a creature, or refused


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > 300:
        raise TableError(f"{key} must be text (1 to 300 characters)", hint=f"give {key}")
    return value


def _optional_text(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    return None if value in (None, "") else _text(data, key)


def _int(data: Mapping[str, Any], key: str, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, str) and _DIGITS.fullmatch(value.strip()):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10_000:
        raise TableError(
            f"{key} must be a whole number from 1 to 10000, not {in_error(value)}",
            hint=f'e.g. "{key}": 1',
        )
    return value


def _optional_int(data: Mapping[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value in (None, ""):
        return None
    if isinstance(value, str) and re.fullmatch("[0-9]{1,19}", value.strip()):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**64:
        raise TableError(f"{key} must be a whole number from 0 to 2^64 - 1, not {in_error(value)}")
    return value


def _bool(data: Mapping[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if value in ("1", "true", "on"):
        return True
    if value in ("0", "false", "off", ""):
        return False
    if not isinstance(value, bool):
        raise TableError(f"{key} must be true or false, not {in_error(value)}")
    return value


def _faces(value: Any) -> tuple[int, ...]:
    if isinstance(value, str):
        from affray.dice import parse_faces

        return parse_faces(value) if value.strip() else ()
    if not isinstance(value, Sequence) or len(value) > MAX_FACES:
        raise TableError(f"rolls must be a list of at most {MAX_FACES} die faces")
    if not all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 1000 for f in value):
        raise TableError("rolls must be die faces: whole numbers from 1 up")
    return tuple(value)


def _choices(value: Any) -> list[str]:
    if isinstance(value, Mapping):
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
            raise TableError('choose must be {"topic": "choice", ...}')
        return [f"{k}={v}" for k, v in value.items()]
    if isinstance(value, Sequence) and not isinstance(value, str):
        return [str(item) for item in value]  # "topic=choice" each, as --choose takes
    raise TableError('choose must be {"topic": "choice", ...}')
