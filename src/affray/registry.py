"""The rule-system registry: the one door through which a rule system comes in.

A rule system is a :class:`~affray.powers.RuleSystem`, found through the
``affray.systems`` entry-point group: the systems shipped with affray are listed there
in affray's own ``pyproject.toml``, and a third-party system is found the same way
once its package is installed (docs/systems.md). Loading sheets and encounters,
duels, fights, narration, the CLI and the table all go through here; nothing outside
``rulesystems/<system>/`` branches on a system's name or sheet class.

A test (or a script) may also :func:`register` a system of its own for a while.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from importlib import metadata

from affray.encounter import Encounter
from affray.errors import AffrayError
from affray.events import Event
from affray.plugins import points
from affray.powers import (
    AnySystem,
    EncounterKeys,
    LiveOdds,
    RulesetT,
    RuleSystem,
    SheetT,
    StateT,
    TacticsT,
)

__all__ = [
    "GROUP",
    "AnySystem",
    "EncounterKeys",
    "LiveOdds",
    "RuleSystem",
    "all_systems",
    "broken",
    "live_odds",
    "register",
    "reload",
    "system",
    "system_of",
    "systems",
    "unregister",
]

GROUP = "affray.systems"
"""The entry-point group rule systems are found in: ``name = "module:SYSTEM"``."""

_SYSTEMS: dict[str, AnySystem] = {}
_BROKEN: dict[str, str] = {}
_LOCK = threading.RLock()
_loaded = False
_loading = False


def register(
    system: RuleSystem[SheetT, StateT, RulesetT, TacticsT],
) -> RuleSystem[SheetT, StateT, RulesetT, TacticsT]:
    """Add a rule system; registering a name again replaces it."""
    _load()
    _SYSTEMS[system.name] = system
    _BROKEN.pop(system.name, None)
    return system


def unregister(name: str) -> None:
    """Remove a rule system (a test's toy system, say): its sheets, narration and
    powers go with it (a command group comes from its own entry point, not from
    here)."""
    _SYSTEMS.pop(name, None)


def _listed() -> list[AnySystem]:
    _load()
    return sorted(_SYSTEMS.values(), key=lambda s: (s.listed, s.name))


def _load() -> None:
    """Load every system the entry points name (once). A system that fails to load
    is kept aside with the reason, and named when asked for: the others work."""
    global _loaded, _loading
    if _loaded:
        return
    with _LOCK:  # a web server's threads may ask at once, on its first request
        if _loaded or _loading:  # done, or a system's module asking while it loads
            return
        _loading = True
        try:
            for point in points(GROUP).values():
                if point.name not in _SYSTEMS:
                    _load_one(point)
        finally:
            _loading = False
        _loaded = True


def _load_one(point: metadata.EntryPoint) -> None:
    """Load one system, or set it aside with the reason it did not load."""
    where = f"{point.value} (entry point {point.name!r} of {GROUP!r})"
    try:
        loaded = point.load()
    except Exception as error:  # a third party's bug: say it, do not fall over
        _BROKEN[point.name] = f"{where} failed to load: {type(error).__name__}: {error}"
        return
    if not isinstance(loaded, RuleSystem):
        _BROKEN[point.name] = f"{where} is a {type(loaded).__name__}, not a RuleSystem"
    elif loaded.name != point.name:
        _BROKEN[point.name] = f"{where} is the system {loaded.name!r}"
    else:
        _SYSTEMS[loaded.name] = loaded


def reload() -> None:
    """Find the systems again: those registered by hand are forgotten and the entry
    points read anew (a package installed while the process runs, a test's)."""
    global _loaded
    with _LOCK:
        _SYSTEMS.clear()
        _BROKEN.clear()
        _loaded = False
    _load()


def broken() -> dict[str, str]:
    """The systems whose entry point failed, and why."""
    _load()
    return dict(_BROKEN)


def systems() -> list[str]:
    """The names of the registered rule systems, in their listed order."""
    return [s.name for s in _listed()]


def all_systems() -> Sequence[AnySystem]:
    """The registered rule systems, in their listed order."""
    return _listed()


def system(name: str) -> AnySystem:
    """The rule system called ``name``.

    Raises:
        AffrayError: no system has that name (the message lists those there are), or
            its package failed to load (the message says why).
    """
    _load()
    try:
        return _SYSTEMS[name]
    except KeyError:
        if name in _BROKEN:
            raise AffrayError(
                f"the rule system {name!r} is installed but broken: {_BROKEN[name]}",
                hint="reinstall or fix the package that provides it",
            ) from None
        raise AffrayError(
            f"unknown rule system {name!r}",
            hint="system is one of: " + ", ".join(f'"{n}"' for n in systems()),
        ) from None


def spelled(typed: str) -> str:
    """A system's name as typed (``MST2``, ``MST-2``, ``Midian``) as the registry names
    it (``mst2``): case and dashes forgiven, its title taken too; a name of no system
    is given back as typed (the error that follows says so)."""
    _load()

    def plain(text: str) -> str:
        return "".join(ch for ch in text.lower() if ch.isalnum())

    for name, system in _SYSTEMS.items():
        if plain(typed) in (plain(name), plain(system.title)):
            return name
    return typed


def system_of(sheet: object) -> AnySystem:
    """The rule system a sheet belongs to.

    Raises:
        AffrayError: no registered system owns this kind of sheet.
    """
    for candidate in _listed():
        if candidate.owns(sheet):
            return candidate
    raise AffrayError(
        f"{type(sheet).__name__} is not a sheet of any registered rule system",
        hint="load sheets with affray.load",
    )


def live_odds(
    system: RuleSystem[SheetT, StateT, RulesetT, TacticsT],
    ruleset: RulesetT,
    before: Encounter[SheetT, StateT],
    events: Sequence[Event],
) -> LiveOdds | None:
    """The system's exact odds of the action these events open with, as a sentence,
    from the encounter ``before`` it (None when it has no such odds)."""
    from affray.encounter.events import ActionChosen

    if system.live_odds is None:
        return None
    chosen = next((e for e in events if isinstance(e, ActionChosen)), None)
    if chosen is None:
        return None
    return system.live_odds(ruleset, before, who=chosen.combatant, action=chosen.action)
