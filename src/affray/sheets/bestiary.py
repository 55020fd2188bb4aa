"""Ready-made combatants that sheet references and encounter files can name instead
of a sheet path: each rule system's ``bestiary`` folder of ordinary sheets
(``affray/rulesystems/mst2/bestiary/<name>.toml``), validated like any other.
"""

from __future__ import annotations

from importlib.resources.abc import Traversable


def _folder(system: str) -> Traversable | None:
    from affray import registry

    if system not in registry.systems():
        return None
    folder = registry.system(system).bestiary
    return folder if folder is not None and folder.is_dir() else None


def names(system: str) -> list[str]:
    """Bestiary names available for ``system``."""
    folder = _folder(system)
    if folder is None:
        return []
    return sorted(
        item.name.removesuffix(".toml") for item in folder.iterdir() if item.name.endswith(".toml")
    )


def text(system: str, name: str) -> str | None:
    """The sheet text for a bestiary name (plural and case forgiven), or None."""
    key = name.strip().lower().replace(" ", "-")
    known = names(system)
    if key.endswith("ves"):
        singular = key[:-3] + "f"
    elif key.endswith("men"):
        singular = key[:-3] + "man"
    else:
        singular = key.removesuffix("s")
    folder = _folder(system)
    for candidate in (key, singular, key.removesuffix("es")):
        if candidate in known and folder is not None:
            return folder.joinpath(f"{candidate}.toml").read_text("utf-8")
    return None
