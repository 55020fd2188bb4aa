"""Charts as PNG files (matplotlib, loaded only when a plot is asked for).

Rounds are whole numbers, and their axes only ever show whole-number ticks. Each
function returns the path it wrote, for the command line to say.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from affray.errors import AffrayError

if TYPE_CHECKING:
    from affray.answers import RoundsDistribution


BLUE, RED, GREY = "#4393c3", "#d6604d", "#999999"
"""The heatmaps' colours: blue for A (the first side), red for B, grey for a draw."""


def pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend (files only, no screen).

    Raises:
        MissingExtraError: matplotlib is not installed (the ``plot`` extra).
    """
    from affray.extras import need

    need("matplotlib", "a plot")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def check_plot_path(path: str | Path) -> Path:
    """Refuse a plot path that is not a writable .png, or a plot without matplotlib,
    before any work is done."""
    from affray.extras import need

    need("matplotlib", "--plot")
    target = Path(path)
    if target.suffix.lower() != ".png":
        raise AffrayError(f"plot file '{target}' must end in .png", hint="e.g. --plot duel.png")
    if not target.parent.is_dir():
        raise AffrayError(f"cannot write '{target}': no folder '{target.parent}'")
    return target


def _save(figure: Any, path: str | Path) -> Path:
    target = check_plot_path(path)
    try:
        figure.savefig(target, dpi=120, bbox_inches="tight")
    except OSError as error:
        raise AffrayError(f"cannot write {target}: {error.strerror}") from None
    finally:
        pyplot().close(figure)
    return target


def whole_ticks(axis: Any) -> None:
    """Ticks at whole numbers only (no round 2.5)."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def fit_title(figure: Any, title: str, *, size: float = 12) -> Any:
    """The figure's title, wrapped until it fits the figure's width whatever its length
    (a long title used to be cut at both ends)."""
    renderer = figure.canvas.get_renderer()
    room = figure.get_figwidth() * figure.dpi * 0.94
    width = max(12, int(figure.get_figwidth() * 11))
    text = figure.suptitle(textwrap.fill(title, width=width), fontsize=size)
    while width > 12 and text.get_window_extent(renderer).width > room:
        width = max(12, int(width * 0.88))
        text.set_text(textwrap.fill(title, width=width))
    return text


def plot_rounds(
    rounds: RoundsDistribution, a_name: str, b_name: str, path: str | Path, *, title: str
) -> Path:
    """Stacked bars: P(the duel ends in round r), split by winner."""
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(8, 4), layout="constrained")
    keys = sorted(set(rounds.a_wins) | set(rounds.b_wins))
    shown = [r for r in keys if rounds.a_wins.get(r, 0) + rounds.b_wins.get(r, 0) >= 1e-4] or keys
    a_values = [rounds.a_wins.get(r, 0.0) for r in shown]
    b_values = [rounds.b_wins.get(r, 0.0) for r in shown]
    axes.bar(shown, a_values, label=f"{a_name} wins", color=BLUE)
    axes.bar(shown, b_values, bottom=a_values, label=f"{b_name} wins", color=RED)
    whole_ticks(axes.xaxis)
    axes.set_xlim(left=0.4)  # no round 0
    axes.yaxis.set_major_formatter(_percent())
    axes.set_xlabel("round in which the duel ends")
    axes.set_ylabel("probability")
    axes.legend()
    fit_title(figure, title)
    return _save(figure, path)


def plot_by_round(
    rows: Sequence[Mapping[str, float]],
    names: Mapping[str, str],
    path: str | Path,
    *,
    title: str,
) -> Path:
    """Each side's chance to have won by the end of each round (``rows``: a round and
    a chance for each key of ``names``), one line each, and the chance the fight is
    still going."""
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(8, 4), layout="constrained")
    shown = _until_decided(rows, names)
    rounds = [int(row["round"]) for row in shown]
    colours = [BLUE, RED, "#5aae61", "#9970ab", "#f1a340", "#35978f"]
    for (key, name), colour in zip(names.items(), colours * 10, strict=False):
        axes.plot(rounds, [row[key] for row in shown], label=f"won by {name}", color=colour)
    going = [max(0.0, 1 - sum(row[key] for key in names)) for row in shown]
    axes.plot(rounds, going, label="still going (or a draw)", color=GREY, linestyle="--")
    whole_ticks(axes.xaxis)
    axes.set_ylim(0, 1)
    axes.yaxis.set_major_formatter(_percent())
    axes.set_xlabel("by the end of round")
    axes.set_ylabel("probability")
    axes.legend()
    fit_title(figure, title)
    return _save(figure, path)


