"""``affray roll`` and ``affray odds``: dice expressions."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import click

import affray.dice
from affray.cli.estimates import wrote
from affray.cli.options import json_option, seed_option
from affray.cli.output import console, emit_json, percent, table
from affray.dice import distribution, roll
from affray.errors import DiceSyntaxError, UnreachableCountError

if TYPE_CHECKING:
    from affray.dice import RolledDie, RollResult


#: ``-1d4`` is an expression, not an option: unknown options are taken as its text,
#: and ``-h`` is not help here (``-4d6kh3`` holds an 'h'); ``--help`` is, and a lone
#: ``-h`` too (:func:`expression_text`).
EXPRESSION_SETTINGS = {"ignore_unknown_options": True, "help_option_names": ["--help"]}


def expression_text(parts: tuple[str, ...]) -> str:
    """The expression from its words (``2d6 + 1`` may come as three), refusing a
    mistyped long option (``--jsno``) rather than reading it as dice."""
    if parts == ("-h",):
        context = click.get_current_context()
        click.echo(context.get_help())
        context.exit()
    for part in parts:
        if part.startswith("--") and part[2:3].isalpha():
            raise click.NoSuchOption(part.split("=", 1)[0])
    return " ".join(parts)


def located(error: DiceSyntaxError) -> DiceSyntaxError:
    """The error with where it is in its message, on one line (the CLI prints one line
    and a tip): ``kh5 keeps 5 of 4 dice (at column 4 of '4d6kh5')``."""
    text, at = error.expression, error.position
    if len(text) > 60:  # a window around the place, so the line stays short
        low = max(0, min(at - 30, len(text) - 60))
        text = (
            ("..." if low else "") + text[low : low + 60] + ("..." if low + 60 < len(text) else "")
        )
    where = f"{error.message} (at column {at + 1} of {text!r})"
    return DiceSyntaxError(where, expression=error.expression, position=at, hint=error.hint)


MAX_ROLLS = 10_000
"""The most times ``roll -n`` rolls an expression."""


@click.command("roll", context_settings=EXPRESSION_SETTINGS)
@click.argument("expression", nargs=-1, required=True)
@click.option(
    "-n",
    "times",
    type=click.IntRange(1, MAX_ROLLS),
    default=1,
    show_default=True,
    help="Roll it N times (4d6kh3 -n 6: a character's six abilities).",
)
@seed_option
@json_option
def roll_command(expression: tuple[str, ...], times: int, seed: int | None, as_json: bool) -> None:
    """Roll a dice EXPRESSION such as 3d6+2, d%, 2d10-(1d4+1), -1d4, 4d6kh3, 3d6!,
    2d6r1 or 6d10>=8, showing each die: kept or dropped, exploded, rerolled.

    See docs/dice.md for the notation.
    """
    # looked up when it rolls, not bound at import: a test types faces in there
    dice = affray.dice.RandomDice(seed)
    text = expression_text(expression)
    try:
        results = [roll(text, dice) for _ in range(times)]
    except DiceSyntaxError as error:
        raise located(error) from None
    if as_json:
        if times == 1:
            emit_json(roll_json(results[0]))
        else:
            emit_json(
                {"expression": results[0].expression, "rolls": [roll_json(r) for r in results]}
            )
        return
    out = console()
    for result in results:
        faces = " ".join(die_text(d) for d in result.dice) or "no dice"
        out.print(
            f"{result.expression} → [dim]{faces}[/dim] → [bold]{result.total}[/bold]",
            markup=True,
            highlight=False,
        )
    if times > 1:
        totals = [r.total for r in results]
        out.print(f"totals: {', '.join(map(str, totals))} (sum {sum(totals)})", highlight=False)


def roll_json(result: RollResult) -> dict[str, object]:
    """``roll --json``: the keys docs/dice.md lists, ``dice`` (one entry per roll, in order) and
    ``pool`` (one entry per die as the notation counts it)."""
    rolls: list[dict[str, object]] = []
    pool: list[dict[str, object]] = []
    for number, die in enumerate(result.dice, start=1):
        counted = [i for i, counts in enumerate(die.counted) if counts]
        for i, (one, counts) in enumerate(zip(die.rolls, die.counted, strict=True)):
            rolls.append(
                {
                    "sides": one.sides,
                    "face": one.face,
                    "die": number,
                    "rerolled": not counts,
                    "exploded": counts and i != counted[-1],
                    "kept": die.kept,
                }
            )
        pool.append(
            {
                "sides": die.sides,
                "term": die.term,
                "sign": die.sign,
                "value": die.value,
                "faces": list(die.faces),
                "rerolled": list(die.rerolled),
                "exploded": die.explosions > 0,
                "kept": die.kept,
                "score": die.score,
            }
        )
    return {
        "expression": result.expression,
        "total": result.total,
        "rolls": list(result.faces),
        "dice": rolls,
        "pool": pool,
    }


def die_text(die: RolledDie) -> str:
    """``d6:4``; ``d6:6+6+2=14(exploded)``, ``d6:5(rerolled 1)``, ``d6:1(dropped)``,
    ``d10:9(success)``: a die and what the notation did to it."""
    text = f"d{die.sides}:" + "+".join(str(face) for face in die.faces)
    notes = []
    if die.explosions:
        text += f"={die.value}"
        notes.append("exploded" if die.explosions == 1 else f"exploded {die.explosions} times")
    if die.rerolled:
        notes.append("rerolled " + ",".join(str(face) for face in die.rerolled))
    if not die.kept:
        notes.append("dropped")
    if die.score is not None and die.score:
        notes.append("success" if die.score > 0 else "failure")
    return text + (f"({', '.join(notes)})" if notes else "")


COMPARISON = re.compile(r"^(?P<left>.+?)\s*(?P<op>>=|<=|>|<|==|=)\s*(?P<right>-?\d+)\s*$")
COMPARE = {
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    "<": lambda a, b: a < b,
    "=": lambda a, b: a == b,
    "==": lambda a, b: a == b,
}


@click.command("odds", context_settings=EXPRESSION_SETTINGS)
@click.argument("expression", nargs=-1, required=True)
@click.option(
    "--plot",
    metavar="PNG",
    default=None,
    help="Draw the distribution (of each expression, side by side).",
)
@json_option
def odds_command(expression: tuple[str, ...], plot: str | None, as_json: bool) -> None:
    """Exact distribution of a dice EXPRESSION's total (2d6+1, -1d4, 4d6kh3, 3d6!,
    6d10>=8, ...; see docs/dice.md). Several expressions are compared side by side
    (affray odds 2d6 1d12); a total against a number is its chance (affray odds
    "d20+5>=15")."""
    text = expression_text(expression)
    if plot is not None:
        # only --plot loads affray.plots (with pathlib, ~8 ms): `roll` and `odds` stay light
        from affray.plots import check_plot_path

        check_plot_path(plot)
    try:
        dists = [(text.strip(), distribution(text))]
    except DiceSyntaxError as error:
        dists = _several(expression, error) or []
        if isinstance(error, UnreachableCountError):
            raise located(error) from None  # a count, not a total: say so
        if not dists:
            compared = _comparison(text, error)
            if compared is None:
                raise located(error) from None
            _say_comparison(*compared, as_json=as_json)
            return
    if plot is not None:
        from affray.plots import plot_distributions  # --plot alone, as above

        plot_distributions(
            {name: {o: float(p) for o, p in d.probabilities().items()} for name, d in dists},
            plot,
            title=" vs ".join(name for name, _ in dists),
        )
    if len(dists) > 1:
        _compare(dists, as_json)
    else:
        _one(*dists[0], as_json=as_json)
    if plot is not None:
        wrote(plot, as_json)


def _several(words: tuple[str, ...], error: DiceSyntaxError) -> list[tuple[str, Any]] | None:
    """Each word its own expression (2d6 1d12), when the words together are none but
    each alone is one; else None."""
    if len(words) < 2:
        return None
    try:
        return [(word, distribution(word)) for word in words]
    except DiceSyntaxError:
        return None


def _comparison(text: str, error: DiceSyntaxError) -> tuple[str, str, int, Fraction] | None:
    """``d20+5>=15``: the expression, the comparison, the number, and the chance its
    total compares so; None when the text is no such thing."""
    found = COMPARISON.match(text)
    if found is None:
        return None
    left, op, right = found["left"], found["op"], int(found["right"])
    try:
        dist = distribution(left)
    except DiceSyntaxError:
        return None
    chance = sum((p for o, p in dist.probabilities().items() if COMPARE[op](o, right)), Fraction(0))
    return left.strip(), op, right, chance


def _say_comparison(left: str, op: str, right: int, chance: Fraction, *, as_json: bool) -> None:
    if as_json:
        emit_json(
            {"expression": left, "compare": op, "target": right, "p": float(chance),
             "fraction": f"{chance.numerator}/{chance.denominator}"}
        )  # fmt: skip
        return
    console().print(
        f"{left} {op} {right}: {percent(chance)} ({chance.numerator}/{chance.denominator})",
        highlight=False,
    )


def _compare(dists: list[tuple[str, Any]], as_json: bool) -> None:
    """Several expressions side by side: each outcome's chance under each, and each
    expression's mean and range."""
    versus = _versus(dists[0][1], dists[1][1]) if len(dists) == 2 else None
    if as_json:
        found: dict[str, Any] = {
            "expressions": [
                {
                    "expression": name,
                    "distribution": {str(o): float(p) for o, p in d.probabilities().items()},
                    "mean": float(d.mean),
                }
                for name, d in dists
            ]
        }
        if versus is not None:
            found["versus"] = dict(zip(VERSUS, (float(p) for p in versus), strict=True))
        emit_json(found)
        return
    if versus is not None:
        (a, _), (b, _) = dists
        higher, tie, lower = (percent(p) for p in versus)
        console().print(
            f"{a} against {b}: {a} higher {higher}, tie {tie}, {b} higher {lower}",
            highlight=False,
        )
    table(
        "Side by side",
        ("expression", "mean", "from", "to"),
        [(name, f"{float(d.mean):.4g}", str(d.minimum), str(d.maximum)) for name, d in dists],
    )
    outcomes = sorted({o for _, d in dists for o in d.probabilities()})
    if len(outcomes) > MAX_ROWS:
        return
    each = [d.probabilities() for _, d in dists]
    table(
        "Each outcome's chance",
        ("outcome", *(name for name, _ in dists)),
        [(str(o), *(percent(p.get(o, Fraction(0))) for p in each)) for o in outcomes],
    )


