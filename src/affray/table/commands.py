"""The commands a table takes, as small typed values, and the inputs they used.

A command is what a person asked for (``act Knight attack Ogre``); its
:class:`Inputs` are what answered the rules while it ran (every die face, typed in
or rolled, and every choice). The log keeps both, so the table's state is the
fold of its log and replays without a random number in sight.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar

from pydantic import TypeAdapter, ValidationError

from affray.encounter.questions import Answered
from affray.errors import TableError
from affray.quoting import unprintable
from affray.table.given import Given, faces_data, faces_from_data


class Edge(Enum):
    """Which end of a turn a condition lasts until."""

    START = "start"
    END = "end"


MAX_SHOWN = 40
"""Characters of a refused text shown in its error."""


def unwritable(char: str) -> bool:
    """A code point no encoding can write: a lone surrogate (what a terminal's bytes
    that are not UTF-8 become, or a JSON ``\\udc00`` escape)."""
    return "\ud800" <= char <= "\udfff"


def text(value: str, what: str) -> str:
    """``value``, if it is text a table can keep, show and write anywhere: no code
    point that cannot be encoded (a lone surrogate), no control or format character
    (terminal escapes, bell, carriage return, line breaks, direction overrides).
    Every text a command carries is checked with it when the command is made, so the
    terminal and the web refuse the same texts before anything is written.

    Args:
        value: the text.
        what: what it is, for the error (``"the side's name"``).

    Raises:
        TableError: a character that is refused (named in the error).
    """
    if value.isprintable():  # the common case, at C speed
        return value
    for position, char in enumerate(value):
        if unwritable(char):
            problem = f"a character that cannot be written (U+{ord(char):04X}, a lone surrogate)"
            hint = "type it again as plain text (is the terminal's encoding UTF-8?)"
        elif char in "\n\r\u2028\u2029":
            problem = "a line break"
            hint = f"{what} is one line of plain text" + (
                ": give each line as a note of its own" if what == "a note" else ""
            )
        elif unprintable(char):
            problem = f"a control character (U+{ord(char):04X})"
            hint = f"{what} is plain text: no terminal escapes, bells or direction overrides"
        else:
            continue
        raise TableError(
            f"{what} {_shown(value)} holds {problem} at character {position + 1}", hint=hint
        )
    return value


def _shown(value: str) -> str:
    """A refused text in quotes, shortened, every refused character escaped."""
    if len(value) > MAX_SHOWN:
        value = value[: MAX_SHOWN - 1] + "…"
    body = json.dumps(value, ensure_ascii=False)[1:-1]
    return (
        '"'
        + "".join(f"\\u{ord(c):04x}" if unwritable(c) or unprintable(c) else c for c in body)
        + '"'
    )


def _texts(value: Any, what: str) -> None:
    """:func:`text` for every string in ``value`` (a sheet's data, a set's values),
    keys too."""
    if isinstance(value, str):
        text(value, what)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _texts(key, what)
            _texts(item, what)
    elif isinstance(value, list | tuple):
        for item in value:
            _texts(item, what)


@dataclass(frozen=True, slots=True)
class Add:
    """A combatant joins: its sheet's data (kept whole, so the file may change later)."""

    combatant: str
    side: str
    source: str
    sheet: Mapping[str, Any]
    tactics: str = "nearest"
    player: bool = False
    """A player's character: the player page shows its side in full."""
    tactics_keys: Mapping[str, Any] = field(default_factory=dict)
    """The system's tactics keys, as in an encounter file (MST-2: role, retreat_at)."""
    party: str | None = None
    """The id of the party it came from (``table add TABLE party:PARTY``), if any:
    ``table end`` writes its state back to that party."""
    member: str | None = None
    """Its name in that party."""
    member_key: int | None = None
    """Which member of that party it is for good: the party's version that added the
    member (a later member of the same name has another; None in logs older than it)."""
    key: str | None = None
    """Its key for good (:mod:`affray.table.identity`), given when the change is
    written; None in a log older than keys (the fold then makes one)."""
    hidden: bool = False
    """It joins hidden from the players, in the same change (nothing of it reaches them
    first)."""
    verb: ClassVar[str] = "add"

    def __post_init__(self) -> None:
        text(self.combatant, "the combatant's name")
        text(self.side, "the side's name")
        text(self.source, "the sheet's file or name")
        text(self.tactics, "the tactics")
        _texts(self.sheet, "a text of the sheet")
        _texts(self.tactics_keys, "a tactics key")


@dataclass(frozen=True, slots=True)
class Start:
    """Round 1 begins (initiative, where the system has it); ``name`` is the fight's
    (the table's), for the narration."""

    name: str = ""
    verb: ClassVar[str] = "start"


