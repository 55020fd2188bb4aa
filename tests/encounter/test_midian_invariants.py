"""The chapter's invariants, checked on the event logs of every Midian example
encounter over many seeds: nobody acts while getting up (no turn, no blow — a set
weapon's or one struck first at a charger — and no defence that costs an action), no
charge without a run-up (one who has been in melee charges no more), no one takes more
actions than its initiative gives (defences that cost an action included), no defence
while surprised or after charging, no damage to the dead."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeGuard

import pytest

from affray.dice import RandomDice
from affray.encounter import events as enc
from affray.encounter import steps
from affray.rulesystems.midian import events as ev
from affray.rulesystems.midian.actions import Defend, Interrupt, PreEmpt, Squeeze, Wait
from affray.rulesystems.midian.ruleset import MidianRuleset
from affray.sheets import load_encounter
from tests.helpers import EXAMPLES

ENCOUNTERS = [
    path
    for path in sorted((EXAMPLES / "encounters").glob("*.toml"))
    if 'system = "midian"' in path.read_text()
]
SEEDS = range(200)
NOT_A_TURN = (Squeeze, Wait, Interrupt, PreEmpt, Defend)  # these keep the action


def knocked_down(event: object) -> TypeGuard[ev.CriticalEffect | ev.StatusChanged]:
    """A critical that knocks its target down, or a fumble that trips the fumbler."""
    if isinstance(event, ev.CriticalEffect):
        return event.effect == "knocked down"
    return isinstance(event, ev.StatusChanged) and event.reason == "trips and falls"


def violations(path: Path, seed: int, *, played_without_surprise: bool = False) -> list[str]:
    """Every breach of the invariants in one seeded fight (``played_without_surprise``:
    the fight ignores the file's surprise, the judge does not — to test the judge)."""
    setup = load_encounter(path)
    surprised_sides = setup.ruleset.options.surprised
    if played_without_surprise:
        setup = replace(setup, ruleset=MidianRuleset(rules=setup.ruleset.options.rules))
    found: list[str] = []
    before = setup.encounter
    slots: dict[str, int] = {}
    used: Counter[str] = Counter()
    charged: set[str] = set()
    closed_in: set[str] = set()  # who has been in melee: no run-up left
    round_no = 0
    for step in steps(
        setup.encounter,
        setup.ruleset,
        setup.answers(RandomDice(seed), seed=seed),
        max_rounds=setup.max_rounds,
    ):
        fell_now: set[str] = set()  # knocked down in this step

        def getting_up(who: str) -> bool:
            return who in fell_now or before.states[who].down_rounds > 0  # noqa: B023

        for event in step.events:
            where = f"{path.stem} seed {seed} round {round_no}"
            if isinstance(event, enc.RoundStarted):
                round_no = event.round
                slots = dict.fromkeys(event.order, 1)  # the surprise round: one action each
                used = Counter()
                charged = set()
            elif isinstance(event, ev.InitiativeRolled):
                slots[event.character] = len(event.slots)
            elif isinstance(event, enc.Engaged):
                if event.distance == "charge":
                    charged.add(event.a)
                    if event.a in closed_in:
                        found.append(f"{where}: {event.a} charges {event.b} with no run-up")
                closed_in.update((event.a, event.b))
            elif knocked_down(event):
                fell_now.add(event.character)
            elif isinstance(event, ev.AttackRolled) and getting_up(event.attacker):
                found.append(f"{where}: {event.attacker} strikes while getting up")
            elif isinstance(event, enc.ActionChosen) and not isinstance(event.action, NOT_A_TURN):
                who = event.combatant
                if getting_up(who):
                    found.append(f"{where}: {who} acts while getting up")
                used[who] += 1
            elif isinstance(event, ev.DefenceRolled) and event.defence != "evasion":
                who = event.defender
                side = setup.encounter.combatant(who).side
                if round_no == 1 and side in surprised_sides:
                    found.append(f"{where}: surprised {who} defends ({event.defence})")
                if who in charged:
                    found.append(f"{where}: {who} defends in the round of its charge")
                if getting_up(who) and event.cost == "action":
                    found.append(f"{where}: {who} spends its get-up turn on a {event.defence}")
                if event.cost == "action":
                    used[who] += 1
            elif (
                isinstance(event, ev.DamageTaken)
                and not before.states[event.character].health.alive
            ):
                found.append(f"{where}: the dead {event.character} takes damage")
        for who, count in used.items():
            if count > slots.get(who, 1):
                found.append(
                    f"{path.stem} seed {seed} round {round_no}: {who} used {count} actions "
                    f"with {slots.get(who, 1)}"
                )
                used[who] = -1000  # report once
        before = step.encounter
    return found


@pytest.mark.parametrize("path", ENCOUNTERS, ids=lambda p: p.stem)
def test_the_chapters_invariants_hold_in_every_seeded_fight(path: Path) -> None:
    found = [v for seed in SEEDS for v in violations(path, seed)]
    assert found == []


def test_the_checker_sees_a_breach() -> None:
    path = EXAMPLES / "encounters" / "roadside_ambush.toml"
    assert load_encounter(path).ruleset.options.surprised, "the example has a surprised side"
    found = [v for seed in range(20) for v in violations(path, seed, played_without_surprise=True)]
    assert any("surprised" in v and "defends" in v for v in found)


def test_the_checker_sees_a_charge_from_inside_the_melee(monkeypatch: pytest.MonkeyPatch) -> None:
    from affray.rulesystems.midian import strikes
    from affray.rulesystems.midian.state import CHARGE_RUN_UP

    def old_run_up(options: Any, encounter: Any, cid: str) -> bool:  # before issue 25
        return options.distance >= CHARGE_RUN_UP and not encounter.engaged_with(cid)

    monkeypatch.setattr(strikes, "has_run_up", old_run_up)
    path = EXAMPLES / "encounters" / "charge.toml"
    found = [v for seed in range(10) for v in violations(path, seed)]
    assert any("with no run-up" in v for v in found)
