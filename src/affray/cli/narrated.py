"""A fight told move by move at the terminal (``fight``, ``duel --narrate``, ``mst2
exchange``): the narration, the live odds of each attack, and a word on stderr when a
long fight takes a while."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import click
from rich.markup import escape

from affray import registry
from affray.cli.estimates import duration
from affray.cli.options import warn_unused
from affray.cli.output import console, emit_json, styled
from affray.encounter import steps
from affray.encounter.events import ActionChosen
from affray.events import Event
from affray.narration import narrate

if TYPE_CHECKING:
    from collections.abc import Iterator

    from affray.dice import Dice
    from affray.encounter import Answers, Encounter, Ruleset, Step
    from affray.registry import AnySystem, LiveOdds
    from affray.sheets import EncounterSetup


def play(
    encounter: Encounter[Any, Any],
    ruleset: Ruleset[Any, Any],
    answers: Answers[Any, Any],
    *,
    name: str,
    max_rounds: int,
    quiet: bool,
    odds: AnySystem | None = None,
) -> tuple[list[Event], Encounter[Any, Any]]:
    """Run an encounter, narrating each step as it happens unless ``quiet`` (with the
    live odds of each attack from ``odds``' system); return the whole event log and
    the final state."""
    out = console()
    told = [registry.system_of(c.sheet).narration for c in encounter.combatants[:1]]
    log: list[Event] = []
    final = encounter
    pace = Pace(max_rounds)
    for _, step, note in moves(encounter, ruleset, answers, name, max_rounds, odds):
        final = step.encounter
        log.extend(step.events)
        pace.tick(final)
        if quiet:
            continue
        if note is not None:
            out.print(f"[dim]  {escape(note.text)}[/dim]")
        for line in narrate(step.events, *told):
            out.print(styled(line))
    return log, final


class Pace:
    """Says on stderr how far a long fight is and how long it may still take: first
    after ``first_s`` seconds, then every ``every_s`` (a fight of hundreds of
    combatants, or of thousands of hit points, may take minutes; Ctrl-C stops it)."""

    def __init__(self, max_rounds: int, *, first_s: float = 5.0, every_s: float = 10.0) -> None:
        self.max_rounds = max_rounds
        self.started = time.monotonic()
        self.next_word = self.started + first_s
        self.every_s = every_s

    def tick(self, encounter: Encounter[Any, Any]) -> None:
        """After a move: a word on stderr if it is time for one."""
        now = time.monotonic()
        if now < self.next_word:
            return
        self.next_word = now + self.every_s
        done = max(encounter.round, 1)
        took = now - self.started
        left = took / done * max(self.max_rounds - done, 0)
        click.echo(
            f"a long fight: round {encounter.round} of at most {self.max_rounds} after "
            f"{took:.0f} s; at this pace it ends within {duration(left)} more "
            "(Ctrl-C stops it; --max-rounds caps it)",
            err=True,
        )


def moves(
    encounter: Encounter[Any, Any],
    ruleset: Ruleset[Any, Any],
    answers: Answers[Any, Any],
    name: str,
    max_rounds: int,
    odds: AnySystem | None,
) -> Iterator[tuple[Encounter[Any, Any], Step[Any, Any], LiveOdds | None]]:
    """The fight move by move: the encounter before each move, the move, and the live
    odds of the action it opens with (from ``odds``' system, when it has them)."""
    before = encounter
    for step in steps(encounter, ruleset, answers, name=name, max_rounds=max_rounds):
        note = registry.live_odds(odds, ruleset, before, step.events) if odds is not None else None
        yield before, step, note
        before = step.encounter


def ai_seed(seed: int | None, rolls: str | None) -> int | None:
    """The seed of the tactics AI's own random choices: the fight's seed, or 0 with
    typed-in dice (the same typed-in fight twice is the same fight)."""
    return seed if seed is not None or rolls is None else 0


def narrated_duel(
    setup: EncounterSetup[Any, Any],
    dice: Dice,
    as_json: bool,
    *,
    odds: bool = False,
    max_rounds: int | None = None,
    seed: int | None = None,
) -> None:
    """One duel told blow by blow (``duel --narrate``, ``mst2 exchange``), with the live
    odds of every attack when ``odds`` and the system has them; or, with ``as_json``,
    the outcome, each turn (with its odds) and the whole event log."""
    system = setup.system if odds and setup.system.live_odds is not None else None
    if not as_json:
        play(
            setup.encounter,
            setup.ruleset,
            setup.answers(dice, seed=seed),
            name=setup.name,
            max_rounds=max_rounds or setup.max_rounds,
            quiet=False,
            odds=system,
        )
        warn_unused(dice)
        return
    log: list[Event] = []
    turns: list[dict[str, Any]] = []
    final = setup.encounter
    answers = setup.answers(dice, seed=seed)
    rounds = max_rounds or setup.max_rounds
    pace = Pace(rounds)
    for _, step, note in moves(setup.encounter, setup.ruleset, answers, setup.name, rounds, system):
        final = step.encounter
        log.extend(step.events)
        pace.tick(final)
        chosen = next((e for e in step.events if isinstance(e, ActionChosen)), None)
        if chosen is not None:
            turns.append(
                {
                    "round": final.round,
                    "combatant": chosen.combatant,
                    "action": chosen.action.name,
                    "target": chosen.target,
                    "odds": dict(note.figures) if note is not None else None,
                    "events": [event.to_dict() for event in step.events],
                }
            )
    warn_unused(dice)
    ended = log[-1].to_dict()
    emit_json(
        {
            "method": "narrated",
            "winner": ended["winner"],
            "rounds": ended["rounds"],
            "reason": ended["reason"],
            "combatants": [
                {
                    "id": c.id,
                    "condition": setup.ruleset.condition(final, c.id),
                    **setup.ruleset.snapshot(final, c.id),
                }
                for c in final.combatants
            ],
            "turns": turns,
            "events": [event.to_dict() for event in log],
        }
    )
