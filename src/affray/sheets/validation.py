"""Validation plumbing: pydantic models at the edge, errors that name the file,
the key, the bad value and what is allowed."""

from __future__ import annotations

import reprlib
import unicodedata
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

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

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)
short = reprlib.Repr()
short.maxstring = 40
short.maxother = 40
short.maxlevel = 2


def plain_name(value: str) -> str:
    """A name is text: no control characters (no colours, no line breaks), not blank;
    spaces around it are dropped."""
    if any(unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") for char in value):
        raise ValueError("contains a control character or a line break; names are plain text")
    stripped = " ".join(value.split())
    if not stripped:
        raise ValueError("is blank; give a name")
    return stripped


Name60 = Annotated[str, Field(min_length=1, max_length=60), AfterValidator(plain_name)]
Name80 = Annotated[str, Field(min_length=1, max_length=80), AfterValidator(plain_name)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def by_type(value: Any) -> str | None:
    if isinstance(value, str):
        return "name"
    if isinstance(value, Mapping):
        return "table"
    return None


def name_or_table(model: type[BaseModel], what: str) -> Any:
    return Annotated[
        Annotated[str, Tag("name"), Field(min_length=1, max_length=60)]
        | Annotated[model, Tag("table")],
        Discriminator(
            by_type,
            custom_error_type="name_or_table",
            custom_error_message=f"must be a catalog {what} name or an inline table",
        ),
    ]


def validate(model: type[M], data: Mapping[str, Any], where: str | None, *, prefix: str = "") -> M:
    """Validate ``data`` against ``model``; every problem is reported with its key
    (after ``prefix``, for data that sits inside a larger file)."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        problems = [_describe(detail, model) for detail in error.errors()]
        if prefix:
            problems = [(f"{prefix}.{key}", message) for key, message in problems]
        raise _sheet_error(problems, where) from None


def _sheet_error(problems: list[tuple[str, str]], where: str | None) -> SheetError:
    if len(problems) == 1:
        key, message = problems[0]
        return SheetError(message, path=where, key=key)
    lines = "\n".join(f"  key '{key}': {message}" for key, message in problems)
    return SheetError(f"{len(problems)} problems:\n{lines}", path=where)


def _describe(detail: ErrorDetails, model: type[Any]) -> tuple[str, str]:
    loc = [str(part) for part in detail["loc"]]
    if len(loc) >= 2 and loc[0] in ("weapon", "missile") and loc[1] in ("name", "table"):
        del loc[1]  # the union's branch tag, not a key of the sheet
    key = ".".join(loc) or "(top level)"
    kind = detail["type"]
    got = short.repr(detail.get("input"))
    if kind == "extra_forbidden":
        allowed = _allowed_keys(model, loc[:-1])
        return key, f"unknown key; allowed keys are: {', '.join(allowed)}"
    if kind == "missing":
        return key, "is required"
    message = detail["msg"].replace("Input should", "should").removeprefix("Value error, ")
    return key, f"{message} (got {got})"


def _allowed_keys(model: type[Any], parent: list[str]) -> list[str]:
    nested: dict[str, type[BaseModel]] = getattr(model, "NESTED", {})
    current = nested.get(parent[0], model) if parent else model
    return list(current.model_fields)


def blame(where: str | None, key: str, build: Callable[[], T]) -> T:
    """Run a catalog look-up or rules check, blaming ``key`` if it fails."""
    try:
        return build()
    except AffrayError as error:
        raise SheetError(error.message, path=where, key=key, hint=error.hint) from None
