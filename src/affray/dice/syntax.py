"""The syntax tree of a dice expression.

Sums are kept flat (a tuple of signed terms) so that a long chain such as
``d6+d6+...+d6`` is one node, not a deep tree; only parentheses and unary
signs nest, and the parser bounds that nesting.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Constant:
    """An integer constant such as ``3``."""

    value: int


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``count`` dice of ``sides`` sides, added together (``3d6``)."""

    count: int
    sides: int


@dataclass(frozen=True, slots=True)
class Negate:
    """Unary minus (``-d4``)."""

    operand: Node


@dataclass(frozen=True, slots=True)
class Group:
    """A parenthesised sub-expression; kept so the tree prints back as written."""

    inner: Node


@dataclass(frozen=True, slots=True)
class Sum:
    """``terms[0] ± terms[1] ± ...``: each term with its sign (+1 or -1)."""

    terms: tuple[tuple[int, Node], ...]


Node = Constant | DiceTerm | Negate | Group | Sum


def to_text(node: Node) -> str:
    """Render a tree back to canonical notation (``2d6+1``)."""
    match node:
        case Constant(value):
            return str(value)
        case DiceTerm(count, sides):
            return f"{count}d{sides}"
        case Negate(operand):
            return f"-{to_text(operand)}"
        case Group(inner):
            return f"({to_text(inner)})"
        case Sum(terms):
            parts: list[str] = []
            for index, (sign, term) in enumerate(terms):
                text = to_text(term)
                if index == 0:
                    parts.append(text if sign > 0 else f"-{text}")
                else:
                    parts.append(("+" if sign > 0 else "-") + text)
            return "".join(parts)
    raise AssertionError(f"unknown node {node!r}")  # pragma: no cover


def signed_leaves(node: Node) -> Iterator[tuple[int, Constant | DiceTerm]]:
    """Constants and dice terms in reading order, each with its overall sign."""
    stack: list[tuple[int, Node]] = [(1, node)]
    while stack:
        sign, current = stack.pop()
        match current:
            case Constant() | DiceTerm():
                yield sign, current
            case Negate(operand):
                stack.append((-sign, operand))
            case Group(inner):
                stack.append((sign, inner))
            case Sum(terms):
                stack.extend((sign * s, t) for s, t in reversed(terms))


def dice_terms(node: Node) -> list[tuple[int, DiceTerm]]:
    """All dice terms in reading order, each with its overall sign."""
    return [(sign, leaf) for sign, leaf in signed_leaves(node) if isinstance(leaf, DiceTerm)]


def constant_total(node: Node) -> int:
    """The sum of the constants in the tree, with their signs."""
    return sum(
        sign * leaf.value for sign, leaf in signed_leaves(node) if isinstance(leaf, Constant)
    )
