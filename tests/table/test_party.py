"""Parties: a party carried through two tables with typed-in dice, resting between
them by each system's healing rules (hand-computed), undo of its last change,
refusals that change nothing, and its log replayed equal to its live state."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from affray.cli.main import cli
from affray.dice import ScriptedDice
from affray.errors import AffrayError, TableError
from affray.table import Act, Next, Start, Store, TableRow, Tables
from affray.table.commands import Add, Set
from affray.table.identity import names_in
from affray.table.parties import Parties
from affray.table.party_rules import PartyState
from tests.helpers import EXAMPLES

KNIGHT = str(EXAMPLES / "mst2/knight.json")  # hit dice 3d10+1
SPEARMAN = str(EXAMPLES / "mst2/spearman.toml")
GUARD = str(EXAMPLES / "midian/guard.toml")  # 20 hit points, 10 life points
BRAWLER = str(EXAMPLES / "midian/brawler.toml")


@pytest.fixture
def parties(tmp_path: Path) -> Parties:
    return Parties(Tables(Store(tmp_path / "t.db")))


def values(parties: Parties, ref: str) -> dict[str, dict[str, Any]]:
    """Each member's carried values (those not as fresh)."""
    state = parties.fold(parties.party(ref)).state
    return {m.id: dict(m.values) for m in state.members}


def replayed(parties: Parties, ref: str) -> PartyState:
    """The party's state folded again from its log, by another connection."""
    other = Parties(Tables(Store(parties.store.store.path)))
    return other.fold(other.party(ref)).state


def ogre_table(parties: Parties, name: str) -> TableRow:
    """A table of the Company against an ogre, the Company's first turns passed."""
    tables = parties.tables
    table = tables.new(name, "mst2")
    tables.run_all(table, parties.joining(table, "the-company"))
    tables.run(table, tables.joining(table, "ogre", side="monsters"))
    tables.run(table, Start())
    while tables.fold(table).state.current != "Ogre":
        tables.run(table, Next())
    return table


def test_an_mst2_party_carries_its_wounds_through_two_tables_and_rests(
    parties: Parties,
) -> None:
    tables = parties.tables
    company = parties.new("The Company", "mst2")
    parties.add(company, KNIGHT)
    parties.add(company, SPEARMAN, "Bram")

    # Table 1: the ogre hits the Knight for 3 wounds (power [6,6,6] vs protection 5;
    # shock 3d10+1 [1,1,1] = 4 > 3 keeps him fighting); the game master kills Bram.
    first = ogre_table(parties, "Ford")
    tables.run(first, Act("Ogre", "attack", "Knight"), rolls=[20, 6, 6, 6, 1, 1, 1])
    tables.run(first, Set("Bram", {"condition": "dead"}))
    (ended,) = parties.end(first)
    assert ended.version == 3
    assert values(parties, "the-company") == {
        "Knight": {"wounds": 3},
        "Bram": {"condition": "dead"},
    }

    # Low fantasy, as written: 3d10+1 of 4 is not less than 3 wounds: nothing heals
    # (two days, the Knight rolls each day; dead Bram rolls nothing).
    dice = ScriptedDice([1, 1, 1, 1, 1, 1])
    parties.rest(company, 2, dice, {"setting": "low"})
    assert not dice.remaining
    assert values(parties, "the-company")["Knight"] == {"wounds": 3}

    # Table 2: the party comes back as it is: an add each, then a set of the Knight's
    # 3 wounds and of Bram's death; the ogre hits again (shock [3,2,1]+1 = 7 > 6).
    second = ogre_table(parties, "Bridge")
    joined = [c for c in tables.fold(second).done if isinstance(c.command, Add | Set)]
    called = tables.fold(second).called()  # the log names them by key
    assert [names_in(c.command, called) for c in joined if isinstance(c.command, Set)] == [
        Set("Knight", {"wounds": 3}),
        Set("Bram", {"condition": "dead"}),
    ]
    assert {c.command.party for c in joined if isinstance(c.command, Add)} == {
        "the-company",
        None,
    }
    shown = tables.fold(second).state
    assert shown.encounter.states["Knight"].wounds == 3
    assert [c.side for c in shown.encounter.combatants][:2] == ["The Company"] * 2
    tables.run(second, Act("Ogre", "attack", "Knight"), rolls=[20, 6, 6, 6, 3, 2, 1])
    parties.end(second)
    assert values(parties, "the-company") == {
        "Knight": {"wounds": 6},
        "Bram": {"condition": "dead"},
    }

    # Low fantasy: [1,2,1]+1 = 5 < 6 wounds heals one; high fantasy: [1,1,1]+1 = 4
    # heals four.
    parties.rest(company, 1, ScriptedDice([1, 2, 1]), {"setting": "low"})
    assert values(parties, "the-company")["Knight"] == {"wounds": 5}
    done = parties.rest(company, 1, ScriptedDice([1, 1, 1]), {"setting": "high"})
    assert values(parties, "the-company") == {
        "Knight": {"wounds": 1},
        "Bram": {"condition": "dead"},
    }
    assert any("high fantasy" in line for line in done.lines)
    assert replayed(parties, "the-company") == done.state

    # Undo takes back the last change only (the high-fantasy day).
    undone = parties.undo(company)
    assert values(parties, "the-company")["Knight"] == {"wounds": 5}
    assert replayed(parties, "the-company") == undone.state
    parties.undo(company)
    assert values(parties, "the-company")["Knight"] == {"wounds": 6}


