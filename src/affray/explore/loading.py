"""A sweep file read: a duel's sweep (:mod:`affray.explore.sweep`) or an
encounter's (:mod:`affray.explore.encounter_sweep`), by what it names."""

from __future__ import annotations

from pathlib import Path

from affray.explore.encounter_sweep import EncounterSweep, load_encounter_sweep
from affray.explore.sweep import Sweep, load_duel_sweep
from affray.sheets.documents import load_document
from affray.sheets.kinds import check_kind


def load_sweep(path: str | Path) -> Sweep | EncounterSweep:
    """Read and check a sweep file and its base sheets (or its encounter file).

    Raises:
        SheetError: the file, a key of it or a base sheet is invalid; the message
            names the file and the key, the tip how to fix it.
    """
    file = Path(path)
    data = load_document(file)
    check_kind(data, "exploration", str(file))
    if "encounter" in data:
        return load_encounter_sweep(file, data)
    return load_duel_sweep(file, data)
