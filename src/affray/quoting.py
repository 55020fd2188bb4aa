"""Values from sheets, encounter files and options, shown in messages as a file
writes them (JSON notation, which TOML shares for plain values): ``true``, ``null``,
``"x"``, ``[1, 2]``, ``{"count": true}``; never Python's reprs (``True``, ``None``,
``'x'``), never a terminal control code, never a number thousands of digits long."""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Mapping
from datetime import date, datetime, time

MAX_SHOWN_TEXT = 40
MAX_SHOWN_ITEMS = 3


def as_written(value: object, depth: int = 0) -> str:
    """A value as a TOML or JSON file writes it (JSON notation), kept short:
    ``true``, ``null``, ``"x"``, ``[1, 2, …]``, ``{"count": true, …}``. Control
    characters are escaped, huge numbers summarised."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return _integer(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return quoted(value)
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, Mapping):
        if depth >= 2:
            return "{…}"
        items = list(value.items())
        parts = [
            f"{quoted(str(k))}: {as_written(v, depth + 1)}" for k, v in items[:MAX_SHOWN_ITEMS]
        ]
        return "{" + ", ".join(parts + (["…"] if len(items) > MAX_SHOWN_ITEMS else [])) + "}"
    if isinstance(value, list | tuple):
        if depth >= 2:
            return "[…]"
        parts = [as_written(v, depth + 1) for v in value[:MAX_SHOWN_ITEMS]]
        return "[" + ", ".join(parts + (["…"] if len(value) > MAX_SHOWN_ITEMS else [])) + "]"
    return f"a value of type {type(value).__name__}"  # only from Python callers


def quoted(text: str) -> str:
    """Text in double quotes, shortened, every control character escaped (so a name
    can never colour the terminal or fake a line of output)."""
    if len(text) > MAX_SHOWN_TEXT:
        text = text[: MAX_SHOWN_TEXT - 1] + "…"
    body = json.dumps(text, ensure_ascii=False)[1:-1]
    return '"' + "".join(f"\\u{ord(c):04x}" if unprintable(c) else c for c in body) + '"'


def _integer(value: int) -> str:
    """The number, or its length when it is too long to read (Python itself refuses
    to write an integer over 4,300 digits long)."""
    if value.bit_length() <= 100:
        return str(value)
    size = abs(value)
    digits = int(size.bit_length() * math.log10(2))  # within one of the true count
    while 10**digits <= size:
        digits += 1
    return f"a number {digits:,} digits long"


def unprintable(char: str) -> bool:
    """A control character, a format character or a line or paragraph separator."""
    return unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp")


def possessive(name: str) -> str:
    """``Brenna's``, ``Bandits'``: a name's possessive, as English writes it."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def wins(side: str) -> str:
    """``Bandits win``, ``Caravan guard wins``: a side's name with the verb as English
    agrees it (a name ending in a plural s takes the plural; a guess, but a fair one
    for the names sides are given)."""
    plural = side.endswith("s") and not side.endswith(("ss", "us", "is"))
    return f"{side} {'win' if plural else 'wins'}"
