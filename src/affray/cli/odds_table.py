"""The designer's odds grid behind ``affray mst2 table``: computing and rendering."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import click

from affray.odds import attack_odds
from affray.rules.mst2 import (
    ARMORS,
    Circumstance,
    Fighter,
    Grip,
    HitDice,
    weapon,
)

MEASURES = {"hit": "P(hit)", "wound": "P(at least one wound)", "out": "P(takes the defender out)"}


@dataclass(frozen=True, slots=True)
class Cell:
    skill: int
    armor: str
    shield: bool
    p_hit: Fraction
    p_wound: Fraction
    p_out: Fraction

    @property
    def column(self) -> str:
        return self.armor + (" + shield" if self.shield else "")

    def value(self, measure: str) -> Fraction:
        return {"hit": self.p_hit, "wound": self.p_wound, "out": self.p_out}[measure]


@dataclass(frozen=True, slots=True)
class Grid:
    title: str
    cells: tuple[Cell, ...]


def odds_grid(
    *,
    attacker_sheet: Fighter | None,
    weapon_name: str,
    grip: str | None,
    skills: range,
    hit_dice: str,
    wounds: int,
    circumstances: Sequence[Circumstance],
) -> Grid:
    """Exact odds of one direct attack for every skill × armour × shield."""
    if attacker_sheet is not None:
        attacker = attacker_sheet
    else:
        attacker = Fighter(
            name="Attacker",
            skill=0,
            weapon=weapon(weapon_name),
            armor=ARMORS["none"],
            hit_dice=HitDice((6,)),
            grip=Grip(grip) if grip else None,
        )
    cells: list[Cell] = []
    defender_dice = HitDice.parse(hit_dice)
    for skill in skills:
        striker = replace(attacker, skill=skill)
        for armor in ARMORS.values():
            for shield in (False, True):
                defender = Fighter(
                    "Defender", 0, weapon("dagger"), armor, defender_dice, shield=shield
                )
                odds = attack_odds(striker, defender, wounds, circumstances=circumstances)
                cells.append(
                    Cell(skill, armor.name.lower(), shield, odds.p_hit, odds.p_wound, odds.p_out)
                )
    extra = f" + {circumstances[0].key}" if circumstances else ""
    title = (
        f"{attacker.weapon.name.lower()} ({attacker.wielded.value}{extra}) against a defender "
        f"with hit dice {defender_dice.text} and {wounds} wounds"
    )
    return Grid(title, tuple(cells))


def render_grid(grid: Grid, measure: str, fmt: str) -> None:
    """Print the grid as rich tables, Markdown, CSV (long form) or JSON (long form)."""
    if fmt in ("csv", "json"):
        rows = [
            {
                "skill": c.skill,
                "armor": c.armor,
                "shield": c.shield,
                "p_hit": float(c.p_hit),
                "p_wound": float(c.p_wound),
                "p_out": float(c.p_out),
            }
            for c in grid.cells
        ]
        if fmt == "json":
            from affray.cli.output import emit_json

            emit_json({"title": grid.title, "rows": rows})
        else:
            buffer = io.StringIO()
            writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
            click.echo(buffer.getvalue(), nl=False)
        return
    measures = list(MEASURES) if measure == "all" else [measure]
    columns = list(dict.fromkeys(c.column for c in grid.cells))
    skills = list(dict.fromkeys(c.skill for c in grid.cells))
    lookup = {(c.skill, c.column): c for c in grid.cells}
    for name in measures:
        title = f"{MEASURES[name]}: {grid.title}"
        body = [
            [f"+{s}", *(f"{float(lookup[(s, col)].value(name)) * 100:.1f}%" for col in columns)]
            for s in skills
        ]
        if fmt == "markdown":
            click.echo(f"**{title}**\n")
            click.echo("| skill | " + " | ".join(columns) + " |")
            click.echo("|---|" + "---:|" * len(columns))
            for row in body:
                click.echo("| " + " | ".join(row) + " |")
            click.echo()
        else:
            from affray.cli.output import table

            table(title, ["skill", *columns], body)
