"""The designers' charts (matplotlib, the ``plot`` extra): a tornado of the keys that
matter most, and a frontier of options."""

from __future__ import annotations

from pathlib import Path

from affray.design.frontier import Frontier
from affray.design.sensitivity import Sensitivity
from affray.plots import BLUE, GREY, RED, _percent, _save, fit_title, pyplot

MOST_ROWS = 20
"""A tornado shows the keys that matter most, at most this many."""


def tornado(found: Sensitivity, path: str | Path) -> Path:
    """Each key's two moves as bars from A's chance as the sheets stand (red, below:
    one step down; blue, above: one step up), the key that matters most on top."""
    plt = pyplot()
    base = found.base.p if found.base.p is not None else 0.5
    rows = [r for r in found.rows if r.effect(base) > 0][:MOST_ROWS] or list(found.rows[:1])
    figure, axes = plt.subplots(figsize=(8, 1.2 + 0.42 * max(len(rows), 1)))
    labels = []
    for place, row in enumerate(reversed(rows)):
        whose = row.member or (found.a if row.side == "a" else found.b)
        labels.append(f"{whose}: {row.key} ({row.now})")
        for move, colour, shift in ((row.down, RED, -0.19), (row.up, BLUE, 0.19)):
            if move is None or move.chance.p is None:
                continue
            axes.barh(place + shift, move.chance.p - base, left=base, color=colour, height=0.36)
            axes.annotate(
                str(move.value),
                (move.chance.p, place + shift),
                xytext=(3 if move.chance.p >= base else -3, 0),
                textcoords="offset points",
                ha="left" if move.chance.p >= base else "right",
                va="center",
                fontsize=8,
            )
    axes.axvline(base, color=GREY, linewidth=1)
    axes.set_yticks(range(len(labels)), labels)
    axes.xaxis.set_major_formatter(_percent())
    axes.set_xlabel(f"{found.a}'s chance to win (as the sheets stand: {base:.1%})")
    axes.margins(x=0.15)
    how = "exact" if found.method == "exact" else "simulated"
    fit_title(
        figure, f"What matters most: {found.a} vs {found.b} ({how}; red one step down, blue up)"
    )
    return _save(figure, path)


def frontier_chart(found: Frontier, path: str | Path) -> Path:
    """Each option at its mean chance (across) and its worst (up): the frontier in blue
    and named, the dominated options in grey."""
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(8, 6))
    for option in found.options:
        if option.mean is None or option.worst is None:
            continue
        dominated = bool(option.dominated_by)
        axes.scatter(option.mean, option.worst, color=GREY if dominated else BLUE, zorder=3)
        axes.annotate(
            str(option.value),
            (option.mean, option.worst),
            xytext=(4, 4),
            textcoords="offset points",
            fontsize=8,
            color=GREY if dominated else "black",
        )
    axes.xaxis.set_major_formatter(_percent())
    axes.yaxis.set_major_formatter(_percent())
    axes.set_xlabel(f"mean chance against {', '.join(found.opponents)}")
    axes.set_ylabel("worst chance against any of them")
    axes.grid(alpha=0.3)
    fit_title(
        figure,
        f"{found.sheet}: every {found.vary} (blue: the frontier; grey: another beats it "
        "against every opponent)",
    )
    return _save(figure, path)
