"""Issue 15's figures side by side, every one measured in this one run.

Runs the MST-2 simulation bench (``duel_sim``), the Midian one (``midian_fast``),
the exact duel times (``exact_duel``) and the CLI start-up (``startup``), printing
each figure as it is measured, then one table of them all with the ratios and the
targets. The machine is shared and noisy: compare ratios within one run, not
figures across runs. ``make bench`` runs this last, after the benches it does not
cover.
"""

from __future__ import annotations

import os
import time

import duel_sim
import exact_duel
import midian_fast
import startup


def main() -> None:
    started = time.perf_counter()
    load = os.getloadavg()[0]
    mst2 = [duel_sim.measure(first, second) for first, second in duel_sim.MATCHUPS]
    midian = midian_fast.measure()
    exact = exact_duel.measure()
    boot = startup.measure()
    seconds = time.perf_counter() - started
    print()
    for line in table(mst2, midian, exact, boot):
        print(line)
    print(
        f"(one run, {os.cpu_count()} cores, load average {load:.1f} at the start and "
        f"{os.getloadavg()[0]:.1f} at the end, {seconds:.0f} s)"
    )


def times(ratio: float) -> str:
    """``0.1x``, ``7.2x``, ``194x``: a ratio to two or three figures."""
    return f"{ratio:.1f}x" if ratio < 10 else f"{ratio:,.0f}x"


def table(
    mst2: list[duel_sim.Mst2Figures],
    midian: midian_fast.MidianFigures,
    exact: exact_duel.ExactFigures,
    boot: startup.StartupFigures,
) -> list[str]:
    """The summary, one line a figure: each side's duels a second and ratio to its
    yardstick, then the target."""
    rows = ["== Summary: issue 15, measured in this run"]
    head = "".join(f"{m.label:>26s}" for m in mst2)
    rows.append(f"{'MST-2 duels a second (ratio to the plain loop)':48s}{head}   target")

    def mst2_row(what: str, rates: list[float | None], target: str = "") -> None:
        cells = "".join(
            f"{'-':>26s}" if r is None else f"{r:>16,.0f} {times(r / m.plain):>8s} "
            for r, m in zip(rates, mst2, strict=True)
        )
        rows.append(f"  {what:46s}{cells}  {target}")

    mst2_row("plain loop, every die rolled (yardstick)", [m.plain for m in mst2])
    mst2_row("loop on sampled tables, no dice", [m.table for m in mst2])
    mst2_row("rules engine, with events", [m.scalar for m in mst2])
    mst2_row("numpy engine, 1 core", [m.numpy for m in mst2])
    mst2_row("compiled kernel, 1 core", [m.kernel for m in mst2], ">= 150x")
    for n, workers in duel_sim.WHOLE_RUNS:
        what = f"whole process, 10^{len(str(n)) - 1} duels, {workers} worker{'s' * (workers > 1)}"
        target = ">= 150x" if (n, workers) == duel_sim.WHOLE_RUNS[-1] else ""
        mst2_row(what, [m.whole(n, workers).rate for m in mst2], target)
    rss = "".join(
        f"{min(r.rss_mib for r in m.runs):>18.0f} to {max(r.rss_mib for r in m.runs):.0f} MiB"
        for m in mst2
    )
    rows.append(f"  {'largest process of the whole runs, peak RSS':46s}{rss}  flat in n")

    def row(what: str, figure: str, target: str = "") -> None:
        rows.append(f"  {what:46s}{figure:>26s}  {target}")

    rows.append("Midian duels, guard vs brawler, one core")
    ratio = midian.fast / midian.reference
    row("reference engine (encounter engine)", f"{midian.reference:,.0f}/s")
    row("fast engine", f"{midian.fast:,.0f}/s {times(ratio):>8s}", ">= 100,000/s, >= 300x")
    memory = midian.memory
    traced = " / ".join(f"{memory[n]['traced'] / 2**20:.1f}" for n in sorted(memory))
    resident = " / ".join(f"{memory[n]['rss'] / 2**20:.0f}" for n in sorted(memory))
    row("memory at 10^6 / 10^7: traced peak", f"{traced} MiB", "flat in n")
    row("memory at 10^6 / 10^7: peak RSS", f"{resident} MiB")
    rows.append(f"Exact MST-2 duel odds, {len(exact.rows)} matchups up to 3d10 (median)")
    row("floats, the slowest", f"{exact.worst_floats:.1f} ms", "< 10 ms")
    row("fractions (--rational), the slowest", f"{exact.worst_fractions:.1f} ms", "< 50 ms")
    rows.append("CLI")
    row("affray --help", f"{boot.help * 1000:.0f} ms", "< 300 ms")
    return rows


if __name__ == "__main__":
    main()
