"""The table on the one turn cursor: a table left to its tactics tells the fight
`affray fight` tells; answers belong to who is asked; a command that waits for a die
or an answer keeps the faces and answers it used; the round cap holds at the table;
logs written before the cursor still replay."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import affray
from affray.cli.main import cli
from affray.encounter import Answered
from affray.errors import AffrayError, ChoiceNeededError, DieNeededError, RulesError, TableError
from affray.sheets import load_encounter
from affray.sheets.documents import load_document
from affray.sim.fights import simulate_fights
from affray.table import Act, Next, Run, Start, Store, TableRow, Tables
from affray.table.commands import inputs_from_data
from tests.helpers import EXAMPLES

ENCOUNTERS = sorted((EXAMPLES / "encounters").glob("*.toml"))


def imported(tables: Tables, encounter: Path, name: str | None = None) -> TableRow:
    """A new table named as the encounter (or ``name``), with the file imported (rules
    and all)."""
    setup = load_encounter(encounter)
    row = tables.new(name or setup.name, setup.system.name)
    importing = tables.importing(
        row, load_document(encounter), str(encounter), encounter.resolve().parent
    )
    tables.run_all(row, importing.commands, options=importing.options)
    return tables.table(row.id)


@pytest.mark.parametrize("encounter", ENCOUNTERS, ids=[p.stem for p in ENCOUNTERS])
def test_a_table_left_to_its_tactics_tells_the_fight_of_the_file(
    encounter: Path, tmp_path: Path
) -> None:
    for seed in range(20):
        tables = Tables(Store(tmp_path / f"t{seed}.db"))  # a table's name is its fight's
        fight = affray.fight(encounter, seed=seed)
        row = imported(tables, encounter)
        done = tables.run(row, Run(to_end=True), seed=seed)
        assert list(done.lines) == affray.narrate(fight.events), (encounter.name, seed)
        ended = done.events[-1].to_dict()
        assert (ended["winner"], ended["rounds"]) == (fight.winner, fight.rounds)
        # and the log replays to the same state
        assert _cold(tables, row) == tables.fold(row).state


def _cold(tables: Tables, row: TableRow) -> Any:
    """The table's state folded afresh from its database."""
    return Tables(Store(tables.store.path)).fold(row).state


def test_table_run_from_the_terminal_prints_what_fight_prints(tmp_path: Path) -> None:
    encounter = EXAMPLES / "encounters" / "ambush.toml"
    db = str(tmp_path / "t.db")
    runner = CliRunner()
    name = load_encounter(encounter).name
    made = json.loads(
        runner.invoke(cli, ["table", "new", name, "--system", "mst2", "--db", db, "--json"]).stdout
    )
    table = made["table"]
    assert runner.invoke(cli, ["table", "import", table, str(encounter), "--db", db]).exit_code == 0
    ran = runner.invoke(cli, ["table", "run", table, "--to-end", "--seed", "7", "--db", db])
    fought = runner.invoke(cli, ["fight", str(encounter), "--seed", "7"], env={"COLUMNS": "1000"})
    assert ran.exit_code == 0 and fought.exit_code == 0
    told = ran.stdout.splitlines()
    assert told[: len(fought.stdout.splitlines())] == fought.stdout.splitlines()
    assert told[-1].startswith("The fight is over")


def test_run_takes_the_turns_it_is_given_and_undo_takes_them_back(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "t.db"))
    row = imported(tables, EXAMPLES / "encounters" / "ambush.toml")
    first = tables.run(row, Run(1), seed=3)  # starts round 1, then one turn
    assert first.state.round == 1
    chosen = [e for e in first.events if e.kind == "action_chosen"]
    assert len(chosen) == 1
    three = tables.run(row, Run(3), seed=4)
    assert len([e for e in three.events if e.kind == "action_chosen"]) == 3
    undone = tables.undo(row)
    assert undone.state == first.state


def test_the_round_cap_holds_at_the_table(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "t.db"))
    row = tables.new("Capped", "mst2", {"max_rounds": 2})
    for sheet, side in (("knight.json", "a"), ("knight.json", "b")):
        tables.run(row, tables.joining(row, str(EXAMPLES / "mst2" / sheet), side=side))
    done = tables.run(row, Run(to_end=True), seed=1)
    ended = done.events[-1].to_dict()
    if ended["winner"] is None:  # two knights rarely decide it in two rounds
        assert ended == {**ended, "reason": "round cap of 2 reached", "rounds": 2}
        with pytest.raises(RulesError, match="round cap of 2"):
            tables.run(row, Next())
    assert done.state.round <= 2


