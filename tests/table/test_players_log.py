"""The players' log (:mod:`affray.table.players_log`): what happened, told by each
command's fields and by the board before and after it: friends in full, foes as the
board shows them, no hidden combatant named, none of the game master's private doings."""

from __future__ import annotations

import json
from pathlib import Path

from affray.table import Store, Tables
from affray.table.commands import Act, Hide, Mark, Note, Reveal, Set, Start
from affray.table.players_log import players_log
from tests.helpers import EXAMPLES


def ford(db: Path) -> tuple[Tables, object]:
    tables = Tables(Store(db))
    row = tables.new("Ford", "mst2")
    for sheet, side, player in (
        ("spearman.toml", "levy", True),
        ("sellsword.toml", "blades", False),
        ("goblin.toml", "blades", False),
    ):
        name = "Zed" if sheet == "goblin.toml" else None
        tables.run(
            row,
            tables.joining(
                row, str(EXAMPLES / "mst2" / sheet), side=side, player=player, name=name
            ),
        )
    return tables, row


def test_friends_in_full_foes_in_words_and_no_hidden_name(tmp_path: Path) -> None:
    tables, row = ford(tmp_path / "t.db")
    tables.run(row, Hide("Zed"))
    tables.run(row, Note("the ogre waits behind the door"))
    tables.run(row, Mark("Sellsword", "bleeding", public=False))  # the game master's own
    tables.run(row, Mark("Sellsword", "prone", public=True))
    tables.run(row, Start(), seed=1)
    fold = tables.fold(row)
    turn = fold.state.current
    assert turn is not None
    tables.run(row, Set("Spearman", {"wounds": 2}))
    tables.run(row, Set("Sellsword", {"wounds": 3}))
    told = players_log(tables.fold(row))
    text = json.dumps(told)
    assert "Zed" not in text and "ogre" not in text and "bleeding" not in text
    assert told[0]["lines"] == [f"Sellsword: health unhurt → {told[0]['lines'][0].split('→ ')[1]}"]
    assert "wounds" not in " ".join(told[0]["lines"])  # a foe: its health in a word
    assert told[1]["lines"] == ["Spearman: wounds 0 → 2"]  # a friend: in full
    assert told[0]["text"] == "" and told[1]["text"] == ""  # rulings: told by their outcome
    headings = [entry["text"] for entry in told]
    assert "The fight begins" in headings
    assert {"version": 7, "text": "", "lines": ["Sellsword: now prone"], "dice": []} in told
    assert "Spearman joins the fight (side levy)" in headings
    assert [entry["version"] for entry in told] == sorted(
        (entry["version"] for entry in told), reverse=True
    )


def test_a_hidden_combatants_doings_read_someone(tmp_path: Path) -> None:
    tables, row = ford(tmp_path / "t.db")
    tables.run(row, Hide("Zed"))
    tables.run(row, Start(), seed=2)
    state = tables.fold(row).state
    for _ in range(6):  # play until Zed attacks the spearman
        state = tables.fold(row).state
        if state.current == "Zed":
            break
        tables.run(row, Act(state.current or "", "hold"))
    assert tables.fold(row).state.current == "Zed"
    tables.run(row, Act("Zed", "attack", "Spearman"), seed=5)
    told = players_log(tables.fold(row))
    assert told[0]["text"] == "someone: attack Spearman"
    assert "Zed" not in json.dumps(told)
    # shown again: the players see it from now on, and what it did before still reads
    # "someone" only where it was hidden then
    tables.run(row, Reveal("Zed"))
    told = players_log(tables.fold(row))
    assert told[0]["text"] == "Zed appears"
    assert told[1]["text"] == "someone: attack Spearman"
