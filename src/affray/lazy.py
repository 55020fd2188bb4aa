"""Names a package exports, loaded from their modules on first use (PEP 562), so that
importing one module of a package (a rule system's command group, say) stays quick."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def exports(package: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that finds each name in ``where``
    (name → module) when first asked for."""

    def find(name: str) -> Any:
        if name in where:
            return getattr(import_module(where[name]), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return find
