"""Dice notation → syntax tree.

Grammar (whitespace is ignored between tokens)::

    expression := signed (("+" | "-") signed)*
    signed     := ("+" | "-") signed | atom
    atom       := dice | NUMBER | "(" expression ")"
    dice       := NUMBER? ("d" | "D") (NUMBER | "%")

``d%`` is ``d100``. A recursive-descent parser whose only recursion is through
parentheses and unary signs, both counted against :data:`~affray.dice.limits.MAX_NESTING`
before recursing, so no input can raise ``RecursionError``.
"""

from __future__ import annotations

from affray.dice import limits
from affray.dice.syntax import Constant, DiceTerm, Group, Negate, Node, Sum
from affray.errors import DiceLimitError, DiceSyntaxError

_MAX_DIGITS = len(str(limits.MAX_NUMBER))


def parse(text: str) -> Node:
    """Parse dice notation into a syntax tree.

    Raises:
        DiceSyntaxError: the text is not dice notation.
        DiceLimitError: a safety limit is exceeded.
    """
    if not isinstance(text, str):  # defensive: the CLI and sheets pass str
        raise DiceSyntaxError("a dice expression must be text", expression=repr(text), position=0)
    if len(text) > limits.MAX_EXPRESSION_LENGTH:
        raise _too_long(text)
    return _Parser(text).parse()


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.depth = 0
        self.dice_count = 0

    # -- helpers ---------------------------------------------------------------

    def error(
        self, message: str, *, at: int | None = None, hint: str | None = None
    ) -> DiceSyntaxError:
        return DiceSyntaxError(
            message, expression=self.text, position=self.pos if at is None else at, hint=hint
        )

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def enter(self) -> None:
        self.depth += 1
        if self.depth > limits.MAX_NESTING:
            raise DiceLimitError(
                f"dice expression nests deeper than {limits.MAX_NESTING} levels "
                "of parentheses or signs",
                hint="remove redundant parentheses",
            )

    # -- grammar ---------------------------------------------------------------

    def parse(self) -> Node:
        if not self.text.strip():
            raise self.error("empty dice expression", hint="try something like 2d6+1")
        node = self.expression()
        if self.peek():
            char = self.text[self.pos]
            if char == ")":
                raise self.error("unmatched ')'")
            raise self.error(
                f"unexpected {char!r}",
                hint="dice notation uses NdM, numbers, +, - and parentheses, e.g. 3d6+2",
            )
        return node

    def expression(self) -> Node:
        terms: list[tuple[int, Node]] = [(1, self.signed())]
        while (char := self.peek()) in ("+", "-") and char:
            self.pos += 1
            terms.append((1 if char == "+" else -1, self.signed()))
        return terms[0][1] if len(terms) == 1 else Sum(tuple(terms))

    def signed(self) -> Node:
        char = self.peek()
        if char in ("+", "-") and char:
            self.pos += 1
            self.enter()
            operand = self.signed()
            self.depth -= 1
            return operand if char == "+" else Negate(operand)
        return self.atom()

    def atom(self) -> Node:
        char = self.peek()
        start = self.pos
        if char == "(":
            self.pos += 1
            self.enter()
            inner = self.expression()
            self.depth -= 1
            if self.peek() != ")":
                raise self.error(
                    "missing ')'", hint=f"the '(' at column {start + 1} is never closed"
                )
            self.pos += 1
            return Group(inner)
        if _is_digit(char) or char in ("d", "D"):
            count = self.number() if _is_digit(char) else None
            if self.peek() in ("d", "D") and self.peek():
                return self.dice(count, start)
            assert count is not None
            return Constant(count)
        if not char:
            raise self.error("expression ends where a number, die or '(' was expected")
        raise self.error(
            f"unexpected {char!r}",
            hint="dice notation uses NdM, numbers, +, - and parentheses, e.g. 3d6+2",
        )

    def number(self) -> int:
        start = self.pos
        while self.pos < len(self.text) and _is_digit(self.text[self.pos]):
            self.pos += 1
        digits = self.text[start : self.pos].lstrip("0") or "0"
        if len(digits) > _MAX_DIGITS or int(digits) > limits.MAX_NUMBER:
            raise DiceLimitError(
                f"number {_abbreviate(self.text[start : self.pos])} at column {start + 1} "
                f"is larger than {limits.MAX_NUMBER}",
                hint="numbers in dice expressions are limited to keep rolls fast",
            )
        return int(digits)

    def dice(self, count: int | None, start: int) -> DiceTerm:
        self.pos += 1  # the 'd'
        if count == 0:
            raise self.error(
                "a dice count of 0 rolls nothing", at=start, hint="use at least one die, e.g. 1d6"
            )
        after_d = self.pos
        if self.pos < len(self.text) and self.text[self.pos] == "%":
            self.pos += 1
            sides = 100
        elif self.pos < len(self.text) and _is_digit(self.text[self.pos]):
            sides = self.number()
        else:
            raise self.error(
                "a die needs a number of sides after 'd'", at=after_d, hint="e.g. d6, 2d10 or d%"
            )
        if not limits.MIN_SIDES <= sides <= limits.MAX_SIDES:
            raise DiceLimitError(
                f"d{sides} at column {start + 1}: a die has "
                f"{limits.MIN_SIDES} to {limits.MAX_SIDES} sides",
                hint="use a constant instead of a one-sided die" if sides == 1 else None,
            )
        number = 1 if count is None else count
        self.dice_count += number
        if self.dice_count > limits.MAX_DICE:
            raise DiceLimitError(
                f"expression rolls more than {limits.MAX_DICE} dice",
                hint=f"at most {limits.MAX_DICE} dice can be rolled in one expression",
            )
        return DiceTerm(number, sides)


def _too_long(text: str) -> DiceLimitError:
    """Name the most specific reason an over-long expression is refused (one linear scan)."""
    depth = deepest = digits = longest = 0
    for char in text:
        if char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth -= 1
        digits = digits + 1 if _is_digit(char) else 0
        longest = max(longest, digits)
    if deepest > limits.MAX_NESTING:
        reason = f"it nests {deepest} parentheses deep (the limit is {limits.MAX_NESTING})"
        hint = "remove redundant parentheses"
    elif longest > _MAX_DIGITS:
        reason = f"it has a {longest}-digit number (numbers go up to {limits.MAX_NUMBER})"
        hint = "use smaller numbers"
    else:
        reason = f"the limit is {limits.MAX_EXPRESSION_LENGTH} characters"
        hint = "write large pools as one term, e.g. 40d6 instead of d6+d6+..."
    return DiceLimitError(f"dice expression is {len(text)} characters long; {reason}", hint=hint)


def _is_digit(char: str) -> bool:
    return len(char) == 1 and "0" <= char <= "9"


def _abbreviate(digits: str) -> str:
    return digits if len(digits) <= 12 else f"{digits[:6]}...({len(digits)} digits)"