@dataclass(frozen=True, slots=True)
class Act:
    """``actor`` takes ``action`` (at ``target``) on its turn."""

    actor: str
    action: str
    target: str | None = None
    verb: ClassVar[str] = "act"

    def __post_init__(self) -> None:
        text(self.actor, "the actor")
        text(self.action, "the action")
        if self.target is not None:
            text(self.target, "the target")


@dataclass(frozen=True, slots=True)
class Next:
    """End the current turn without an action, or, between rounds, start the next."""

    verb: ClassVar[str] = "next"


@dataclass(frozen=True, slots=True)
class Run:
    """The combatants' tactics take the next ``turns`` turns, or (``to_end``) every
    turn until the fight ends; round 1 starts first if the fight has not started
    (``name`` is the fight's, as for :class:`Start`)."""

    turns: int = 1
    to_end: bool = False
    name: str = ""
    toward_end: bool = False
    """A run to the end that stopped short (its time was up): these are the ``turns``
    it played, and the journal says so (it replays as those turns)."""
    verb: ClassVar[str] = "run"


@dataclass(frozen=True, slots=True)
class Mark:
    """A condition the game master keeps on a combatant (prone, blessed, on fire),
    ending after ``turns`` starts or ends of ``of``'s turns, or when removed."""

    combatant: str
    text: str
    ends: Edge | None = None
    of: str | None = None
    turns: int = 1
    public: bool = False
    """Whether the players see it on someone not of their side (they always see their
    own side's)."""
    verb: ClassVar[str] = "mark"

    def __post_init__(self) -> None:
        text(self.combatant, "whom the condition is on")
        text(self.text, "the condition")
        if self.of is not None:
            text(self.of, "whose turn ends the condition")


@dataclass(frozen=True, slots=True)
class Unmark:
    """Remove a condition by its text."""

    combatant: str
    text: str
    verb: ClassVar[str] = "unmark"

    def __post_init__(self) -> None:
        text(self.combatant, "whom the condition is on")
        text(self.text, "the condition")


@dataclass(frozen=True, slots=True)
class Note:
    """A line for the journal; ``about`` a combatant, the game master's note on it
    (beside it on the game master's board; the players never see notes)."""

    text: str
    about: str | None = None
    verb: ClassVar[str] = "note"

    def __post_init__(self) -> None:
        text(self.text, "a note")
        if self.about is not None:
            text(self.about, "whom the note is about")


@dataclass(frozen=True, slots=True)
class Set:
    """The game master's fiat: ``who``'s state keys (its snapshot's, and
    ``condition``) set to ``values``, and numbers of it moved by ``adds`` (a quick
    key's +1 or −1: two quick clicks make +2, whatever version each was sent at)."""

    who: str
    values: Mapping[str, Any] = field(default_factory=dict)
    adds: Mapping[str, int] = field(default_factory=dict)
    verb: ClassVar[str] = "set"

    def __post_init__(self) -> None:
        text(self.who, "who is set")
        _texts(self.values, "a value set")
        for key, step in self.adds.items():
            text(key, "a key set")
            if isinstance(step, bool) or not isinstance(step, int) or not -1000 <= step <= 1000:
                raise TableError(
                    f"add {step!r} to {key}?", hint="a whole number from -1000 to 1000, e.g. +1"
                )


@dataclass(frozen=True, slots=True)
class Hazard:
    """The game master brings a hazard of the table's system on ``who`` (a fall, fire:
    its ``hazards``), with ``values`` (its keys: ``feet=30``); its dice are the
    table's, typed in or rolled."""

    who: str
    kind: str
    values: Mapping[str, Any] = field(default_factory=dict)
    verb: ClassVar[str] = "hazard"

    def __post_init__(self) -> None:
        text(self.who, "who suffers the hazard")
        text(self.kind, "the hazard")
        _texts(self.values, "a value of the hazard")


@dataclass(frozen=True, slots=True)
class Remove:
    """``who`` leaves the table (not the fight's doing: no one won or lost it)."""

    who: str
    verb: ClassVar[str] = "remove"

    def __post_init__(self) -> None:
        text(self.who, "the combatant")


@dataclass(frozen=True, slots=True)
class Rename:
    """``who`` is called ``name`` from now on."""

    who: str
    name: str
    verb: ClassVar[str] = "rename"

    def __post_init__(self) -> None:
        text(self.who, "the combatant")
        text(self.name, "the new name")


