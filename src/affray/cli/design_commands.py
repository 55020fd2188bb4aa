"""The rules asked backwards: ``affray solve``, ``sensitivity`` and ``frontier``
(docs/design.md; SPEC part 4)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click

from affray.cli.options import json_option, seed_option
from affray.quoting import possessive

if TYPE_CHECKING:
    from affray.design.day import Engine

F = TypeVar("F", bound=Callable[..., Any])

BUDGET_S = 3600.0
"""How long a question may take by default before it is refused (after its first
duel is timed): an hour."""


def odds_options(func: F) -> F:
    """--exact, -n, --seed, --engine, --dask, --workers and --budget: how each moved
    duel's odds are worked out, and where."""
    for option in reversed(
        (
            click.option(
                "--exact", is_flag=True, help="Exact odds (where the system has them; the default)."
            ),
            click.option(
                "-n",
                "count",
                type=click.IntRange(min=1, max=10**9),
                default=None,
                help="Simulate N duels of each moved pair instead (with 95% intervals).",
            ),
            seed_option,
            click.option(
                "--engine",
                type=click.Choice(["fast", "reference"]),
                default="fast",
                show_default=True,
                help="Monte Carlo engine.",
            ),
            click.option(
                "--dask",
                metavar="local|ADDRESS",
                default=None,
                help="Work on Dask: 'local' starts a cluster here; tcp://HOST:PORT uses a "
                "running scheduler.",
            ),
            click.option(
                "--workers",
                type=click.IntRange(min=1, max=256),
                default=None,
                help="Worker processes here (default: one per CPU). Results do not depend on it.",
            ),
            click.option(
                "--budget",
                type=click.FloatRange(min=0.1),
                default=BUDGET_S,
                show_default=True,
                metavar="SECONDS",
                help="Refuse a question that would take longer (estimated once its first "
                "duel is timed).",
            ),
        )
    ):
        func = option(func)
    return func


class Where:
    """Where the duels are worked out, and the progress shown while they are."""

    def __init__(self, dask: str | None, workers: int | None, budget: float, what: str) -> None:
        from affray.explore.backends import check_address

        if dask is not None:
            check_address(dask)
            if dask != "local" and workers is not None:
                raise click.UsageError(
                    "--workers sets the workers of this machine or of --dask local; a "
                    "running scheduler has its own"
                )
        self.dask = dask
        self.count = workers if workers is not None else (os.cpu_count() or 1)
        self.budget = budget
        self.what = what

    def backend(self) -> Callable[[], Any]:
        from affray.explore import backend

        return lambda: backend(self.dask, self.count)

    @property
    def workers(self) -> int | None:
        return self.count if self.dask in (None, "local") else None

    def announce(self, seconds: float, left: int, sharing: int) -> None:
        """Refuse a question past the budget; say how long a long one will take."""
        from affray.cli.estimates import about, estimate_after
        from affray.errors import AffrayError

        if seconds > self.budget:
            raise AffrayError(
                f"this would take {about(seconds, left, self.what, sharing, stops=False)}, "
                "past the "
                f"budget of {self.budget:,.1f} s",
                hint="try fewer values (--values, --range), fewer duels (-n), more "
                "workers (--dask), or a larger --budget",
            )
        if seconds > estimate_after():
            click.echo(about(seconds, left, self.what, sharing), err=True)

    @contextmanager
    def progress(self, total: int) -> Iterator[Callable[[int], None]]:
        """A progress bar at a terminal (nothing when piped); Ctrl-C stops the workers
        and exits 130."""
        from affray.cli.output import ProgressBar

        bar = ProgressBar(total, self.what + "s", threshold=1)
        try:
            with bar as advance:
                yield advance
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)


