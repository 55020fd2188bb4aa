"""The journal: every change of a table's log, for people (text, Markdown a game
master pastes into a campaign journal) or programs (JSON). Undone changes stay in
it, marked as undone."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from affray.table.commands import ROLLING, command_from_data
from affray.table.fold import REDO, UNDO, Fold
from affray.table.given import AFFRAY, faces_data, faces_from_data
from affray.table.store import ChangeRow, TableRow
from affray.table.view import describe


def entries(changes: Sequence[ChangeRow], fold: Fold) -> list[dict[str, Any]]:
    """One entry per change: ``{"version", "verb", "what", "lines", "in_effect", "at",
    "faces", "answers", "rolled"}`` (``faces``: every face, ``{"face", "die", "by"}``
    each, and ``"for"`` for affray's: :mod:`~affray.table.given`; ``answers``: ``{"who",
    "topic", "label"}`` each; ``rolled``: the faces affray rolled, ``{"at", "face",
    "die", "by", "for"}`` each)."""
    effective = {applied.version for applied in fold.done}
    called = fold.called()
    befores = fold.befores()
    result = []
    for change in changes:
        payload = change.payload
        if change.verb in (UNDO, REDO):
            versions = ", ".join(str(v) for v in payload.get("versions", ()))
            steps = int(payload["steps"])
            what = f"{change.verb} {steps} {'step' if steps == 1 else 'steps'} ({versions})"
            lines: list[str] = []
            in_effect = True
            faces: list[dict[str, Any]] = []
            answers: list[dict[str, str]] = []
            rolled: list[dict[str, Any]] = []
        else:
            command = command_from_data(payload["command"])
            then = befores.get(change.version)  # as it was called then, if in effect
            what = describe(command, {**called, **(then.keys_named() if then else {})})
            lines = list(payload.get("lines", ()))
            in_effect = change.version in effective
            numbers, given = faces_from_data(payload.get("faces", ()), payload.get("rolled", ()))
            faces = faces_data(numbers, given)
            answers = [
                {"who": who, "topic": topic, "label": label}
                for who, topic, label in payload.get("answers", ())
            ]
            rolled = [{"at": at, **face} for at, face in enumerate(faces) if face["by"] == AFFRAY]
        result.append(
            {
                "version": change.version,
                "verb": change.verb,
                "what": what,
                "lines": lines,
                "in_effect": in_effect,
                "at": change.created,
                "faces": faces,
                "answers": answers,
                "rolled": rolled,
            }
        )
    return result


def rolled_line(item: dict[str, Any]) -> str | None:
    """``affray rolled: 7 (the d10 for Spearman's shock)``: the faces no one at the table
    rolled, or None."""
    if not item.get("rolled"):
        return None
    return "affray rolled: " + "; ".join(f"{r['face']} (the {r['die']})" for r in item["rolled"])


def text(table: TableRow, items: Sequence[dict[str, Any]]) -> str:
    out = [f"{table.name} ({table.system}), {len(items)} changes"]
    for item in items:
        mark = "" if item["in_effect"] else "  [undone]"
        out.append(f"{item['version']:>4}  {item['what']}{mark}")
        out.extend(f"        {line}" for line in item["lines"])
        rolled = rolled_line(item)
        if rolled:
            out.append(f"        ({rolled})")
    return "\n".join(out)


def markdown(table: TableRow, items: Sequence[dict[str, Any]]) -> str:
    """The fight as a game master's journal: what happened, in order; undone changes
    and the undos themselves are left out (the JSON and text logs keep them)."""
    out = [f"## {_md(table.name)}", "", f"*{table.system}*, {_day(items)}", ""]
    for item in items:
        if not item["in_effect"] or item["verb"] in (UNDO, REDO):
            continue
        lines = item["lines"] or [item["what"]]
        for line in lines:
            heading = _ROUND.match(line) if item["verb"] in ROLLING else None
            if heading:
                out.extend(["", f"### {heading['round']}", ""])
                if heading["order"]:
                    out.extend([f"*Order:* {_md(heading['order'])}", ""])
            else:
                out.append(f"- {_md(line.strip())}")
        rolled = rolled_line(item)
        if rolled:
            out.append(f"  *{_md(rolled)}*")
    return "\n".join(out).rstrip() + "\n"


_ROUND = re.compile(r"— (?P<round>Round \d+) —(?: order: (?P<order>.*))?$")


def _md(text: str) -> str:
    """Text with the characters that would turn into Markdown formatting escaped, and
    with what would start a block (a heading, a quote, a list) escaped where it begins
    (a name like ``# Boss`` or ``1. x`` stays in its line). Line breaks are never in
    it: the table refuses them, and repairs those of older logs to ``\\n``."""
    escaped = "".join("\\" + ch if ch in "\\`*_[]<|~" else ch for ch in text)
    block = _BLOCK.match(escaped)
    return (
        escaped if block is None else escaped[: block.end() - 1] + "\\" + escaped[block.end() - 1 :]
    )


_BLOCK = re.compile(r"\s*(?:[-+=#>]|\d{1,9}[.)])")
"""What starts a Markdown block (a list, a heading, a quote) at the start of a line."""


def _day(items: Sequence[dict[str, Any]]) -> str:
    return str(items[0]["at"])[:10] if items else "no changes yet"
