"""``affray duel A B``: who wins a one-on-one fight, exactly or by simulation."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import click

from affray.api import duel_setup
from affray.cli.estimates import duels_announcer, wrote
from affray.cli.narrated import ai_seed, narrated_duel
from affray.cli.options import (
    dice_source,
    json_option,
    plot_option,
    rolls_option,
    seed_option,
)
from affray.cli.output import ProgressBar, emit_json, percent, table
from affray.duels import DEFAULT_DUELS, QUICK_SECONDS, SLOW, RunSpec, answer_duel, method_for
from affray.encounter import Cursor, told_apart
from affray.errors import AffrayError, SheetError
from affray.plots import check_plot_path, plot_by_round, plot_duel_odds, plot_rounds
from affray.registry import system_of
from affray.sheets.combatants import load_pair
from affray.sim.fights import Fighting, fast_fights, simulate_fights
from affray.stats import wilson_interval

if TYPE_CHECKING:
    from affray.answers import DuelAnswer, Engine, Method
    from affray.registry import AnySystem


@click.command("duel")
@click.argument("a", type=click.Path(dir_okay=False, path_type=str))
@click.argument("b", type=click.Path(dir_okay=False, path_type=str))
@click.option("--exact", is_flag=True, help="Exact odds (absorbing Markov chain); the default.")
@click.option("--rational", is_flag=True, help="With the exact odds, their exact fractions too.")
@click.option(
    "--digits",
    "all_digits",
    is_flag=True,
    help="With --rational: every digit of each fraction (else the first and last few).",
)
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
    type=click.Choice(["fast", "reference"]),
    default="fast",
    show_default=True,
    help="Monte Carlo engine: the fast one where the system has it, or the reference "
    "(each duel through the encounter engine).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=256),
    default=None,
    help="Worker processes; default: one per CPU. Results do not depend on it.",
)
@click.option(
    "--by-round",
    is_flag=True,
    help="With the exact odds: each side's chance to have won by the end of each round "
    "(--plot draws them).",
)
@click.option("--narrate", is_flag=True, help="Fight one duel and narrate it, blow by blow.")
@rolls_option
@plot_option(
    "how many rounds the duel lasts (exact, by winner; or from simulated duels, "
    "with each outcome's 95% interval)"
)
@json_option
def duel_command(
    a: str,
    b: str,
    exact: bool,
    rational: bool,
    all_digits: bool,
    count: int | None,
    seed: int | None,
    engine: Engine,
    workers: int | None,
    by_round: bool,
    narrate: bool,
    rolls: str | None,
    plot: str | None,
    as_json: bool,
) -> None:
    """Who wins a duel between sheets A and B.

    They fight by their system's rules (who opens, reach, initiative) until one is
    out. Exact odds by default where the system has them; -n N simulates; --narrate
    tells one duel (--seed or --rolls).
    """
    if exact and count is not None:
        raise click.UsageError("choose one of --exact and -n N")
    if rational and (count is not None or narrate):
        raise click.UsageError("--rational goes with the exact odds: leave out -n and --narrate")
    if all_digits and not rational:
        raise click.UsageError("--digits shows --rational's fractions whole: add --rational")
    if narrate and (exact or count is not None):
        raise click.UsageError("--narrate tells one duel: leave out --exact and -n")
    if rolls is not None and not narrate:
        raise click.UsageError("--rolls types in the dice of one told duel: add --narrate")
    if plot is not None and narrate:
        raise click.UsageError("--plot draws the odds of many duels: leave out --narrate")
    if by_round and (count is not None or narrate):
        raise click.UsageError(
            "--by-round goes with the exact odds: leave out -n and --narrate "
            "(-n N --plot PNG draws the rounds simulated duels last)"
        )
    if plot is not None:
        check_plot_path(plot)
    first, second = load_pair(a, b)
    system = system_of(first)
    if not system.owns(second):
        raise SheetError(
            "the two sheets are of different rule systems",
            path=b,
            key="system",
            hint=f"a duel needs two sheets of one system ({a} is a {system.name} sheet)",
        )
    first, second = told_apart(first, second)  # every line of the report says which
    if narrate:
        narrated_duel(
            duel_setup(first, second),
            dice_source(rolls, seed),
            as_json,
            seed=ai_seed(seed, rolls),
        )
        return
    if by_round and system.rounds is None:
        raise AffrayError(
            f"{system.title} has no exact odds round by round",
            hint=f"simulate it: affray duel {a} {b} -n 100000 --plot PNG draws the rounds "
            "its duels last, by winner",
        )
    exactly = exact or by_round or rational  # round by round and fractions are exact odds
    asked: Method | None = "exact" if exactly else None if count is None else "monte-carlo"
    method = method_for(system, asked)
    slow = quick = None
    if asked is None and system.exact_within is not None:  # exact if they come quickly
        quick = system.exact_within(first, second, seconds=QUICK_SECONDS)
        method = "monte-carlo" if quick is None else "exact"
        slow = None if quick is not None else f"{SLOW} (--exact computes them)"
    if method == "monte-carlo" and count is None:
        count = DEFAULT_DUELS
    if count is None:
        answer = quick or answer_duel(
            system, first, second, method="exact", run=RunSpec(1), rational=rational
        )
        _exact(system, first, second, answer, plot, as_json, by_round=by_round, whole=all_digits)
        if plot is not None:
            wrote(plot, as_json)
        return
    if seed is None:  # every run prints the seed that repeats it: a short one
        seed = secrets.randbelow(1_000_000)
    cores = workers or os.cpu_count() or 1
    answer = _simulate(system, first, second, count, seed, engine, cores, as_json, note=slow)
    if plot is not None:
        _plot_simulated(DuelStart(a, b), first.name, second.name, answer, cores, plot)
        wrote(plot, as_json)


SHOWN_ROUNDS = 30
"""Rounds the by-round table prints at most (the JSON has every one)."""


def _by_round_table(a: str, b: str, rows: list[dict[str, float]]) -> None:
    """Each round, until the duel is all but decided: who has won by its end."""
    shown = []
    for row in rows[:SHOWN_ROUNDS]:
        going = max(0.0, 1 - row["p_a_won"] - row["p_b_won"])
        shown.append(
            (str(row["round"]), percent(row["p_a_won"]), percent(row["p_b_won"]), percent(going))
        )
        if going < 0.0005:
            break
    table(
        "Round by round: who has won by the end of it",
        ("round", f"won by {a}", f"won by {b}", "still going"),
        shown,
    )


@dataclass(frozen=True, slots=True)
class DuelStart:
    """The duel of sheets A and B as a fight's start (a
    :class:`~affray.sim.fights.Start`: picklable, by the sheets' references), for
    the fight simulator, which keeps how many rounds each fight lasted."""

    a: str
    b: str

    def fighting(self) -> Fighting:
        setup = duel_setup(*load_pair(self.a, self.b))
        cursor = Cursor(setup.encounter, setup.max_rounds)
        return Fighting(setup.system, setup.ruleset, cursor, setup.tactics, setup.name)


def _plot_simulated(
    start: DuelStart,
    a_name: str,
    b_name: str,
    answer: DuelAnswer,
    workers: int,
    plot: str,
) -> None:
    """How long simulated duels last, and who wins them with their intervals.

    The duel simulators count wins and the total of rounds only, so the rounds are
    those of as many duels again, played by the fight simulator (the one behind
    ``affray fight -n``, the same rules and tactics) with the same seed; the outcomes
    are the table's."""
    fast = fast_fights(start)
    if getattr(fast, "compiles_first", False):  # as affray fight -n says it
        click.echo(
            f"compiling the {getattr(fast, 'engine', 'fast engine')} for the plot first: "
            "once per machine, about 20 s",
            err=True,
        )
    n, b_wins, draws = answer.n, answer.b_wins, answer.draws
    fights = simulate_fights(start, n, seed=answer.seed, workers=workers)
    plot_duel_odds(
        fights.totals.rounds,
        fights.n,
        [
            (f"{a_name} wins", answer.p_a_wins, answer.ci95_a_wins),
            (f"{b_name} wins", answer.p_b_wins, wilson_interval(b_wins, n)),
            ("draw", answer.p_draw, wilson_interval(draws, n)),
        ],
        plot,
        title=f"{a_name} vs {b_name}: {n:,} simulated duels (seed {answer.seed}), "
        f"mean {answer.mean_rounds:.2f} rounds",
        rounds_note=f"(as many duels again, by the fight simulator: mean "
        f"{fights.totals.mean_rounds:.2f})",
    )


