"""Dice notation → syntax tree.

Grammar (whitespace is ignored between tokens)::

    expression := signed (("+" | "-") signed)*
    signed     := ("+" | "-") signed | atom
    atom       := dice modifier* | NUMBER | "(" expression ")"
    dice       := NUMBER? ("d" | "D") (NUMBER | "%")
    modifier   := ("r" | "ro") point          reroll: r1, r<3, ro1
                | "!" point?                  explode: !, !5, !>=5
                | ("k" | "kh" | "kl" | "dh" | "dl") NUMBER?   keep/drop (1 by default)
                | OP NUMBER                   count successes: >=8
                | "f" point                   and failures, with successes: >=8f1
    point      := OP? NUMBER                  a bare number means "equal to"
    OP         := ">=" | "<=" | ">" | "<" | "="

``d%`` is ``d100``. Letters may be upper or lower case. Modifiers follow their dice
without spaces, in any order, each at most once; they act in one order whatever
order they are written in (see :class:`~affray.dice.syntax.DicePool`).

A recursive-descent parser whose only recursion is through parentheses and unary
signs, both counted against :data:`~affray.dice.limits.MAX_NESTING` before
recursing, so no input can raise ``RecursionError``.
"""

from __future__ import annotations

import re

from affray.dice import limits
from affray.dice.syntax import (
    Compare,
    Constant,
    Count,
    DicePool,
    DiceTerm,
    Explode,
    Group,
    Negate,
    Node,
    Op,
    Reroll,
    Select,
    SelectKind,
    Sum,
)
from affray.errors import DiceLimitError, DiceSyntaxError, UnreachableCountError

