"""Text at the web's edge: what UTF-8 cannot carry is refused on the way in and mended
on the way out.

A JSON body may spell a lone half of a surrogate pair (``"X\\udc00"``): Python reads
it as a string that no page, no JSON answer and no terminal can encode. Written to a
table's log it would break every view of that table, so a request holding one is
refused before anything is written (:func:`refuse_unencodable`); a table that already
holds one (written by an older affray, or from a terminal) still shows, each such code
point as U+FFFD (:func:`mend`), never as an error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse

from affray.errors import TableError

MAX_DEPTH = 16
"""How deep a command's JSON may nest (a command needs four levels at most)."""

_SURROGATE = re.compile("[\ud800-\udfff]")
_REPLACEMENT = "\ufffd"


def mend(text: str) -> str:
    """``text`` with every code point UTF-8 cannot encode (a lone surrogate half) as
    U+FFFD, the replacement character."""
    return _SURROGATE.sub(_REPLACEMENT, text)


def mended_matches(text: str, names: list[str]) -> str | None:
    """The one name of ``names`` that shows as ``text`` once mended (a page sends back
    a name as it showed it), or None when there is none or more than one."""
    if _REPLACEMENT not in text or text in names:
        return None
    found = [name for name in names if name != text and mend(name) == text]
    return found[0] if len(found) == 1 else None


def refuse_unencodable(value: Any, where: str) -> None:
    """Refuse ``value`` (a parsed JSON body, or a form's fields) if any text in it,
    key or value, cannot be encoded as UTF-8, or if it nests deeper than
    :data:`MAX_DEPTH`.

    Raises:
        TableError: naming the field (``command.as``) and the code point.
    """
    stack: list[tuple[Any, str, int]] = [(value, where, 0)]
    while stack:
        item, place, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise TableError(
                f"{where} nests deeper than {MAX_DEPTH} levels",
                hint='a command is flat: {"verb": "note", "text": "..."}',
            )
        if isinstance(item, str):
            _refuse_text(item, place)
        elif isinstance(item, Mapping):
            for key, inner in item.items():
                name = f"{place}.{key}" if isinstance(key, str) else f"{place}[{key!r}]"
                if isinstance(key, str):
                    _refuse_text(key, f"a key of {place}")
                stack.append((inner, mend(name), depth + 1))
        elif isinstance(item, list | tuple):
            stack.extend((inner, f"{place}[{i}]", depth + 1) for i, inner in enumerate(item))


def _refuse_text(text: str, place: str) -> None:
    bad = _SURROGATE.search(text)
    if bad is not None:
        raise TableError(
            f"{mend(place)} holds U+{ord(bad.group()):04X}, half of a surrogate pair alone, "
            "which is not a character: nothing was written",
            hint="send text as UTF-8; in JSON a \\uD800-\\uDFFF escape comes only in pairs "
            "(\\uD83D\\uDE00 is one emoji)",
        )


class MendedJSON(JSONResponse):
    """A JSON answer that shows a stored lone surrogate half as U+FFFD."""

    def render(self, content: Any) -> bytes:
        text = json.dumps(
            content, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
        )
        return mend(text).encode("utf-8")


class MendedHTML(HTMLResponse):
    """A page that shows a stored lone surrogate half as U+FFFD."""

    def render(self, content: Any) -> bytes | memoryview:
        return super().render(mend(content) if isinstance(content, str) else content)


class MendedText(PlainTextResponse):
    """Plain text (a log, a refusal) that shows a stored lone surrogate half as U+FFFD."""

    def render(self, content: Any) -> bytes | memoryview:
        return super().render(mend(content) if isinstance(content, str) else content)


def in_error(value: Any) -> str:
    """A value as an error names it: its ``repr``, cut short (a number of 5,000 digits
    is not echoed whole)."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:30]}… ({len(text):,} characters)"