def test_a_midian_party_heals_a_point_a_day_life_points_first(parties: Parties) -> None:
    tables = parties.tables
    watch = parties.new("Watch", "midian")
    parties.add(watch, GUARD)

    alley = tables.new("Alley", "midian")
    tables.run_all(alley, parties.joining(alley, "watch"))
    tables.run(alley, tables.joining(alley, BRAWLER, side="foes"))
    tables.run(alley, Start(), rolls=[6, 5])
    tables.run(alley, Set("Guard", {"hit_points": 0, "life_points": -3, "serious_wounds": 1}))
    tables.run(alley, Set("Guard", {"condition": "unconscious"}))
    parties.end(alley)
    carried = values(parties, "watch")["Guard"]
    assert carried["hit_points"] == 0 and carried["life_points"] == -3
    assert carried["condition"] == "unconscious" and carried["serious_wounds"] == 1

    # A day heals one point, life points first: -3 → 1 in four days, awake above 0;
    # the wounds close and the fight's shock and initiative are gone. No dice.
    dice = ScriptedDice([])
    parties.rest(watch, 4, dice, {})
    assert values(parties, "watch") == {"Guard": {"hit_points": 0, "life_points": 1}}
    # Nine more days to 10 life points, then a hit point on the tenth.
    parties.rest(watch, 10, dice, {})
    assert values(parties, "watch") == {"Guard": {"hit_points": 1}}

    # Table 2: the Guard comes with 1 hit point, and dies; the dead do not heal.
    square = tables.new("Square", "midian")
    tables.run_all(square, parties.joining(square, "watch"))
    assert tables.fold(square).state.encounter.states["Guard"].health.hit_points == 1
    tables.run(square, Set("Guard", {"condition": "dead"}))
    parties.end(square)
    dead = values(parties, "watch")["Guard"]
    done = parties.rest(watch, 3, dice, {})
    assert values(parties, "watch")["Guard"] == dead
    assert dead["condition"] == "dead" and dead["alive"] is False
    assert replayed(parties, "watch") == done.state


def test_a_renamed_or_removed_party_member_at_the_table(parties: Parties) -> None:
    tables = parties.tables
    company = parties.new("The Company", "mst2")
    parties.add(company, KNIGHT)
    parties.add(company, SPEARMAN, "Bram")
    table = tables.new("Ford", "mst2")
    tables.run_all(table, parties.joining(table, "the-company"))
    from affray.table.commands import Remove, Rename

    tables.run(table, Rename("Knight", "Sir Hugh"))
    tables.run(table, Set("Sir Hugh", {"wounds": 2}))
    tables.run(table, Set("Bram", {"wounds": 1}))
    tables.run(table, Remove("Bram"))
    parties.end(table)
    assert values(parties, "the-company") == {"Knight": {"wounds": 2}, "Bram": {}}