def test_an_import_carries_the_files_rules_to_a_new_table(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "t.db"))
    row = imported(tables, EXAMPLES / "encounters" / "city_watch.toml")
    assert row.options["max_rounds"] == 30
    assert tables.fold(row).rules.max_rounds == 30
    again = tables.importing(
        row,
        load_document(EXAMPLES / "encounters" / "charge.toml"),
        "charge.toml",
        EXAMPLES / "encounters",
    )
    dones = tables.run_all(row, again.commands, options=again.options)
    assert dones[0].note is not None and "keeps its own rules" in dones[0].note
    assert tables.table(row.id).options["max_rounds"] == 30


def _inn(tables: Tables) -> TableRow:
    row = tables.new("Inn", "midian")
    for sheet, side in (("guard.toml", "watch"), ("brawler.toml", "rowdies")):
        tables.run(row, tables.joining(row, str(EXAMPLES / "midian" / sheet), side=side))
    return row


def _stances(tables: Tables, row: TableRow) -> dict[str, object]:
    fold = tables.fold(row)
    encounter = fold.state.encounter
    return {
        c.id: fold.rules.ruleset.snapshot(encounter, c.id)["stance"] for c in encounter.combatants
    }


def test_an_answer_belongs_to_who_is_asked(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "t.db"))
    row = _inn(tables)
    tables.run(row, Start(), rolls=(3, 10), seed=1)
    by_tactics = _stances(tables, row)
    tables.undo(row)
    done = tables.run(row, Start(), rolls=(3, 10), choices=["Guard:stance=defensive"], seed=1)
    assert _stances(tables, row) == {**by_tactics, "Guard": "defensive"}
    stances = [a for a in tables.fold(row).done[-1].inputs.answers if a.topic == "stance"]
    assert [a.who for a in stances] == ["Guard", "Brawler"]
    assert done.unused_choices == ()
    tables.undo(row)
    # the plain form answers everyone's; the who form wins over it
    tables.run(row, Start(), rolls=(3, 10), choices=["stance=evasion", "guard:stance=defensive"])
    assert _stances(tables, row) == {"Guard": "defensive", "Brawler": "evasion"}


def test_an_unasked_choice_is_reported_with_its_who(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "t.db"))
    row = _inn(tables)
    done = tables.run(row, Start(), rolls=(3, 10), choices=["Guard:defence=dodge"], seed=1)
    assert done.unused_choices == ("Guard:defence",)
    with pytest.raises(RulesError, match="no combatant is called"):
        tables.run(row, Next(), choices=["Nobody:stance=normal"])


def test_the_die_shown_is_the_die_applied(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "t.db"))
    row = _inn(tables)
    tables.run(row, Start(), rolls=(3, 10), choices=["stance=normal"])
    attack = Act("Brawler", "attack", "Guard")
    # the d20 is rolled for us; when it hits, the guard's defence is asked: the
    # command waits (a miss asks nothing, and is undone)
    for seed in range(100):
        try:
            tables.run(row, attack, seed=seed, choose_missing=False)
        except ChoiceNeededError as error:
            asked = error
            break
        tables.undo(row)
    rolled = asked.rolls
    assert len(rolled) == 1 and asked.who == "Guard" and asked.topic == "defence"
    waiting = tables.waiting(row)
    assert waiting is not None and waiting["who"] == "Guard" and waiting["rolls"] == list(rolled)
    # the answer goes on with those very faces: the same d20, whatever the seed now
    done = tables.answer(row, choices=["Guard:defence=take it"], roll_rest=True)
    natural = next(e for e in done.events if e.kind == "attack_rolled").to_dict()["die"]["face"]
    assert natural == rolled[0]
    assert tables.waiting(row) is None
    # re-posting the faces with the answer repeats them too (the stateless way)
    tables.undo(row)
    again = tables.run(row, attack, rolls=rolled, choices=["Guard:defence=take it"])
    assert (
        next(e for e in again.events if e.kind == "attack_rolled").to_dict()["die"]["face"]
        == natural
    )