@dataclass(frozen=True, slots=True)
class Hide:
    """``who`` is hidden from the players (it still fights, for the game master)."""

    who: str
    verb: ClassVar[str] = "hide"

    def __post_init__(self) -> None:
        text(self.who, "the combatant")


@dataclass(frozen=True, slots=True)
class Reveal:
    """``who`` is shown to the players again."""

    who: str
    verb: ClassVar[str] = "reveal"

    def __post_init__(self) -> None:
        text(self.who, "the combatant")


@dataclass(frozen=True, slots=True)
class Move:
    """``who``'s next turn this round comes just before, or just after, ``other``'s."""

    who: str
    before: str | None = None
    after: str | None = None
    verb: ClassVar[str] = "move"

    def __post_init__(self) -> None:
        text(self.who, "the combatant")
        for other in (self.before, self.after):
            if other is not None:
                text(other, "the other combatant")


@dataclass(frozen=True, slots=True)
class Allow:
    """What the game master allows the players from now on: ``players_choose`` (a
    player's own link chooses its combatant's action on its turn) and ``players_odds``
    (their pages show the odds of each action), each on or off. A table starts with
    its options' (off unless they say so)."""

    values: Mapping[str, bool]
    verb: ClassVar[str] = "allow"

    def __post_init__(self) -> None:
        if not self.values:
            raise TableError("allow what?", hint="players_choose=on or off, players_odds=on or off")
        for key, value in self.values.items():
            if key not in ALLOWED:
                raise TableError(
                    f"the players cannot be allowed {key!r}", hint="one of: " + ", ".join(ALLOWED)
                )
            if not isinstance(value, bool):
                raise TableError(f"allow {key}={value!r}?", hint=f"{key}=on or {key}=off")

    @classmethod
    def of(cls, values: Mapping[str, object]) -> Allow:
        """From words as a game master types them (``on``/``off``, ``true``/``false``,
        ``yes``/``no``, ``1``/``0``).

        Raises:
            TableError: a key or a word it does not take.
        """
        told: dict[str, bool] = {}
        for key, value in values.items():
            word = str(value).strip().lower() if not isinstance(value, bool) else value
            if word in (True, "on", "true", "yes", "1"):
                told[key] = True
            elif word in (False, "off", "false", "no", "0"):
                told[key] = False
            else:
                raise TableError(f"allow {key}={value!r}?", hint=f"{key}=on or {key}=off")
        return cls(told)


ALLOWED = ("players_choose", "players_odds")
"""What the game master may allow the players (table options, and the ``allow`` verb)."""


Command = (
    Add
    | Start
    | Act
    | Next
    | Run
    | Mark
    | Unmark
    | Note
    | Set
    | Hazard
    | Remove
    | Rename
    | Hide
    | Reveal
    | Move
    | Allow
)
COMMANDS: Mapping[str, type[Command]] = {
    c.verb: c
    for c in (
        Add,
        Start,
        Act,
        Next,
        Run,
        Mark,
        Unmark,
        Note,
        Set,
        Hazard,
        Remove,
        Rename,
        Hide,
        Reveal,
        Move,
        Allow,
    )
}
ROLLING = frozenset({"start", "act", "next", "run", "hazard"})
"""Verbs whose rules may roll dice and ask questions."""


@dataclass(frozen=True, slots=True)
class Inputs:
    """Everything that answered the rules while a command ran, and how the table
    played then (:data:`affray.table.state.ERA`; 1 for logs older than the mark)."""

    faces: tuple[int, ...] = ()
    answers: tuple[Answered, ...] = field(default=())
    era: int = 4
    """The era a change is played in now: :data:`affray.table.state.ERA` (a test holds
    them equal; this module cannot import it)."""
    given: tuple[Given, ...] = ()
    """Who gave each of ``faces`` and what its die was (:mod:`affray.table.given`)."""

    @property
    def rolled(self) -> tuple[tuple[int, str], ...]:
        """The faces affray rolled, not the table: each one's place among ``faces`` and
        what its die was (``d10 for Spearman's shock``)."""
        return tuple((at, mark.die) for at, mark in enumerate(self.given) if mark.rolled)


LATER_FIELDS = frozenset({"key", "hidden", "adds"})
"""Fields commands gained after their logs were first written: left out of a command's
data while they hold nothing (an add's ``key`` is None only in an older log), so that a
change made without them is written as it always was."""


def command_data(command: Command) -> dict[str, Any]:
    """``{"verb": ..., field: value, ...}``: JSON-ready."""
    data: dict[str, Any] = {"verb": command.verb}
    for f in dataclasses.fields(command):
        value = getattr(command, f.name)
        if f.name in LATER_FIELDS and not value:
            continue
        data[f.name] = value.value if isinstance(value, Enum) else value
    return data


