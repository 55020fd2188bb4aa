"""Exact odds shared by every rule system (each system's own are in its package,
``affray.rulesystems.<name>.odds``)."""

from affray.odds.format import percent

__all__ = ["percent"]