def _exact(
    system: AnySystem,
    a: Any,
    b: Any,
    odds: DuelAnswer,
    plot: str | None,
    as_json: bool,
    *,
    by_round: bool = False,
    whole: bool = False,
) -> None:
    rows = system.rounds(a, b).by_round() if by_round and system.rounds is not None else None
    if plot is not None and rows is not None:
        plot_by_round(
            rows,
            {"p_a_won": a.name, "p_b_won": b.name},
            plot,
            title=f"{a.name} vs {b.name}: exact odds of having won, round by round",
        )
    elif plot is not None and system.rounds is not None:
        rounds = system.rounds(a, b)
        plot_rounds(
            rounds,
            a.name,
            b.name,
            plot,
            title=f"{a.name} vs {b.name}: exact odds of the round the duel ends in",
        )
    if as_json:
        emit_json(odds.to_json() | ({"by_round": rows} if rows is not None else {}))
        return
    if rows is not None:
        _by_round_table(a.name, b.name, rows)
    table(
        f"{a.name} vs {b.name}: exact odds, mean {odds.mean_rounds:.2f} rounds",
        ("outcome", "probability"),
        [
            (f"{a.name} wins", percent(odds.p_a_wins)),
            (f"{b.name} wins", percent(odds.p_b_wins)),
            ("draw", percent(odds.p_draw)),
        ],
    )
    fractions = odds.fractions
    if fractions:  # hundreds of digits: shortened, whole with --digits (and in --json)
        click.echo("Exact fractions" + ("" if whole else " (--digits: every digit)"))
        for label, key in (
            (f"{a.name} wins", "p_a_wins"),
            (f"{b.name} wins", "p_b_wins"),
            ("draw", "p_draw"),
            ("mean rounds", "mean_rounds"),
        ):
            click.echo(f"  {label} = {fractions[key] if whole else short_fraction(fractions[key])}")
    won = odds.winner_wounds
    if not won:
        return
    shown = sorted(
        (
            w
            for w in set(won["a"]) | set(won["b"])
            if max(won["a"].get(w, 0), won["b"].get(w, 0)) >= 0.0005
        ),
        key=int,
    )
    table(
        "The winner's wounds at the end (rows under 0.05% left out)",
        ("wounds", f"{a.name} wins with", f"{b.name} wins with"),
        [(w, percent(won["a"].get(w, 0)), percent(won["b"].get(w, 0))) for w in shown],
    )


