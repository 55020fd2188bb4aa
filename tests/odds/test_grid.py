"""The designer's odds grid against single-attack odds, and its text forms."""

from __future__ import annotations

import csv
import io
from dataclasses import replace

import pytest

from affray.rulesystems.mst2 import ARMORS, Circumstance, Fighter, HitDice, circumstance, weapon
from affray.rulesystems.mst2.odds import (
    MEASURES,
    Grid,
    attack_odds,
    grid_csv,
    grid_markdown,
    grid_rows,
    grid_table,
    odds_grid,
)
from tests.helpers import example, make_fighter

COLUMNS = [
    "none",
    "none + shield",
    "leather",
    "leather + shield",
    "chain mail",
    "chain mail + shield",
    "brigandine",
    "brigandine + shield",
    "plate mail",
    "plate mail + shield",
]


def small_grid(
    *,
    attacker_sheet: Fighter | None = None,
    weapon_name: str = "sword",
    grip: str | None = None,
    skills: range = range(2, 4),
    hit_dice: str = "1d6",
    wounds: int = 1,
    circumstances: tuple[Circumstance, ...] = (),
) -> Grid:
    return odds_grid(
        attacker_sheet=attacker_sheet,
        weapon_name=weapon_name,
        grip=grip,
        skills=skills,
        hit_dice=hit_dice,
        wounds=wounds,
        circumstances=circumstances,
    )


def defender(armor: str, shield: bool, hit_dice: str) -> Fighter:
    armour = next(a for a in ARMORS.values() if a.name.lower() == armor)
    return Fighter("D", 0, weapon("dagger"), armour, HitDice.parse(hit_dice), shield=shield)


OGRE = example("ogre.toml")  # own weapon and extra power


@pytest.mark.parametrize(
    ("sheet", "hit_dice", "wounds", "circumstances"),
    [
        (None, "1d6", 0, ()),
        (None, "2d6+1", 3, (circumstance("critical"),)),
        (OGRE, "1d10", 1, ()),
    ],
)
def test_every_cell_is_the_attack_odds(
    sheet: Fighter | None, hit_dice: str, wounds: int, circumstances: tuple[Circumstance, ...]
) -> None:
    grid = small_grid(
        attacker_sheet=sheet, hit_dice=hit_dice, wounds=wounds, circumstances=circumstances
    )
    attacker = sheet or make_fighter("A", weapon_name="sword")
    assert [(c.skill, c.column) for c in grid.cells] == [
        (skill, column) for skill in (2, 3) for column in COLUMNS
    ]
    for cell in grid.cells:
        odds = attack_odds(
            replace(attacker, skill=cell.skill),
            defender(cell.armor, cell.shield, hit_dice),
            wounds,
            circumstances=circumstances,
        )
        assert (cell.p_hit, cell.p_wound, cell.p_out) == (odds.p_hit, odds.p_wound, odds.p_out)
        assert [cell.value(m) for m in MEASURES] == [odds.p_hit, odds.p_wound, odds.p_out]


def test_title_names_weapon_grip_and_defender() -> None:
    grid = small_grid(
        weapon_name="sword", grip="two-handed", circumstances=(circumstance("magical"),)
    )
    assert grid.title == (
        "sword (two-handed + magical) against a defender with hit dice 1d6 and 1 wounds"
    )


def test_a_sheet_gives_weapon_and_extra_power() -> None:
    grid = small_grid(attacker_sheet=OGRE)
    assert grid.title.startswith("tree-trunk club (two-handed) against")
    assert grid.cells[0].p_out > small_grid().cells[0].p_out


def test_grid_rows_are_the_cells_as_floats() -> None:
    grid = small_grid()
    rows = grid_rows(grid)
    assert len(rows) == len(grid.cells) == 20
    first = rows[0]
    # Skill +2 with a sword (2d6) on no armour (evasion 15, protection 0): faces 14..20 hit.
    assert first["skill"] == 2 and first["armor"] == "none" and first["shield"] is False
    assert first["p_hit"] == first["p_wound"] == 7 / 20
    for row, cell in zip(rows, grid.cells, strict=True):
        assert row["p_out"] == float(cell.p_out)


def test_grid_csv_parses_back_to_the_rows() -> None:
    grid = small_grid()
    text = grid_csv(grid)
    assert text.splitlines()[0] == "skill,armor,shield,p_hit,p_wound,p_out"
    parsed = [
        {
            "skill": int(row["skill"]),
            "armor": row["armor"],
            "shield": {"True": True, "False": False}[row["shield"]],
            "p_hit": float(row["p_hit"]),
            "p_wound": float(row["p_wound"]),
            "p_out": float(row["p_out"]),
        }
        for row in csv.DictReader(io.StringIO(text))
    ]
    assert parsed == grid_rows(grid)


def table_lines(markdown: str) -> list[list[str]]:
    return [
        [part.strip() for part in line.strip("|").split("|")]
        for line in markdown.splitlines()
        if line.startswith("|")
    ]


def test_grid_markdown_has_a_row_per_skill_and_a_column_per_armour() -> None:
    grid = small_grid(skills=range(0, 5))
    markdown = grid_markdown(grid, "hit")
    assert markdown.startswith(f"**P(hit): {grid.title}**\n\n")
    header, rule, *body = table_lines(markdown)
    assert header == ["skill", *COLUMNS]
    assert rule == ["---"] + ["---:"] * len(COLUMNS)
    assert [row[0] for row in body] == ["+0", "+1", "+2", "+3", "+4"]
    assert all(len(row) == 1 + len(COLUMNS) for row in body)
    # Skill +4 against plate mail (evasion 7): d20 + 4 > 7 on faces 4..20.
    assert body[4][COLUMNS.index("plate mail") + 1] == "85.0%"
    assert markdown.endswith("|\n\n")


def test_grid_markdown_all_measures_is_three_tables() -> None:
    grid = small_grid()
    markdown = grid_markdown(grid, "all")
    assert markdown == "".join(grid_markdown(grid, m) for m in MEASURES)
    titles = [line for line in markdown.splitlines() if line.startswith("**")]
    assert titles == [f"**{label}: {grid.title}**" for label in MEASURES.values()]
    assert len(table_lines(markdown)) == 3 * (2 + 2)


def test_grid_table_matches_markdown() -> None:
    grid = small_grid()
    tables = grid_table(grid, "out")
    assert len(tables) == 1
    title, header, body = tables[0]
    assert title == f"P(takes the defender out): {grid.title}"
    assert table_lines(grid_markdown(grid, "out")) == [
        header,
        ["---"] + ["---:"] * len(COLUMNS),
        *body,
    ]
    cell = grid.cells[-1]  # skill +3, plate mail and shield
    assert body[-1][-1] == f"{float(cell.p_out) * 100:.1f}%"


def test_unknown_measure_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown measure"):
        grid_table(small_grid(), "kill")
