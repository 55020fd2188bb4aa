"""``affray midian ...``: one attack, checks, saving throws and initiative."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from affray.cli.options import (
    dice_source,
    json_option,
    plot_option,
    rolls_option,
    seed_option,
    warn_unused,
)

if TYPE_CHECKING:
    from affray.rulesystems.midian.character import Character

sheet_argument = click.Path(dir_okay=False, path_type=str)
F = TypeVar("F", bound=Callable[..., Any])


@click.group("midian")
def midian() -> None:
    """The Midian combat chapter."""


def load_midian(path: str) -> Character:
    """Load a sheet that must be a Midian character."""
    from affray.sheets import load_system_sheet

    character: Character = load_system_sheet(path, "midian")
    return character


def defender_options(function: F) -> F:
    """``--no-defence``, ``--hit-points``, ``--life-points``: how the defender stands."""
    for option in reversed(
        (
            click.option(
                "--no-defence", is_flag=True, help="The defender does not parry, block or dodge."
            ),
            click.option(
                "--hit-points",
                type=click.IntRange(min=0),
                default=None,
                help="Defender's current hit points.",
            ),
            click.option(
                "--life-points", type=int, default=None, help="Defender's current life points."
            ),
        )
    ):
        function = option(function)
    return function


def defender_health(defender: Character, hit_points: int | None, life_points: int | None) -> Any:
    """The defender's health: fresh, with the hit and life points given (at most its
    sheet's)."""
    from dataclasses import replace

    from affray.rulesystems.midian.injury import Health

    health = Health.fresh(defender)
    if hit_points is not None:
        health = replace(health, hit_points=min(hit_points, defender.hit_points))
    if life_points is not None:
        health = replace(health, life_points=min(life_points, defender.life_points))
    return health


def _print_events(events: Any) -> None:
    from affray.cli.output import print_lines
    from affray.narration import narrate
    from affray.rulesystems.midian.narration import NARRATION

    print_lines(narrate(events, NARRATION))


@midian.command("attack")
@click.argument("attacker", type=sheet_argument)
@click.argument("defender", type=sheet_argument)
@rolls_option
@defender_options
@click.option(
    "--distance", type=click.IntRange(min=0), default=None, help="Feet to the target (ranged)."
)
@click.option("--cover", type=click.IntRange(0, 90), default=0, help="Target's cover in percent.")
@click.option("--from-behind", is_flag=True, help="Flanking or from behind: +2, dodge only.")
@click.option("--helpless", is_flag=True, help="Helpless or unmoving target: +4.")
@click.option("--charge", is_flag=True, help="The attacker charges: double damage.")
@click.option(
    "--description", type=click.IntRange(0, 5), default=0, help="Game master's bonus, 0-5."
)
@click.option(
    "--hit-rule",
    type=click.Choice(["at-or-above", "exceed"]),
    default="at-or-above",
    show_default=True,
    help="Whether an attack equal to the armour class hits.",
)
@click.option(
    "--willpower",
    type=click.Choice(["first", "each"]),
    default="first",
    show_default=True,
    help="Willpower check once, or at every hit, when only life points remain.",
)
@click.option(
    "--willpower-shock",
    type=click.Choice(["earlier", "all"]),
    default="earlier",
    show_default=True,
    help="Shock on that Willpower check: the round's earlier blows, or this blow's too.",
)
@seed_option
@json_option
def attack_command(
    attacker: str,
    defender: str,
    rolls: str | None,
    no_defence: bool,
    hit_points: int | None,
    life_points: int | None,
    distance: int | None,
    cover: int,
    from_behind: bool,
    helpless: bool,
    charge: bool,
    description: int,
    hit_rule: str,
    willpower: str,
    willpower_shock: str,
    seed: int | None,
    as_json: bool,
) -> None:
    """One attack, resolved and narrated.

    ATTACKER attacks DEFENDER.

    Dice order for --rolls: the attack d20; the defence d20 (if the defender
    defends); the damage dice; a Willpower check 2d20 (if due); system shock d100
    (if due).
    """

    from affray.cli.output import emit_json
    from affray.rulesystems.midian.attack import HitRule
    from affray.rulesystems.midian.injury import WillpowerRule, WillpowerShock
    from affray.rulesystems.midian.resolve import Readings, Situation, resolve_attack

    a, d = load_midian(attacker), load_midian(defender)
    health = defender_health(d, hit_points, life_points)
    situation = Situation(
        ranged=a.weapon.ranged is not None,
        distance=distance,
        cover=cover,
        from_behind=from_behind,
        helpless=helpless,
        charging=charge,
        description=description,
    )
    dice = dice_source(rolls, seed)
    outcome = resolve_attack(
        a,
        d,
        health,
        dice,
        defend=not no_defence,
        situation=situation,
        rules=Readings(
            HitRule(hit_rule), WillpowerRule(willpower), WillpowerShock(willpower_shock)
        ),
    )
    warn_unused(dice)
    if as_json:
        emit_json(
            {
                "natural": outcome.natural,
                "total": outcome.total,
                "hit": outcome.hit,
                "critical": outcome.critical,
                "fumble": outcome.fumble,
                "defended": outcome.defended,
                "damage_rolled": outcome.damage_rolled,
                "damage": outcome.damage,
                "defender": {
                    "hit_points": outcome.health.hit_points,
                    "life_points": outcome.health.life_points,
                    "conscious": outcome.health.conscious,
                    "alive": outcome.health.alive,
                },
                "events": [event.to_dict() for event in outcome.events],
            }
        )
        return
    _print_events(outcome.events)


