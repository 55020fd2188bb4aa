"""Reading TOML and JSON files safely: size and nesting capped before parsing."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from affray.errors import SheetError
from affray.quoting import quoted

MAX_FILE_BYTES = 256 * 1024
MAX_NESTING = 32


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
            other = file.with_suffix(".json" if suffix == ".toml" else ".toml")
            raise SheetError(
                "no such file" if not file.exists() else "not a file",
                path=where,
                hint=f"there is {other.name} beside it: give that"
                if not file.exists() and other.is_file()
                else "check the path",
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
        data: Any = (
            tomllib.loads(text)
            if kind == "toml"
            else json.loads(text, object_pairs_hook=_refuse_duplicates)
        )
    except tomllib.TOMLDecodeError as error:
        raise SheetError(
            f"not valid TOML: {error}",
            path=where,
            hint="fix the syntax there (key = value, text in quotes, [[tables]] in double "
            "brackets); docs/sheets.md and docs/encounters.md show whole files",
        ) from None
    except json.JSONDecodeError as error:
        raise SheetError(
            f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})",
            path=where,
            hint='fix the syntax there ("key": value, text in double quotes, no trailing '
            "commas); docs/sheets.md and docs/encounters.md show whole files",
        ) from None
    except (RecursionError, MemoryError):  # defensive: the depth check runs first
        raise SheetError("nested too deeply", path=where) from None
    except DuplicateKeyError as error:
        raise SheetError(
            f"the key {quoted(str(error))} appears twice in one table",
            path=where,
            hint="keep one of them (TOML refuses this too)",
        ) from None
    except ValueError:  # Python refuses to read an integer thousands of digits long
        raise _number_too_large(text, where) from None
    if not isinstance(data, dict):
        raise SheetError(
            f"the file holds {_what(data)}, not a table of keys",
            path=where,
            hint='a sheet is a table such as {"system": "mst2", "name": ...}',
        )
    return data


def _number_too_large(text: str, where: str | None) -> SheetError:
    """The error for a number too long to read, with its line when it can be found."""
    found = max(re.finditer(r"[0-9_]+", text), key=lambda m: m.end() - m.start(), default=None)
    if found is None:  # pragma: no cover - the parsers fail this way only on long numbers
        return SheetError("a number is too large to read", path=where)
    digits = sum(char.isdigit() for char in found.group())
    line = text.count("\n", 0, found.start()) + 1
    return SheetError(
        f"line {line}: a number {digits:,} digits long is too large",
        path=where,
        hint="numbers in sheets and encounters are small whole numbers; docs/sheets.md "
        "gives each key's range",
    )


class DuplicateKeyError(ValueError):
    """A JSON object names the same key twice."""


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise DuplicateKeyError(key)
        seen[key] = value
    return seen


def _what(data: object) -> str:
    """A JSON value described in the words of a sheet."""
    if data is None:
        return "null"
    if isinstance(data, bool):
        return "true or false"
    if isinstance(data, int | float):
        return "a number"
    if isinstance(data, str):
        return "a string"
    if isinstance(data, list):
        return "a list"
    return "something else"


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
