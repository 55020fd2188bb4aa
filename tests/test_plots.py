"""Plots (``duel --plot``, ``fight -n --plot``): whole-number rounds, whole titles, the
path said, and Midian duels plotted from simulation (issue 28, item 5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from affray import plots
from affray.answers import RoundsDistribution
from tests.helpers import EXAMPLES, run

GUARD, BRAWLER = str(EXAMPLES / "midian/guard.toml"), str(EXAMPLES / "midian/brawler.toml")
KNIGHT, OGRE = str(EXAMPLES / "mst2/knight.json"), str(EXAMPLES / "mst2/ogre.toml")


@pytest.fixture
def kept(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The figures the plots would save, kept to look at (then closed)."""
    figures: list[Any] = []

    def keep(figure: Any, path: str | Path) -> Path:
        figure.canvas.draw()
        figures.append(figure)
        return Path(path)

    monkeypatch.setattr(plots, "_save", keep)
    yield figures
    for figure in figures:
        plots.pyplot().close(figure)


def whole(ticks: Any) -> bool:
    return all(float(t).is_integer() for t in ticks)


def test_rounds_have_whole_ticks(kept: list[Any], tmp_path: Path) -> None:
    """Five rounds used to be ticked at 0.5, 1.0, 1.5, …"""
    rounds = RoundsDistribution({1: 0.2, 2: 0.3, 3: 0.1}, {2: 0.2, 4: 0.2}, 0.0, 4)
    plots.plot_rounds(rounds, "A", "B", tmp_path / "r.png", title="A vs B")
    plots.plot_fight_odds(
        {1: 3, 2: 5, 3: 2}, {"A": 0.5, "B": 0.4}, 10, tmp_path / "f.png", title="t"
    )
    plots.plot_duel_odds(
        {1: 3, 2: 5, 3: 2},
        10,
        [("A wins", 0.6, (0.3, 0.85)), ("B wins", 0.4, (0.15, 0.7)), ("draw", 0.0, None)],
        tmp_path / "d.png",
        title="t",
    )
    plots.plot_histogram({0: 0.5, 1: 0.5}, tmp_path / "h.png", title="t", xlabel="wounds")
    first = kept[0].axes[0]
    assert whole(first.get_xticks()) and first.get_xlim()[0] > 0
    assert whole(kept[1].axes[0].get_xticks()) and whole(kept[2].axes[0].get_xticks())
    assert whole(kept[3].axes[0].get_xticks())


def test_a_long_title_is_whole(kept: list[Any], tmp_path: Path) -> None:
    title = "A very long name of a fighter vs " * 5 + "the end"
    rounds = RoundsDistribution({1: 0.5}, {1: 0.5}, 0.0, 1)
    plots.plot_rounds(rounds, "A", "B", tmp_path / "r.png", title=title)
    (figure,) = kept
    shown = figure._suptitle
    assert " ".join(shown.get_text().split()) == " ".join(title.split())
    box = shown.get_window_extent(figure.canvas.get_renderer())
    assert box.x0 >= 0 and box.x1 <= figure.bbox.width


def test_exact_duel_plot_says_its_path(tmp_path: Path) -> None:
    target = tmp_path / "rounds.png"
    result = run("duel", KNIGHT, OGRE, "--plot", str(target))
    assert result.exit_code == 0, result.output
    assert target.stat().st_size > 1000
    assert result.stdout.rstrip().endswith(f"wrote {target}")


def test_a_midian_duel_is_plotted_from_simulation(tmp_path: Path) -> None:
    """It used to be refused ("no exact duel odds to plot"), and -n with --plot refused
    too: each tip sent the user to the other."""
    target = tmp_path / "rounds.png"
    result = run("duel", GUARD, BRAWLER, "--plot", str(target), "--seed", "3", "-n", "400")
    assert result.exit_code == 0, result.output
    assert "400 simulated duels" in result.stdout
    assert target.stat().st_size > 1000
    assert f"wrote {target}" in result.stdout
    # asked no method, the exact chain answers within a second: plotted from its rounds
    plain = run("duel", GUARD, BRAWLER, "--plot", str(tmp_path / "again.png"), "--json")
    assert plain.exit_code == 0, plain.output
    assert f"wrote {tmp_path / 'again.png'}" in plain.stderr
    assert '"method": "exact"' in plain.stdout
    assert (tmp_path / "again.png").stat().st_size > 1000


def test_narrate_and_plot_do_not_go_together(tmp_path: Path) -> None:
    result = run("duel", GUARD, BRAWLER, "--narrate", "--plot", str(tmp_path / "x.png"))
    assert result.exit_code == 2 and "leave out --narrate" in result.output
