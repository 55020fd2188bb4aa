"""Validation plumbing: pydantic models at the edge, errors in the words of the sheet.

Every problem names where it is as the file says it (``key 'skill'``, ``side 1
("Bandits"), member 2, key 'count'``), what is wrong in plain words ("should be a
whole number"), and the value as the file writes it (``true``, ``"x"``,
``{"count": true}``), never pydantic's own phrases, its union branches or Python
reprs. The error's tip fits the kinds of problem found and points to the docs.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping, Sequence, Sized
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    ClassVar,
    Literal,
    TypeVar,
    Union,
    get_args,
    get_origin,
)

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
)

from affray.errors import AffrayError, SheetError
from affray.quoting import as_written, quoted, unprintable

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

MAX_LISTED = 12
"""Problems listed in one error; the rest are counted."""


def plain_name(value: str) -> str:
    """A name is text: no control characters (no colours, no line breaks), not blank;
    spaces around it are dropped."""
    if any(unprintable(char) for char in value):
        raise ValueError("contains a control character or a line break; names are plain text")
    stripped = " ".join(value.split())
    if not stripped:
        raise ValueError("is blank; give a name")
    return stripped


Name60 = Annotated[str, Field(min_length=1, max_length=60), AfterValidator(plain_name)]
Name80 = Annotated[str, Field(min_length=1, max_length=80), AfterValidator(plain_name)]


class Strict(BaseModel):
    """A table of a sheet or encounter file: unknown keys and loose types refused.

    ``DOCS`` is the page that lists its keys (the tip of its errors points there);
    ``PLACE`` names one entry of a list of such tables in errors (``side``,
    ``member``), instead of the list's key and an index."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    DOCS: ClassVar[str] = "docs/sheets.md"
    PLACE: ClassVar[str | None] = None


class EncounterSection(Strict):
    """A section (a TOML table) of an encounter file: its errors point to
    docs/encounters.md."""

    DOCS: ClassVar[str] = "docs/encounters.md"


def by_type(value: Any) -> str | None:
    if isinstance(value, str):
        return "name"
    if isinstance(value, Mapping):
        return "table"
    return None


def name_or_table(model: type[BaseModel], what: str) -> Any:
    """A catalog name or an inline table: one key, one problem when it is neither."""
    return Annotated[
        Annotated[str, Tag("name"), Field(min_length=1, max_length=60)]
        | Annotated[model, Tag("table")],
        text_or_table(f"should be a catalog {what} name or an inline table"),
    ]


def text_or_table(message: str) -> Discriminator:
    """The discriminator of a union of text (tag ``name``) and a table (tag
    ``table``), told apart by the value's type: a value that is neither is one
    problem (``message``), and a table's problems are its own."""
    return Discriminator(by_type, custom_error_type="name_or_table", custom_error_message=message)


def validate(model: type[M], data: Mapping[str, Any], where: str | None, *, at: str = "") -> M:
    """Validate ``data`` against ``model``; every problem is reported where it is in
    the file (after ``at``, the place of ``data`` inside a larger file, such as
    ``side 2 ("Wolves")``).

    Raises:
        SheetError: one problem, or a list of them, with a tip.
    """
    try:
        return model.model_validate(data)
    except ValidationError as error:
        problems = [_problem(detail, model, data, at) for detail in error.errors()]
        raise _sheet_error(problems, where, getattr(model, "DOCS", Strict.DOCS)) from None


@dataclass(frozen=True, slots=True)
class _Problem:
    at: str
    key: str | None
    message: str
    hint: str | None
    unknown: bool = False
    """The key is not one its table takes."""


