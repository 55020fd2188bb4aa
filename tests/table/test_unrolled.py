"""Nothing shown that nobody rolled: what a command that waits for a die says it did
holds no outcome of a die not yet given (issue 50, item 1: a round's order while
initiative dice are still to come)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from affray.errors import DieNeededError
from affray.table import Store, TableRow, Tables
from affray.table.commands import Start

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "midian"
CAST = (("guard", "watch"), ("brawler", "rowdies"), ("guard", "watch"), ("brawler", "rowdies"))


@pytest.fixture(scope="module")
def inn(tmp_path_factory: pytest.TempPathFactory) -> tuple[Tables, TableRow]:
    tables = Tables(Store(tmp_path_factory.mktemp("inn") / "t.db"))
    row = tables.new("Inn", "midian")
    for sheet, side in CAST:
        tables.run(row, tables.joining(row, str(EXAMPLES / f"{sheet}.toml"), side=side))
    return tables, row


@settings(max_examples=25, deadline=None)
@given(faces=st.lists(st.integers(1, 10), max_size=len(CAST) - 1))
def test_no_order_is_told_before_every_initiative_die_is_given(
    inn: tuple[Tables, TableRow], faces: list[int]
) -> None:
    tables, row = inn
    with pytest.raises(DieNeededError, match="initiative") as stopped:
        tables.run(row, Start(), rolls=faces, roll_missing=False)
    did = stopped.value.did
    assert not any("order:" in line for line in did), did
    told = [line for line in did if "initiative:" in line]
    assert [int(line.split("d10 ")[1].split()[0]) for line in told] == faces  # those given
    waiting = tables.waiting(row)
    assert waiting is not None and waiting["did"] == list(did)


def test_the_order_is_told_once_every_die_is_given(inn: tuple[Tables, TableRow]) -> None:
    tables, row = inn
    done = tables.run(row, Start(), rolls=[7, 3, 9, 2], roll_missing=False)
    assert any("order:" in line for line in done.lines)
    tables.undo(row, 1)