@click.command("solve")
@click.argument("a", type=click.Path(dir_okay=False, path_type=str))
@click.argument("b", type=click.Path(dir_okay=False, path_type=str), required=False)
@click.option(
    "--vary",
    required=True,
    metavar="SIDE.KEY",
    help="The key to move: a.skill (the first sheet's), b.armor (the second's); of an "
    "encounter, goblins.count, goblins.skill, goblins.2.hit_dice (its second member).",
)
@click.option(
    "--target",
    required=True,
    type=click.FloatRange(0.0, 1.0),
    help="The chance sought (0.5: an even chance).",
)
@click.option(
    "--for",
    "side",
    default=None,
    metavar="a|b|SIDE",
    help="Whose chance to win: a (the default) or b; of an encounter, a side's name.",
)
@click.option(
    "--values", default=None, metavar="V,V,…", help="The values to try (default: every one)."
)
@click.option(
    "--range",
    "span",
    type=(int, int),
    default=None,
    metavar="LOW HIGH",
    help="A number's values to try, both ends included.",
)
@odds_options
@json_option
def solve_command(
    a: str,
    b: str | None,
    vary: str,
    target: float,
    side: str | None,
    values: str | None,
    span: tuple[int, int] | None,
    exact: bool,
    count: int | None,
    seed: int | None,
    engine: str,
    dask: str | None,
    workers: int | None,
    budget: float,
    as_json: bool,
) -> None:
    """The value of one key that brings a side's chance to a TARGET, in the duel of
    sheets A and B, or in the encounter file A (with --for SIDE).

    Every value of the key is tried (skill 0 to 20, every armour, every weapon …) and
    each place where the chance passes the target is told: the values either side,
    their chances, and for a number the equivalent between them. Exact where the
    system has exact odds; -n N simulates, and then says when two neighbours cannot
    be told apart.
    """
    from affray.design.duels import pair, settings
    from affray.design.solve import plan, solve_duel

    if exact and count is not None:
        raise click.UsageError("choose one of --exact and -n N")
    if values is not None and span is not None:
        raise click.UsageError("choose one of --values and --range")
    listed = [v for v in values.split(",") if v.strip()] if values is not None else None
    if b is None:
        _solve_encounter(
            a, vary, target, side, listed, span, exact, count, seed, dask, workers, budget, as_json
        )
        return
    if side not in (None, "a", "b"):
        raise click.UsageError("--for is a or b in a duel (a side's name is an encounter's)")
    first, second = pair(a, b)
    how = settings(first.system, exact, count, seed, engine)
    where = Where(dask, workers, budget, "duel")
    tried = plan(first, second, vary, listed, span)[2]
    with where.progress(len(tried)) as advance:
        solved = solve_duel(
            first,
            second,
            vary,
            target,
            "b" if side == "b" else "a",
            how,
            values=listed,
            span=span,
            backend=where.backend(),
            progress=advance,
            announce=where.announce,
        )
    if as_json:
        from affray.cli.output import emit_json

        emit_json(solved.to_dict())
        return
    _say_solved(solved, first.name if side != "b" else second.name)


def _solve_encounter(
    path: str,
    vary: str,
    target: float,
    side: str | None,
    listed: list[str] | None,
    span: tuple[int, int] | None,
    exact: bool,
    count: int | None,
    seed: int | None,
    dask: str | None,
    workers: int | None,
    budget: float,
    as_json: bool,
) -> None:
    from affray.design.duels import Settings
    from affray.design.encounters import plan, solve_encounter
    from affray.explore.encounter_sweep import ENCOUNTER_N

    if side is None:
        raise click.UsageError("--for SIDE names the side whose chance is sought")
    asked = Settings(
        "exact" if count is None else "monte-carlo",
        count or ENCOUNTER_N,
        1 if seed is None else seed,
    )
    tried = plan(path, vary, listed, span, asked)[2]
    where = Where(dask, workers, budget, "fight" if count is not None else "encounter")
    with where.progress(len(tried)) as advance:
        solved = solve_encounter(
            path,
            vary,
            target,
            side,
            asked,
            values=listed,
            span=span,
            backend=where.backend(),
            progress=advance,
            announce=where.announce,
        )
    if as_json:
        from affray.cli.output import emit_json

        emit_json(solved.to_dict())
        return
    _say_solved(solved, solved.side)


def _say_solved(solved: Any, whose: str) -> None:
    from affray.cli.output import console

    out = console()
    chances = [p.chance for p in solved.points]
    how = _how(chances)
    out.print(
        f"{possessive(whose)} chance to win as {solved.vary} moves ({how}); "
        f"target {solved.target:.1%}"
    )
    for point in solved.points:
        out.print(f"  {point.value!s:>24}  {_chance_text(point.chance)}")
    if not solved.crossings:
        shown = [p.chance.p for p in solved.points if p.chance.p is not None]
        side = "above" if shown and min(shown) >= solved.target else "below"
        out.print(f"The chance stays {side} {solved.target:.1%} over these values: no crossing.")
    for crossing in solved.crossings:
        line = (
            f"Crossing between {crossing.below.value} ({_chance_text(crossing.below.chance)}) "
            f"and {crossing.above.value} ({_chance_text(crossing.above.chance)})"
        )
        if crossing.equivalent is not None:
            key = solved.vary.rpartition(".")[2]
            line += f": {key} {crossing.equivalent:.1f}"
        if not crossing.told_apart:
            line += "; the two cannot be told apart at this many duels (more: -n)"
        out.print(line)
    if not solved.monotonic:
        out.print(
            "The chance is not monotonic in this key: it rises and falls, so each crossing is told."
        )
    _say_notes(chances, [str(p.value) for p in solved.points])