def _sheet_error(problems: list[_Problem], where: str | None, docs: str) -> SheetError:
    hints = list(dict.fromkeys(p.hint for p in problems if p.hint))
    tip = "; ".join([*hints[:2], f"{docs} lists every key and what it takes"])
    if len(problems) == 1:
        (problem,) = problems
        return SheetError(
            problem.message,
            path=where,
            key=problem.key,
            at=problem.at,
            hint=tip,
            unknown=problem.unknown,
        )
    lines = [f"  {p.at}: {p.message}" for p in problems[:MAX_LISTED]]
    if len(problems) > MAX_LISTED:
        lines.append(f"  … and {len(problems) - MAX_LISTED} more")
    return SheetError(f"{len(problems)} problems:\n" + "\n".join(lines), path=where, hint=tip)


# --- where: a pydantic location in the words of the file --------------------------------


@dataclass(frozen=True, slots=True)
class _Place:
    at: str
    """The whole phrase: ``side 1 ("A"), member 1, key 'count'``."""
    key: str | None
    """The dotted key within its table (the list's key for an entry of a list)."""
    expected: Any
    """The type the value should have there (``Any`` where unknown)."""
    table: type[BaseModel] | None
    """The table (model) that owns the key."""


def _locate(model: type[BaseModel], loc: Sequence[int | str], data: Any, at: str) -> _Place:
    """Walk ``loc`` through the model and the data together: union branch tags are
    dropped, list entries counted from 1, entries of named lists said by their name."""
    places = [at] if at else []
    keys: list[str] = []
    expected: Any = model
    value: Any = data
    table: type[BaseModel] | None = model
    key: str | None = None
    for part in loc:
        kind = _bare(expected)
        if _is_union(kind):  # pydantic names the branch it tried: not a key
            expected = _branch(kind, part)
            continue
        if isinstance(part, int):
            item = (get_args(kind) or (Any,))[0]
            value = value[part] if isinstance(value, list) and 0 <= part < len(value) else None
            word = _place_word(item)
            if word and len(keys) <= 1:
                name = value.get("name") if isinstance(value, Mapping) else None
                shown = f" ({as_written(name)})" if _showable_name(name) else ""
                places.append(f"{word} {part + 1}{shown}")
                key = None
            else:
                places.append(f"key '{'.'.join(keys)}', entry {part + 1}")
                key = ".".join(keys)
            keys = []
            expected = item
            continue
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            table = kind
            field = kind.model_fields.get(part)
            expected = field.annotation if field is not None else Any
        elif get_origin(kind) in (dict, Mapping):
            expected = get_args(kind)[1]
        else:
            expected = Any
        value = value.get(part) if isinstance(value, Mapping) else None
        keys.append(part)
        key = ".".join(keys)
    if keys:
        places.append(f"key '{'.'.join(keys)}'")
    return _Place(", ".join(places) or "the top level", key, expected, table)


def _place_word(item: Any) -> str | None:
    """What one entry of a list of ``item`` is called (``side``), if it has a name."""
    kind = _bare(item)
    arms = [_bare(arm) for arm in get_args(kind)] if _is_union(kind) else [kind]
    words = [getattr(arm, "PLACE", None) for arm in arms if isinstance(arm, type)]
    return next((word for word in words if word), None)


def _bare(annotation: Any) -> Any:
    """The type under ``Annotated`` and ``Optional`` (pydantic adds no tag for None)."""
    while True:
        if get_origin(annotation) is Annotated:
            annotation = get_args(annotation)[0]
            continue
        if _is_union(annotation):
            arms = [a for a in get_args(annotation) if a is not type(None)]
            if len(arms) == 1:
                annotation = arms[0]
                continue
        return annotation


def _is_union(annotation: Any) -> bool:
    return get_origin(annotation) in (Union, types.UnionType)


def _branch(union: Any, tag: int | str) -> Any:
    """The arm of a union that pydantic's location tag names (a ``Tag``, or the
    arm's type name for a union without a discriminator)."""
    for arm in get_args(union):
        if get_origin(arm) is Annotated and any(
            isinstance(meta, Tag) and meta.tag == tag for meta in get_args(arm)[1:]
        ):
            return arm
        if getattr(_bare(arm), "__name__", None) == tag:
            return arm
    return Any


