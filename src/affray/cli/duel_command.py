"""``affray duel A B``: who wins a one-on-one fight, exactly or by simulation."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

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
    from affray.rules.midian.character import Character
    from affray.rules.mst2 import Fighter
    from affray.sim.stats import DuelStats


@click.command("duel")
@click.argument("a", type=click.Path(dir_okay=False, path_type=str))
@click.argument("b", type=click.Path(dir_okay=False, path_type=str))
@click.option("--exact", is_flag=True, help="Exact odds (absorbing Markov chain); the default.")
@click.option(
    "-n",
    "count",
    type=click.IntRange(min=1, max=10**10),
    default=None,
    help="Simulate N duels instead (Monte Carlo, with a 95% interval).",
)
@seed_option
@click.option(
    "--engine",
    type=click.Choice(["fast", "scalar"]),
    default="fast",
    show_default=True,
    help="Monte Carlo engine: the batch simulator, or the readable reference engine.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=256),
    default=None,
    help="Worker processes for the fast engine; default: one per CPU. Results do not depend on it.",
)
@click.option("--narrate", is_flag=True, help="Fight one duel and narrate it, blow by blow.")
@rolls_option
@plot_option("the distribution of the number of rounds")
@json_option
def duel_command(
    a: str,
    b: str,
    exact: bool,
    count: int | None,
    seed: int | None,
    engine: str,
    workers: int | None,
    narrate: bool,
    rolls: str | None,
    plot: str | None,
    as_json: bool,
) -> None:
    """Who wins a duel between sheets A and B.

    A attacks first, then B, in turn, until one is out; the distance opens at the
    longer reach (MST-2). Exact odds by default for MST-2; -n N simulates;
    --narrate tells one duel (--seed or --rolls).
    """
    from affray.errors import AffrayError, SheetError
    from affray.plots import check_plot_path
    from affray.rules.midian.character import Character
    from affray.rules.mst2 import Fighter
    from affray.sheets import load_sheet

    if exact and count is not None:
        raise click.UsageError("choose one of --exact and -n N")
    if plot is not None:
        check_plot_path(plot)
    first, second = load_sheet(a), load_sheet(b)
    if type(first) is not type(second):
        raise SheetError(
            "the two sheets are of different rule systems",
            path=b,
            key="system",
            hint="a duel needs two MST-2 sheets or two Midian sheets",
        )
    if narrate:
        _narrate(first, second, seed, rolls, as_json)
        return
    if isinstance(first, Character) and isinstance(second, Character):
        if exact:
            raise AffrayError(
                "exact duel odds exist for MST-2 only",
                hint="simulate a Midian duel instead: affray duel A B -n 10000",
            )
        _simulate_midian(
            first, second, count or 10_000, seed, workers or os.cpu_count() or 1, as_json
        )
        return
    assert isinstance(first, Fighter) and isinstance(second, Fighter)
    if count is None:
        _exact(first, second, plot, as_json)
    else:
        cores = workers or os.cpu_count() or 1
        _simulate(first, second, count, seed, engine, cores, plot, as_json)


def _narrate(a: Any, b: Any, seed: int | None, rolls: str | None, as_json: bool) -> None:
    """One duel through the encounter engine, told line by line (or as an event log)."""
    from affray.cli.fight_command import play
    from affray.cli.output import emit_json
    from affray.rules.midian.character import Character
    from affray.rules.midian.ruleset import MidianRuleset
    from affray.rules.mst2.duel import MAX_ROUNDS
    from affray.rules.mst2.ruleset import Mst2Ruleset
    from affray.sim import duel_encounter

    ruleset = MidianRuleset() if isinstance(a, Character) else Mst2Ruleset()
    dice = dice_source(rolls, seed)
    log, _ = play(
        duel_encounter(a, b, ruleset),
        ruleset,
        dice,
        name=f"{a.name} vs {b.name}",
        max_rounds=MAX_ROUNDS,
        quiet=as_json,
    )
    warn_unused(dice)
    if as_json:
        ended = log[-1].to_dict()
        emit_json(
            {
                "method": "narrated",
                "winner": ended["winner"],
                "rounds": ended["rounds"],
                "events": [event.to_dict() for event in log],
            }
        )


def _exact(a: Fighter, b: Fighter, plot: str | None, as_json: bool) -> None:
    from affray.cli.output import emit_json, percent, table
    from affray.odds import duel_odds, rounds_distribution

    odds = duel_odds(a, b)
    if plot is not None:
        from affray.plots import plot_rounds

        plot_rounds(rounds_distribution(a, b), a.name, b.name, plot, title=f"{a.name} vs {b.name}")
    if as_json:
        emit_json(
            {
                "method": "exact",
                "p_a_wins": float(odds.p_a_wins),
                "p_b_wins": float(odds.p_b_wins),
                "p_draw": float(odds.p_draw),
                "mean_rounds": float(odds.mean_rounds),
                "winner_wounds": {
                    side: {str(w): float(p) for w, p in dist.items()}
                    for side, dist in odds.winner_wounds.items()
                },
            }
        )
        return
    table(
        f"{a.name} vs {b.name}: exact odds, mean {float(odds.mean_rounds):.2f} rounds",
        ("outcome", "probability"),
        [
            (f"{a.name} wins", percent(odds.p_a_wins)),
            (f"{b.name} wins", percent(odds.p_b_wins)),
            ("draw", percent(odds.p_draw)),
        ],
    )
    won = odds.winner_wounds
    shown = sorted(
        w
        for w in set(won["a"]) | set(won["b"])
        if max(won["a"].get(w, 0), won["b"].get(w, 0)) >= 0.0005
    )
    table(
        "The winner's wounds at the end (rows under 0.05% left out)",
        ("wounds", f"{a.name} wins with", f"{b.name} wins with"),
        [(str(w), percent(won["a"].get(w, 0)), percent(won["b"].get(w, 0))) for w in shown],
    )


def _simulate(
    a: Fighter,
    b: Fighter,
    count: int,
    seed: int | None,
    engine: str,
    workers: int,
    plot: str | None,
    as_json: bool,
) -> None:
    from affray.sim import simulate_duels, simulate_fast

    with _Progress(count) as advance:
        if engine == "scalar":
            stats = simulate_duels(a, b, count, seed=seed, progress=advance)
            used_seed = seed
        else:
            stats, used_seed = simulate_fast(
                a, b, count, seed=seed, workers=workers, progress=advance
            )
    if plot is not None:
        click.echo("warning: --plot draws exact distributions; use it with --exact", err=True)
    _report(a.name, b.name, stats, engine, used_seed, as_json)


def _report(
    a_name: str, b_name: str, stats: DuelStats, engine: str, seed: int | None, as_json: bool
) -> None:
    from affray.cli.output import emit_json, table

    low, high = stats.ci95_a_wins
    if as_json:
        emit_json(
            {
                "method": "monte-carlo",
                "n": stats.n,
                "a_wins": stats.a_wins,
                "b_wins": stats.b_wins,
                "draws": stats.draws,
                "p_a_wins": stats.p_a_wins,
                "ci95_a_wins": [low, high],
                "mean_rounds": stats.mean_rounds,
                "engine": engine,
                "seed": seed,
            }
        )
        return
    table(
        f"{a_name} vs {b_name}: {stats.n:,} simulated duels ({engine} engine, seed {seed}), "
        f"mean {stats.mean_rounds:.2f} rounds",
        ("outcome", "duels", "share"),
        [
            (f"{a_name} wins", f"{stats.a_wins:,}", f"{stats.p_a_wins * 100:.3f}%"),
            (f"{b_name} wins", f"{stats.b_wins:,}", f"{stats.b_wins / stats.n * 100:.3f}%"),
            ("draw", f"{stats.draws:,}", f"{stats.draws / stats.n * 100:.3f}%"),
        ],
    )
    click.echo(f"95% interval for {a_name} winning: {low * 100:.3f}% to {high * 100:.3f}%")


def _simulate_midian(
    a: Character, b: Character, count: int, seed: int | None, workers: int, as_json: bool
) -> None:
    from affray.rules.midian.ruleset import MidianRuleset
    from affray.sim import simulate_encounter_duels

    with _Progress(count, threshold=2_000) as advance:
        stats = simulate_encounter_duels(
            a, b, MidianRuleset(), count, seed=seed, workers=workers, progress=advance
        )
    _report(a.name, b.name, stats, "scalar", seed, as_json)


class _Progress:
    """A rich progress bar on stderr for long runs at a terminal; silent otherwise."""

    def __init__(self, total: int, threshold: int = 20_000) -> None:
        self.total = total
        self.threshold = threshold
        self.bar: Any = None

    def __enter__(self) -> Any:
        if self.total < self.threshold or not sys.stderr.isatty():
            return lambda done: None
        from rich.progress import Progress

        from affray.cli.output import console

        self.bar = Progress(console=console(stderr=True), transient=True)
        self.bar.start()
        task = self.bar.add_task("duels", total=self.total)
        return lambda done: self.bar.advance(task, done)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