def _how(chances: Sequence[Any]) -> str:
    """How the chances were found, in words: exact, simulated, or some of each."""
    found = [c for c in chances if c.p is not None]
    if all(c.exact for c in found):
        return "exact"
    if any(c.exact for c in found):
        return "exact where the exact odds reach, else simulated with 95% intervals"
    return "simulated, 95% intervals"


def _say_notes(chances: Sequence[Any], values: Sequence[str]) -> None:
    """Why values were simulated where exact odds were asked, once for all of them."""
    from affray.cli.output import console

    said = [
        (value, chance.note)
        for chance, value in zip(chances, values, strict=True)
        if getattr(chance, "note", None)
    ]
    if not said:
        return
    where = ", ".join(value for value, _ in said)
    first, note = said[0]
    if len({n for _, n in said}) == 1:
        console().print(f"Simulated at {where}: {note}")
    else:  # the same limit, its figures differing value by value: the first told
        console().print(f"Simulated at {where}; at {first}: {note}")


def _chance_text(chance: Any) -> str:
    if chance.p is None:
        return f"invalid sheet: {chance.error}"
    if chance.n is None:
        return f"{chance.p:.2%}"
    return f"{chance.p:.2%} [{chance.low:.2%}, {chance.high:.2%}]"


@click.command("sensitivity")
@click.argument("a", type=click.Path(dir_okay=False, path_type=str))
@click.argument("b", type=click.Path(dir_okay=False, path_type=str), required=False)
@click.option(
    "--for",
    "side",
    default=None,
    metavar="SIDE",
    help="Of an encounter (A alone): the side whose chance to win is weighed.",
)
@odds_options
@click.option(
    "--plot",
    metavar="PNG",
    default=None,
    help="Draw a tornado chart: each key's two moves, the one that matters most on top.",
)
@json_option
def sensitivity_command(
    a: str,
    b: str | None,
    side: str | None,
    exact: bool,
    count: int | None,
    seed: int | None,
    engine: str,
    dask: str | None,
    workers: int | None,
    budget: float,
    plot: str | None,
    as_json: bool,
) -> None:
    """Which key of sheets A and B matters most to A's chance to win; or, of the
    encounter file A, which member's count or key matters most to a side's (--for).

    Each key of each sheet moves one step down and one up (skill ±1, armour one row,
    a die one size, hit dice one die, the next weapon of the table; in an encounter,
    each member's count too); the chance at each, the keys that move it most first.
    """
    from affray.design.duels import pair, settings
    from affray.design.sensitivity import count as duels_in
    from affray.design.sensitivity import sensitivity

    if exact and count is not None:
        raise click.UsageError("choose one of --exact and -n N")
    if plot is not None:
        from affray.plots import check_plot_path

        check_plot_path(plot)
    if b is None:
        found = _encounter_sensitivity(a, side, count, seed, dask, workers, budget)
    else:
        if side is not None:
            raise click.UsageError("--for names a side of an encounter: give A alone")
        first, second = pair(a, b)
        how = settings(first.system, exact, count, seed, engine)
        where = Where(dask, workers, budget, "duel")
        with where.progress(duels_in(first, second)) as advance:
            found = sensitivity(
                first,
                second,
                how,
                backend=where.backend(),
                progress=advance,
                announce=where.announce,
            )
    if plot is not None:
        from affray.design.plots import tornado

        tornado(found, plot)
    if as_json:
        from affray.cli.output import emit_json

        emit_json(found.to_dict())
    else:
        _say_sensitivity(found)
    if plot is not None:
        from affray.cli.estimates import wrote

        wrote(plot, as_json)


def _encounter_sensitivity(
    path: str,
    side: str | None,
    count: int | None,
    seed: int | None,
    dask: str | None,
    workers: int | None,
    budget: float,
) -> Any:
    from affray.design.duels import Settings
    from affray.design.encounters import sensitivity_count, sensitivity_encounter
    from affray.explore.encounter_sweep import ENCOUNTER_N

    if side is None:
        raise click.UsageError("--for SIDE names the side whose chance is weighed")
    asked = Settings(
        "exact" if count is None else "monte-carlo",
        count or ENCOUNTER_N,
        1 if seed is None else seed,
    )
    where = Where(dask, workers, budget, "encounter")
    with where.progress(sensitivity_count(path, asked)) as advance:
        return sensitivity_encounter(
            path,
            side,
            asked,
            backend=where.backend(),
            progress=advance,
            announce=where.announce,
        )