def _showable_name(name: object) -> bool:
    if not isinstance(name, str) or len(name) > 80:
        return False
    try:
        plain_name(name)
    except ValueError:
        return False
    return True


# --- what: pydantic's error types in plain words ---------------------------------------

WHOLE_NUMBER = 'write whole numbers without quotes or a decimal point: 3, not "3" or 3.0'
TEXT = 'put text in double quotes: "Guard"'
TRUE_FALSE = "write true or false, without quotes"
TABLE = 'a table is { key = value, ... } in TOML, {"key": value, ...} in JSON'
LIST = 'a list is written in square brackets, e.g. ["a", "b"]'

_PLAIN: dict[str, tuple[str, str | None]] = {
    "int_type": ("should be a whole number", WHOLE_NUMBER),
    "int_parsing": ("should be a whole number", WHOLE_NUMBER),
    "int_from_float": ("should be a whole number", WHOLE_NUMBER),
    "int_parsing_size": ("is far too large a number", None),
    "string_type": ("should be text in quotes", TEXT),
    "string_unicode": ("should be text", TEXT),
    "bool_type": ("should be true or false", TRUE_FALSE),
    "bool_parsing": ("should be true or false", TRUE_FALSE),
    "float_type": ("should be a number", None),
    "float_parsing": ("should be a number", None),
    "finite_number": ("should be a finite number", None),
    "list_type": ("should be a list", LIST),
    "tuple_type": ("should be a list", LIST),
    "set_type": ("should be a list", LIST),
    "dict_type": ("should be a table", TABLE),
    "model_type": ("should be a table", TABLE),
    "model_attributes_type": ("should be a table", TABLE),
    "dataclass_type": ("should be a table", TABLE),
    "none_required": ("should be left out", None),
}


def did_you_mean(typed: str, known: Sequence[str]) -> str:
    """`` (did you mean 'skill'?)`` for a name close to one of ``known`` (``skil``,
    ``armour`` for ``armor``), else nothing."""
    import difflib

    near = difflib.get_close_matches(typed.lower(), [k.lower() for k in known], n=1, cutoff=0.7)
    if not near:
        return ""
    match = next(k for k in known if k.lower() == near[0])
    return f" (did you mean {quoted(match)}?)"


def _problem(detail: ErrorDetails, model: type[BaseModel], data: Any, at: str) -> _Problem:
    place = _locate(model, detail["loc"], data, at)
    message, hint = _message(detail, place)
    return _Problem(place.at, place.key, message, hint, detail["type"] == "extra_forbidden")


def _message(detail: ErrorDetails, place: _Place) -> tuple[str, str | None]:
    """Plain words for one pydantic error, and the tip for its kind."""
    kind = detail["type"]
    ctx: Mapping[str, Any] = detail.get("ctx") or {}
    value = detail.get("input")
    got = f" (got {as_written(value)})"
    if kind == "missing":
        return "is required", None
    if kind == "extra_forbidden":
        keys = list(place.table.model_fields) if place.table is not None else []
        allowed = ", ".join(keys) or "none"
        typed = str(detail["loc"][-1]) if detail["loc"] else ""
        near = did_you_mean(typed, keys)
        return f"unknown key{near}; allowed keys are: {allowed}", "check the key's spelling"
    if kind in _PLAIN:
        words, hint = _PLAIN[kind]
        return words + got, hint
    if kind in ("too_short", "too_long"):
        count = ctx.get("actual_length")
        if count is None and isinstance(value, Sized):
            count = len(value)
        limit = ctx.get("min_length" if kind == "too_short" else "max_length", 0)
        words = "needs at least" if kind == "too_short" else "takes at most"
        return f"{words} {_entries(limit)} (got {count if count is not None else 'more'})", None
    bounds = {
        "greater_than_equal": ("should be at least", "ge"),
        "greater_than": ("should be more than", "gt"),
        "less_than_equal": ("should be at most", "le"),
        "less_than": ("should be less than", "lt"),
    }
    if kind in bounds:
        words, name = bounds[kind]
        return f"{words} {as_written(ctx.get(name))}{got}", None
    if kind == "string_too_short":
        least = int(ctx.get("min_length", 1))
        if least <= 1:
            return "should not be empty", None
        return f"should be at least {least} characters long{got}", None
    if kind == "string_too_long":
        length = f" (got {len(value):,})" if isinstance(value, str) else ""
        return f"should be at most {ctx.get('max_length')} characters long{length}", None
    if kind in ("literal_error", "enum"):
        return f"should be {_alternatives(place.expected, ctx)}{got}", None
    if kind in ("value_error", "assertion_error"):
        reason = str(ctx.get("error", "")) or detail["msg"]
        return reason.removeprefix("Value error, ").removeprefix("Assertion failed, ") + got, None
    if kind == "name_or_table":
        return detail["msg"] + got, TABLE
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        return "is none of the forms this key takes" + got, None
    return "is not a value this key takes" + got, None  # a kind our models do not produce


