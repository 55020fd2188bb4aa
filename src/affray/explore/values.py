"""Values of a sweep's cells: a sheet with one key set, a value as results.csv shows
it, one text per value (for keys and seeds), an error on one line."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from affray.errors import AffrayError, SheetError
from affray.quoting import quoted, unprintable


def with_value(data: Mapping[str, Any], key: str, value: Any) -> dict[str, Any]:
    """A copy of sheet data with the dotted ``key`` set to ``value`` (tables on the way
    made as needed).

    Raises:
        SheetError: a table on the way is something else (a bestiary name, say).
    """
    result = copy.deepcopy(dict(data))
    parts = key.split(".")
    table: dict[str, Any] = result
    for depth, part in enumerate(parts[:-1]):
        inner = table.get(part)
        if inner is None:
            inner = table[part] = {}
        elif not isinstance(inner, dict):
            here = ".".join(parts[: depth + 1])
            raise SheetError(
                f"{quoted(here)} is {quoted(value_text(inner))} in the base sheet, not a "
                f"table, so {quoted(key)} cannot be set",
                key=here,
                hint=f"write {here} as an inline table in the base sheet",
            )
        table = inner
    table[parts[-1]] = copy.deepcopy(value)
    return result


def canonical(value: object) -> str:
    """One text for a value, whatever the order of its tables' keys: two values are
    the same if their texts are (and a cell's key and seed hash it)."""
    import json

    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def value_text(value: Any) -> str:
    """A value as results.csv and the report show it: TOML's words for true and
    false, a table by its name (or compactly)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        name = value.get("name")
        if isinstance(name, str):
            return name
        import json

        return json.dumps(value, sort_keys=True, separators=(",", ":"))
    text = str(value)
    if any(unprintable(char) for char in text):  # shown, never obeyed, by a terminal
        return text.encode("unicode_escape").decode("ascii")
    return text


def one_line(error: AffrayError) -> str:
    """An error and its tip on one line, for a cell of results.csv."""
    text = " ".join(error.message.split())
    return f"{text} (tip: {error.hint})" if error.hint else text