def test_refusals_change_nothing(parties: Parties) -> None:
    tables = parties.tables
    company = parties.new("The Company", "mst2")
    watch = parties.new("Watch", "midian")

    def refused(call: Any, *args: Any, **kwargs: Any) -> AffrayError:
        before = [parties.store.changes(p.id) for p, _ in parties.store.parties()]
        with pytest.raises(AffrayError) as raised:
            call(*args, **kwargs)
        assert raised.value.hint
        assert [parties.store.changes(p.id) for p, _ in parties.store.parties()] == before
        return raised.value

    assert "no party" in refused(parties.party, "nope").message
    assert "unknown rule system" in refused(parties.new, "X", "chess").message
    assert "no party change to undo" in refused(parties.undo, company).message
    assert "no members" in refused(parties.rest, company, 1, ScriptedDice([]), {}).message
    parties.add(company, KNIGHT)
    assert "already" in refused(parties.add, company, SPEARMAN, "knight").message
    assert "1 to 365" in refused(parties.rest, company, 0, ScriptedDice([]), {}).message
    refused(parties.rest, company, 1, ScriptedDice([]), {"setting": "epic"})
    refused(parties.rest, company, 1, ScriptedDice([]), {"days": 2})
    parties.add(watch, GUARD)
    assert (
        "setting" in refused(parties.rest, watch, 1, ScriptedDice([]), {"setting": "low"}).message
    )
    refused(parties.add, watch, KNIGHT)  # an MST-2 sheet

    table = tables.new("Ford", "mst2")
    assert "no one at" in refused(parties.end, table).message
    assert "midian party" in refused(parties.joining, table, "watch").message
    tables.run_all(table, parties.joining(table, "the-company"))
    assert "already a combatant" in refused(parties.joining, table, "the-company").message
    parties.end(table)
    assert "written back already" in refused(parties.end, table).message
    # undone, it may be written back again
    parties.undo(company)
    parties.end(table)