def _until_decided(
    rows: Sequence[Mapping[str, float]], names: Mapping[str, str]
) -> Sequence[Mapping[str, float]]:
    """The rounds until the fight is all but decided (99.9 %), at least ten."""
    for index, row in enumerate(rows):
        if sum(row[key] for key in names) >= 0.999 and index >= 9:
            return rows[: index + 1]
    return rows


def plot_distributions(
    dists: Mapping[str, Mapping[int, float]], path: str | Path, *, title: str
) -> Path:
    """Bars of one or more distributions over integers, side by side."""
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(7, 4), layout="constrained")
    count = len(dists)
    width = 0.8 / count
    colours = [BLUE, RED, "#5aae61", "#9970ab", "#f1a340", "#35978f"]
    keys: set[int] = set()
    for k, ((name, dist), colour) in enumerate(zip(dists.items(), colours * 10, strict=False)):
        shown = sorted(dist)
        keys |= set(shown)
        shift = (k - (count - 1) / 2) * width
        axes.bar(
            [o + shift for o in shown], [dist[o] for o in shown], width, label=name, color=colour
        )
    if len(keys) <= 24:
        axes.set_xticks(sorted(keys))
    else:
        whole_ticks(axes.xaxis)
    axes.yaxis.set_major_formatter(_percent())
    axes.set_xlabel("total")
    axes.set_ylabel("probability")
    if count > 1:
        axes.legend()
    fit_title(figure, title)
    return _save(figure, path)


def plot_histogram(
    counts: Mapping[int, float], path: str | Path, *, title: str, xlabel: str
) -> Path:
    """Bars of a distribution over integers."""
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(6, 4), layout="constrained")
    keys = sorted(counts)
    axes.bar(keys, [counts[k] for k in keys])
    if len(keys) <= 20:
        axes.set_xticks(keys)
    else:
        whole_ticks(axes.xaxis)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("probability")
    fit_title(figure, title)
    return _save(figure, path)


def plot_fight_odds(
    rounds: Mapping[int, int],
    standing: Mapping[str, float],
    n: int,
    path: str | Path,
    *,
    title: str,
) -> Path:
    """Two panels for simulated fights: how many rounds they lasted, and each
    combatant's chance to be standing at the end."""
    plt = pyplot()
    height = max(3.4, 0.3 * len(standing) + 1.4)
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, height), layout="constrained")
    _rounds_panel(left, rounds, n, "rounds the fight lasted", "share of fights")
    names = list(standing)[::-1]
    right.barh(names, [standing[name] for name in names])
    right.set_xlim(0, 1)
    right.xaxis.set_major_formatter(_percent())
    right.set_xlabel("chance to be standing at the end")
    fit_title(figure, title)
    return _save(figure, path)


def plot_duel_odds(
    rounds: Mapping[int, int],
    n: int,
    outcomes: Sequence[tuple[str, float, tuple[float, float] | None]],
    path: str | Path,
    *,
    title: str,
    rounds_note: str = "",
) -> Path:
    """Two panels for simulated duels: how many rounds they lasted (``rounds``: duels
    by the round they ended in, of ``n``), and each outcome's share with its 95 %
    interval (``(label, share, (low, high))``; None where it has none)."""
    plt = pyplot()
    figure, (left, right) = plt.subplots(
        1, 2, figsize=(11, 4), layout="constrained", width_ratios=(3, 2)
    )
    label = "round in which the duel ends" + (f"\n{rounds_note}" if rounds_note else "")
    _rounds_panel(left, rounds, n, label, "share of duels")
    names = [name for name, _, _ in outcomes][::-1]
    shares = [share for _, share, _ in outcomes][::-1]
    spans = [span for _, _, span in outcomes][::-1]
    right.barh(names, shares, color=[GREY, RED, BLUE][-len(names) :])
    for place, (share, span) in enumerate(zip(shares, spans, strict=True)):
        if span is not None:
            right.errorbar(
                share,
                place,
                xerr=[[share - span[0]], [span[1] - share]],
                color="black",
                capsize=4,
            )
        right.annotate(
            f"{share * 100:.1f}%",
            (share, place),
            xytext=(9, 0),
            textcoords="offset points",
            va="center",
            fontsize=9,
        )
    right.set_xlim(0, min(1.0, max(shares) * 1.25 + 0.05))
    right.xaxis.set_major_formatter(_percent())
    right.set_xlabel("share of duels (bars: 95 % interval)")
    fit_title(figure, title)
    return _save(figure, path)


def _rounds_panel(axes: Any, rounds: Mapping[int, int], n: int, xlabel: str, ylabel: str) -> None:
    keys = sorted(rounds)
    axes.bar(keys, [rounds[k] / n for k in keys], width=0.85, color=BLUE)
    whole_ticks(axes.xaxis)
    axes.set_xlim(left=0.4)  # no round 0
    axes.yaxis.set_major_formatter(_percent())
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)


def _percent() -> Any:
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(xmax=1.0)