def _say_sensitivity(found: Any) -> None:
    from affray.cli.output import console

    out = console()
    base = found.base.p
    moved = [m for row in found.rows for m in (row.down, row.up) if m is not None]
    chances = [found.base, *(m.chance for m in moved)]
    how = _how(chances)
    out.print(f"{possessive(found.a)} chance to win against {found.b}: {base:.2%} ({how})")
    out.print(f"{'sheet':<14} {'key':<22} {'now':>14}  {'one down':>24}  {'one up':>24}")
    for row in found.rows:
        whose = row.member or (found.a if row.side == "a" else found.b)
        cells = []
        for move in (row.down, row.up):
            if move is None:
                cells.append("-")
            elif move.chance.p is None:
                cells.append(f"{move.value}: invalid")
            else:
                cells.append(f"{move.value}: {move.chance.p:.1%} ({move.chance.p - base:+.1%})")
        out.print(f"{whose[:14]:<14} {row.key:<22} {row.now!s:>14}  {cells[0]:>24}  {cells[1]:>24}")
    _say_notes(chances, ["as it is", *(f"{m.value}" for m in moved)])


@click.command("frontier")
@click.argument("sheet", type=click.Path(dir_okay=False, path_type=str))
@click.option(
    "--vary",
    required=True,
    metavar="KEY",
    help="The key whose options to weigh: weapon, armor, grip, shield, weapon.damage …",
)
@click.option(
    "--against",
    "opponents",
    required=True,
    multiple=True,
    metavar="B",
    help="An opponent (give several: --against ogre --against orc).",
)
@click.option(
    "--values", default=None, metavar="V,V,…", help="The options to weigh (default: every one)."
)
@odds_options
@click.option(
    "--plot",
    metavar="PNG",
    default=None,
    help="Draw each option at its mean and worst chance, the frontier named.",
)
@json_option
def frontier_command(
    sheet: str,
    vary: str,
    opponents: tuple[str, ...],
    values: str | None,
    exact: bool,
    count: int | None,
    seed: int | None,
    engine: str,
    dask: str | None,
    workers: int | None,
    budget: float,
    plot: str | None,
    as_json: bool,
) -> None:
    """Every option of one key of SHEET against each opponent: its mean and worst
    chance to win, and which options another beats against every opponent (never
    worth taking)."""
    from affray.design.duels import load, pair, settings
    from affray.design.frontier import frontier, rungs

    if exact and count is not None:
        raise click.UsageError("choose one of --exact and -n N")
    if plot is not None:
        from affray.plots import check_plot_path

        check_plot_path(plot)
    mine = load(sheet, "a")
    others = [pair(sheet, opponent)[1] for opponent in opponents]
    how = settings(mine.system, exact, count, seed, engine)
    listed = [v for v in values.split(",") if v.strip()] if values is not None else None
    total = len(rungs(mine, vary, listed)) * len(others)
    where = Where(dask, workers, budget, "duel")
    with where.progress(total) as advance:
        found = frontier(
            mine,
            vary,
            others,
            how,
            values=listed,
            backend=where.backend(),
            progress=advance,
            announce=where.announce,
        )
    if plot is not None:
        from affray.design.plots import frontier_chart

        frontier_chart(found, plot)
    if as_json:
        from affray.cli.output import emit_json

        emit_json(found.to_dict())
    else:
        _say_frontier(found)
    if plot is not None:
        from affray.cli.estimates import wrote

        wrote(plot, as_json)


def _say_frontier(found: Any) -> None:
    from affray.cli.output import console

    out = console()
    how = "exact" if found.method == "exact" else "simulated"
    out.print(f"{found.sheet}: each {found.vary} against {', '.join(found.opponents)} ({how})")
    heads = "".join(f"{name[:12]:>13}" for name in found.opponents)
    out.print(f"{found.vary:<26}{heads}{'mean':>9}{'worst':>9}")
    for option in found.options:
        cells = "".join(
            f"{'invalid' if c.p is None else f'{c.p:.1%}':>13}" for c in option.against.values()
        )
        mean = "-" if option.mean is None else f"{option.mean:.1%}"
        worst = "-" if option.worst is None else f"{option.worst:.1%}"
        beaten = (
            "  dominated by " + ", ".join(str(v) for v in option.dominated_by)
            if option.dominated_by
            else ""
        )
        out.print(f"{option.value!s:<26}{cells}{mean:>9}{worst:>9}{beaten}")


