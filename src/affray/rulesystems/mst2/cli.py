"""``affray mst2 ...``: one attack, its exact odds, and a narrated exchange."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from affray.answers import MAX_ROUNDS
from affray.cli.options import (
    dice_source,
    json_option,
    plot_option,
    rolls_option,
    seed_option,
    warn_unused,
)

if TYPE_CHECKING:
    from affray.rulesystems.mst2 import Circumstance, Fighter, Lethality

sheet_argument = click.Path(dir_okay=False, path_type=str)
lethality_option = click.option(
    "--lethality",
    type=click.Choice(["high", "standard", "optional"]),
    default="standard",
    show_default=True,
    help="What a failed shock check means: death, out of the fight, or the optional second check.",
)
circumstance_option = click.option(
    "--circumstance",
    "circumstances",
    multiple=True,
    metavar="NAME",
    help="Extra power: helpless, sneak attack, critical, magical, frenzy, superior "
    "(repeatable; only the largest applies).",
)
wounds_option = click.option(
    "--wounds",
    type=click.IntRange(min=0, max=10_000),
    default=0,
    show_default=True,
    help="Wounds the defender already has.",
)


@click.group("mst2")
def mst2() -> None:
    """MST-2: Melee Fighting."""


def load_mst2(path: str) -> Fighter:
    """Load a sheet that must be an MST-2 fighter."""
    from affray.sheets import load_system_sheet

    fighter: Fighter = load_system_sheet(path, "mst2")
    return fighter


def _lethality(name: str) -> Lethality:
    from affray.rulesystems.mst2 import Lethality

    return Lethality(name)


def _circumstances(names: tuple[str, ...]) -> tuple[Circumstance, ...]:
    from affray.rulesystems.mst2 import circumstance

    return tuple(circumstance(name) for name in names)


@mst2.command("attack")
@click.argument("attacker", type=sheet_argument)
@click.argument("defender", type=sheet_argument)
@wounds_option
@rolls_option
@seed_option
@lethality_option
@circumstance_option
@json_option
def attack_command(
    attacker: str,
    defender: str,
    wounds: int,
    rolls: str | None,
    seed: int | None,
    lethality: str,
    circumstances: tuple[str, ...],
    as_json: bool,
) -> None:
    """One direct attack, resolved and narrated.

    ATTACKER attacks DEFENDER (no reach counter-attack).

    Dice order for --rolls: the d20; each power die (weapon, then extra power,
    then circumstance); then, if wounded, each of the defender's hit dice.
    """
    from affray.cli.output import emit_json, print_lines
    from affray.narration import narrate
    from affray.rulesystems.mst2 import FighterState, attack
    from affray.rulesystems.mst2.narration import NARRATION

    a, d = load_mst2(attacker), load_mst2(defender)
    extra = _circumstances(circumstances)
    dice = dice_source(rolls, seed)
    result = attack(
        a, d, FighterState(wounds), dice, circumstances=extra, lethality=_lethality(lethality)
    )
    warn_unused(dice)
    if as_json:
        emit_json(
            {
                "natural": result.natural,
                "total": result.total,
                "hit": result.hit,
                "power_rolls": list(result.power_faces),
                "wounds_inflicted": result.wounds,
                "defender_wounds": result.defender.wounds,
                "shock_total": result.shock_total,
                "defender_out": not result.defender.fighting,
                "defender_condition": result.defender.condition.value,
                "events": [event.to_dict() for event in result.events],
            }
        )
        return
    print_lines(narrate(result.events, NARRATION))


@mst2.command("odds")
@click.argument("attacker", type=sheet_argument)
@click.argument("defender", type=sheet_argument)
@wounds_option
@circumstance_option
@plot_option("the distribution of wounds inflicted")
@json_option
def odds_command(
    attacker: str,
    defender: str,
    wounds: int,
    circumstances: tuple[str, ...],
    plot: str | None,
    as_json: bool,
) -> None:
    """Exact odds of one direct attack.

    ATTACKER on DEFENDER: hit, wounds, taking the defender out; the defender's
    shock table.
    """
    from affray.cli.output import emit_json, table
    from affray.odds import percent
    from affray.plots import check_plot_path, plot_histogram
    from affray.rulesystems.mst2.odds import attack_odds, shock_table

    if plot is not None:
        check_plot_path(plot)
    a, d = load_mst2(attacker), load_mst2(defender)
    odds = attack_odds(a, d, wounds, circumstances=_circumstances(circumstances))
    if plot is not None:
        plot_histogram(
            {k: float(p) for k, p in odds.wounds.items()},
            plot,
            title=f"{a.name} attacks {d.name}: wounds inflicted",
            xlabel="wounds",
        )
        from affray.cli.estimates import wrote

        wrote(plot, as_json)
    if as_json:
        emit_json(
            {
                "p_hit": float(odds.p_hit),
                "wounds": {str(k): float(p) for k, p in odds.wounds.items()},
                "p_defender_out": float(odds.p_out),
                "p_wound": float(odds.p_wound),
            }
        )
        return
    table(
        f"{a.name} attacks {d.name} (who has {wounds} wounds): hit {percent(odds.p_hit)}, "
        f"at least one wound {percent(odds.p_wound)}, takes out {percent(odds.p_out)}",
        ("wounds", "probability"),
        [(str(k), percent(p)) for k, p in odds.wounds.items()],
    )
    table(
        f"{d.name}'s shock check ({d.hit_dice.text}): chance to keep fighting",
        ("total wounds", "keeps fighting"),
        [(str(w), percent(p)) for w, p in shock_table(d.hit_dice).items()],
    )


@mst2.command("table")
@click.option(
    "--attacker",
    "attacker_sheet",
    type=sheet_argument,
    default=None,
    help="Take skill-independent stats (weapon, grip, extra power) from this sheet.",
)
@click.option("--weapon", "weapon_name", default="sword", show_default=True, help="Catalog weapon.")
@click.option(
    "--grip", type=click.Choice(["one-handed", "two-handed"]), default=None, help="Weapon grip."
)
@click.option(
    "--skills",
    default="0-10",
    show_default=True,
    metavar="LOW-HIGH",
    help="Range of attacker skills (rows).",
)
@click.option(
    "--hit-dice",
    "hit_dice",
    default="1d10",
    show_default=True,
    help="Defender's hit dice, for the chance to take them out.",
)
@wounds_option
@circumstance_option
@click.option(
    "--measure",
    type=click.Choice(["hit", "wound", "out", "all"]),
    default="all",
    show_default=True,
    help="Which probability to show in table and markdown output.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "csv", "markdown", "json"]),
    default="table",
    show_default=True,
    help="How to print the grid (json: the same as --json).",
)
@json_option
def table_command(
    attacker_sheet: str | None,
    weapon_name: str,
    grip: str | None,
    skills: str,
    hit_dice: str,
    wounds: int,
    circumstances: tuple[str, ...],
    measure: str,
    fmt: str,
    as_json: bool,
) -> None:
    """Odds tables for designers.

    Hit, at least one wound and taking the defender out, over attacker skill
    (rows) and defender armour with and without a shield (columns).
    """
    from affray.cli.output import emit_json
    from affray.cli.output import table as print_table
    from affray.rulesystems.mst2.odds import (
        grid_csv,
        grid_markdown,
        grid_rows,
        grid_table,
        odds_grid,
    )

    low, high = _skill_range(skills)
    grid = odds_grid(
        attacker_sheet=load_mst2(attacker_sheet) if attacker_sheet else None,
        weapon_name=weapon_name,
        grip=grip,
        skills=range(low, high + 1),
        hit_dice=hit_dice,
        wounds=wounds,
        circumstances=_circumstances(circumstances),
    )
    if as_json or fmt == "json":
        emit_json({"title": grid.title, "rows": grid_rows(grid)})
    elif fmt == "csv":
        click.echo(grid_csv(grid), nl=False)
    elif fmt == "markdown":
        click.echo(grid_markdown(grid, measure), nl=False)
    else:
        for title, header, body in grid_table(grid, measure):
            print_table(title, header, body)


def _skill_range(text: str) -> tuple[int, int]:
    parts = text.split("-")
    try:
        low, high = (int(parts[0]), int(parts[-1])) if len(parts) in (1, 2) else (-1, -1)
    except ValueError:
        low = high = -1
    if not 0 <= low <= high <= 100:
        raise click.BadParameter(
            f"{text!r} is not a range of skills such as 0-10 (0 to 100)", param_hint="'--skills'"
        )
    return low, high


@mst2.command("exchange")
@click.argument("first", type=sheet_argument)
@click.argument("second", type=sheet_argument)
@click.option(
    "--rounds",
    type=click.IntRange(min=1, max=MAX_ROUNDS),
    default=MAX_ROUNDS,
    show_default=True,
    help="Stop after this many rounds.",
)
@rolls_option
@seed_option
@lethality_option
@json_option
def exchange_command(
    first: str,
    second: str,
    rounds: int,
    rolls: str | None,
    seed: int | None,
    lethality: str,
    as_json: bool,
) -> None:
    """Narrate a duel, with each attack's odds.

    FIRST and SECOND fight blow by blow (the same duel as ``affray duel --narrate``,
    with the exact odds of every attack before it is rolled).

    FIRST attacks, then SECOND, alternating; the distance starts at the longer
    reach and counter-attacks follow the reach rules.
    """
    from affray.api import duel_setup
    from affray.cli.narrated import ai_seed, narrated_duel
    from affray.rulesystems.mst2.ruleset import Mst2Ruleset

    a, b = load_mst2(first), load_mst2(second)
    setup = duel_setup(a, b, Mst2Ruleset(lethality=_lethality(lethality)))
    dice = dice_source(rolls, seed)
    narrated_duel(setup, dice, as_json, odds=True, max_rounds=rounds, seed=ai_seed(seed, rolls))


def _emit(events: Any, as_json: bool, summary: dict[str, Any]) -> None:
    from affray.cli.output import emit_json, print_lines
    from affray.narration import narrate
    from affray.rulesystems.mst2.narration import NARRATION

    if as_json:
        emit_json({**summary, "events": [event.to_dict() for event in events]})
    else:
        print_lines(narrate(events, NARRATION))


def _state_json(state: Any) -> dict[str, Any]:
    return {"wounds": state.wounds, "condition": state.condition.value, "out": not state.fighting}


@mst2.command("shoot")
@click.argument("shooter", type=sheet_argument)
@click.argument("target", type=sheet_argument)
@click.option(
    "--near",
    "near",
    multiple=True,
    type=sheet_argument,
    help="A combatant near the target (repeatable).",
)
@click.option(
    "--engaged",
    "engaged",
    multiple=True,
    type=sheet_argument,
    help="A foe in melee with the shooter (repeatable).",
)
@wounds_option
@rolls_option
@seed_option
@lethality_option
@circumstance_option
@json_option
def shoot_command(
    shooter: str,
    target: str,
    near: tuple[str, ...],
    engaged: tuple[str, ...],
    wounds: int,
    rolls: str | None,
    seed: int | None,
    lethality: str,
    circumstances: tuple[str, ...],
    as_json: bool,
) -> None:
    """A ranged attack, with stray shots.

    SHOOTER shoots at TARGET. An odd d20 may strike one of the --near combatants
    instead; --engaged foes counter-attack first (engaged at their reach).

    Dice order: counter-attacks; the d20; the scatter die (odd face, someone near);
    the missile's power dice; the victim's hit dice.
    """
    from affray.rulesystems.mst2 import Engagement, FighterState, Target, ranged_attack

    a = load_mst2(shooter)
    dice = dice_source(rolls, seed)
    result = ranged_attack(
        a,
        FighterState(),
        Target(load_mst2(target), FighterState(wounds)),
        dice,
        nearby=[Target(load_mst2(p), FighterState()) for p in near],
        engaged=[Engagement(f, FighterState(), f.reach) for f in map(load_mst2, engaged)],
        circumstances=_circumstances(circumstances),
        lethality=_lethality(lethality),
    )
    warn_unused(dice)
    attack = result.attack
    _emit(
        result.events,
        as_json,
        {
            "prevented": result.prevented,
            "victim": result.victim,
            "natural": attack.natural if attack else None,
            "total": attack.total if attack else None,
            "hit": attack.hit if attack else False,
            "power_rolls": list(attack.power_faces) if attack else [],
            "wounds_inflicted": attack.wounds if attack else 0,
            "shock_total": attack.shock_total if attack else None,
            "shooter": _state_json(result.shooter),
        },
    )


@mst2.command("hazard")
@click.argument("sheet", type=sheet_argument)
@click.argument("kind", type=click.Choice(["fall", "poison", "burned", "on-fire"]))
@click.option("--feet", type=click.IntRange(0, 100_000), default=0, help="Height of a fall.")
@click.option("--toxicity", type=click.IntRange(1, 3), default=1, help="Poison: 1 to 3 wounds.")
@click.option("--ignore-armor", is_flag=True, help="Fire that armour does not stop.")
@wounds_option
@rolls_option
@seed_option
@lethality_option
@json_option
def hazard_command(
    sheet: str,
    kind: str,
    feet: int,
    toxicity: int,
    ignore_armor: bool,
    wounds: int,
    rolls: str | None,
    seed: int | None,
    lethality: str,
    as_json: bool,
) -> None:
    """Falls, poison and fire.

    A fall (1 wound per 10 ft), poison (1-3 wounds), being burned or on fire (1d12
    against protection); then the shock check.
    """
    from affray.rulesystems.mst2 import FighterState, burn, fall, poison

    fighter = load_mst2(sheet)
    dice = dice_source(rolls, seed)
    state, rules = FighterState(wounds), {"lethality": _lethality(lethality)}
    if kind == "fall":
        result = fall(fighter, state, feet, dice, **rules)
    elif kind == "poison":
        result = poison(fighter, state, toxicity, dice, **rules)
    else:
        result = burn(
            fighter,
            state,
            dice,
            on_fire=kind == "on-fire",
            armor_mitigates=not ignore_armor,
            **rules,
        )
    warn_unused(dice)
    _emit(
        result.events,
        as_json,
        {
            "wounds_inflicted": result.wounds,
            "shock_total": result.shock_total,
            **_state_json(result.state),
        },
    )


@mst2.command("heal")
@click.argument("sheet", type=sheet_argument)
@click.option(
    "--wounds",
    type=click.IntRange(min=0, max=10_000),
    default=0,
    show_default=True,
    help="Wounds the fighter has before resting.",
)
@click.option(
    "--setting",
    type=click.Choice(["low", "high"]),
    default="low",
    show_default=True,
    help="Low or high fantasy.",
)
@click.option(
    "--days", type=click.IntRange(1, 365), default=1, show_default=True, help="Days of rest."
)
@rolls_option
@seed_option
@json_option
def heal_command(
    sheet: str,
    wounds: int,
    setting: str,
    days: int,
    rolls: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Heal by days of rest.

    Low fantasy: roll the hit dice; below the wounds, heal one. High fantasy: heal
    the hit-dice total.
    """
    from affray.rulesystems.mst2 import FighterState, Setting, rest_one_day

    fighter = load_mst2(sheet)
    dice = dice_source(rolls, seed)
    state = FighterState(wounds)
    events = []
    for _ in range(days):
        result = rest_one_day(fighter, state, Setting(setting), dice)
        state = result.state
        if result.event is not None:
            events.append(result.event)
    warn_unused(dice)
    _emit(events, as_json, {"wounds": state.wounds, "days": days})
    if not as_json and setting == "low" and events:
        click.echo(
            "(low fantasy, as written: a day heals one wound only when the hit-dice roll "
            "is less than the wounds; --setting high heals the roll's total; "
            "docs/rules/mst2.md)"
        )
