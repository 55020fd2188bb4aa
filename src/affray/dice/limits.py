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

MAX_EXPLOSIONS: Final = 20
"""Explosions of one die (``3d6!``): the 20th explosion's roll is added and does not
explode again, in a roll and in the exact distribution alike (for a d6 the chance of
getting there is 1 in 3.7 * 10**15)."""

MAX_REROLLS: Final = 20
"""Rerolls of one roll by ``r`` (``2d6r1``): the 20th reroll stands whatever it shows,
in a roll and in the exact distribution alike (``ro`` rerolls once)."""
