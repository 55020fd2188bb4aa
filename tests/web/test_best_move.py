"""The best move on the game master's page (issue 36, item 6): marked once; a
simulated chance carries its standard error, and a runner-up within the noise of the
best (two standard errors) is said to be as good; an exact chance says so."""

from __future__ import annotations

from typing import Any

from affray.table.odds import ActionOdds, TableOdds
from affray.web.gm import why, wins
from affray.web.odds import Answer


def answer(*actions: ActionOdds) -> Answer:
    odds: Any = None  # the fight's own odds: not what the marks are made of
    return Answer(TableOdds(odds, 1, "Brenna", "levy", actions), 7, False)


def test_simulated_chances_within_the_noise_are_as_good_as_the_best() -> None:
    found = wins(
        answer(
            ActionOdds("attack Goblin 1", "attack", "Goblin 1", 0.43, 2_000),
            ActionOdds("attack Goblin 2", "attack", "Goblin 2", 0.44, 3_000),
            ActionOdds("attack Ogre", "attack", "Ogre", 0.40, 100_000),
            ActionOdds("flee", "flee", None, 0.05, 2_000),
        ),
        7,
    )
    assert found[2]["best"] == "best" and found[2]["text"] == "44.0% ±0.9"
    assert found[1]["best"] == "tied"  # 43 % ± 1.1 beside 44 % ± 0.9
    assert found[3]["best"] == "" and found[4]["best"] == ""  # 40 % ± 0.15: clearly worse
    assert found[3]["text"] == "40.0% ±0.2"  # tenths, where the error is below a point
    assert "2,000 simulated fights" in found[1]["title"]


def test_exact_chances_are_never_tied_and_an_older_answer_marks_nothing() -> None:
    exact = answer(
        ActionOdds("attack", "attack", "Goblin", 0.4310, None),
        ActionOdds("hold", "hold", None, 0.4309, None),
    )
    found = wins(exact, 7)
    assert found[1] == {
        "p": "0.431000",
        "text": "43.1% exact",
        "side": "levy",
        "title": "levy's chance to win after this action, exactly (the others play by "
        "their tactics)",
        "best": "best",
    }
    assert found[2]["best"] == ""
    assert wins(exact, 8) == {}  # the table moved on: these are not its odds


def test_the_best_move_says_why_in_one_line() -> None:
    """What the best does now beside what the next best does, by the rules' own odds
    of each action; and whether the mark is sure."""
    chances = wins(
        answer(
            ActionOdds("attack Goblin 2", "attack", "Goblin 2", 0.44, 3_000),
            ActionOdds("attack Ogre", "attack", "Ogre", 0.40, 100_000),
            ActionOdds("attack Goblin 1", "attack", "Goblin 1", 0.43, 2_000),
        ),
        7,
    )
    actions = [
        {
            "label": "attack Goblin 2",
            "odds": "odds of B against Goblin 2: hit 55%, takes out 41.6%",
        },
        {"label": "attack Ogre", "odds": "odds of B against Ogre: hit 45%, takes out 0.2%"},
        {"label": "attack Goblin 1", "odds": None},
    ]
    assert why(actions, chances) == (
        "Best: attack Goblin 2 (levy 44.0% ±0.9): hit 55%, takes out 41.6%. "
        "Next: attack Goblin 1 (43% ±1). Within the noise of each other: either will do."
    )
    assert why(actions, {}) is None  # no odds yet: no mark, no line


def test_a_move_of_a_handful_of_fights_is_not_marked_best_by_its_luck() -> None:
    """A slow engine's move can rest on three fights when time runs out: three wins of
    three is not "100% ±0" and does not beat 60 % of a thousand fights."""
    found = wins(
        answer(
            ActionOdds("attack Bosun", "attack", "Bosun", 0.60, 1_000),
            ActionOdds("wait Bandit", "wait", "Bandit", 1.0, 3),
            ActionOdds("hold", "hold", None, 0.50, 1_000),
        ),
        7,
    )
    assert found[1]["best"] == "best"
    assert found[2]["best"] == "tied"  # within the noise, and said so
    assert found[2]["text"] == "100% ±23"  # (3 + 1) / (3 + 2) = 0.8: √(0.16 / 3)
    assert found[3]["best"] == ""
