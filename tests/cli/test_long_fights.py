"""A long narrated fight says how far it is and how long it may still take (issue 26,
item 3): hundreds of combatants with thousands of hit points take minutes."""

from __future__ import annotations

import pytest

from affray.cli.narrated import Pace
from affray.sheets import load_encounter
from tests.helpers import EXAMPLES


def test_a_long_fight_says_where_it_is_and_how_long_it_may_take(
    capsys: pytest.CaptureFixture[str],
) -> None:
    setup = load_encounter(EXAMPLES / "encounters" / "ogre.toml")
    quiet = Pace(30)  # a fight that is quick says nothing
    quiet.tick(setup.encounter)
    assert capsys.readouterr().err == ""
    pace = Pace(30, first_s=0.0, every_s=3600.0)
    encounter = setup.encounter
    for _ in range(3):
        encounter = encounter.next_round()
    pace.tick(encounter)
    said = capsys.readouterr().err
    assert "round 3 of at most 30" in said and "ends within" in said
    assert "Ctrl-C stops it" in said
    pace.tick(encounter)  # not again before its time
    assert capsys.readouterr().err == ""


def test_exact_odds_refuse_the_options_of_a_simulation() -> None:
    from click.testing import CliRunner

    from affray.cli.main import cli

    ford = str(EXAMPLES / "encounters" / "ford.toml")
    for extra in (["-n", "100"], ["--engine", "fast"], ["--workers", "2"]):
        refused = CliRunner().invoke(cli, ["fight", ford, "--exact", *extra])
        assert refused.exit_code == 2 and "--exact" in refused.output, extra