def test_a_waiting_command_keeps_roll_the_rest_and_tactics_for_the_rest(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "t.db"))
    row = tables.new("Ford", "mst2", {"ask_circumstance": True})  # a game master who asks
    for sheet, side in (("spearman.toml", "levy"), ("sellsword.toml", "blades")):
        tables.run(row, tables.joining(row, str(EXAMPLES / "mst2" / sheet), side=side))
    tables.run(row, Start())
    with pytest.raises(ChoiceNeededError):  # what favours the attack?
        tables.run(
            row, Act("Spearman", "attack", "Sellsword"), roll_missing=False, choose_missing=False
        )
    with pytest.raises(DieNeededError):  # its tactics chose; now the d20
        tables.answer(row, tactics_rest=True)
    done = tables.answer(row, roll_rest=True)  # no question again: the tactics answered it
    assert [a.topic for a in tables.fold(row).done[-1].inputs.answers] == ["circumstance"]
    assert any(e.kind == "action_chosen" for e in done.events)
    with pytest.raises(TableError, match="no command is waiting"):
        tables.answer(row)


def test_a_waiting_command_tells_what_its_faces_did(tmp_path: Path) -> None:
    """Issue 36: as dice are typed, what each did ("15 vs evasion 13: hits"), told as
    the log will tell it, and nothing of a die not typed yet."""
    tables = Tables(Store(tmp_path / "t.db"))
    row = tables.new("Ford", "mst2", {})
    for sheet, side in (("spearman.toml", "levy"), ("sellsword.toml", "blades")):
        tables.run(row, tables.joining(row, str(EXAMPLES / "mst2" / sheet), side=side))
    tables.run(row, Start())
    tables.run(row, Act("Spearman", "attack", "Sellsword"), rolls=[5])
    told: list[tuple[str, ...]] = []
    with pytest.raises(DieNeededError) as asked:  # the counter-attack's d20 first
        tables.run(row, Act("Sellsword", "attack", "Spearman"), roll_missing=False)
    told.append(asked.value.did)
    for face in (3, 14, 5, 2, 6):
        with pytest.raises(DieNeededError) as asked:
            tables.answer(row, rolls=[face])
        told.append(asked.value.did)
        waiting = tables.waiting(row)
        assert waiting is not None and waiting["did"] == list(asked.value.did)
    assert not any("→" in line for line in told[0])  # no die typed: no outcome
    assert "d20 3+2=5 vs evasion 11 → miss" in told[1][-2]  # the counter-attack
    assert not any("Sellsword attacks" in line for line in told[1])
    assert "d20 14+3=17 vs evasion 12 → hit" in told[2][-1]
    assert told[3] == told[4] == told[2]  # a pool of power dice is told once all are in
    assert told[5][-1].endswith("power 3d6 [5,2,6] vs protection 2 → 2 wounds; total 2 wounds")
    assert "shock" not in told[5][-1]  # its die is the one asked now
    done = tables.answer(row, rolls=[3])
    assert done.lines[: len(told[5])][-1].startswith(told[5][-1])  # the log goes on from it


def test_any_other_change_drops_the_waiting_command(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "t.db"))
    row = _inn(tables)
    with pytest.raises(DieNeededError):
        tables.run(row, Start(), roll_missing=False)
    assert tables.waiting(row) is not None
    tables.run(row, tables.joining(row, str(EXAMPLES / "midian" / "guard.toml"), side="watch"))
    assert tables.waiting(row) is None


def test_a_log_from_before_the_cursor_replays(tmp_path: Path) -> None:
    """Changes logged without an era are of era 1: a fight decided in mid-round did not
    close its round then, and they replay so."""
    assert inputs_from_data({"faces": [1], "answers": [["A", "action", "hold"]]}).era == 1
    assert inputs_from_data({"faces": [], "era": 2}).era == 2
    tables = Tables(Store(tmp_path / "t.db"))
    row = imported(tables, EXAMPLES / "encounters" / "ogre.toml")
    tables.run(row, Run(to_end=True), seed=2)
    live = tables.fold(row).state
    # the same log, its eras taken off, as an older affray wrote it
    with tables.store.transaction() as raw:
        for version, payload in raw.execute(
            "SELECT version, payload FROM changes WHERE table_id = ?", (row.id,)
        ).fetchall():
            data = json.loads(payload)
            data.pop("era", None)
            raw.execute(
                "UPDATE changes SET payload = ? WHERE table_id = ? AND version = ?",
                (json.dumps(data), row.id, version),
            )
    old = Tables(Store(tmp_path / "t.db")).fold(row)
    assert old.state.encounter == live.encounter  # MST-2 ends a round with nothing
    assert list(old.done[-1].inputs.answers) == [
        Answered(a.who, a.topic, a.label) for a in tables.fold(row).done[-1].inputs.answers
    ]


