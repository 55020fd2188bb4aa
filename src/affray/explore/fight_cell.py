"""One cell of an encounter sweep as a worker gets it: the cell's encounter held as
text (picklable, hashable, cheap to send), built and fought where it lands, by
:func:`affray.sim.fights.simulate_fights`, as ``affray fight -n`` fights a file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from affray.encounter import Cursor
from affray.explore.sweep import Method
from affray.sheets.encounters import EncounterSetup, encounter_from_data
from affray.sim.fights import Fighting


@dataclass(frozen=True, slots=True)
class EncounterCell:
    """Fights of one cell's encounter, from its start (a :class:`~affray.sim.fights.Start`).

    Attributes:
        encounter: the cell's encounter data, as canonical JSON.
        sheets: the data of every sheet it names, by reference, as canonical JSON
            (so no file is read where it is fought).
        base: the encounter file's folder (where a reference not in ``sheets`` would
            be found).
        where: the encounter file, as messages name it.
    """

    encounter: str
    sheets: str
    base: str
    where: str

    def setup(self) -> EncounterSetup[Any, Any]:
        """The encounter, built and checked.

        Raises:
            SheetError: the cell's encounter or a sheet is invalid.
        """
        return encounter_from_data(
            json.loads(self.encounter),
            self.where,
            base=Path(self.base),
            sheets=json.loads(self.sheets),
        )

    def fighting(self) -> Fighting:
        setup = self.setup()
        return Fighting(
            setup.system,
            setup.ruleset,
            Cursor(setup.encounter, setup.max_rounds),
            setup.tactics,
            setup.name,
        )


@dataclass(frozen=True, slots=True)
class FightJob:
    """What a worker needs to work out one cell of an encounter sweep.

    Attributes:
        key: the cell's key in the resume cache.
        start: its fights.
        sides: the encounter's sides, in the file's order (its results' order).
        n: fights to simulate.
        seed: the cell's own seed.
    """

    key: str
    start: EncounterCell
    sides: tuple[str, ...]
    n: int
    seed: int
    method: Method = "monte-carlo"
