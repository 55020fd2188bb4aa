"""Exact odds of small MST-2 encounters: time per fight, from a fresh encounter and
from a table state.

Targets (issue 22, items 3 and 4): 2-vs-2 fighters of up to 3d10 hit dice under 1 s;
1-vs-1 from a table state under 10 ms. Prints, for 1v1, 2v1, 2v2 in listed and
shuffled order, a 1v1 in the middle of a fight, four knights (fights that last to the
round cap) and the ford, the best of several runs of the time a caller waits (wall
clock) and of the processor time it takes (the two differ where a big grid is swept on
a thread per core), and how long a fight past the limits takes to be refused. The
target is read against the wall clock. Whether the sweep ran compiled (numba) and on how
many cores is said first: without numba it is slower.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from affray.encounter import Combatant, Cursor, Encounter
from affray.encounter.model import pair
from affray.errors import RulesError
from affray.rulesystems.mst2.odds.encounter import exact_fight
from affray.rulesystems.mst2.odds.encounter_kernel import compiled
from affray.rulesystems.mst2.ruleset import Mst2Ruleset
from affray.rulesystems.mst2.state import FighterState
from affray.sheets import load_encounter, load_sheet

ROOT = Path(__file__).resolve().parent.parent
MST2 = ROOT / "examples" / "mst2"
FORD = ROOT / "examples" / "encounters" / "ford.toml"


def _file(folder: Path, name: str, sides: list[tuple[str, list[str], str]], order: str) -> Path:
    lines = ['system = "mst2"', f'order = "{order}"']
    for side, members, tactics in sides:
        listed = ", ".join(f'"{MST2 / m}"' for m in members)
        lines += ["[[sides]]", f'name = "{side}"', f'tactics = "{tactics}"']
        lines.append(f"members = [{listed}]")
    path = folder / f"{name}-{order}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _fresh(path: Path) -> Callable[[], object]:
    setup = load_encounter(path)
    cursor = Cursor(setup.encounter, setup.max_rounds)
    return lambda: exact_fight(setup.ruleset, cursor, setup.tactics)


def _mid_fight() -> Callable[[], object]:
    """A knight with 7 wounds against an ogre with 4, engaged, round 6 of 100, the
    ogre's turn (the knight has acted)."""
    knight, ogre = load_sheet(MST2 / "knight.json"), load_sheet(MST2 / "ogre.toml")
    encounter: Encounter[Any, Any] = Encounter(
        (Combatant("Knight", "K", knight), Combatant("Ogre", "O", ogre)),
        {"Knight": FighterState(7), "Ogre": FighterState(4)},
        {pair("Knight", "Ogre"): "mid"},
        round=6,
        queue=(),
    )
    cursor: Cursor[Any, Any] = Cursor(
        encounter, 100, started=True, order=("Knight", "Ogre"), current="Ogre"
    )
    return lambda: exact_fight(Mst2Ruleset(), cursor, {})


def _best_ms(work: Callable[[], object], runs: int) -> tuple[float, float]:
    """The best wall-clock and the best processor time of ``runs`` runs, in ms."""
    walls, cpus = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return min(walls) * 1000, min(cpus) * 1000


def measure(folder: Path, say: Callable[[str], None] = print) -> dict[str, float]:
    """Time every case and print a line for each, in this one run."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    say(
        f"== Exact MST-2 encounters (best of several runs; compiled sweep: {compiled()}; "
        f"{cores} cores)"
    )
    knights_ogre = [("K", ["knight.json"], "nearest"), ("O", ["ogre.toml"], "weakest")]
    two_one = [("K", ["knight.json", "knight.json"], "nearest"), ("O", ["ogre.toml"], "weakest")]
    two_two = [
        ("K", ["knight.json", "knight.json"], "nearest"),
        ("O", ["ogre.toml", "sellsword.toml"], "weakest"),
    ]
    four = [
        ("A", ["knight.json", "knight.json"], "nearest"),
        ("B", ["knight.json", "knight.json"], "focus"),
    ]
    ford_shuffled = folder / "ford-shuffled.toml"
    text = FORD.read_text().replace("../mst2/", f"{MST2}/")
    ford_shuffled.write_text(text.replace('system = "mst2"', 'system = "mst2"\norder = "shuffled"'))
    cases: list[tuple[str, Callable[[], object], int, float]] = [
        ("1v1 knight vs ogre, fresh", _fresh(_file(folder, "ko", knights_ogre, "listed")), 9, 10),
        ("1v1 knight vs ogre, mid-fight table", _mid_fight(), 9, 10),
        ("2v1 two knights vs ogre", _fresh(_file(folder, "kko", two_one, "listed")), 5, 1000),
        (
            "2v2 knights vs ogre+sellsword, listed",
            _fresh(_file(folder, "kkos", two_two, "listed")),
            3,
            1000,
        ),
        (
            "2v2 knights vs ogre+sellsword, shuffled",
            _fresh(_file(folder, "kkos", two_two, "shuffled")),
            3,
            1000,
        ),
        (
            "2v2 four knights (the cap matters)",
            _fresh(_file(folder, "kkkk", four, "listed")),
            3,
            1000,
        ),
        ("2v2 the ford (examples), listed", _fresh(FORD), 3, 1000),
        ("2v2 the ford, shuffled", _fresh(ford_shuffled), 1, 1000),
    ]
    figures = {}
    for label, work, runs, target in cases:
        start = time.process_time()
        try:
            work()  # loads the compiled kernel from its cache (or compiles it, once)
        except RulesError as error:
            ms = (time.process_time() - start) * 1000
            say(f"  {label:42s} {ms:9.1f} ms: refused, {str(error).splitlines()[0][:60]}...")
            continue
        ms, cpu = _best_ms(work, runs)
        figures[label] = ms
        say(f"  {label:42s} {ms:9.1f} ms ({ms / target:.2f} of {target:g} ms; {cpu:.1f} ms CPU)")
    goblins = ["goblin.toml"] * 3
    six = [("A", goblins, "nearest"), ("B", goblins, "weakest")]
    refused = _fresh(_file(folder, "gggggg", six, "listed"))
    start = time.process_time()
    try:
        refused()
        say("  3v3 goblins: answered")
    except RulesError as error:
        ms = (time.process_time() - start) * 1000
        figures["six goblins refused"] = ms
        say(f"  {'3v3 goblins (refused)':42s} {ms:9.1f} ms: {str(error).splitlines()[0]}")
    return figures


def main() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        measure(Path(folder))


if __name__ == "__main__":
    main()
