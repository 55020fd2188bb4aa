"""The entry points of affray's plug-in groups (``affray.systems``, the rule systems;
``affray.commands``, their command groups), found in one order.

affray's own come first, so a third party cannot shadow them; then the others, by
name; of a name found twice the first is kept. Where affray's own metadata is
missing (a source checkout on ``PYTHONPATH``, an install made before these entry
points were), its own are taken from :data:`OWN`, the list its pyproject.toml gives
(a test keeps the two the same).
"""

from __future__ import annotations

from importlib import metadata

HOME = "affray"
"""The distribution whose entry points come first."""

OWN: dict[str, dict[str, str]] = {
    "affray.systems": {
        "mst2": "affray.rulesystems.mst2.system:SYSTEM",
        "midian": "affray.rulesystems.midian.system:SYSTEM",
    },
    "affray.commands": {
        "mst2": "affray.rulesystems.mst2.cli:mst2",
        "midian": "affray.rulesystems.midian.cli:midian",
    },
}
"""affray's own entry points, as pyproject.toml lists them."""


def points(group: str) -> dict[str, metadata.EntryPoint]:
    """The group's entry points by name, affray's own first."""
    return choose(group, list(metadata.entry_points(group=group)))


def choose(group: str, found: list[metadata.EntryPoint]) -> dict[str, metadata.EntryPoint]:
    """Of the entry points ``found`` in ``group``, one per name: affray's own first
    (from :data:`OWN` if none of them is affray's), then the others by name."""

    def ours(point: metadata.EntryPoint) -> bool:
        return point.dist is not None and point.dist.name == HOME

    own = [p for p in found if ours(p)] or [
        metadata.EntryPoint(name, value, group) for name, value in OWN.get(group, {}).items()
    ]
    theirs = sorted((p for p in found if not ours(p)), key=lambda p: p.name)
    chosen: dict[str, metadata.EntryPoint] = {}
    for point in own + theirs:
        chosen.setdefault(point.name, point)
    return chosen
