"""The table through its terminal verbs: golden rounds with typed-in dice for both
systems, refusals that change nothing, undo and redo, the journal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from affray.cli.main import cli
from tests.helpers import EXAMPLES


class Table:
    """The verbs of one table in one database, run in process."""

    def __init__(self, db: Path, name: str, system: str) -> None:
        self.db = str(db)
        made = self.json("new", name, "--system", system)
        self.id = str(made["table"])
        assert made["version"] == 0
        assert made["gm_token"] != made["player_token"]

    def run(self, *args: str) -> Result:
        return CliRunner().invoke(cli, ["table", *args, "--db", self.db], catch_exceptions=False)

    def json(self, verb: str, *args: str) -> dict[str, Any]:
        result = self.run(verb, *args, "--json")
        assert result.exit_code == 0, result.output
        data: dict[str, Any] = json.loads(result.stdout)
        return data

    def __call__(self, verb: str, *args: str) -> dict[str, Any]:
        return self.json(verb, self.id, *args)

    def refused(self, verb: str, *args: str) -> str:
        """The command fails with a clear error, and the table does not change (a
        command that stops for a die waits, the fight as it was: ``pending`` says so)."""
        before = {k: v for k, v in self("show").items() if k != "pending"}
        result = self.run(verb, self.id, *args)
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith("error: ") and "\nTip: " in result.stderr
        assert "Traceback" not in result.output
        assert {k: v for k, v in self("show").items() if k != "pending"} == before
        return result.stderr

    def state(self, who: str) -> dict[str, Any]:
        shown = self("show")
        (combatant,) = [c for c in shown["combatants"] if c["id"] == who]
        return dict(combatant)


@pytest.fixture
def mst2(tmp_path: Path) -> Table:
    table = Table(tmp_path / "t.db", "Levy at the ford", "mst2")
    spearman = str(EXAMPLES / "mst2/spearman.toml")
    assert table("add", spearman, "--side", "levy") == {
        "combatant": "Spearman",
        "version": 1,
        "events": [
            {
                "event": "combatant_added",
                "combatant": "Spearman",
                "side": "levy",
                "source": spearman,
            }
        ],
        "lines": [f"Spearman joins the fight on side levy ({spearman})"],
    }
    table("add", str(EXAMPLES / "mst2/sellsword.toml"), "--side", "blades")
    return table


def test_golden_mst2_round(mst2: Table) -> None:
    """Round 1: the spearman's 5 + 2 misses the sellsword's evasion 11 and engages at
    far reach. The sellsword closes in: the spear's free counter-attack (3 + 2) misses;
    then the rules text's hit (tests/rulesystems/mst2/test_attack.py): 14 + 3 = 17 beats
    evasion 12; power 3d6 [5,2,6] against protection 2 → 2 wounds; shock 1d10 3 > 2."""
    started = mst2("start")
    assert (started["round"], started["turn"], started["phase"]) == (1, "Spearman", "turn")
    missed = mst2("act", "spearman", "attack", "--rolls", "5", "--no-roll")
    assert [e["event"] for e in missed["events"]] == ["action_chosen", "engaged", "attack_rolled"]
    assert missed["events"][-1]["hit"] is False
    acted = mst2("act", "Sellsword", "attack", "Spearman", "--rolls", "3,14,5,2,6,3", "--no-roll")
    assert acted["version"] == 5
    assert [e["event"] for e in acted["events"]] == [
        "action_chosen",
        "counter_attack_granted",
        "attack_rolled",
        "distance_changed",
        "attack_rolled",
        "power_rolled",
        "wounded",
        "shock_checked",
    ]
    assert mst2.state("Spearman")["state"] == {"wounds": 2}
    assert mst2.state("Spearman")["condition"] == "fighting"
    assert mst2.state("Sellsword")["state"] == {"wounds": 0}
    assert acted["phase"] == "round over"
    assert mst2("next")["turn"] == "Spearman"
    assert mst2("next")["turn"] == "Sellsword"  # the spearman passes
    # 20 + 3 hits; [6,6,6] are 3 more wounds (5 in all); shock 1 is not above 5: out
    ended = mst2("act", "Sellsword", "attack", "Spearman", "--rolls", "20,6,6,6,1", "--no-roll")
    assert mst2.state("Spearman")["state"] == {"wounds": 5}
    assert mst2.state("Spearman")["condition"] != "fighting"
    assert (ended["phase"], ended["winner"]) == ("over", "blades")
    assert ended["events"][-1]["event"] == "encounter_ended"
    assert "the fight is over: blades won" in mst2.refused("next")


def test_golden_midian_round(tmp_path: Path) -> None:
    """Initiative d10: Guard 3; Brawler 10 + 1 = 11, so two actions (11 and 1).
    Brawler's fists: 15 + 4 = 19 against armour class 12, a hit; 1d4 [3] + 2 = 5,
    smashing resistance 10 % takes ceil(0.5) = 1, reduction 3 takes 3: 1 damage."""
    table = Table(tmp_path / "t.db", "Inn brawl", "midian")
    table("add", str(EXAMPLES / "midian/guard.toml"), "--side", "watch")
    table("add", str(EXAMPLES / "midian/brawler.toml"), "--side", "rowdies")
    started = table("start", "--rolls", "3,10", "--choose", "stance=normal", "--no-roll")
    assert started["events"][1] == {
        "event": "round_started",
        "round": 1,
        "order": ["Brawler", "Guard", "Brawler"],
    }
    assert started["turn"] == "Brawler"
    acted = table(
        "act",
        "Brawler",
        "attack",
        "Guard",
        "--rolls",
        "15,3",
        "--choose",
        "defence=take it",
        "--no-roll",
    )
    assert table.state("Guard")["state"]["hit_points"] == 19
    assert table.state("Guard")["state"]["life_points"] == 10
    assert acted["turn"] == "Guard"
    assert table("show")["queue"] == ["Brawler"]
    # the guard passes; the brawler's second action comes at 1
    assert table("next")["turn"] == "Brawler"
    assert table("next")["phase"] == "round over"
    # round 2: initiative again (the brawler's shock is 0; the guard's shock of -1 has
    # been carried: 7 - 1 = 6)
    second = table("next", "--rolls", "7,2", "--choose", "stance=normal", "--no-roll")
    assert second["round"] == 2
    rolled = [e for e in second["events"] if e["event"] == "initiative_rolled"]
    assert [e["total"] for e in rolled] == [6, 3]


def test_refused_commands_change_nothing(mst2: Table) -> None:
    assert "has not started" in mst2.refused("act", "Spearman", "attack", "Sellsword")
    mst2("start")
    assert "Spearman's turn, not Sellsword's" in mst2.refused("act", "Sellsword", "attack")
    assert "no combatant is called 'Bob'" in mst2.refused("act", "Bob", "attack")
    assert "cannot attack 'Ghost'" in mst2.refused("act", "Spearman", "attack", "Ghost")
    assert "'dance' is not something Spearman can do" in mst2.refused("act", "Spearman", "dance")
    assert "shows 1 to 20" in mst2.refused("act", "Spearman", "attack", "--rolls", "25")
    err = mst2.refused("act", "Spearman", "attack", "--rolls", "14", "--no-roll")
    assert "the next die is a d8" in err
    err = mst2.refused("act", "Spearman", "attack", "--rolls", "1,1,1,1,1,1,1")
    assert "rules rolled only 1 die; left over: 1, 1, 1, 1, 1, 1" in err
    assert "(what happened: Spearman attacks Sellsword (spear): d20 1+2=3 vs evasion 11" in err
    assert "TOPIC is one of: action, circumstance" in mst2.refused(
        "act", "Spearman", "attack", "--choose", "mood=x"
    )
    assert "has started already" in mst2.refused("start")
    assert "at version 3, not 1" in mst2.refused("note", "hello", "--expect", "1")


def test_undo_and_redo_through_turns_and_rounds(mst2: Table) -> None:
    mst2("start")
    mst2("act", "Spearman", "attack", "--rolls", "5", "--no-roll")
    after_attack = mst2("show")
    mst2("act", "Sellsword", "attack", "Spearman", "--rolls", "3,14,5,2,6,3", "--no-roll")
    mst2("next")
    assert mst2("show")["round"] == 2
    undone = mst2("undo", "--steps", "2")
    assert [u["what"] for u in undone["undone"]] == ["next", "Sellsword: attack Spearman"]
    shown = mst2("show")
    assert {k: v for k, v in shown.items() if k not in ("version", "can_undo", "can_redo")} == {
        k: v for k, v in after_attack.items() if k not in ("version", "can_undo", "can_redo")
    }
    assert (shown["version"], shown["can_redo"]) == (7, 2)
    assert mst2("redo")["redone"] == [{"version": 5, "what": "Sellsword: attack Spearman"}]
    assert mst2("show")["phase"] == "round over"
    mst2("note", "the ford is slippery")  # a new change drops the redo branch
    assert "nothing to redo" in mst2.refused("redo")
    assert "only 6 changes are in effect" in mst2.refused("undo", "--steps", "7")


def test_conditions_end_with_the_turns_they_name(mst2: Table) -> None:
    mst2("start")
    mst2("mark", "Spearman", "prone", "--until", "end", "--of", "Sellsword")
    mst2("mark", "Sellsword", "blessed", "--until", "start", "--turns", "2")
    mst2("mark", "Spearman", "muddy")
    shown = mst2("show")
    assert [c["conditions"] for c in shown["combatants"]] == [
        [
            {"text": "prone", "until": "the end of Sellsword's next turn", "public": False},
            {"text": "muddy", "until": "", "public": False},
        ],
        [
            {
                "text": "blessed",
                "until": "the start of Sellsword's turn 2 turns from now",
                "public": False,
            }
        ],
    ]
    mst2("next")  # Spearman passes
    ended = mst2("next")  # Sellsword passes: prone ends
    assert any(e["event"] == "condition_ended" and e["text"] == "prone" for e in ended["events"])
    mst2("next")  # round 2: Sellsword's turn starts, blessed counts down to 1
    assert mst2.state("Sellsword")["conditions"] == [
        {"text": "blessed", "until": "the start of Sellsword's next turn", "public": False}
    ]
    mst2("unmark", "Spearman", "muddy")
    assert mst2.state("Spearman")["conditions"] == []


def test_journal_in_text_markdown_and_json(mst2: Table) -> None:
    mst2("start")
    mst2("act", "Spearman", "attack", "--rolls", "5", "--no-roll")
    mst2("note", "the levy wavers")
    mst2("undo")
    log = mst2.json("log", mst2.id)
    assert [(c["verb"], c["in_effect"]) for c in log["changes"]] == [
        ("add", True),
        ("add", True),
        ("start", True),
        ("act", True),
        ("note", False),
        ("undo", True),
    ]
    markdown = mst2.run("log", mst2.id, "--format", "markdown").stdout
    assert markdown.startswith("## Levy at the ford\n")
    assert "### Round 1" in markdown
    assert "- Spearman attacks Sellsword" in markdown
    assert "wavers" not in markdown  # undone: not in the journal
    text = mst2.run("log", mst2.id).stdout
    assert "note: the levy wavers  [undone]" in text
    listed = mst2.json("list")
    assert listed["tables"][0]["table"] == mst2.id
    assert listed["tables"][0]["version"] == 6


def test_add_from_the_bestiary_numbers_repeats(tmp_path: Path) -> None:
    table = Table(tmp_path / "t.db", "Goblins", "mst2")
    assert table("add", "goblin", "--side", "goblins")["combatant"] == "Goblin"
    assert table("add", "goblins", "--side", "goblins")["combatant"] == "Goblin 2"
    assert table("add", "goblin", "--as", "Snaga")["combatant"] == "Snaga"
    assert "bestiary" in table.refused("add", "dragon")
    assert "not a MST-2 sheet" in table.refused("add", str(EXAMPLES / "midian/guard.toml"))
    assert "already a combatant called 'snaga'" in table.refused("add", "goblin", "--as", "snaga")


def test_add_n_of_a_creature_at_once(tmp_path: Path) -> None:
    """Issue 36, item 5, at the terminal: three wolves, one side, one change each."""
    table = Table(tmp_path / "t.db", "Wolves", "mst2")
    table("add", "goblin", "--side", "levy")
    added = table("add", "goblin", "--count", "3", "--as", "Wolf", "--side", "pack")
    assert added["combatants"] == ["Wolf 1", "Wolf 2", "Wolf 3"]
    assert added["version"] == 4
    shown = table("show")
    assert {c["id"]: c["side"] for c in shown["combatants"]} == {
        "Goblin": "levy",
        "Wolf 1": "pack",
        "Wolf 2": "pack",
        "Wolf 3": "pack",
    }
    refused = table.run("add", table.id, "goblin", "--count", "21")
    assert refused.exit_code == 2 and "'--count': 21 is not in the range 1<=x<=20" in refused.stderr
    assert len(table("show")["combatants"]) == 4


def test_a_missing_table_and_a_bad_database_are_clear_errors(tmp_path: Path) -> None:
    table = Table(tmp_path / "t.db", "One", "mst2")
    result = table.run("show", "two")
    assert result.exit_code == 2
    assert "no table 'two'" in result.stderr and "tables here: one" in result.stderr
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database" * 100)
    result = CliRunner().invoke(cli, ["table", "list", "--db", str(junk)])
    assert result.exit_code == 2
    assert "cannot use it as a table database" in result.stderr
    result = table.run("new", "X", "--system", "chess")
    assert result.exit_code == 2 and "unknown rule system 'chess'" in result.stderr


def test_import_an_encounter_file(tmp_path: Path) -> None:
    table = Table(tmp_path / "t.db", "Ambush", "mst2")
    imported = table("import", str(EXAMPLES / "encounters/ambush.toml"))
    assert imported["combatants"] == [
        "Sellsword",
        "Spearman",
        "Archer",
        "Bandit 1",
        "Bandit 2",
        "Bandit 3",
        "Bandit archer 1",
        "Bandit archer 2",
    ]
    assert imported["version"] == 8
    sides = {c["id"]: c["side"] for c in table("show")["combatants"]}
    assert sides["Archer"] == "Caravan guard" and sides["Bandit 2"] == "Bandits"
    assert table("undo")["undone"] == [
        {"version": 8, "what": "add Bandit archer 2 (side Bandits, from bestiary archer)"}
    ]
    err = table.refused("import", str(EXAMPLES / "encounters/charge.toml"))
    assert "is a midian encounter, but this table plays mst2" in err


def test_a_choice_for_one_combatant_from_the_terminal(tmp_path: Path) -> None:
    inn = Table(tmp_path / "t.db", "Inn", "midian")
    for sheet, side in (("midian/guard.toml", "watch"), ("midian/brawler.toml", "rowdies")):
        inn("add", str(EXAMPLES / sheet), "--side", side)
    inn(
        "start",
        "--rolls",
        "3,10",
        "--roll-rest",
        "--choose",
        "stance=evasion",
        "--choose",
        "Guard:stance=defensive",
    )
    assert inn.state("Guard")["state"]["stance"] == "defensive"
    assert inn.state("Brawler")["state"]["stance"] == "evasion"
    log = inn.json("log", inn.id, "--format", "json")
    started = next(c for c in log["changes"] if c["verb"] == "start")
    assert [(a["who"], a["topic"]) for a in started["answers"]] == [
        ("Guard", "stance"),
        ("Brawler", "stance"),
    ]
    assert "TOPIC=CHOICE or WHO:TOPIC=CHOICE" in inn.refused("next", "--choose", ":stance=x")
    done = inn("run", "--to-end", "--seed", "4")
    assert done["phase"] == "over" and done["lines"][-1].startswith(("Winner", "Draw"))


def test_a_system_is_named_as_people_type_it(tmp_path: Path) -> None:
    """Issue 41, item 6: `--system MST2` was refused while names are not case-sensitive."""
    for typed, system in (("MST2", "mst2"), ("MST-2", "mst2"), ("Midian", "midian")):
        table = Table(tmp_path / f"{typed}.db", "Q", typed)
        assert table("show")["system"] == system
    refused = CliRunner().invoke(
        cli, ["table", "new", "Q", "--system", "dnd", "--db", str(tmp_path / "x.db")]
    )
    assert refused.exit_code == 2 and "unknown rule system 'dnd'" in refused.stderr