@midian.command("odds")
@click.argument("attacker", type=sheet_argument)
@click.argument("defender", type=sheet_argument)
@defender_options
@plot_option("the distribution of the damage the defender loses")
@json_option
def odds_command(
    attacker: str,
    defender: str,
    no_defence: bool,
    hit_points: int | None,
    life_points: int | None,
    plot: str | None,
    as_json: bool,
) -> None:
    """Exact odds of one melee attack of ATTACKER on DEFENDER: hit, critical, fumble,
    defended (by the defender's best defence this round), the damage it loses (after
    doubling, resistance and reduction), and the chance the blow leaves it down
    (Willpower and system shock included), from its current state."""
    from affray.cli.output import emit_json, percent, table
    from affray.plots import check_plot_path
    from affray.rulesystems.midian.odds import attack_odds

    if plot is not None:
        check_plot_path(plot)
    a, d = load_midian(attacker), load_midian(defender)
    health = defender_health(d, hit_points, life_points)
    odds = attack_odds(a, d, health=health, defend=not no_defence)
    if plot is not None:
        from affray.plots import plot_histogram

        plot_histogram(
            {k: float(p) for k, p in odds.damage.items()},
            plot,
            title=f"{a.name} attacks {d.name}: damage",
            xlabel="points lost",
        )
    if as_json:
        emit_json(odds.to_dict())
        return
    table(
        f"{a.name} attacks {d.name} ({health.hit_points} HP / {health.life_points} LP)",
        ("outcome", "probability"),
        [
            ("hit (criticals included)", percent(odds.p_hit)),
            ("critical (natural 19-20)", percent(odds.p_critical)),
            ("fumble (natural 1-2)", percent(odds.p_fumble)),
            ("defended", percent(odds.p_defended)),
            (f"{d.name} down (unconscious or dead)", percent(odds.p_defender_down)),
        ],
    )
    table(
        "Points lost",
        ("points", "probability"),
        [(str(points), percent(p)) for points, p in sorted(odds.damage.items())],
    )


