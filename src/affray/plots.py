"""Charts as PNG files (matplotlib, loaded only when a plot is asked for)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from affray.errors import AffrayError

if TYPE_CHECKING:
    from affray.odds.duel import RoundsDistribution


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


def _save(figure: Any, path: str | Path) -> None:
    target = check_plot_path(path)
    try:
        figure.savefig(target, dpi=120, bbox_inches="tight")
    except OSError as error:
        raise AffrayError(f"cannot write {target}: {error.strerror}") from None
    finally:
        pyplot().close(figure)


def plot_rounds(
    rounds: RoundsDistribution, a_name: str, b_name: str, path: str | Path, *, title: str
) -> None:
    """Stacked bars: P(the duel ends in round r), split by winner."""
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(8, 4))
    keys = sorted(set(rounds.a_wins) | set(rounds.b_wins))
    shown = [r for r in keys if rounds.a_wins.get(r, 0) + rounds.b_wins.get(r, 0) >= 1e-4] or keys
    a_values = [rounds.a_wins.get(r, 0.0) for r in shown]
    b_values = [rounds.b_wins.get(r, 0.0) for r in shown]
    axes.bar(shown, a_values, label=f"{a_name} wins")
    axes.bar(shown, b_values, bottom=a_values, label=f"{b_name} wins")
    axes.set_xlabel("round in which the duel ends")
    axes.set_ylabel("probability")
    axes.set_title(title)
    axes.legend()
    _save(figure, path)


def plot_histogram(
    counts: Mapping[int, float], path: str | Path, *, title: str, xlabel: str
) -> None:
    """Bars of a distribution over integers."""
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(6, 4))
    keys = sorted(counts)
    axes.bar(keys, [counts[k] for k in keys])
    if len(keys) <= 20:
        axes.set_xticks(keys)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("probability")
    axes.set_title(title)
    _save(figure, path)


def plot_fight_odds(
    rounds: Mapping[int, int],
    standing: Mapping[str, float],
    n: int,
    path: str | Path,
    *,
    title: str,
) -> None:
    """Two panels for simulated fights: how many rounds they lasted, and each
    combatant's chance to be standing at the end."""
    plt = pyplot()
    height = max(3.0, 0.3 * len(standing) + 1.0)
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, height))
    keys = sorted(rounds)
    left.bar(keys, [rounds[k] / n for k in keys])
    left.set_xlabel("rounds the fight lasted")
    left.set_ylabel("share of fights")
    names = list(standing)[::-1]
    right.barh(names, [standing[name] for name in names])
    right.set_xlim(0, 1)
    right.set_xlabel("chance to be standing at the end")
    figure.suptitle(title)
    figure.tight_layout()
    _save(figure, path)
