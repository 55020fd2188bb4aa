"""Probabilities as short percentages for people to read."""

from __future__ import annotations

from fractions import Fraction


def percent(p: Fraction | float) -> str:
    """``p`` as a percentage: one decimal, or three significant digits below 0.1%."""
    value = float(p) * 100
    if value == 0 or value == 100 or value >= 0.1:
        return f"{value:.1f}%"
    return f"{value:.3g}%"
