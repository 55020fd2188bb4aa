"""``affray fight ENCOUNTER``: a narrated fight between sides of many combatants."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from affray.cli.options import dice_source, json_option, rolls_option, seed_option, warn_unused
from affray.events import Event

if TYPE_CHECKING:
    from affray.dice import Dice
    from affray.encounter import Encounter, Ruleset


@click.command("fight")
@click.argument(
    "encounter_file", metavar="ENCOUNTER", type=click.Path(dir_okay=False, path_type=str)
)
@seed_option
@rolls_option
@click.option(
    "--max-rounds",
    type=click.IntRange(min=1, max=1000),
    default=None,
    help="Override the encounter's round cap.",
)
@click.option(
    "--odds",
    "show_odds",
    is_flag=True,
    help="MST-2: before each attack, its exact odds given the target's wounds then.",
)
@json_option
def fight_command(
    encounter_file: str,
    seed: int | None,
    rolls: str | None,
    max_rounds: int | None,
    show_odds: bool,
    as_json: bool,
) -> None:
    """Run and narrate the encounter in a file.

    ENCOUNTER is a TOML file (docs/encounters.md); every action is narrated.

    With --json: the outcome and the full event log.
    """
    from affray.cli.output import emit_json
    from affray.sheets import load_encounter

    setup = load_encounter(encounter_file)
    dice = dice_source(rolls, seed)
    if show_odds and setup.ruleset.system != "mst2":
        click.echo("warning: --odds gives exact odds for MST-2 encounters only", err=True)
    log, final = play(
        setup.encounter,
        setup.ruleset,
        dice,
        name=setup.name,
        max_rounds=max_rounds or setup.max_rounds,
        quiet=as_json,
        show_odds=show_odds and setup.ruleset.system == "mst2",
    )
    warn_unused(dice)
    if not as_json:
        return
    ended = log[-1].to_dict()
    emit_json(
        {
            "name": setup.name,
            "system": setup.ruleset.system,
            "winner": ended["winner"],
            "rounds": ended["rounds"],
            "reason": ended["reason"],
            "combatants": [
                {
                    "id": c.id,
                    "side": c.side,
                    "condition": setup.ruleset.condition(final, c.id),
                    **setup.ruleset.snapshot(final, c.id),
                }
                for c in final.combatants
            ],
            "events": [event.to_dict() for event in log],
        }
    )


def play(
    encounter: Encounter,
    ruleset: Ruleset,
    dice: Dice,
    *,
    name: str,
    max_rounds: int,
    quiet: bool,
    show_odds: bool = False,
) -> tuple[list[Event], Encounter]:
    """Run an encounter, narrating each step as it happens unless ``quiet``; return the
    whole event log and the final state."""
    from affray.cli.output import console, styled
    from affray.encounter import steps
    from affray.narrate import narrate

    out = console()
    log: list[Event] = []
    final = encounter
    for step in steps(encounter, ruleset, dice, name=name, max_rounds=max_rounds):
        before, final = final, step.encounter
        log.extend(step.events)
        if quiet:
            continue
        note = _live_odds(before, step.events) if show_odds else None
        if note:
            out.print(f"[dim]{note}[/dim]")
        for line in narrate(step.events):
            out.print(styled(line))
    return log, final


def _live_odds(encounter: Any, events: tuple[Event, ...]) -> str | None:
    """The exact odds of the attack this step opens with (MST-2), from the state before it."""
    from affray.cli.output import percent
    from affray.encounter.events import ActionChosen
    from affray.odds import attack_odds
    from affray.rules.mst2.catalog import Missile

    chosen = next((e for e in events if isinstance(e, ActionChosen)), None)
    if chosen is None or chosen.action not in ("melee", "shoot") or chosen.target is None:
        return None
    attacker = encounter.combatant(chosen.combatant).sheet
    target = encounter.combatant(chosen.target).sheet
    power = None
    if chosen.action == "shoot" and isinstance(attacker.missile, Missile):
        power = attacker.missile.power
    odds = attack_odds(attacker, target, encounter.states[chosen.target].wounds, power=power)
    return (
        f"  odds of {chosen.combatant} against {chosen.target} (direct): "
        f"hit {percent(odds.p_hit)}, wound {percent(odds.p_wound)}, "
        f"takes out {percent(odds.p_out)}"
    )
