"""The public face of affray: load sheets, fight duels and encounters, narrate them.

Every rule system registered (:mod:`affray.registry`) is served the same way::

    import affray
    a = affray.load("examples/mst2/knight.json")
    b = affray.load("examples/mst2/ogre.toml")
    odds = affray.duel(a, b)                     # exact where the system has it
    sim = affray.duel(a, b, n=100_000, seed=1)   # Monte Carlo
    fight = affray.fight("examples/encounters/ambush.toml", seed=3)
    lines = affray.narrate(fight.events)
"""

from __future__ import annotations

__all__ = [
    "CombatantReport",
    "DuelAnswer",
    "FightResult",
    "duel",
    "duel_setup",
    "fight",
    "load",
    "narrate",
    "systems",
]

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from affray import registry
from affray.dice import Dice, RandomDice
from affray.duels import (
    DEFAULT_DUELS,
    ENGINES,
    MAX_ROUNDS,
    DuelAnswer,
    Engine,
    Method,
    RunSpec,
    answer_duel,
)
from affray.encounter import Answers, Chooser, Named, Ruleset, run_encounter
from affray.errors import AffrayError
from affray.events import Event
from affray.sheets.encounters import EncounterSetup, load_encounter


@dataclass(frozen=True, slots=True)
class CombatantReport:
    """Where one combatant stands at the end: side, condition word and state snapshot."""

    id: str
    side: str
    condition: str
    state: Mapping[str, object]


@dataclass(frozen=True, slots=True)
class FightResult:
    """A fight played to its end: the side left fighting (None for a draw), the rounds
    begun, why it ended, every event, and each combatant's final state."""

    winner: str | None
    rounds: int
    reason: str
    events: tuple[Event, ...]
    combatants: tuple[CombatantReport, ...]


def systems() -> list[str]:
    """The names of the registered rule systems."""
    return registry.systems()


def load(path: str | Path) -> Named:
    """A sheet of any registered system, from a TOML or JSON file.

    Raises:
        SheetError: the file or a key is invalid (the message names both).
    """
    from affray.sheets import load_sheet

    sheet: Named = load_sheet(path)
    return sheet


def _system_of_pair(a: Named, b: Named) -> registry.AnySystem:
    system = registry.system_of(a)
    if not system.owns(b):
        raise AffrayError(
            "the two sheets are of different rule systems",
            hint="a duel needs two sheets of one system",
        )
    return system


def duel(
    a: Named,
    b: Named,
    n: int | None = None,
    *,
    seed: int | None = None,
    engine: Engine = "fast",
    workers: int = 1,
    exact: bool = False,
) -> DuelAnswer:
    """Who wins a duel of ``a`` (attacking first) and ``b``: exact odds when ``n`` is
    None and the system has them (Midian's, whose chain can take minutes, where they
    come within a second, as ``affray duel`` gives them; ``exact=True`` waits for
    them); otherwise ``n`` simulated duels (10,000 by default), with the fast engine
    where the system has one, else the reference engine (also when the fast engine
    does not model something the sheets need: the answer's ``note`` says what).

    Args:
        workers: processes for the simulation (results do not depend on it); 0 for
            one per CPU.
        exact: the exact odds however long they take (``affray duel --exact``);
            AffrayError where the system has none or refuses them.
    """
    system = _system_of_pair(a, b)
    if engine not in ENGINES:
        raise AffrayError(f"unknown engine {engine!r}", hint="engine is 'fast' or 'reference'")
    if workers < 0:
        raise AffrayError(f"workers is {workers}", hint="0 for one per CPU, or 1 or more")
    run = RunSpec(DEFAULT_DUELS if n is None else n, seed, workers or os.cpu_count() or 1)
    if exact and n is not None:
        raise AffrayError("exact=True and n ask for two answers", hint="leave out one")
    method: Method | None = "exact" if exact else None if n is None else "monte-carlo"
    return answer_duel(system, a, b, method=method, run=run, engine=engine)


def duel_setup(
    a: Named, b: Named, ruleset: Ruleset[Any, Any] | None = None
) -> EncounterSetup[Any, Any]:
    """A duel as an encounter ready to play: two sides of one, named after the
    fighters (``X (A)``/``X (B)`` when alike), default tactics, the system's duel
    ruleset unless ``ruleset`` is given."""
    from affray.sim.encounters import duel_encounter

    system = _system_of_pair(a, b)
    rules = ruleset if ruleset is not None else system.duel_ruleset()
    encounter = duel_encounter(a, b, rules)
    first, second = (c.sheet.name for c in encounter.combatants)
    return EncounterSetup(f"{first} vs {second}", system, rules, encounter, MAX_ROUNDS)


def fight(
    encounter: str | Path | EncounterSetup[Any, Any],
    *,
    seed: int | None = None,
    dice: Dice | None = None,
    chooser: Chooser[Any, Any] | None = None,
    max_rounds: int | None = None,
) -> FightResult:
    """Play an encounter (a file, or a setup such as :func:`duel_setup`'s) to its end.

    Args:
        seed: seeds the dice (when ``dice`` is not given) and the tactics AI's own
            random choices.
        dice: where the dice come from (typed-in faces: ``ScriptedDice``).
        chooser: who answers the combatants' choices; default: each system's AI.
    """
    if max_rounds is not None and max_rounds < 1:
        raise AffrayError(f"max_rounds is {max_rounds}", hint="fight at least one round")
    setup = encounter if isinstance(encounter, EncounterSetup) else load_encounter(encounter)
    source = dice if dice is not None else RandomDice(seed)
    answers = setup.answers(source, seed=seed) if chooser is None else Answers(source, chooser)
    result = run_encounter(
        setup.encounter,
        setup.ruleset,
        answers,
        name=setup.name,
        max_rounds=setup.max_rounds if max_rounds is None else max_rounds,
    )
    final = result.encounter
    report = tuple(
        CombatantReport(
            c.id,
            c.side,
            setup.ruleset.condition(final, c.id),
            setup.ruleset.snapshot(final, c.id),
        )
        for c in final.combatants
    )
    return FightResult(result.winner, result.rounds, result.reason, result.events, report)


def narrate(events: Iterable[Event]) -> list[str]:
    """Readable lines for an event log, one per action (every roll and modifier shown):
    a fight's, or a table's (its own events too)."""
    from affray.narration import narrate_text
    from affray.table.events import TABLE

    told = [system.narration for system in registry.all_systems()]
    return narrate_text(events, *told, TABLE)