def _entries(count: int) -> str:
    return f"{count:,} {'entry' if count == 1 else 'entries'}"


def _alternatives(expected: Any, ctx: Mapping[str, Any]) -> str:
    """``"close", "mid" or "far"``: the values a literal or an enum allows."""
    kind = _bare(expected)
    values: list[Any] = []
    if get_origin(kind) is Literal:
        values = list(get_args(kind))
    elif isinstance(kind, type) and hasattr(kind, "__members__"):
        values = [member.value for member in kind.__members__.values()]
    if not values:
        return "one of " + str(ctx.get("expected", "the values the docs list"))
    shown = [as_written(v) for v in values]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


class Problems:
    """Every problem of a sheet's checks at once (a file's schema problems are all
    reported by :func:`validate`; a system's own checks, catalog look-ups and rules,
    gather theirs here): ``weapon = "swrod"``, ``armor = "lether"`` and ``role =
    "fightr"`` in one run, not three."""

    def __init__(self, where: str | None) -> None:
        self.where = where
        self.found: list[SheetError] = []

    def blame(self, key: str, build: Callable[[], T]) -> T | None:
        """``build()``, or None with its problem kept (blamed on ``key`` when it names
        none of its own)."""
        try:
            return build()
        except SheetError as error:
            self.found.append(error if error.at else _keyed(error, key, self.where))
        except AffrayError as error:
            self.found.append(SheetError(error.message, path=self.where, key=key, hint=error.hint))
        return None

    def add(self, error: SheetError) -> None:
        self.found.append(error)

    def check(self) -> None:
        """Raise the problems kept: one as it is, several as a list.

        Raises:
            SheetError: there is at least one.
        """
        if not self.found:
            return
        if len(self.found) == 1:
            raise self.found[0]
        lines = [f"  {_where_in(e)}: {e.detail}" for e in self.found[:MAX_LISTED]]
        if len(self.found) > MAX_LISTED:
            lines.append(f"  … and {len(self.found) - MAX_LISTED} more")
        hints = list(dict.fromkeys(e.hint for e in self.found if e.hint))
        raise SheetError(
            f"{len(self.found)} problems:\n" + "\n".join(lines),
            path=self.where,
            hint="; ".join(hints[:3]) or None,
        )


def _keyed(error: SheetError, key: str, where: str | None) -> SheetError:
    return SheetError(error.detail, path=where, key=key, hint=error.hint)


def _where_in(error: SheetError) -> str:
    if error.at:
        return error.at
    return f"key {error.key!r}" if error.key else "the sheet"


def blame(where: str | None, key: str, build: Callable[[], T]) -> T:
    """Run a catalog look-up or rules check, blaming ``key`` if it fails."""
    try:
        return build()
    except AffrayError as error:
        raise SheetError(error.message, path=where, key=key, hint=error.hint) from None
