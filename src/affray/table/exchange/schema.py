"""The open format's schema: the documents of an export as pydantic models (the JSON
Schema docs/schema/affray-export.schema.json is made from them), its version and its
limits."""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter

from affray.errors import SheetError
from affray.table.commands import COMMANDS

FORMAT = "affray"
VERSION = 2
"""The format's version: a reader refuses a document of a version it does not know (2:
each face of a change says who gave it; a document of version 1 reads as before)."""
READS = (1, 2)
"""The versions this affray reads."""
DOCS = "docs/exchange.md"
SCHEMA = "docs/schema/affray-export.schema.json"
MAX_CHARACTERS = 64 * 1024 * 1024
MAX_CHANGES = 100_000
NOT_IN_STATE = ("table", "name", "system", "pending")
"""Keys of ``table show --json`` a table document's ``state`` leaves out: the first
three are its ``table`` header's, and a command waiting for a die is not exported."""


class ExchangeError(SheetError):
    """An export document that cannot be imported: not JSON, not affray's, of another
    version or kind, against the format, or a log that does not replay to what the
    document says."""


# -- the format, as models (validation at the edge, and the JSON Schema) ----------------


class Model(BaseModel):
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
if TYPE_CHECKING:
    CommandVerb = str
else:  # the verbs of the table's commands, spelled there alone (table/commands.py)
    CommandVerb = Literal[tuple(COMMANDS)]


class TableHeader(Model):
    """The table: its id and name, its rule system and its rules (the options it was
    made with, as `table new --option` or an encounter file gives them)."""

    id: Id
    name: Name
    system: str
    options: dict[str, Any]
    created: Stamp
    archived: bool = False


def _placed(entry: list[int | str]) -> list[int | str]:
    """A face affray rolled: ``[place, die]``, a place from 0 and a die's words."""
    at, die = entry
    if not isinstance(at, int) or isinstance(at, bool) or at < 0 or not isinstance(die, str):
        raise ValueError("should be [place, die]: a whole number from 0, then text")
    return entry


class Face(Model):
    """One face a change used: its number, its die, and who gave it."""

    face: int
    die: str = Field(default="", description="What it was rolled for (d20 for Knight's attack).")
    by: Literal["gm", "player", "affray"] = Field(
        description="Who gave it: typed on the game master's side, typed on a player's "
        "link, or rolled by affray."
    )
    for_: Literal["gm", "player"] | None = Field(
        default=None, alias="for", description="Affray's: who asked it to roll."
    )
    did: str = Field(
        default="",
        description="What it did, as the log tells it (Knight attacks Ogre: d20 15 + 3 = 18 "
        "vs evasion 13, hits); empty in an older log.",
    )


def _a_face(value: Any) -> Any:
    """A logged face: ``{"face", "die", "by", "for"}``, or a whole number (format 1)."""
    if isinstance(value, dict) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise ValueError('should be {"face": N, "die": ..., "by": ...} (or, as format 1 wrote it, N)')


LoggedFace = Annotated[Face | int, BeforeValidator(_a_face)]


class CommandPayload(Model):
    """What a command's change keeps: the command, every die face it used (typed in
    or rolled) and every answer, in order; with them the change replays exactly."""

    command: dict[str, Any] = Field(
        description='The command: {"verb": ..., and its fields} (docs/exchange.md).'
    )
    faces: list[LoggedFace] = Field(
        default=[],
        description="Every face, in order, with who gave it (a plain number: format 1, "
        "or a log older than the marks; then rolled says which affray rolled).",
    )
    answers: list[Answer] = []
    era: int = Field(
        default=1,
        ge=1,
        description="How the table played it (4: the Midian rules of fidelity round 4; 3: "
        "of round 3; 2: the one turn cursor; absent: 1).",
    )
    events: list[dict[str, Any]] = Field(
        default=[], description="What happened, as the rules' events (for readers)."
    )
    lines: list[str] = Field(default=[], description="What happened, narrated (for readers).")
    rolled: list[
        Annotated[list[int | str], Field(min_length=2, max_length=2), AfterValidator(_placed)]
    ] = Field(
        default=[],
        description="The faces affray rolled, not the table: each one's place among faces "
        "(from 0) and its die (for readers; absent before affray said it).",
    )


class MovePayload(Model):
    """An undo's or a redo's change: how many steps it moved."""

    steps: Number
    versions: list[int] = Field(default=[], description="The changes it moved (for readers).")
    commands: list[dict[str, Any]] = Field(default=[], description="Their commands (for readers).")


class CommandChange(Model):
    """A change that played a command."""

    version: Number
    verb: CommandVerb
    at: Stamp
    payload: CommandPayload


