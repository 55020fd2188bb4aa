"""``affray fight ENCOUNTER``: a narrated fight between sides of many combatants."""

from __future__ import annotations

import os
import secrets
import time
from typing import Any, cast

import click

from affray.answers import MAX_ROUNDS
from affray.cli.estimates import announcer, wrote
from affray.cli.narrated import ai_seed, play
from affray.cli.options import (
    dice_source,
    json_option,
    plot_option,
    rolls_option,
    seed_option,
    warn_unused,
)
from affray.cli.output import ProgressBar, emit_json, percent, table
from affray.encounter import Cursor
from affray.errors import AffrayError, NotModelledError
from affray.plots import check_plot_path, plot_by_round, plot_fight_odds
from affray.quoting import wins
from affray.sheets import load_encounter


@click.command("fight")
@click.argument(
    "encounter_file", metavar="ENCOUNTER", type=click.Path(dir_okay=False, path_type=str)
)
@seed_option
@rolls_option
@click.option(
    "--max-rounds",
    type=click.IntRange(min=1, max=MAX_ROUNDS),
    default=None,
    help="Override the encounter's round cap.",
)
@click.option(
    "--odds",
    "show_odds",
    is_flag=True,
    help="Before each attack, its exact odds given the target's state then (where the "
    "system has odds of one attack).",
)
@click.option(
    "-n",
    "count",
    type=click.IntRange(min=1, max=10**9),
    default=None,
    help="Simulate N fights instead: each side's chance to win, who is left standing.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=256),
    default=None,
    help="With -n: worker processes; default: one per CPU. Results do not depend on it.",
)
@click.option(
    "--engine",
    type=click.Choice(["auto", "fast", "reference"]),
    default="auto",
    show_default=True,
    help="With -n: the system's fast engine where it plays the fight (auto), the fast "
    "one or a refusal saying why not (fast), or the reference engine.",
)
@click.option(
    "--exact",
    is_flag=True,
    help="Exact odds of the whole encounter, where its system has them (small fights: a "
    "clear refusal past the limit).",
)
@click.option(
    "--by-round",
    is_flag=True,
    help="With -n or --exact: each side's chance to have won by the end of each round, "
    "and each combatant's to be standing after it (simulated, the reference engine plays "
    "the fights).",
)
@plot_option("(with -n) how many rounds the fights lasted, and who was left standing")
@json_option
def fight_command(
    encounter_file: str,
    seed: int | None,
    rolls: str | None,
    max_rounds: int | None,
    show_odds: bool,
    count: int | None,
    workers: int | None,
    engine: str,
    exact: bool,
    by_round: bool,
    plot: str | None,
    as_json: bool,
) -> None:
    """Run and narrate the encounter in a file; or, with -n N, simulate N fights of it.

    ENCOUNTER is a TOML file (docs/encounters.md); every action is narrated.

    With --json: the outcome and the full event log (with -n: the odds).
    """
    if by_round and count is None and not exact:
        raise click.UsageError(
            "--by-round goes with -n N (the simulated fights, counted round by round) or "
            "--exact (the exact odds, round by round)"
        )
    if by_round:
        if rolls is not None or show_odds or engine == "fast" or (exact and count is not None):
            raise click.UsageError(
                "--by-round is either exact (--exact) or simulated by the reference engine "
                "(-n N): leave out --rolls, --odds and --engine fast, and one of --exact "
                "and -n"
            )
        _by_round(encounter_file, count, seed, max_rounds, workers, plot, as_json)
        return
    if exact:
        if count is not None or rolls is not None or show_odds or plot or workers:
            raise click.UsageError(
                "--exact works the odds out: leave out -n, --rolls, --odds, --plot and --workers"
            )
        if engine != "auto":
            raise click.UsageError("--engine picks who simulates -n: leave it out with --exact")
        _exact(encounter_file, max_rounds, as_json)
        return
    if count is not None:
        if rolls is not None or show_odds:
            raise click.UsageError("-n simulates many fights: leave out --rolls and --odds")
        _simulate(encounter_file, count, seed, max_rounds, workers, plot, as_json, engine)
        return
    if plot is not None or workers is not None or engine != "auto":
        raise click.UsageError("--plot, --workers and --engine go with -n N (a simulation)")
    setup = load_encounter(encounter_file)
    dice = dice_source(rolls, seed)
    odds = setup.system if show_odds else None
    if odds is not None and odds.live_odds is None:
        click.echo(
            f"warning: --odds: {setup.system.title} has no exact odds of an attack", err=True
        )
        odds = None
    log, final = play(
        setup.encounter,
        setup.ruleset,
        setup.answers(dice, seed=ai_seed(seed, rolls)),
        name=setup.name,
        max_rounds=max_rounds or setup.max_rounds,
        quiet=as_json,
        odds=odds,
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


def _exact(path: str, max_rounds: int | None, as_json: bool) -> None:
    """``fight ENC --exact``: the encounter's exact odds, where its system has them."""
    setup = load_encounter(path)
    solve = setup.system.exact_fights
    if solve is None:
        raise AffrayError(
            f"{setup.system.title} has no exact odds of whole encounters",
            hint=f"simulate it instead: affray fight {path} -n 100000",
        )
    cursor = Cursor(setup.encounter, max_rounds or setup.max_rounds)
    first = setup.system.exact_compiles_first
    if first is not None and first():  # as fight -n says it
        click.echo("compiling the exact engine first: once per machine, about 15 s", err=True)
    took = time.perf_counter()
    try:
        odds = solve(setup.ruleset, cursor, tactics=setup.tactics, first=None)
    except NotModelledError as refused:
        raise AffrayError(
            f"no exact odds of this encounter: the {refused.engine} does not play "
            f"{'; '.join(refused.reasons)}",
            hint=f"simulate it instead: affray fight {path} -n 100000",
        ) from None
    took = time.perf_counter() - took
    if as_json:
        emit_json(odds.to_dict())
        return
    table(
        f"{setup.name}: exact odds, mean {odds.mean_rounds:.2f} rounds ({took:.2f} s)",
        ("outcome", "chance"),
        [
            *((wins(side), f"{p * 100:.2f}%") for side, p in odds.p_wins.items()),
            ("draw", f"{odds.p_draw * 100:.2f}%"),
        ],
    )
    table(
        "Still standing at the end",
        ("combatant", "chance"),
        [(cid, f"{p * 100:.1f}%") for cid, p in odds.p_standing.items()],
    )


SHOWN_ROUNDS = 30
"""Rounds the by-round table prints at most (the JSON has every one)."""


def _by_round(
    path: str,
    count: int | None,
    seed: int | None,
    max_rounds: int | None,
    workers: int | None,
    plot: str | None,
    as_json: bool,
) -> None:
    """``fight ENC -n N --by-round`` (the fights counted round by round) or ``fight ENC
    --exact --by-round`` (the exact odds of each round)."""
    # here, not at the top: the engines and numpy (~180 ms) load for the odds of many
    # fights alone, never to tell one
    from affray.sim.by_round import exact_by_round, simulate_by_round
    from affray.sim.fights import FightOdds, encounter_file, set_out

    if plot is not None:
        check_plot_path(plot)
    start = encounter_file(path, max_rounds)
    fighting = set_out(start)
    encounter = fighting.cursor.encounter
    sides, ids = encounter.sides, tuple(c.id for c in encounter.combatants)
    name = fighting.name
    if count is None:
        if fighting.system.exact_fights is None:
            title = fighting.system.title
            raise AffrayError(
                f"{title} has no exact odds of whole encounters",
                hint=f"simulate them round by round instead: affray fight {path} -n 10000 "
                "--by-round",
            )
        first = fighting.system.exact_compiles_first
        if first is not None and first():
            click.echo("compiling the exact engine first: once per machine, about 15 s", err=True)
        bar = ProgressBar(fighting.cursor.max_rounds, "rounds", threshold=1)
        try:
            with bar as advance:
                rows = exact_by_round(fighting, progress=advance)
        except NotModelledError as refused:
            raise AffrayError(
                f"no exact odds of this encounter: the {refused.engine} does not play "
                f"{'; '.join(refused.reasons)}",
                hint=f"simulate them round by round instead: affray fight {path} -n 10000 "
                "--by-round",
            ) from None
        cursor = fighting.cursor  # the fight's own exact keys beside the rows (SPEC: adds)
        whole = fighting.system.exact_fights(
            fighting.ruleset, cursor, tactics=fighting.tactics, first=fighting.first
        )
        found: dict[str, Any] = {**whole.to_dict(), "method": "exact", "by_round": rows}
        title = f"{name}: exact odds, round by round"
        heading = "exact odds of each round"
    else:
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        progress = ProgressBar(count, "fights", threshold=200)
        announce = announcer("fight", bar=progress.showing and not as_json)
        with progress as advance:
            totals, used = simulate_by_round(
                start,
                count,
                seed=seed,
                workers=workers or os.cpu_count() or 1,
                progress=advance,
                estimate=announce,
            )
        rows = totals.rows(sides, ids)
        simulated = FightOdds(totals.totals(), sides, ids, used, name, engine="reference")
        found = {**simulated.to_dict(), "by_round": rows}  # the fight's keys, its rounds
        title = (
            f"{name}: {count:,} simulated fights (seed {used}, reference engine), round by round"
        )
        heading = f"{count:,} simulated fights, round by round"
    if plot is not None:
        lines = [{"round": row["round"], **row["sides"]} for row in rows]
        plot_by_round(lines, {side: side for side in sides}, plot, title=f"{name}: {heading}")
        wrote(plot, as_json)
    if as_json:
        emit_json(found)
        return
    shown = []
    for row in rows[:SHOWN_ROUNDS]:
        going = max(0.0, 1 - sum(row["sides"].values()) - row["draw"])
        shown.append(
            (
                str(row["round"]),
                *(percent(row["sides"][s]) for s in sides),
                percent(row["draw"]),
                percent(going),
            )
        )
        if going < 0.001:
            break
    table(
        title,
        ("round", *(f"won by {side}" for side in sides), "a draw", "still going"),
        shown,
    )
    if rows:
        middle = rows[min(len(rows), 3) - 1]
        table(
            f"Standing after round {middle['round']}",
            ("combatant", "chance"),
            [(cid, percent(p)) for cid, p in middle["standing"].items()],
        )


def _simulate(
    path: str,
    count: int,
    seed: int | None,
    max_rounds: int | None,
    workers: int | None,
    plot: str | None,
    as_json: bool,
    engine: str = "auto",
) -> None:
    """``fight ENC -n N``: the odds of the encounter from N simulated fights."""
    # here, not at the top: the engines and numpy (~180 ms) load for -n alone
    from affray.sim.fights import Engine, encounter_file, fast_fights, simulate_fights

    if plot is not None:
        check_plot_path(plot)
    start = encounter_file(path, max_rounds)
    fast = fast_fights(start) if engine != "reference" else None
    if getattr(fast, "compiles_first", False):  # a fast engine may say so (MST-2's does)
        click.echo(
            f"compiling the {getattr(fast, 'engine', 'fast engine')} first: once per machine, "
            "about 20 s",
            err=True,
        )
    if seed is None:  # every run says the seed that repeats it: a short one
        seed = secrets.randbelow(1_000_000)
    progress = ProgressBar(count, "fights", threshold=500)
    announce = announcer("fight", bar=progress.showing and not as_json)
    with progress as advance:
        odds = simulate_fights(
            start,
            count,
            seed=seed,
            workers=workers or os.cpu_count() or 1,
            progress=advance,
            estimate=announce,
            engine=cast("Engine", engine),
        )
    if plot is not None:
        standing = {cid: odds.p_standing(cid) for cid in odds.combatants}
        title = f"{odds.name}: {odds.n:,} simulated fights"
        plot_fight_odds(odds.totals.rounds, standing, odds.n, plot, title=title)

        wrote(plot, as_json)
    if as_json:
        emit_json(odds.to_dict())
        return
    if odds.note:
        click.echo(f"note: {odds.note}", err=True)
    table(
        f"{odds.name}: {odds.n:,} simulated fight{'' if odds.n == 1 else 's'} (seed {seed}, "
        f"{odds.engine}), mean {odds.totals.mean_rounds:.2f} rounds",
        ("outcome", "fights", "share", "95% interval"),
        [
            *(
                (
                    wins(side),
                    f"{odds.totals.wins.get(side, 0):,}",
                    f"{odds.p_wins(side) * 100:.2f}%",
                    "{:.2f}% to {:.2f}%".format(*(p * 100 for p in odds.ci95(side))),
                )
                for side in odds.sides
            ),
            ("draw", f"{odds.totals.draws:,}", f"{odds.p_draw * 100:.2f}%", ""),
        ],
    )
    table(
        "Still standing at the end",
        ("combatant", "chance"),
        [(cid, f"{odds.p_standing(cid) * 100:.1f}%") for cid in odds.combatants],
    )