OPS = st.lists(
    st.tuples(st.sampled_from(["act", "run", "next", "undo", "redo"]), st.integers(0, 10_000)),
    min_size=1,
    max_size=25,
)


@given(system=st.sampled_from(["mst2", "midian"]), ops=OPS)
@settings(max_examples=40, deadline=None)
def test_any_interleaving_of_commands_equals_the_replay_of_its_log(
    system: str, ops: list[tuple[str, int]]
) -> None:
    """act, run, next, undo and redo in any order: the state the table holds is the
    state its log folds to from scratch, and a refused command changes nothing."""
    with tempfile.TemporaryDirectory() as folder:
        tables = Tables(Store(Path(folder) / "t.db"))
        row = tables.new("Any", system)
        sheets = (
            ("knight.json", "ogre.toml") if system == "mst2" else ("guard.toml", "brawler.toml")
        )
        for sheet, side in zip(sheets, ("a", "b"), strict=True):
            tables.run(row, tables.joining(row, str(EXAMPLES / system / sheet), side=side))
        tables.run(row, Start(), seed=0)
        for verb, k in ops:
            fold = tables.fold(row)
            before = fold.state
            try:
                match verb:
                    case "act":
                        current = before.current
                        if current is None:
                            continue
                        legal = fold.rules.ruleset.actions(before.encounter, current)
                        action = legal[k % len(legal)]
                        tables.run(row, Act(current, action.name, action.target), seed=k)
                    case "run":
                        tables.run(row, Run(1 + k % 3), seed=k)
                    case "next":
                        tables.run(row, Next(), seed=k)
                    case "undo":
                        tables.undo(row, 1 + k % 3)
                    case _:
                        tables.redo(row, 1 + k % 3)
            except AffrayError:
                assert tables.fold(row).state == before
        assert _cold(tables, row) == tables.fold(row).state


def _duel_table(tables: Tables) -> TableRow:
    row = tables.new("Bridge", "mst2", {"max_rounds": 1000})
    for sheet, side in (("knight.json", "Knight"), ("ogre.toml", "Ogre")):
        tables.run(row, tables.joining(row, str(EXAMPLES / "mst2" / sheet), side=side))
    return row


def test_the_odds_from_a_fresh_duel_table_are_the_exact_duel(tmp_path: Path) -> None:
    from affray.table.odds import table_odds

    tables = Tables(Store(tmp_path / "t.db"))
    row = _duel_table(tables)
    tables.run(row, Start())
    fold = tables.fold(row)
    found = table_odds(
        str(tables.store.path), row.id, fold.rules, fold.state, fold.version, n=100, seed=3
    )
    exact = affray.duel(
        affray.load(EXAMPLES / "mst2" / "knight.json"), affray.load(EXAMPLES / "mst2" / "ogre.toml")
    )
    assert found.exact and found.n is None and found.method == "exact"
    assert found.wins["Knight"] == pytest.approx(exact.p_a_wins, abs=1e-9)
    assert found.mean_rounds == pytest.approx(exact.mean_rounds, abs=1e-6)
    # the knight's move: every action open to it, each worked out exactly
    legal = fold.rules.ruleset.actions(fold.state.encounter, "Knight")
    assert [(a.name, a.target) for a in found.actions] == [(a.name, a.target) for a in legal]
    assert all(a.n is None for a in found.actions)
    flee = next(a for a in found.actions if a.name == "flee")
    assert flee.p_win == 0.0  # the knight's side is the knight alone
    attack = next(a for a in found.actions if a.name == "attack")
    assert attack.p_win == pytest.approx(found.wins["Knight"], abs=1e-12)  # its tactics' move
    hold = next(a for a in found.actions if a.name == "hold")
    assert hold.p_win < attack.p_win  # the ogre strikes first and the knight lost a blow


def test_the_odds_of_a_larger_table_are_simulated_on_the_fast_engine(tmp_path: Path) -> None:
    from affray.table.odds import TableAt, table_odds

    tables = Tables(Store(tmp_path / "t.db"))
    row = imported(tables, EXAMPLES / "encounters" / "ambush.toml")
    tables.run(row, Start(), seed=2)
    fold = tables.fold(row)
    n = 3000
    found = table_odds(
        str(tables.store.path), row.id, fold.rules, fold.state, fold.version, n=n, seed=3
    )
    assert not found.exact and found.n == n and found.method == "fast MST-2 group engine"
    assert all(a.n == n for a in found.actions) and found.actions
    # the same fights from the same state as the reference engine plays them
    reference = simulate_fights(
        TableAt(str(tables.store.path), row.id, fold.version), 800, seed=1, engine="reference"
    )
    side = "Caravan guard"
    p = reference.p_wins(side)
    sigma = (p * (1 - p) * (1 / n + 1 / 800)) ** 0.5
    assert abs(found.wins[side] - p) < 4 * sigma


