"""The library's one error tree.

Every error a user can cause (a bad dice expression, a bad sheet, an illegal
rules situation) is an :class:`AffrayError`. Each carries a message saying what
is wrong and, where one exists, a ``hint`` saying how to fix it; the CLI prints
both and exits with code 2.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


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


class UnreachableCountError(DiceSyntaxError):
    """A success count no face can reach (``3d6>10``: each d6 above 10); the total
    compared is written with brackets (``(3d6)>10``)."""


class DiceLimitError(DiceError):
    """The expression is well formed but exceeds a safety limit."""


class ScriptedDiceError(DiceError):
    """A scripted (typed-in) die face is missing or impossible."""


class InputNeededError(AffrayError):
    """A command stopped for a die or an answer a person must give.

    Attributes:
        rolls: every face the command used before it stopped, typed or rolled: given
            again with the missing input, they repeat those dice exactly.
        answered: the answers given before it stopped (``Answered`` values), in order.
        question: the id of the question, once a table keeps the command waiting on
            it (an answer names it).
    """

    rolls: tuple[int, ...] = ()
    answered: tuple[Any, ...] = ()
    question: str | None = None
    rolled_for: tuple[str, ...] = ()
    """What each of ``rolls`` was rolled for, in order (a page says it beside the face)."""
    did: tuple[str, ...] = ()
    """What those faces and answers did, as the log tells it (a table's command)."""
    marks: tuple[Any, ...] = ()
    """Who gave each of ``rolls`` (a table's :class:`~affray.table.given.Given`)."""
    moment: tuple[tuple[str, int | None], ...] = ()
    """Every die of the moment it stopped in, where that moment holds several (a
    round's initiative): each die's words and its face, or None while not given."""

    def so_far(
        self, rolls: tuple[int, ...], answered: tuple[Any, ...], rolled_for: tuple[str, ...] = ()
    ) -> None:
        self.rolls = rolls
        self.answered = answered
        self.rolled_for = rolled_for


class DieNeededError(InputNeededError, ScriptedDiceError):
    """A die must be rolled at the table and no face was given for it.

    Attributes:
        sides: the die's size.
        purpose: what it is rolled for.
        given: how many faces were given before it.
    """

    def __init__(self, sides: int, purpose: str, given: int) -> None:
        super().__init__(
            f"the next die is a d{sides} for {purpose}, and no face was given for it",
            hint=f"roll it and add its face to the end of --rolls ({given} given so far), "
            "or add --roll-rest to have affray roll it and the dice after it",
        )
        self.sides = sides
        self.purpose = purpose
        self.given = given


class SheetError(AffrayError, ValueError):
    """A sheet or encounter file is unreadable or invalid.

    Attributes:
        path: the file, or ``None`` for in-memory data.
        key: dotted path of the offending key within its table, or ``None``.
        at: where the problem is, in the words of the file (``side 1 ("Bandits"),
            member 2, key 'count'``); ``None`` says ``key 'KEY'``.
        unknown: the key is not one its table takes (its value is not the problem).
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        key: str | None = None,
        hint: str | None = None,
        at: str | None = None,
        unknown: bool = False,
    ) -> None:
        place = at if at else (f"key '{key}'" if key else None)
        where = ": ".join(part for part in (path, place) if part)
        super().__init__(f"{where}: {message}" if where else message, hint=hint)
        self.path = path
        self.key = key
        self.at = place
        self.detail = message
        """The problem alone, without where it is."""
        self.unknown = unknown


class RulesError(AffrayError, ValueError):
    """The rules do not allow what was asked (two-handed grip with a shield, ...)."""


class NamingError(RulesError):
    """A refusal that names combatants beside the one asked about (who is at the
    table, whom an action may be aimed at). It keeps them as fields, so that it can be
    told again to a reader who may not see them all (:meth:`seen_by`): the words are
    made from the fields each time, never cut out of a message."""

    def seen_by(self, sees: Callable[[str], bool]) -> NamingError:
        """The same refusal naming only the combatants ``sees`` (a combatant's id →
        whether this reader may know of it)."""
        return self


class UnknownCombatantError(NamingError):
    """No one (or more than one) at the table is called ``name``.

    Attributes:
        name: what was typed.
        found: those it could be (more than one), or none.
        ids: those it could have named.
    """

    def __init__(self, name: str, found: Sequence[str], ids: Sequence[str]) -> None:
        self.name = name
        self.found = tuple(found)
        self.ids = tuple(ids)
        listed = ", ".join(self.ids) or "no one yet"
        if len(self.found) > 1:
            message = f"{name!r} could be {', '.join(self.found)}"
            hint = f"say which: {listed}"
        else:
            message = f"no combatant is called {name!r}"
            hint = f"at the table: {listed}"
        super().__init__(message, hint=hint)

    def seen_by(self, sees: Callable[[str], bool]) -> UnknownCombatantError:
        found = [cid for cid in self.found if sees(cid)]
        return UnknownCombatantError(
            self.name, found if len(found) > 1 else (), [cid for cid in self.ids if sees(cid)]
        )


class ActionRefusedError(NamingError):
    """No legal action of ``actor`` is ``action`` (at ``target``), or more than one
    is.

    Attributes:
        actor: whose action it is.
        action: what was asked (its kind or its full name).
        target: at whom, or None.
        legal: the legal actions, each ``(label, target, of the kind asked)``.
        fits: the targets it could be aimed at, when it could be more than one.
    """

    def __init__(
        self,
        actor: str,
        action: str,
        target: str | None,
        legal: Sequence[tuple[str, str | None, bool]],
        fits: Sequence[str] = (),
    ) -> None:
        self.actor = actor
        self.action = action
        self.target = target
        self.legal = tuple(legal)
        """Each legal action as ``(label, target, named so)``: named so, it is of the
        kind asked."""
        self.fits = tuple(fits)
        options = ", ".join(label for label, _, _ in self.legal) or "nothing"
        targets = [aim for _, aim, so in self.legal if so and aim]
        if self.fits:
            message = f"{action} whom? {actor} may {action} " + ", ".join(self.fits)
            hint = f"name the target: {options}"
        elif target is not None and any(so for _, _, so in self.legal):
            message = f"{actor} cannot {action} {target!r} now"
            hint = f"{actor} may {action}: " + (", ".join(targets) or "no one")
        else:
            message = f"{action!r} is not something {actor} can do now"
            hint = f"legal: {options}"
        super().__init__(message, hint=hint)

    def seen_by(self, sees: Callable[[str], bool]) -> ActionRefusedError:
        legal = [(label, aim, so) for label, aim, so in self.legal if aim is None or sees(aim)]
        return ActionRefusedError(
            self.actor, self.action, self.target, legal, [aim for aim in self.fits if sees(aim)]
        )


class ChoiceNeededError(InputNeededError, RulesError):
    """The rules ask a question no one at the table has answered yet.

    Attributes:
        who: whose choice it is.
        topic: the question's topic (its ``--choose`` key).
        prompt: the question.
        options: the labels of the legal answers.
    """

    def __init__(
        self,
        who: str,
        topic: str,
        prompt: str,
        options: tuple[str, ...],
        *,
        about: str | None = None,
        template: str = "",
        explains: tuple[str, ...] = (),
    ) -> None:
        super().__init__(
            f"{prompt} ({who} chooses: {', '.join(options)})",
            hint=f"answer with --choose '{who}:{topic}=CHOICE'",
        )
        self.who = who
        self.topic = topic
        self.prompt = prompt
        self.options = options
        self.about = about
        """The other combatant the question concerns (the attacker, for a defence)."""
        self.explains = explains
        """What each option costs or does, in words, where the rules say ("spends an
        action"); "" for one they say nothing of."""
        self.template = template
        """The prompt with ``{who}`` and ``{about}`` in their places ("": names no one
        else)."""


class NotModelledError(AffrayError):
    """A fast engine does not model something these sheets need (a ranged weapon, two
    weapons, ...); the reference engine plays every rule, more slowly.

    Attributes:
        reasons: what is not modelled, one phrase each, naming the sheet.
    """

    def __init__(
        self, engine: str, reasons: tuple[str, ...], *, message: str | None = None
    ) -> None:
        super().__init__(
            message or f"the {engine} does not model {'; '.join(reasons)}",
            hint="use the reference engine (--engine reference), which plays every rule",
        )
        self.engine = engine
        self.reasons = reasons


class TableError(AffrayError):
    """A table (a tracked fight) cannot do what was asked: no such table, nothing
    to undo, a database that cannot be used."""


class DatabaseError(TableError):
    """The table database refused what was asked (a full disk, a read-only or damaged
    file): SQLite's error, in plain words, where the store meets SQLite.

    Attributes:
        code: SQLite's name of the error (``SQLITE_FULL``), or "" when not SQLite's.
    """

    code: str = ""


class DatabaseBusyError(DatabaseError):
    """Another process held the database's write lock for longer than a write waits:
    nothing was written; the same request later may well succeed."""


class NotAllowedError(TableError):
    """A player asked for what the game master has not allowed, or not now (to act
    when it is not their combatant's turn, say): nothing was applied."""


class PendingError(TableError):
    """A change would drop a command that waits for a die or an answer, which a
    window showed: nothing is applied.

    Attributes:
        waiting: what waits, in words.
        question: the id of the question it waits on.
    """

    def __init__(self, waiting: str, question: str | None) -> None:
        super().__init__(
            f"{waiting}: finish it or cancel it first",
            hint="answer it on the panel (or Cancel it), then make this change",
        )
        self.waiting = waiting
        self.question = question


class QuestionConflictError(TableError):
    """An answer names a question that is not the one the table waits on (answered
    already, or dropped): nothing was applied.

    Attributes:
        current: the id of the question the table waits on now (None: nothing waits).
    """

    def __init__(self, given: str, current: str | None) -> None:
        super().__init__(
            f"that answers question {given}, but "
            + (f"the table asks question {current} now" if current else "nothing waits now"),
            hint="read what the table asks now, and answer that",
        )
        self.given = given
        self.current = current


class ConflictError(TableError):
    """The table changed since the version the writer read: nothing was applied.

    Attributes:
        expected: the version the writer read.
        current: the table's version now.
    """

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(
            f"the table is at version {current}, not {expected}: someone changed it first",
            hint="reload the table and try again",
        )
        self.expected = expected
        self.current = current


__all__ = [
    "ActionRefusedError",
    "AffrayError",
    "ChoiceNeededError",
    "ConflictError",
    "DatabaseBusyError",
    "DatabaseError",
    "DiceError",
    "DiceLimitError",
    "DiceSyntaxError",
    "DieNeededError",
    "NamingError",
    "NotAllowedError",
    "NotModelledError",
    "PendingError",
    "QuestionConflictError",
    "RulesError",
    "ScriptedDiceError",
    "SheetError",
    "TableError",
    "UnknownCombatantError",
]