class MoveChange(Model):
    """A change that undid or redid earlier changes."""

    version: Number
    verb: Literal["undo", "redo"]
    at: Stamp
    payload: MovePayload


TableChange = Annotated[CommandChange | MoveChange, Field(discriminator="verb")]


class KeptCondition(Model):
    text: str
    until: str
    public: bool


class Engagement(Model):
    with_: str = Field(alias="with")
    distance: str | None


class ShownCombatant(Model):
    """A combatant as `table show --json` shows it."""

    id: str
    key: str | None = Field(
        default=None,
        description="Its key: who it is for good, whatever it is called (absent in older "
        "files). The log's commands name combatants by it.",
    )
    side: str
    condition: str
    state: dict[str, Any] = Field(description="The system's snapshot (MST-2: wounds; ...).")
    conditions: list[KeptCondition]
    source: str
    player: bool
    hidden: bool
    engaged: list[Engagement]
    notes: list[str] | None = Field(
        default=None, description="The game master's notes on it (absent in older files)."
    )
    effects: list[str] | None = Field(
        default=None,
        description="What lasts on it beside its figures, in words (Midian: on fire, "
        "winded); absent in older files.",
    )


class StripTurn(Model):
    """One turn of the round, and where it stands."""

    id: str
    at: Literal["done", "current", "to come", "out"]
    out: bool = Field(description="Whether its combatant is out of the fight now.")


class TableShown(Model):
    """The table's state, as `table show --json` prints it (less `table`, `name`,
    `system` and `pending`): for readers; an import checks it against its log."""

    round: int
    turn: str | None
    version: int
    phase: str
    queue: list[str]
    order: list[str]
    strip: list[StripTurn] | None = Field(
        default=None,
        description="The round's turns, each with where it stands (absent in older files).",
    )
    winner: str | None
    combatants: list[ShownCombatant]
    notes: list[str]
    can_undo: int
    can_redo: int
    allowed: dict[str, bool] | None = Field(
        default=None,
        description="What the players may: players_choose, players_odds (absent in files "
        "of an affray before them).",
    )


class TableDocument(Model):
    """A table: its rules and its whole log (which an import replays), the sheets of
    its combatants and its state."""

    format: Literal["affray"]
    version: Literal[1, 2]
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


class PartyHeader(Model):
    """The party: its id and name, its rule system."""

    id: Id
    name: Name
    system: str
    created: Stamp


class PartyMember(Model):
    """A member as it joins: its name, where its sheet came from, the sheet's data."""

    id: Name
    source: str
    sheet: Sheet
    values: Values


class AddPayload(Model):
    member: PartyMember


class RestPayload(Model):
    """Days of rest: each member's carried values after them."""

    days: Number
    options: dict[str, Any]
    values: dict[str, Values]
    lines: list[str] = []


class EndPayload(Model):
    """A table's end: its party members' values written back."""

    table: Id
    table_version: int
    values: dict[str, Values]
    lines: list[str] = []


class UndoPayload(Model):
    """A party's undo: the change it took back."""

    version: int
    verb: str


class PartyAdd(Model):
    version: Number
    verb: Literal["add"]
    at: Stamp
    payload: AddPayload


class PartyRest(Model):
    version: Number
    verb: Literal["rest"]
    at: Stamp
    payload: RestPayload


class PartyEnd(Model):
    version: Number
    verb: Literal["end"]
    at: Stamp
    payload: EndPayload


class PartyUndo(Model):
    version: Number
    verb: Literal["undo"]
    at: Stamp
    payload: UndoPayload


PartyChange = Annotated[PartyAdd | PartyRest | PartyEnd | PartyUndo, Field(discriminator="verb")]


class MemberShown(Model):
    """A member as it is now: its sheet, its carried values and its whole state."""

    id: str
    source: str
    sheet: Sheet
    values: Values
    state: dict[str, Any] = Field(description="All it carries (as `party show --json`).")


class Written(Model):
    table: str
    version: int


class PartyShown(Model):
    """The party now (for readers; an import checks it against its log)."""

    version: int
    members: list[MemberShown]
    written: list[Written] = Field(description="The tables (and versions) written back.")


class PartyDocument(Model):
    """A party: its whole log (which an import replays) and its members now."""

    format: Literal["affray"]
    version: Literal[1, 2]
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


def plain(value: Mapping[str, Any]) -> dict[str, Any]:
    """``value`` as JSON reads it back (tuples as lists, and so on)."""
    plain: dict[str, Any] = json.loads(json.dumps(value))
    return plain


def affray_version() -> str:
    try:
        return package_version("affray")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        return "unknown"