def test_table_odds_from_the_terminal(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "t.db"))
    row = _duel_table(tables)
    tables.run(row, Start())
    tables.store.close()
    runner = CliRunner()
    args = ["table", "odds", row.id, "--seed", "9", "--db", str(tmp_path / "t.db")]
    one = runner.invoke(cli, [*args, "--json"])
    assert one.exit_code == 0, one.output
    data = json.loads(one.stdout)
    assert set(data) >= {"method", "sides", "p_draw", "mean_rounds", "combatants", "actions"}
    assert data["method"] == "exact" and data["turn"] == "Knight" and "n" not in data
    assert {"action", "target", "p_win"} <= set(data["actions"][0])
    told = runner.invoke(cli, args)
    assert "exact odds from here" in told.stdout
    assert "Knight's move" in told.stdout and "best" in told.stdout
    # -n simulates, exact odds or not (issue 41, item 2), near the exact ones
    simulated = runner.invoke(cli, [*args, "-n", "3000", "--workers", "1", "--json"])
    assert simulated.exit_code == 0, simulated.output
    again = json.loads(simulated.stdout)
    assert again["method"] == "monte-carlo" and again["n"] == 3000
    for side, found in again["sides"].items():
        p = data["sides"][side]["p_wins"]
        assert abs(found["p_wins"] - p) < 4 * (p * (1 - p) / 3000) ** 0.5 + 1e-9
    # a larger table is simulated, the same for any number of workers
    tables = Tables(Store(tmp_path / "t.db"))
    ambush = imported(tables, EXAMPLES / "encounters" / "ambush.toml")
    tables.run(ambush, Start(), seed=2)
    tables.store.close()
    many = ["table", "odds", ambush.id, "-n", "1200", "--seed", "9", "--db", str(tmp_path / "t.db")]
    one = runner.invoke(cli, [*many, "--workers", "1", "--json"])
    assert one.exit_code == 0, one.output
    data = json.loads(one.stdout)
    assert data["method"] == "monte-carlo" and data["n"] == 1200
    two = runner.invoke(cli, [*many, "--workers", "2", "--json"])
    assert json.loads(two.stdout)["sides"] == data["sides"]
    # a fight that is over has no odds: a clear refusal
    tables = Tables(Store(tmp_path / "t.db"))
    tables.run(tables.table(row.id), Run(to_end=True), seed=1)
    over = runner.invoke(cli, args)
    assert over.exit_code == 2 and "the fight is over" in over.output


def test_reinforcements_of_one_side_are_imported_into_a_table(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "t.db"))
    row = imported(tables, EXAMPLES / "encounters" / "ogre.toml")
    more = tmp_path / "more.toml"
    more.write_text(
        'system = "mst2"\nname = "More"\n'
        '[[sides]]\nname = "Bridge trolls"\nmembers = ["2 goblins"]\n'
    )
    joining = tables.importing(row, load_document(more), str(more), tmp_path)
    dones = tables.run_all(row, joining.commands, options=joining.options)
    sides = [c.side for c in dones[-1].state.encounter.combatants]
    assert sides.count("Bridge trolls") == 2


