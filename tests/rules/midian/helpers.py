"""Midian characters built in code for tests."""

from __future__ import annotations

from typing import Any

from affray.rulesystems.midian.character import Character, Encumbrance, Weapon

ATTRS = {"strength": 12, "agility": 12, "wits": 10, "willpower": 11, "stamina": 12}


def character(name: str = "C", **kwargs: Any) -> Character:
    attributes = {**ATTRS, **kwargs.pop("attributes", {})}
    kwargs.setdefault("hit_points", 20)
    kwargs.setdefault("life_points", 10)
    return Character(name=name, attributes=attributes, **kwargs)


def weapon(**kwargs: Any) -> Weapon:
    kwargs.setdefault("name", "Sword")
    kwargs.setdefault("damage", "1d8")
    kwargs.setdefault("type", "hacking")
    kwargs.setdefault("encumbrance", Encumbrance.LIGHT)
    return Weapon(**kwargs)
