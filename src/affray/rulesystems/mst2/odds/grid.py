"""The designer's odds grid: one direct attack's exact odds over attacker skill
(rows) and defender armour with and without a shield (columns), and its text forms."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from affray.rulesystems.mst2 import (
    ARMORS,
    Circumstance,
    Fighter,
    Grip,
    HitDice,
    weapon,
)
from affray.rulesystems.mst2.odds.attack import attack_odds

MEASURES = {"hit": "P(hit)", "wound": "P(at least one wound)", "out": "P(takes the defender out)"}

_FIELDS = ("skill", "armor", "shield", "p_hit", "p_wound", "p_out")


@dataclass(frozen=True, slots=True)
class Cell:
    """The odds of one attacker skill against one armour, with or without a shield."""

    skill: int
    armor: str
    shield: bool
    p_hit: Fraction
    p_wound: Fraction
    p_out: Fraction

    @property
    def column(self) -> str:
        """The column heading: the armour, and "+ shield" if there is one."""
        return self.armor + (" + shield" if self.shield else "")

    def value(self, measure: str) -> Fraction:
        """The probability for ``measure``: "hit", "wound" or "out"."""
        return {"hit": self.p_hit, "wound": self.p_wound, "out": self.p_out}[measure]


@dataclass(frozen=True, slots=True)
class Grid:
    """A titled grid of cells, skill by skill, then armour by armour."""

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
    """Exact odds of one direct attack for every skill × armour × shield.

    The attacker is ``attacker_sheet`` (its skill replaced), or else a fighter with
    ``weapon_name`` and ``grip``; the defender has ``hit_dice`` and ``wounds``.
    """
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


def grid_rows(grid: Grid) -> list[dict[str, object]]:
    """The grid in long form, one row per cell, probabilities as floats."""
    return [
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


def grid_csv(grid: Grid) -> str:
    """The long-form rows as CSV with a header line."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(grid_rows(grid))
    return buffer.getvalue()


def grid_table(grid: Grid, measure: str) -> list[tuple[str, list[str], list[list[str]]]]:
    """``(title, header, body)`` per table: one for ``measure``, or three for "all".

    The header is "skill" and the columns; each body row is "+skill" and percentages.
    """
    columns = list(dict.fromkeys(c.column for c in grid.cells))
    skills = list(dict.fromkeys(c.skill for c in grid.cells))
    lookup = {(c.skill, c.column): c for c in grid.cells}
    tables = []
    for name in _measures(measure):
        body = [
            [f"+{s}", *(_cell_text(lookup[(s, col)].value(name)) for col in columns)]
            for s in skills
        ]
        tables.append((f"{MEASURES[name]}: {grid.title}", ["skill", *columns], body))
    return tables


def grid_markdown(grid: Grid, measure: str) -> str:
    """The tables of :func:`grid_table` as Markdown, each after a bold title."""
    parts = []
    for title, header, body in grid_table(grid, measure):
        lines = [
            f"**{title}**",
            "",
            "| " + " | ".join(header) + " |",
            "|---|" + "---:|" * (len(header) - 1),
            *("| " + " | ".join(row) + " |" for row in body),
            "",
        ]
        parts.append("".join(line + "\n" for line in lines))
    return "".join(parts)


def _measures(measure: str) -> list[str]:
    if measure == "all":
        return list(MEASURES)
    if measure not in MEASURES:
        raise ValueError(f"unknown measure {measure!r}: one of hit, wound, out, all")
    return [measure]


def _cell_text(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"