def test_a_run_to_the_end_that_takes_too_long_stops_and_logs_the_turns_it_played(
    tmp_path: Path,
) -> None:
    """`run --to-end` of a fight that takes minutes (issue 26, item 3) stops at the end
    of a stretch of turns once its time is up: the change logged is `run --turns N` of
    the turns played, and it replays to the same state; a quick fight is logged as the
    whole run it was."""
    from affray.table.fold import RUN_STRETCH, play, replay
    from affray.table.view import describe

    tables = Tables(Store(tmp_path / "t.db"))
    row = imported(tables, EXAMPLES / "encounters" / "shield_wall.toml")
    fold = tables.fold(row)
    stopped = play(fold.rules, fold.state, Run(to_end=True), seed=4, seconds=0.0)
    assert stopped.command == Run(RUN_STRETCH, toward_end=True)
    assert describe(stopped.command) == (
        f"run to the end: stopped after {RUN_STRETCH} turns (its time was up)"
    )  # the journal says what it was (issue 36, item 6)
    assert stopped.note is not None and "run --to-end again" in stopped.note
    assert stopped.state.phase(fold.rules).value != "over"
    again, _ = replay(fold.rules, fold.state, stopped.command, stopped.inputs)
    assert again == stopped.state
    # with time enough: the whole run, logged as such, the same as without a limit
    whole = play(fold.rules, fold.state, Run(to_end=True), seed=4, seconds=60.0)
    plain = play(fold.rules, fold.state, Run(to_end=True), seed=4)
    assert whole.command == Run(to_end=True) and whole.note is None
    assert whole.state.phase(fold.rules).value == "over"
    assert replay(fold.rules, fold.state, whole.command, whole.inputs)[0] == whole.state
    assert whole.inputs.faces == plain.inputs.faces and whole.state == plain.state
    # through the tracker and the terminal: the note is said, the table goes on
    done = tables.run(tables.table(row.id), Run(to_end=True), seed=4)
    assert done.note is None and done.state.phase(fold.rules).value == "over"


def test_an_action_the_fast_engine_does_not_play_is_named_and_kept_short(tmp_path: Path) -> None:
    """Issue 41, item 1: the README's Midian table took minutes, its `wait` falling back
    to the reference engine with the fast engine's count of fights, unsaid. The fast
    engine plays a wait now (the rules' own move, then the engine); an action it does
    not play (a disarm) plays at most a table's reference count, and says who played
    it."""
    db = str(tmp_path / "t.db")
    runner = CliRunner()

    def table(*args: str) -> Any:
        result = runner.invoke(cli, ["table", *args, "--db", db], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result

    table("new", "W", "--system", "midian")
    table("add", "w", str(EXAMPLES / "midian/guard.toml"), "--side", "watch")
    table("add", "w", "bandit", "--side", "rowdies")
    table("start", "w", "--rolls", "9,1", "--choose", "stance=normal")
    found = json.loads(table("odds", "w", "-n", "1500", "--seed", "1", "--json").stdout)
    assert found["engine"] == "fast Midian group engine" and found["n"] == 1500
    by_name = {a["action"]: a for a in found["actions"]}
    assert by_name["disarm"]["engine"] == "reference engine" and by_name["disarm"]["n"] == 1000
    for fast in ("attack", "wait"):
        assert by_name[fast]["n"] == 1500 and "engine" not in by_name[fast]
    told = table("odds", "w", "-n", "1500", "--seed", "1").stdout
    assert "1,000 (reference engine)" in told


def test_a_wait_on_the_fast_engine_is_the_reference_engines_wait(tmp_path: Path) -> None:
    """The fast engine's fights after a wait (the rules' move, then the engine) agree
    with the reference engine's within 4σ: the waiter acts after the one it waited
    for, its later turns with it."""
    import math

    from affray.sim.fights import simulate_fights
    from affray.table import Store, Tables
    from affray.table.odds import TableAt

    db = str(tmp_path / "t.db")
    runner = CliRunner()
    for args in (
        ("new", "W", "--system", "midian"),
        ("add", "w", str(EXAMPLES / "midian/guard.toml"), "--side", "watch"),
        ("add", "w", str(EXAMPLES / "midian/brawler.toml"), "--side", "rowdies"),
        ("add", "w", str(EXAMPLES / "midian/dockhand.toml"), "--side", "rowdies"),
        ("start", "w", "--seed", "4"),
    ):
        assert runner.invoke(cli, ["table", *args, "--db", db]).exit_code == 0
    tables = Tables(Store(db))
    row = tables.table("w")
    fold = tables.fold(row)
    current = fold.state.cursor.current
    assert current is not None
    wait = next(
        (a.name, a.target)
        for a in fold.rules.ruleset.actions(fold.state.encounter, current)
        if a.name == "wait"
    )
    at = TableAt(db, row.id, fold.version, wait)
    fast = simulate_fights(at, 20_000, seed=3, workers=1)
    reference = simulate_fights(at, 1_500, seed=4, engine="reference", workers=2)
    assert fast.engine == "fast Midian group engine" and reference.engine == "reference engine"
    for side in ("watch", "rowdies"):
        p, q = fast.p_wins(side), reference.p_wins(side)
        sigma = math.sqrt(max(p * (1 - p), 1e-4) * (1 / 20_000 + 1 / 1_500))
        assert abs(p - q) < 4 * sigma, (side, p, q)