_ADAPTERS: dict[str, TypeAdapter[Any]] = {}


def command_from_data(data: Mapping[str, Any]) -> Command:
    """A command from its data (the log's, or a request's).

    Raises:
        TableError: no such verb, or a field missing or of the wrong kind.
    """
    verb = data.get("verb")
    kind = COMMANDS.get(verb) if isinstance(verb, str) else None
    if kind is None:
        raise TableError(
            f"unknown command {verb!r}", hint="a command is one of: " + ", ".join(COMMANDS)
        )
    adapter = _ADAPTERS.get(kind.verb)
    if adapter is None:
        adapter = _ADAPTERS[kind.verb] = TypeAdapter(kind)
    fields = {k: v for k, v in data.items() if k != "verb"}
    try:
        command: Command = adapter.validate_python(fields)
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"]) or verb
        raise TableError(
            f"command {verb!r}: {where}: {problem['msg']}",
            hint=f"{verb} takes: " + ", ".join(f.name for f in dataclasses.fields(kind)),
        ) from None
    return command


def inputs_data(inputs: Inputs) -> dict[str, Any]:
    return {
        "faces": faces_data(inputs.faces, inputs.given),
        "answers": [[a.who, a.topic, a.label] for a in inputs.answers],
        "era": inputs.era,
    }


def inputs_from_data(data: Mapping[str, Any]) -> Inputs:
    """The inputs of a logged change; one logged before eras were (no ``era``) is of
    era 1."""
    faces: Sequence[Any] = data.get("faces", ())
    answers: Sequence[Sequence[str]] = data.get("answers", ())
    era = int(data.get("era", 1))
    if not faces and not answers:  # most changes (a note, a set): one value, shared
        return _NO_INPUTS.get(era) or _NO_INPUTS.setdefault(era, Inputs((), (), era))
    numbers, given = faces_from_data(faces, data.get("rolled", ()))
    return Inputs(numbers, tuple(Answered(*answer) for answer in answers), era, given)


_NO_INPUTS: dict[int, Inputs] = {}


def parse_pairs(
    pairs: Sequence[str], *, flag: str = "KEY=VALUE", example: str = "wounds=2"
) -> dict[str, Any]:
    """``["wounds=2", "condition=out"]`` → ``{"wounds": 2, "condition": "out"}``: each
    value read as TOML (a number, true/false, a list), or else taken as text.

    Raises:
        TableError: a pair that is not KEY=VALUE.
    """
    import tomllib

    values: dict[str, Any] = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        name = key.strip()
        if not equals or not name:
            raise TableError(f"{flag} {_shown(pair)} is not KEY=VALUE", hint=f"e.g. {example}")
        if name in values:
            raise TableError(
                f"{flag} {_shown(name)} is given twice",
                hint=f"give each key once, e.g. {example}",
            )
        if len(value) > MAX_VALUE_CHARS:  # bounded before any conversion
            raise TableError(
                f"{flag} {_shown(name)}: its value is {len(value):,} characters long",
                hint=f"a value is a number, a word or a short list (at most {MAX_VALUE_CHARS} "
                f"characters), e.g. {example}",
            )
        try:
            found = tomllib.loads(f"v = {value}")["v"]
        except tomllib.TOMLDecodeError:
            found = value.strip()
        except (RecursionError, ValueError):  # [[[[…, or digits past Python's limit
            raise TableError(
                f"{flag} {_shown(name)}: its value cannot be read",
                hint=f"give a number, a word, or a short list, e.g. {example}",
            ) from None
        if not _bounded(found):
            raise TableError(
                f"{flag} {_shown(name)}: {_shown(value.strip())} is not a number the table can use",
                hint=f"numbers are finite and at most {MAX_NUMBER:,} either way, e.g. {example}",
            )
        values[name] = found
    return values


MAX_VALUE_CHARS = 200
"""The longest value of a KEY=VALUE pair (a number, a word, a short list)."""

MAX_NUMBER = 10**9
"""The largest number, either way, a KEY=VALUE pair may give (wounds, feet, a bonus:
none means anything near it)."""


def _bounded(value: Any) -> bool:
    """Whether every number in ``value`` (a list's too) is finite and within
    :data:`MAX_NUMBER`."""
    if isinstance(value, bool | str):
        return True
    if isinstance(value, int | float):
        return math.isfinite(value) and abs(value) <= MAX_NUMBER
    if isinstance(value, list):
        return all(_bounded(item) for item in value)
    if isinstance(value, dict):
        return all(_bounded(item) for item in value.values())
    return True
