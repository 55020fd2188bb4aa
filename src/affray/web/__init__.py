"""The web tracker: ``affray serve``. A game master's page and a live, read-only
player page over the same tables (and the same SQLite store) as ``affray table``."""

from affray.web.app import create_app

__all__ = ["create_app"]
