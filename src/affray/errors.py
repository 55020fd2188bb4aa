"""The library's one error tree.

Every error a user can cause (a bad dice expression, a bad sheet, an illegal
rules situation) is an :class:`AffrayError`. Each carries a message saying what
is wrong and, where one exists, a ``hint`` saying how to fix it; the CLI prints
both and exits with code 2.
"""

from __future__ import annotations


class AffrayError(Exception):
    """Base of every error affray raises on purpose.

    Args:
        message: what is wrong, in one sentence.
        hint: how to fix it, or ``None``.
    """

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        if self.hint:
            return f"{self.message}\nTip: {self.hint}"
        return self.message


class DiceError(AffrayError, ValueError):
    """A dice expression or a dice source cannot be used."""


class DiceSyntaxError(DiceError):
    """The text is not a dice expression.

    Attributes:
        expression: the text that was parsed.
        position: 0-based offset of the offending character.
    """

    def __init__(
        self, message: str, *, expression: str, position: int, hint: str | None = None
    ) -> None:
        super().__init__(message, hint=hint)
        self.expression = expression
        self.position = position

    def __str__(self) -> str:
        shown = self.expression if len(self.expression) <= 80 else self.expression[:77] + "..."
        caret = " " * min(self.position, 80) + "^"
        text = f"{self.message} (at column {self.position + 1})\n  {shown}\n  {caret}"
        if self.hint:
            text += f"\nTip: {self.hint}"
        return text


class DiceLimitError(DiceError):
    """The expression is well formed but exceeds a safety limit."""


class ScriptedDiceError(DiceError):
    """A scripted (typed-in) die face is missing or impossible."""


class SheetError(AffrayError, ValueError):
    """A sheet or encounter file is unreadable or invalid.

    Attributes:
        path: the file, or ``None`` for in-memory data.
        key: dotted path of the offending key within its table, or ``None``.
        at: where the problem is, in the words of the file (``side 1 ("Bandits"),
            member 2, key 'count'``); ``None`` says ``key 'KEY'``.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        key: str | None = None,
        hint: str | None = None,
        at: str | None = None,
    ) -> None:
        place = at if at else (f"key '{key}'" if key else None)
        where = ": ".join(part for part in (path, place) if part)
        super().__init__(f"{where}: {message}" if where else message, hint=hint)
        self.path = path
        self.key = key
        self.at = place


class RulesError(AffrayError, ValueError):
    """The rules do not allow what was asked (two-handed grip with a shield, ...)."""


__all__ = [
    "AffrayError",
    "DiceError",
    "DiceLimitError",
    "DiceSyntaxError",
    "RulesError",
    "ScriptedDiceError",
    "SheetError",
]
