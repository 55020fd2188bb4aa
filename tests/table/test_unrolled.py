"""Nothing shown that nobody rolled: what a command that waits for a die says it did
holds no outcome of a die not yet given (issue 50, item 1: a round's order while
initiative dice are still to come)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from affray.errors import AffrayError, DieNeededError, InputNeededError
from affray.table import Store, TableRow, Tables, fold
from affray.table.commands import Act, Command, Hazard, Start
from affray.table.waiting import moment_words

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
    # what is known instead: each initiative die, its face if given, else a dash
    moment = waiting["moment"]
    assert [die["face"] for die in moment] == [*faces, *[None] * (len(CAST) - len(faces))]
    assert all(die["die"].startswith("d10 for ") for die in moment)
    said = moment_words(waiting)
    assert said is not None
    assert said.startswith(f"the round's order waits for {len(CAST) - len(faces)} more di")
    assert said.count("initiative") == len(CAST) and said.count("—") == len(CAST) - len(faces)


def test_the_order_is_told_once_every_die_is_given(inn: tuple[Tables, TableRow]) -> None:
    tables, row = inn
    done = tables.run(row, Start(), rolls=[7, 3, 9, 2], roll_missing=False)
    assert any("order:" in line for line in done.lines)
    tables.undo(row, 1)


def test_the_pages_and_the_terminal_say_what_the_order_waits_for(tmp_path: Path) -> None:
    """A Midian table of physical dice: "Start round 1" on the game master's page waits
    for the initiative dice; the panel says which are given and which are still to
    come, and no order; so does ``table show``."""
    from click.testing import CliRunner
    from starlette.testclient import TestClient

    from affray.cli.main import cli
    from affray.web import create_app

    db = tmp_path / "t.db"

    def terminal(*args: str) -> str:
        done = CliRunner().invoke(cli, [*args, "--db", str(db)], catch_exceptions=False)
        return done.stdout

    terminal("table", "new", "Inn", "--system", "midian", "--option", "physical_dice=true")
    for sheet, side in CAST[:3]:
        terminal("table", "add", "inn", str(EXAMPLES / f"{sheet}.toml"), "--side", side)
    gm = Tables(Store(db)).table("inn").gm_token
    with TestClient(create_app(db, poll_s=0.05)) as client:
        client.post(f"/t/inn/do?token={gm}", data={"verb": "start", "expected_version": "3"})
        asked = client.get(f"/t/inn?token={gm}").text
        question = asked.split('data-question="', 1)[1].split('"', 1)[0]
        answer = {"verb": "answer", "face": "7", "question": question, "expected_version": "3"}
        client.post(f"/t/inn/do?token={gm}", data=answer)
        page = client.get(f"/t/inn?token={gm}").text
    held = page.split('id="held">', 1)[1].split("</p>", 1)[0]
    assert held == (
        "The round&#39;s order waits for 2 more dice: Guard&#39;s initiative 7, "
        "Brawler&#39;s initiative —, Guard 2&#39;s initiative —"
    )
    assert "order:" not in page.split('id="panel"', 1)[1].split('id="log"', 1)[0]
    shown = terminal("table", "show", "inn")
    assert "The round's order waits for 2 more dice: Guard's initiative 7," in shown


# -- nothing shown depends on a die not yet given ------------------------------------------


@pytest.fixture(scope="module")
def tables_at_play(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Tables, TableRow]]:
    """Tables at each moment a command may stop: an MST-2 and a Midian table in setup
    (start), and each in round 1 (an attack, a fall)."""
    tables = Tables(Store(tmp_path_factory.mktemp("play") / "t.db"))
    found = {}
    for system, cast in (
        ("midian", (("midian/guard", "watch"), ("midian/brawler", "rowdies"))),
        ("mst2", (("mst2/spearman", "levy"), ("mst2/sellsword", "blades"), ("mst2/ogre", "b"))),
    ):
        for moment in ("setup", "round"):
            row = tables.new(f"{system} {moment}", system)
            for sheet, side in cast:
                path = EXAMPLES.parent / f"{sheet}.toml"
                tables.run(row, tables.joining(row, str(path), side=side))
            if moment == "round":
                tables.run(row, Start(), seed=5)
            found[f"{system} {moment}"] = (tables, row)
    return found


def waiting_told(tables: Tables, row: TableRow, command: Command, faces: list[int]) -> Any:
    """What a command that stops tells, and what waits shows (``None``: it did not
    stop, or the faces are not its dice')."""
    try:
        tables.run(row, command, rolls=faces, roll_missing=False)
    except InputNeededError as stopped:
        waiting = tables.waiting(row)
        assert waiting is not None
        shown = {k: waiting[k] for k in ("did", "faces", "moment", "needs", "rolls")}
        return shown, stopped.did, stopped.marks, stopped.moment
    except AffrayError:
        return None  # a face its die cannot show, or too many faces
    tables.undo(row, 1)  # it did not stop: every die was given
    return None


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_nothing_a_waiting_command_shows_depends_on_a_die_not_yet_given(
    tables_at_play: dict[str, tuple[Tables, TableRow]],
    data: st.DataObject,
) -> None:
    """A command stopped for a die plays on with made-up faces to tell what the faces
    given did: what it tells and what waits shows (each face's ``did``, the lines, the
    round's order's dice) is the same whatever those made-up faces are — no order,
    total or outcome of a die not yet given shows."""
    where = data.draw(st.sampled_from(sorted(tables_at_play)))
    tables, row = tables_at_play[where]
    state = tables.fold(row).state
    if where.endswith("setup"):
        command: Command = Start()
    else:
        actor = state.current
        assert actor is not None
        foes = [c.id for c in state.encounter.combatants if c.id != actor]
        command = data.draw(
            st.sampled_from(
                [
                    Act(actor, "attack", foes[0]),
                    Hazard(actor, "fall", {"feet": "30"}),
                ]
            )
        )
    faces = data.draw(st.lists(st.integers(1, 20), max_size=5))
    told = []
    try:
        for seed in (0, 1, 2):
            fold.MADE_UP = seed
            told.append(waiting_told(tables, row, command, faces))
    finally:
        fold.MADE_UP = 0
    assert told[0] == told[1] == told[2], command