@click.command("day")
@click.argument("day_file", metavar="DAY", type=click.Path(dir_okay=False, path_type=str))
@click.option(
    "-n",
    "count",
    type=click.IntRange(min=1, max=10**8),
    default=1_000,
    show_default=True,
    help="Days to simulate.",
)
@seed_option
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=256),
    default=None,
    help="Worker processes (default: one per CPU). Results do not depend on it.",
)
@click.option(
    "--db",
    default=None,
    metavar="PATH",
    help="The table database a saved party is read from (default: AFFRAY_DB, or tables.db "
    "in your data directory).",
)
@click.option(
    "--engine",
    type=click.Choice(["auto", "fast", "reference"]),
    default="auto",
    show_default=True,
    help="The fights' engine: auto takes the system's fast engine where it has one for a "
    "day, else the reference engine.",
)
@click.option(
    "--dask",
    metavar="local|ADDRESS",
    default=None,
    help="Play the days on Dask: 'local' starts a cluster here; tcp://HOST:PORT uses a "
    "running scheduler.",
)
@click.option(
    "--budget",
    type=click.FloatRange(min=0.1),
    default=BUDGET_S,
    show_default=True,
    metavar="SECONDS",
    help="Refuse a run that would take longer (estimated on a few days first).",
)
@json_option
def day_command(
    day_file: str,
    count: int,
    seed: int | None,
    workers: int | None,
    db: str | None,
    engine: str,
    dask: str | None,
    budget: float,
    as_json: bool,
) -> None:
    """A party through a DAY of fights and rests, simulated N times.

    DAY names the party (a saved party, or [[members]] with their sheets) and its
    steps: encounters (the party is each one's side named "party") and rests (days,
    with the system's healing options). Each fight starts from the wounds the last
    left. The chance the party gets through every fight, each fight's chance to be
    reached and won, each member's to be standing at the end, and the wounds carried
    into each fight.
    """
    import secrets

    from affray.cli.estimates import about, estimate_after
    from affray.cli.output import ProgressBar
    from affray.design.day import day_compiles_first, day_engine, load_day, simulate_days
    from affray.errors import AffrayError

    where = Where(dask, workers, budget, "day")
    party = _saved_party(day_file, db)
    day = load_day(day_file, party)
    used = day_engine(day, cast("Engine", engine))
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    if used != "reference engine" and day_compiles_first(day):
        click.echo(f"compiling the {used} first: once per machine, about 20 s", err=True)

    def estimate(found: Any) -> None:
        seconds = getattr(found, "seconds", 0.0)
        if seconds > budget:
            raise AffrayError(
                f"this would take {about(seconds, count, 'day', found.workers, stops=False)}, "
                "past the "
                f"budget of {budget:,.1f} s",
                hint="fewer days (-n), more workers (--dask), or a larger --budget",
            )
        if not bar.showing and seconds > estimate_after():
            click.echo(about(seconds, count, "day", found.workers), err=True)

    bar = ProgressBar(count, "days", threshold=200)
    cluster = where.backend()() if dask is not None else None
    try:
        with bar as advance:
            odds = simulate_days(
                day,
                count,
                seed=seed,
                workers=where.count,
                progress=advance,
                estimate=estimate,
                engine=cast("Engine", engine),
                on=cluster,
            )
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    finally:
        if cluster is not None:
            cluster.close()
    found = odds.to_dict()
    if as_json:
        from affray.cli.output import emit_json

        emit_json(found)
        return
    _say_day(found)


def _saved_party(day_file: str, db: str | None) -> Any:
    """The members of the saved party the day file names, or None."""
    from affray.sheets import load_document

    data = load_document(day_file)
    name = data.get("party")
    if not isinstance(name, str):
        return None
    from affray.cli.table.opening import open_tables
    from affray.table.parties import Parties

    tables = open_tables(db, write=False)
    parties = Parties(tables)
    return parties.fold(parties.party(name)).state.members


def _say_day(found: Mapping[str, Any]) -> None:
    from affray.cli.output import console

    out = console()
    out.print(
        f"{found['n']:,} days (seed {found['seed']}, {found['engine']}): the party gets "
        f"through every fight {found['p_survive']:.1%} of them"
    )
    for step in found["steps"]:
        if step["kind"] == "rest":
            out.print(f"  {step['step']}. {step['name']}")
            continue
        out.print(
            f"  {step['step']}. {step['name']}: reached {step['p_reached']:.1%}, "
            f"won {step['p_won']:.1%}"
        )
        for member, values in step["carried"].items():
            shown = ", ".join(f"{k} {v:.2f}" for k, v in values.items() if v)
            if shown:
                out.print(f"       {member} carries into it (mean): {shown}")
    out.print("Standing at the end of the day:")
    for member, odds in found["members"].items():
        out.print(f"  {member}: {odds['p_standing']:.1%}")
