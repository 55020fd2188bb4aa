"""Ready-made combatants that encounter files can name instead of a sheet path.

``bestiary/mst2/<name>.toml`` are ordinary sheets, validated like any other.
"""

from __future__ import annotations

from importlib import resources


def names(system: str) -> list[str]:
    """Catalog names available for ``system``."""
    folder = resources.files(__name__).joinpath(system)
    if not folder.is_dir():
        return []
    return sorted(
        item.name.removesuffix(".toml") for item in folder.iterdir() if item.name.endswith(".toml")
    )


def text(system: str, name: str) -> str | None:
    """The sheet text for a catalog name (plural and case forgiven), or None."""
    key = name.strip().lower().replace(" ", "-")
    known = names(system)
    if key.endswith("ves"):
        singular = key[:-3] + "f"
    elif key.endswith("men"):
        singular = key[:-3] + "man"
    else:
        singular = key.removesuffix("s")
    for candidate in (key, singular, key.removesuffix("es")):
        if candidate in known:
            return (
                resources.files(__name__).joinpath(system, f"{candidate}.toml").read_text("utf-8")
            )
    return None