@midian.command("check")
@click.argument("sheet", type=sheet_argument)
@click.argument("attribute")
@click.option("--modifier", type=int, default=0, help="Bonus or penalty applied to the attribute.")
@click.option(
    "--attempt",
    type=click.IntRange(min=1),
    default=1,
    help="Repeated attempts: -2 each after the first.",
)
@click.option(
    "--retest",
    "retests",
    multiple=True,
    metavar="SOURCE",
    help="A retest to spend on failure (repeatable).",
)
@rolls_option
@seed_option
@json_option
def check_command(
    sheet: str,
    attribute: str,
    modifier: int,
    attempt: int,
    retests: tuple[str, ...],
    rolls: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """An ability check.

    2d20 at or under the ATTRIBUTE with its modifiers.
    """
    from affray.cli.output import emit_json
    from affray.rulesystems.midian.checks import check_with_retests, repeat_penalty
    from affray.rulesystems.midian.modifiers import Modifier, nonzero

    character = load_midian(sheet)
    modifiers = nonzero(Modifier("modifier", modifier), repeat_penalty(attempt))
    dice = dice_source(rolls, seed)
    outcome = check_with_retests(
        character, attribute.lower(), dice, retests=list(retests), modifiers=modifiers
    )
    warn_unused(dice)
    if as_json:
        final = outcome.final
        emit_json(
            {
                "character": character.name,
                "attribute": final.attribute,
                "score": final.score,
                "effective": final.effective,
                "rolls": [d.face for d in final.dice],
                "total": final.total,
                "success": final.success,
                "retests_used": sum(1 for e in outcome.events if e.kind == "retest_used"),
            }
        )
        return
    _print_events(outcome.events)


@midian.command("save")
@click.argument("sheet", type=sheet_argument)
@click.argument("save_type", metavar="TYPE")
@click.option("--target", type=click.IntRange(1, 40), required=True, help="The number to reach.")
@click.option("--bonus", type=int, default=0, help="Total of the stacking save bonuses.")
@rolls_option
@seed_option
@json_option
def save_command(
    sheet: str,
    save_type: str,
    target: int,
    bonus: int,
    rolls: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """A saving throw.

    TYPE is poison, fire, crushing, mental, ...: d20 + bonus at or above the
    target; natural 1-2 fail, 19-20 succeed.
    """
    from affray.cli.output import emit_json
    from affray.rulesystems.midian.checks import SaveType, saving_throw
    from affray.rulesystems.midian.modifiers import Modifier, nonzero

    character = load_midian(sheet)
    dice = dice_source(rolls, seed)
    result = saving_throw(
        character,
        SaveType.named(save_type),
        target,
        dice,
        modifiers=nonzero(Modifier("bonus", bonus)),
    )
    warn_unused(dice)
    if as_json:
        emit_json(
            {
                "character": character.name,
                "save": result.save,
                "natural": result.die.face,
                "total": result.total,
                "target": result.target,
                "success": result.success,
            }
        )
        return
    _print_events([result])


@midian.command("initiative")
@click.argument("sheets", nargs=-1, required=True, type=sheet_argument)
@rolls_option
@seed_option
@json_option
def initiative_command(
    sheets: tuple[str, ...], rolls: str | None, seed: int | None, as_json: bool
) -> None:
    """Roll initiative and order the round.

    Every SHEET rolls (in order); actions are listed highest first, ties to the
    higher Wits; totals over 10 act again 10 lower.
    """
    from affray.cli.output import console, emit_json
    from affray.rulesystems.midian.initiative import (
        initiative_modifiers,
        order_slots,
        roll_initiative,
    )

    characters = [load_midian(path) for path in sheets]
    dice = dice_source(rolls, seed)
    rolled = [roll_initiative(c, dice, modifiers=initiative_modifiers(c)) for c in characters]
    warn_unused(dice)
    order = order_slots(
        [(r.character, r.total, c.wits) for r, c in zip(rolled, characters, strict=True)]
    )
    if as_json:
        emit_json(
            {
                "rolls": [
                    {
                        "character": r.character,
                        "natural": r.die.face,
                        "total": r.total,
                        "slots": list(r.slots),
                    }
                    for r in rolled
                ],
                "order": [
                    {"character": s.character, "initiative": s.initiative, "action": s.action}
                    for s in order
                ],
            }
        )
        return
    _print_events(rolled)
    out = console()
    from rich.markup import escape

    out.print(
        "[bold]Order:[/bold] "
        + ", ".join(f"{escape(s.character)} ({s.initiative:g})" for s in order)
    )


@midian.command("hazard")
@click.argument("sheet", type=sheet_argument)
@click.argument("kind", type=click.Choice(["fall", "fire"]))
@click.option("--feet", type=click.IntRange(0, 100_000), default=0, help="Height of a fall.")
@click.option(
    "--surface",
    type=click.Choice(["soft", "hard", "stone", "rocks", "spikes"]),
    default="hard",
    show_default=True,
)
@click.option(
    "--earlier",
    type=click.IntRange(min=0),
    default=0,
    help="Fire: damage from earlier rounds of the same blaze.",
)
@click.option(
    "--continuous", is_flag=True, help="Fire: still in the blaze (the save target is cumulative)."
)
@click.option("--save-bonus", type=int, default=0, help="Total of the save bonuses.")
@rolls_option
@seed_option
@json_option
def hazard_command(
    sheet: str,
    kind: str,
    feet: int,
    surface: str,
    earlier: int,
    continuous: bool,
    save_bonus: int,
    rolls: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Falls and fire.

    A fall (dice per 10 ft by surface; a crushing save at half the feet halves it)
    or a round of fire (3d6; a fire save at the damage, or the cumulative damage,
    halves it; then the sheet's fire resistance, 100% or more immune).

    Dice order: the damage dice, then the d20 save.
    """
    from affray.cli.output import emit_json
    from affray.rulesystems.midian.hazards import burn, fall
    from affray.rulesystems.midian.modifiers import Modifier, nonzero

    character = load_midian(sheet)
    dice = dice_source(rolls, seed)
    bonus = nonzero(Modifier("save bonus", save_bonus))
    if kind == "fall":
        result = fall(character, feet, dice, surface=surface, save_modifiers=bonus)
    else:
        result = burn(character, dice, earlier=earlier, continuous=continuous, save_modifiers=bonus)
    warn_unused(dice)
    data = {
        "hazard": kind,
        "rolls": [d.face for d in result.dice],
        "rolled": result.rolled,
        "save_target": result.save.target if result.save else None,
        "saved": result.save.success if result.save else None,
        "resisted": result.resisted,
        "damage": result.taken,
    }
    if as_json:
        emit_json(data)
        return
    if result.save is not None:
        _print_events([result.save])
    faces = ",".join(str(d.face) for d in result.dice)
    resisted = f", {result.resisted} resisted" if result.resisted else ""
    click.echo(
        f"{character.name}: {kind} [{faces}] = {result.rolled}{resisted} → {result.taken} damage"
    )


@midian.command("critical")
@click.argument("target", default="the target")
@click.option("--choose", default=None, metavar="EFFECT", help="Pick an effect instead of rolling.")
@rolls_option
@seed_option
@json_option
def critical_command(
    target: str, choose: str | None, rolls: str | None, seed: int | None, as_json: bool
) -> None:
    """Roll or choose a critical-hit effect.

    For TARGET, from the chapter's list.
    """
    from affray.cli.output import emit_json
    from affray.rulesystems.midian.criticals import critical_effect

    dice = dice_source(rolls, seed)
    (effect,) = critical_effect(target, dice, choose=choose)
    warn_unused(dice)
    if as_json:
        emit_json(
            {
                "effect": effect.effect,
                "detail": effect.detail,
                "roll": effect.die.face if effect.die else None,
            }
        )
        return
    _print_events([effect])