def test_a_system_without_rest_refuses_it(
    parties: Parties, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dataclasses import replace

    from affray import registry

    company = parties.new("The Company", "mst2")
    parties.add(company, KNIGHT)
    mst2 = registry.system("mst2")
    monkeypatch.setattr(registry, "system", lambda name: replace(mst2, rest=None))
    with pytest.raises(TableError, match="no rules for days of rest"):
        parties.rest(company, 1, ScriptedDice([]), {})


def test_the_party_verbs(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")

    def run(*args: str) -> Any:
        return CliRunner().invoke(cli, [*args, "--db", db], catch_exceptions=False)

    def data(*args: str) -> dict[str, Any]:
        result = run(*args, "--json")
        assert result.exit_code == 0, result.output
        loaded: dict[str, Any] = json.loads(result.stdout)
        return loaded

    assert data("party", "new", "The Company", "--system", "mst2")["party"] == "the-company"
    assert data("party", "add", "the-company", KNIGHT)["member"] == "Knight"
    assert data("party", "add", "the-company", "spearman", "--as", "Bram")["version"] == 2
    assert data("table", "new", "Ford", "--system", "mst2")["table"] == "ford"
    added = data("table", "add", "ford", "party:the-company")
    assert added["combatants"] == ["Knight", "Bram"]
    assert data("table", "set", "ford", "Knight", "wounds=6")["version"] == 3
    ended = data("table", "end", "ford")
    assert ended["parties"] == [
        {
            "party": "the-company",
            "version": 3,
            "members": ["Knight", "Bram"],
            "not_written_back": [],
        }
    ]
    rested = data("party", "rest", "the-company", "--days", "1", "--rolls", "1,2,1")
    assert [m["state"] for m in rested["members"]] == [
        {"wounds": 5, "condition": "fighting"},
        {"wounds": 0, "condition": "fighting"},
    ]
    shown = data("party", "show", "the-company")
    assert shown["version"] == 4 and shown["members"][0]["values"] == {"wounds": 5}
    assert data("party", "list")["parties"][0]["version"] == 4
    assert data("party", "undo", "the-company")["members"][0]["values"] == {"wounds": 6}
    assert run("party", "show", "the-company").exit_code == 0

    for args in (
        ("party", "show", "nope"),
        ("party", "new", "X", "--system", "chess"),
        ("party", "rest", "the-company", "--days", "0"),
        ("party", "add", "the-company", "nonesuch"),
        ("table", "add", "ford", "party:the-company"),
        ("table", "add", "ford", "party:the-company", "--side", "heroes"),
        ("table", "add", "ford", "party:nope"),
    ):
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert result.stderr.startswith("error: ") and "\nTip: " in result.stderr, args
        assert "Traceback" not in result.output


def json_of(db: str, *args: str) -> dict[str, Any]:
    """``affray ARGS --db DB --json``, in this process: its JSON answer."""
    result = CliRunner().invoke(cli, [*args, "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    loaded: dict[str, Any] = json.loads(result.stdout)
    return loaded


def test_a_write_back_goes_to_the_same_member_never_one_of_the_same_name(tmp_path: Path) -> None:
    """Bram the spearman goes to the table; his add is undone in the party and a goblin
    joins as Bram: the table's end writes the knight back and not Bram's wounds onto
    the goblin (who is another member), and says so."""
    db = str(tmp_path / "t.db")
    data = functools.partial(json_of, db)

    data("party", "new", "The Company", "--system", "mst2")
    data("party", "add", "the-company", KNIGHT)
    data("party", "add", "the-company", "spearman", "--as", "Bram")
    data("table", "new", "Ford", "--system", "mst2")
    data("table", "add", "ford", "party:the-company")
    data("table", "set", "ford", "Bram", "wounds=3")
    data("table", "set", "ford", "Knight", "wounds=2")
    data("party", "undo", "the-company")  # Bram's add taken back
    data("party", "add", "the-company", "goblin", "--as", "Bram")
    ended = data("table", "end", "ford")
    assert ended["parties"][0]["members"] == ["Knight"]
    assert ended["parties"][0]["not_written_back"] == ["Bram"]
    members = {m["id"]: m for m in data("party", "show", "the-company")["members"]}
    assert members["Knight"]["values"] == {"wounds": 2}
    assert members["Bram"]["values"] == {} and members["Bram"]["source"] == "bestiary goblin"


def test_four_ends_at_once_write_back_once(tmp_path: Path) -> None:
    """Four `table end` processes at once on one version of the table: one writes it
    back, the others are refused, and one party undo takes the write-back away."""
    import subprocess
    import sys

    db = str(tmp_path / "t.db")
    data = functools.partial(json_of, db)

    data("party", "new", "The Company", "--system", "mst2")
    data("party", "add", "the-company", KNIGHT)
    data("table", "new", "Ford", "--system", "mst2")
    data("table", "add", "ford", "party:the-company")
    data("table", "set", "ford", "Knight", "wounds=4")
    for _ in range(3):
        before = data("party", "show", "the-company")["version"]
        ends = [
            subprocess.Popen(
                [sys.executable, "-m", "affray", "table", "end", "ford", "--db", db, "--json"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(4)
        ]
        codes = [end.wait(timeout=120) for end in ends]
        for end in ends:
            assert end.stdout is not None and end.stderr is not None
            end.stdout.close()
            end.stderr.close()
        assert sorted(codes) == [0, 2, 2, 2]
        shown = data("party", "show", "the-company")
        assert shown["version"] == before + 1  # one end
        assert shown["members"][0]["values"] == {"wounds": 4}
        data("party", "undo", "the-company")
        assert data("party", "show", "the-company")["members"][0]["values"] == {}


def test_a_party_has_at_most_its_cap_of_members(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hostile round 4, item 6: a party of 10,000 members imported with no word (42 s,
    and 621 MB to show it); a party takes at most MAX_MEMBERS, and says so, by `party
    add` and by an import alike."""
    from affray.table import party_rules

    monkeypatch.setattr(party_rules, "MAX_MEMBERS", 3)
    db = str(tmp_path / "t.db")
    data = functools.partial(json_of, db)
    data("party", "new", "Band", "--system", "mst2")
    for name in ("A", "B", "C"):
        data("party", "add", "band", "goblin", "--as", name)
    refused = CliRunner().invoke(cli, ["party", "add", "band", "goblin", "--as", "D", "--db", db])
    assert refused.exit_code == 2
    assert "a party has at most 3 members, and this one has 3" in refused.stderr
    export = tmp_path / "band.json"
    assert CliRunner().invoke(cli, ["party", "export", "band", "--out", str(export), "--db", db])
    monkeypatch.setattr(party_rules, "MAX_MEMBERS", 2)
    imported = CliRunner().invoke(
        cli, ["party", "import", str(export), "--as", "Band 2", "--db", db]
    )
    assert imported.exit_code == 2, imported.output
    assert "a party has at most 2 members" in imported.stderr
