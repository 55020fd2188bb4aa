"""Every event has a narration; lines read as the game master would say them."""

from __future__ import annotations

import inspect

import pytest

from affray.encounter import events as encounter_events
from affray.events import Event
from affray.narration.core import Narration
from affray.narration.encounter import ENCOUNTER
from affray.rulesystems.midian import events as midian_events
from affray.rulesystems.mst2 import events as mst2_events
from affray.table import events as table_events
from affray.table.events import TABLE


def told() -> Narration:
    from affray import registry

    narration = ENCOUNTER | TABLE
    for system in registry.all_systems():  # each system's narration is in its entry
        narration = narration | system.narration
    return narration


@pytest.mark.parametrize("module", [mst2_events, midian_events, encounter_events, table_events])
def test_every_event_type_has_a_handler(module: object) -> None:
    kinds = [
        obj
        for _, obj in inspect.getmembers(module, inspect.isclass)
        if issubclass(obj, Event) and obj is not Event and obj.__module__ == module.__name__  # type: ignore[attr-defined]
    ]
    assert kinds
    missing = [k.__name__ for k in kinds if k not in told()]
    assert missing == []


def test_the_header_of_a_duel_lists_no_one_again_and_of_a_fight_everyone() -> None:
    from affray.narration import narrate_text

    duel = encounter_events.EncounterStarted(
        "Sellsword vs Spearman",
        "mst2",
        (("Sellsword", ("Sellsword",)), ("Spearman", ("Spearman",))),
    )
    assert narrate_text([duel]) == ["Sellsword vs Spearman (mst2)"]
    fight = encounter_events.EncounterStarted(
        "Ford", "mst2", (("Guards", ("Sellsword", "Spearman")), ("Bandit", ("Bandit",)))
    )
    assert narrate_text([fight]) == ["Ford (mst2) — Guards: Sellsword, Spearman; Bandit"]
