"""What the table database holds, checked as it is read back: every text repaired
(:func:`repaired`), so that a log written before the table refused such text still
shows and replays; a change's payload that is not what affray writes refused in plain
words (:func:`checked`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from affray.errors import TableError
from affray.quoting import unprintable


def repaired(value: Any) -> Any:
    """``value`` (read back from the database) with every text made fit to show and
    write: a code point no encoding can write (a lone surrogate) becomes U+FFFD, a
    control or format character (an escape, a bell, a line break, a direction
    override) its escape (``\\u001b``, ``\\n``). The same text is always repaired
    the same way, so a log replays as it did. Dictionary keys too."""
    if isinstance(value, str):
        if value.isprintable():
            return value
        return "".join(_repaired_char(char) for char in value)
    if isinstance(value, dict):
        return {repaired(key): repaired(item) for key, item in value.items()}
    if isinstance(value, list):
        return [repaired(item) for item in value]
    if isinstance(value, tuple):
        return tuple(repaired(item) for item in value)
    return value


_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _repaired_char(char: str) -> str:
    if "\ud800" <= char <= "\udfff":
        return "\ufffd"
    if unprintable(char):
        return _ESCAPES.get(char) or f"\\u{ord(char):04x}"
    return char


def checked(
    path: Path, owner: str, version: int, verb: str, raw: Any, what: str = "table"
) -> dict[str, Any]:
    """A change's payload, repaired; one that is not what affray writes is refused in
    plain words (the log cannot be folded past it)."""
    try:
        payload = json.loads(raw)
    except (TypeError, ValueError):
        payload = None
    problem = None
    if not isinstance(payload, dict):
        problem = "it is not a JSON object"
    elif what == "table" and verb in ("undo", "redo"):
        steps = payload.get("steps")
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
            problem = "its steps are not a whole number of at least 1"
    elif what == "table":
        command = payload.get("command")
        if not isinstance(command, dict) or command.get("verb") != verb:
            problem = f"it holds no {verb} command"
        elif not all(_face(face) for face in _listed(payload, "faces")):
            problem = "its dice faces are not whole numbers (with who gave them)"
        elif not all(
            isinstance(answer, list)
            and len(answer) == 3
            and all(isinstance(part, str) for part in answer)
            for answer in _listed(payload, "answers")
        ):
            problem = "its answers are not [who, topic, answer] lists"
        elif not isinstance(payload.get("era", 1), int) or not all(
            isinstance(line, str) for line in _listed(payload, "lines")
        ):
            problem = "its era or its lines are damaged"
    if problem is not None:
        raise TableError(
            f"{path}: change {version} of {what} {owner!r} is damaged ({problem}); "
            "the log cannot be read past it",
            hint="restore the database from a backup (or an export)",
        )
    clean = isinstance(raw, str) and "\\" not in raw and raw.isprintable()
    fixed: dict[str, Any] = payload if clean else repaired(payload)  # clean: a fast look
    return fixed


def _face(logged: Any) -> bool:
    """Whether a logged face is one: a whole number (a log older than who gave it), or
    ``{"face": N, "by": ..., ...}`` (:mod:`affray.table.given`)."""
    if isinstance(logged, dict):
        logged, by = logged.get("face"), logged.get("by")
        if not isinstance(by, str):
            return False
    return isinstance(logged, int) and not isinstance(logged, bool)


def _listed(payload: Mapping[str, Any], key: str) -> list[Any]:
    """``payload[key]``, a list (a missing key: empty); a damaged one lists a value
    that no check passes."""
    value = payload.get(key, [])
    return value if isinstance(value, list) else [None]