VERSUS = ("a_higher", "tie", "b_higher")
"""``odds A B --json``'s ``versus`` keys: A's total above B's, equal, below."""


def _versus(a: Any, b: Any) -> tuple[Fraction, Fraction, Fraction]:
    """The exact chances that a total of ``a`` is above one of ``b``, equal, below
    (each of B's outcomes against A's chance of more: one pass over each)."""
    pa, pb = a.probabilities(), b.probabilities()
    above = sum(pa.values(), Fraction(0))  # P(A > x) as x rises through B's outcomes
    ordered = sorted(pa)
    at = 0
    higher = tie = Fraction(0)
    for x in sorted(pb):
        while at < len(ordered) and ordered[at] <= x:
            above -= pa[ordered[at]]
            at += 1
        higher += pb[x] * above
        tie += pb[x] * pa.get(x, Fraction(0))
    return higher, tie, 1 - higher - tie


def _one(text: str, dist: Any, *, as_json: bool) -> None:
    probabilities = dist.probabilities()
    if as_json:
        emit_json(
            {
                "expression": text.strip(),
                "distribution": {str(o): float(p) for o, p in probabilities.items()},
                "mean": float(dist.mean),
            }
        )
        return
    rows = _rows(probabilities)
    table(
        f"{text.strip()}: mean {float(dist.mean):.4g}, {dist.minimum} to {dist.maximum}",
        ("outcome", "probability", "at least", ""),
        rows,
        bars=True,
    )


MAX_ROWS = 60


def _rows(probabilities: dict[int, Fraction]) -> list[tuple[str, str, str, str]]:
    """Table rows: one per outcome, or, past 60 outcomes, bands of outcomes over the
    range holding all but a millionth of the mass, with the two tails on a row each
    (so that 100d100 prints about 50 lines, not 9,901)."""
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