def _simulate(
    system: AnySystem,
    a: Any,
    b: Any,
    count: int,
    seed: int | None,
    engine: Engine,
    workers: int,
    as_json: bool,
    *,
    note: str | None = None,
) -> DuelAnswer:
    fast = engine == "fast" and system.simulate is not None
    progress = ProgressBar(count, "duels", threshold=20_000 if fast else 2_000)
    # where no progress bar shows, say before the work how long a long run will take
    announce = duels_announcer(bar=progress.showing and not as_json)
    with progress as advance:
        run = RunSpec(count, seed, workers, progress=advance, announce=announce)
        answer = answer_duel(system, a, b, method="monte-carlo", run=run, engine=engine)
    answer = answer.noted(note)
    if answer.note is not None:  # one line: names are plain text (checked when loaded)
        click.echo(f"note: {answer.note}", err=True)
    _report(a.name, b.name, answer, as_json)
    return answer


def _report(a_name: str, b_name: str, answer: DuelAnswer, as_json: bool) -> None:
    if as_json:
        emit_json(answer.to_json())
        return
    n, a_wins, b_wins, draws = answer.n, answer.a_wins, answer.b_wins, answer.draws
    low, high = answer.ci95_a_wins
    table(
        f"{a_name} vs {b_name}: {n:,} simulated duel{'' if n == 1 else 's'} "
        f"({answer.engine} engine, seed {answer.seed}), "
        f"mean {answer.mean_rounds:.2f} rounds",
        ("outcome", "duels", "share"),
        [
            (f"{a_name} wins", f"{a_wins:,}", f"{answer.p_a_wins * 100:.3f}%"),
            (f"{b_name} wins", f"{b_wins:,}", f"{b_wins / n * 100:.3f}%"),
            ("draw", f"{draws:,}", f"{draws / n * 100:.3f}%"),
        ],
    )
    click.echo(f"95% interval for {a_name} winning: {low * 100:.3f}% to {high * 100:.3f}%")


def short_fraction(text: str, keep: int = 8) -> str:
    """``"4610537…3136426/5154…"`` of a long fraction: its first and last ``keep`` digits
    above and below, how many digits each has, and its value as a float
    (``4610…717/5154…7232 (190/190 digits) ≈ 0.894554``); a short one as it is."""
    top, _, bottom = text.partition("/")
    if len(text) <= 2 * keep + 24 or not bottom:
        return text

    def cut(digits: str) -> str:
        return digits if len(digits) <= 2 * keep + 1 else f"{digits[:keep]}…{digits[-keep:]}"

    value = Fraction(int(top), int(bottom))
    return f"{cut(top)}/{cut(bottom)} ({len(top)}/{len(bottom)} digits) ≈ {float(value):.9g}"
