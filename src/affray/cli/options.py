"""Options shared by several commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from affray.dice import RandomDice, ScriptedDice, parse_faces

F = TypeVar("F", bound=Callable[..., Any])

json_option = click.option(
    "--json", "as_json", is_flag=True, help="Print machine-readable JSON instead of text."
)


class SeedType(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.2 only
    """A seed: a whole number from 0 (the same seed rolls the same dice)."""

    name = "seed"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        text = str(value).strip()
        if not (text.isdigit() and len(text) <= 40):
            self.fail(
                f"{value!r} is not a seed: a seed is a whole number from 0 (the same seed "
                "rolls the same dice again), e.g. --seed 7",
                param,
                ctx,
            )
        return int(text)


SEED = SeedType()

seed_option = click.option(
    "--seed", type=SEED, default=None, help="Seed for reproducible random dice (a whole number)."
)
rolls_option = click.option(
    "--rolls",
    metavar="R,R,...",
    default=None,
    help="Scripted dice faces, in the order the rules roll them (typed-in physical dice).",
)


def plot_option(what: str) -> Callable[[F], F]:
    """``--plot FILE.png``: draw ``what``."""
    return click.option(
        "--plot",
        type=click.Path(dir_okay=False, path_type=str),
        default=None,
        metavar="FILE.png",
        help=f"Draw {what}.",
    )


def dice_source(rolls: str | None, seed: int | None) -> Any:
    """Scripted dice from ``--rolls`` or random dice from ``--seed``."""
    if rolls is not None:
        return ScriptedDice(parse_faces(rolls))
    return RandomDice(seed)


def warn_unused(dice: Any) -> None:
    """Tell the user when typed-in faces were left over (they may be in the wrong order)."""
    if isinstance(dice, ScriptedDice) and dice.remaining:
        unused = ",".join(str(face) for face in dice.remaining)
        click.echo(
            f"warning: {len(dice.remaining)} scripted "
            f"{'face was' if len(dice.remaining) == 1 else 'faces were'} not needed: {unused}",
            err=True,
        )
