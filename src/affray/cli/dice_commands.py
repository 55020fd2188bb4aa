"""``affray roll`` and ``affray odds``: dice expressions."""

from __future__ import annotations

from fractions import Fraction

import click

from affray.cli.options import json_option, seed_option


@click.command("roll")
@click.argument("expression")
@seed_option
@json_option
def roll_command(expression: str, seed: int | None, as_json: bool) -> None:
    """Roll a dice EXPRESSION such as 3d6+2, d% or 2d10-(1d4+1).

    An expression starting with '-' goes after '--': affray roll -- -1+d6
    """
    from affray.cli.output import console, emit_json
    from affray.dice import RandomDice, roll

    result = roll(expression, RandomDice(seed))
    if as_json:
        emit_json(
            {
                "expression": result.expression,
                "total": result.total,
                "rolls": list(result.faces),
                "dice": [{"sides": d.sides, "face": d.face} for d in result.rolls],
            }
        )
        return
    faces = " ".join(f"d{d.sides}:{d.face}" for d in result.rolls) or "no dice"
    console().print(f"{result.expression} → [dim]{faces}[/dim] → [bold]{result.total}[/bold]")


@click.command("odds")
@click.argument("expression")
@json_option
def odds_command(expression: str, as_json: bool) -> None:
    """Exact distribution of a dice EXPRESSION's total."""
    from affray.cli.output import emit_json, percent, table
    from affray.dice import distribution

    dist = distribution(expression)
    probabilities = dist.probabilities()
    if as_json:
        emit_json(
            {
                "expression": expression.strip(),
                "distribution": {str(o): float(p) for o, p in probabilities.items()},
                "mean": float(dist.mean),
            }
        )
        return
    at_least = Fraction(1)
    rows = []
    peak = max(probabilities.values())
    for outcome, p in probabilities.items():
        bar = "█" * max(1, round(float(p / peak) * 30)) if p else ""
        rows.append((str(outcome), percent(p), percent(at_least), bar))
        at_least -= p
    table(
        f"{expression.strip()}: mean {float(dist.mean):.4g}, {dist.minimum} to {dist.maximum}",
        ("outcome", "exactly", "at least", ""),
        rows,
        bars=True,
    )
