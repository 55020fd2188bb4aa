"""``affray solve``: the value of one key that brings a side's chance to a target
(docs/design.md)."""

from __future__ import annotations

from typing import Any

import click

from affray.cli.design.common import Where, chance_text, method_words, odds_options, say_notes
from affray.cli.options import json_option
from affray.cli.output import console, emit_json
from affray.design.duels import Settings, pair, settings
from affray.design.encounters import plan as encounter_plan
from affray.design.encounters import solve_encounter
from affray.design.solve import plan, solve_duel
from affray.explore.encounter_sweep import ENCOUNTER_N
from affray.quoting import possessive


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
    if side is None:
        raise click.UsageError("--for SIDE names the side whose chance is sought")
    asked = Settings(
        "exact" if count is None else "monte-carlo",
        count or ENCOUNTER_N,
        1 if seed is None else seed,
    )
    tried = encounter_plan(path, vary, listed, span, asked)[2]
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
        emit_json(solved.to_dict())
        return
    _say_solved(solved, solved.side)


def _say_solved(solved: Any, whose: str) -> None:
    out = console()
    chances = [p.chance for p in solved.points]
    how = method_words(chances)
    out.print(
        f"{possessive(whose)} chance to win as {solved.vary} moves ({how}); "
        f"target {solved.target:.1%}"
    )
    for point in solved.points:
        out.print(f"  {point.value!s:>24}  {chance_text(point.chance)}")
    if not solved.crossings:
        shown = [p.chance.p for p in solved.points if p.chance.p is not None]
        side = "above" if shown and min(shown) >= solved.target else "below"
        out.print(f"The chance stays {side} {solved.target:.1%} over these values: no crossing.")
    for crossing in solved.crossings:
        line = (
            f"Crossing between {crossing.below.value} ({chance_text(crossing.below.chance)}) "
            f"and {crossing.above.value} ({chance_text(crossing.above.chance)})"
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
    say_notes(chances, [str(p.value) for p in solved.points])
