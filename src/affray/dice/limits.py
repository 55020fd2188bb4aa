"""Safety limits for untrusted dice text.

Every limit is checked while parsing, before any work proportional to the
numbers involved is done, so a hostile expression fails in microseconds.
"""

from __future__ import annotations

from typing import Final

MAX_EXPRESSION_LENGTH: Final = 1000
"""Characters in one expression."""

MAX_NESTING: Final = 64
"""Parentheses and unary signs nested inside each other."""

MAX_DICE: Final = 1000
"""Dice rolled by one expression, all terms together."""

MIN_SIDES: Final = 2
MAX_SIDES: Final = 1000
"""A die has 2 to 1000 sides."""

MAX_NUMBER: Final = 1_000_000
"""Largest integer literal."""

MAX_EXACT_WORK: Final = 3_000_000
"""Budget of elementary steps for an exact distribution (see ``distribution``)."""
