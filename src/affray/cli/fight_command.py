"""``affray fight ENCOUNTER``: a narrated fight between sides of many combatants."""

from __future__ import annotations

import click

from affray.cli.options import dice_source, json_option, rolls_option, seed_option, warn_unused
from affray.events import Event


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
@json_option
def fight_command(
    encounter_file: str, seed: int | None, rolls: str | None, max_rounds: int | None, as_json: bool
) -> None:
    """Run and narrate the encounter in a file.

    ENCOUNTER is a TOML file (docs/encounters.md); every action is narrated.

    With --json: the outcome and the full event log.
    """
    from affray.cli.output import console, emit_json, styled
    from affray.encounter import steps
    from affray.narrate import narrate
    from affray.sheets import load_encounter

    setup = load_encounter(encounter_file)
    dice = dice_source(rolls, seed)
    out = console()
    log: list[Event] = []
    final = setup.encounter
    for step in steps(
        setup.encounter,
        setup.ruleset,
        dice,
        name=setup.name,
        max_rounds=max_rounds or setup.max_rounds,
    ):
        final = step.encounter
        log.extend(step.events)
        if not as_json:
            for line in narrate(step.events):
                out.print(styled(line))
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