_MAX_DIGITS = len(str(limits.MAX_NUMBER))
_OPS: tuple[Op, ...] = (">=", "<=", ">", "<", "=")
_SELECT_KINDS: dict[str, SelectKind] = {"kh": "kh", "kl": "kl", "dh": "dh", "dl": "dl"}
_EXAMPLES = "4d6kh3, 2d20kl1, 4d6dl1, 3d6!, 2d6r1, 2d6ro<3, 6d10>=8"
_DEFAULT_HINT = (
    "dice notation: NdM, numbers, +, - and parentheses, with kh/kl/dh/dl, !, r/ro and "
    ">= > <= < = after a term, e.g. 3d6+2 or 4d6kh3 (docs/dice.md)"
)
_ENDS_WITH_DICE = re.compile(r"[dD](?:[0-9]+|%)[0-9a-zA-Z!<>=]*$")


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
            raise self.unexpected()
        return node

    def unexpected(self) -> DiceSyntaxError:
        """An unexpected character, with a tip that fits what it looks like."""
        char = self.text[self.pos]
        lower = char.lower()
        after = self.text[self.pos + 1 : self.pos + 2].lower()
        before = self.text[: self.pos]
        follows_dice = bool(_ENDS_WITH_DICE.search(before))
        hint = _DEFAULT_HINT
        if lower == "d" and follows_dice:
            hint = "drop dice with dl1 (the lowest) or dh1 (the highest); add dice with +: 4d6+1d6"
        elif lower in "kr!f<>=" or (lower == "d" and after in ("h", "l") and after):
            if before != before.rstrip() and _ENDS_WITH_DICE.search(before.rstrip()):
                hint = f"write modifiers right after their dice, without spaces: {_EXAMPLES}"
            elif before.rstrip().endswith(")"):
                hint = (
                    "keep/drop, rerolls, explosions and counts apply to the dice of one term, "
                    "not to parentheses, e.g. 4d6kh3+2"
                )
            elif lower in "<>=":
                hint = (
                    "a compare point counts the dice of one term (6d10>=8: how many dice show "
                    "8 or more); the chance that a total reaches a number is `affray odds "
                    "'2d6+3>=8'` (a whole number after the comparison)"
                )
            else:
                hint = f"modifiers follow a dice term: {_EXAMPLES}"
        return self.error(f"unexpected {char!r}", hint=hint)

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
                return self.modifiers(self.dice(count, start))
            assert count is not None
            return Constant(count)
        if not char:
            raise self.error("expression ends where a number, die or '(' was expected")
        raise self.unexpected()

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

    # -- modifiers -------------------------------------------------------------

    def modifiers(self, dice: DiceTerm) -> DiceTerm | DicePool:
        """The modifiers right after ``dice`` (no spaces), each kind at most once."""
        found: dict[str, int] = {}  # kind → where it was written
        reroll: Reroll | None = None
        explode: Explode | None = None
        select: Select | None = None
        success: Compare | None = None
        failure: Compare | None = None
        while self.pos < len(self.text):
            at = self.pos
            char = self.text[at].lower()
            after = self.text[at + 1 : at + 2].lower()
            if char == "r":
                once = after == "o"
                self.pos += 2 if once else 1
                name = "ro" if once else "r"
                self.once_only(found, "reroll", name, at, dice)
                reroll = Reroll(self.point(name, dice), once=once)
            elif char == "!":
                self.pos += 1
                self.once_only(found, "explode", "!", at, dice)
                explode = Explode(self.explosion(dice, at))
            elif char == "k" or (char == "d" and after in ("h", "l") and after):
                written = char + after if after in ("h", "l") else "kh"
                kind = _SELECT_KINDS[written]
                self.pos += 2 if after in ("h", "l") else 1
                self.once_only(found, "select", kind, at, dice)
                number = self.number() if _is_digit(self.text[self.pos : self.pos + 1]) else 1
                select = self.checked_select(Select(kind, number), dice, at)
            elif char in "<>=":
                self.once_only(found, "count", self.text[at], at, dice)
                success = self.point("a count", dice)
            elif char == "f":
                self.pos += 1
                self.once_only(found, "failure", "f", at, dice)
                failure = self.point("f", dice)
            else:
                break
        if not found:
            return dice
        if reroll is not None:
            self.check_reroll(reroll, dice, found["reroll"])
        if explode is not None:
            self.check_explode(explode, dice, found["explode"])
        count = None
        if failure is not None and success is None:
            raise self.error(
                "'f' counts failures against successes, but this term counts no successes",
                at=found["failure"],
                hint="name the successes too, e.g. 6d10>=8f1 (each 8+ counts 1, each 1 counts -1)",
            )
        if success is not None:
            if failure is not None and failure.overlaps(success):
                raise self.error(
                    f"a value can be both a success ({success.text(bare_equals=False)}) and a "
                    f"failure (f{failure.text()})",
                    at=found["failure"],
                    hint="successes and failures must not overlap, e.g. 6d10>=8f1",
                )
            count = Count(success, failure)
            faces = range(1, dice.sides + 1)
            if explode is None and not any(success.matches(face) for face in faces):
                point = success.text(bare_equals=False)
                raise UnreachableCountError(
                    f"{dice.count}d{dice.sides}{point} counts each d{dice.sides} showing "
                    f"{point}, and no d{dice.sides} can (its faces go from 1 to {dice.sides})",
                    expression=self.text,
                    position=found["count"],
                    hint=f"to compare the total, bracket the dice: ({dice.count}d{dice.sides})"
                    f"{point}",
                )
        return DicePool(dice, reroll, explode, select, count)

    def once_only(
        self, found: dict[str, int], kind: str, written: str, at: int, dice: DiceTerm
    ) -> None:
        if kind in found:
            words = {
                "reroll": "a second reroll",
                "explode": "a second '!'",
                "select": "a second keep or drop",
                "count": "a second compare point",
                "failure": "a second 'f'",
            }[kind]
            hint = {
                "reroll": "one reroll per term: r<3 rerolls 1s and 2s",
                "explode": "one explosion per term: !>=5 explodes on 5 and 6",
                "select": "one keep or drop per term, e.g. 4d6kh3 (the same as 4d6dl1)",
                "count": "one compare point counts successes, e.g. 6d10>=8",
                "failure": "one failure point per term, e.g. 6d10>=8f<3",
            }[kind]
            raise self.error(
                f"{words} ({written!r}) on {dice.count}d{dice.sides}", at=at, hint=hint
            )
        found[kind] = at

    def point(self, name: str, dice: DiceTerm) -> Compare:
        """A compare point: an operator and a number, or a bare number (equal to)."""
        op = self.operator()
        if not _is_digit(self.text[self.pos : self.pos + 1]):
            shown = f"'{name}'" if op is None else f"'{op}'"
            example = {"r": "2d6r1 or 2d6r<3", "ro": "2d6ro1", "f": "6d10>=8f1"}.get(
                name, "6d10>=8"
            )
            raise self.error(
                f"a number must follow {shown}",
                hint=f"e.g. {example} (faces of a d{dice.sides} go from 1 to {dice.sides})",
            )
        return Compare(op or "=", self.number())

    def operator(self) -> Op | None:
        for op in _OPS:
            if self.text.startswith(op, self.pos):
                self.pos += len(op)
                return op
        return None

    def explosion(self, dice: DiceTerm, at: int) -> Compare:
        """What a '!' explodes on: its compare point, or the die's highest face."""
        rest = self.text[self.pos : self.pos + 2]
        if rest.startswith("!"):
            raise self.error(
                "'!!' (compounding explosions) is not supported",
                at=self.pos,
                hint="'!' already adds each explosion to the die it came from: write 3d6!",
            )
        if rest.startswith("=") and not rest.startswith("=="):
            raise self.error(
                "'!=' is ambiguous (explode on a value, or 'not equal'?)",
                at=at,
                hint=f"write !{dice.sides} to explode on a {dice.sides}, "
                f"or !>=5 to explode on 5 or more",
            )
        if self.text[self.pos : self.pos + 1] in ("<", ">") or _is_digit(
            self.text[self.pos : self.pos + 1]
        ):
            return self.point("!", dice)
        return Compare("=", dice.sides)

    def check_reroll(self, reroll: Reroll, dice: DiceTerm, at: int) -> None:
        written = ("ro" if reroll.once else "r") + reroll.when.text()
        matched = sum(reroll.when.matches(face) for face in range(1, dice.sides + 1))
        if not matched:
            raise self.error(
                f"{written} never rerolls: a d{dice.sides} shows 1 to {dice.sides}",
                at=at,
                hint="name faces the die can show, e.g. 2d6r1 or 2d6r<3",
            )
        if matched == dice.sides and not reroll.once:
            raise self.error(
                f"{written} rerolls every face of a d{dice.sides}, so it would never stop",
                at=at,
                hint="reroll some faces only (r1, r<3), or once whatever it shows (ro)",
            )

    def check_explode(self, explode: Explode, dice: DiceTerm, at: int) -> None:
        written = "!" + explode.when.text()
        matched = sum(explode.when.matches(face) for face in range(1, dice.sides + 1))
        if not matched:
            hint = "e.g. 3d6! (explodes on a 6) or 3d6!>=5"
            if explode.when.op in (">", ">="):
                hint = (
                    f"to count successes of exploding dice, name the explosion first: "
                    f"{dice.count}d{dice.sides}!{dice.sides}{explode.when.text(bare_equals=False)}"
                )
            raise self.error(
                f"{written} never explodes: a d{dice.sides} shows 1 to {dice.sides}",
                at=at,
                hint=hint,
            )
        if matched == dice.sides:
            raise self.error(
                f"{written} explodes on every face of a d{dice.sides}, so it would never stop",
                at=at,
                hint="explode on the highest face (!) or a few (!>=5)",
            )

    def checked_select(self, select: Select, dice: DiceTerm, at: int) -> Select:
        keep = select.kind.startswith("k")
        top = dice.count if keep else dice.count - 1
        if not 1 <= select.count <= top:
            verb = "keeps" if keep else "drops"
            noun = "die" if dice.count == 1 else "dice"
            if top >= 1:
                hint = f"{verb[:-1]} 1 to {top} of {dice.count} {noun}, e.g. "
                hint += f"{dice.count}d{dice.sides}{select.kind}{max(1, min(select.count, top))}"
            else:
                hint = f"roll more dice to drop some, e.g. 2d{dice.sides}{select.kind}1"
            raise self.error(
                f"{select.kind}{select.count} {verb} {select.count} of {dice.count} {noun}",
                at=at,
                hint=hint,
            )
        return select


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
