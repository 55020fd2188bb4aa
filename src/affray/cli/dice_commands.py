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
    from affray.cli.output import emit_json, table
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
    rows = _rows(probabilities)
    table(
        f"{expression.strip()}: mean {float(dist.mean):.4g}, {dist.minimum} to {dist.maximum}",
        ("outcome", "probability", "at least", ""),
        rows,
        bars=True,
    )


MAX_ROWS = 60


def _rows(probabilities: dict[int, Fraction]) -> list[tuple[str, str, str, str]]:
    """Table rows: one per outcome, or, past 60 outcomes, bands of outcomes over the
    range holding all but a millionth of the mass, with the two tails on a row each
    (so that 100d100 prints about 50 lines, not 9,901)."""
    from affray.cli.output import percent

    outcomes = list(probabilities)
    groups: list[tuple[str, Fraction]]
    if len(outcomes) <= MAX_ROWS:
        groups = [(str(o), p) for o, p in probabilities.items()]
    else:
        tail = Fraction(1, 10**6)
        cumulative = Fraction(0)
        low_index, high_index = 0, len(outcomes) - 1
        for index, outcome in enumerate(outcomes):
            cumulative += probabilities[outcome]
            if cumulative <= tail:
                low_index = index + 1
            if cumulative < 1 - tail:
                high_index = index + 1
        middle = outcomes[low_index : high_index + 1]
        width = max(1, -(-len(middle) // 50))
        groups = []
        if low_index:
            below = outcomes[:low_index]
            groups.append((f"≤ {below[-1]}", sum((probabilities[o] for o in below), Fraction(0))))
        for start in range(0, len(middle), width):
            band = middle[start : start + width]
            label = str(band[0]) if len(band) == 1 else f"{band[0]}-{band[-1]}"
            groups.append((label, sum((probabilities[o] for o in band), Fraction(0))))
        above = outcomes[high_index + 1 :]
        if above:
            groups.append((f"≥ {above[0]}", sum((probabilities[o] for o in above), Fraction(0))))
    peak = max(mass for _, mass in groups)
    rows = []
    at_least = Fraction(1)
    for label, mass in groups:
        rows.append((label, percent(mass), percent(at_least), "█" * round(float(mass / peak) * 30)))
        at_least -= mass
    return rows
