"""The game master's fiat on an MST-2 fighter: its wounds and its condition, set
directly (``affray table set TABLE WHO wounds=3 condition=out``), checked like a
sheet's values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import ClassVar, Literal

from pydantic import Field

from affray.rulesystems.mst2.ruleset import Mst2Encounter
from affray.rulesystems.mst2.state import Condition
from affray.sheets.validation import Strict, validate

CONDITIONS = tuple(c.value for c in Condition)


class Mst2Edit(Strict):
    """What may be set: any key of the snapshot, and the condition."""

    DOCS: ClassVar[str] = "docs/table.md"

    wounds: int | None = Field(default=None, ge=0, le=10_000)
    condition: Literal["fighting", "out", "incapacitated", "dying", "dead", "fled"] | None = None


def edit(
    encounter: Mst2Encounter, cid: str, values: Mapping[str, object], /, *, where: str
) -> Mst2Encounter:
    """``cid`` with ``values`` set; one who is no longer fighting leaves its melee.

    Raises:
        SheetError: a key that cannot be set, or a value it cannot take.
    """
    chosen = validate(Mst2Edit, values, where)
    state = encounter.states[cid]
    if chosen.wounds is not None:
        state = replace(state, wounds=chosen.wounds)
    if chosen.condition is not None:
        state = replace(state, condition=Condition(chosen.condition))
    encounter = encounter.with_state(cid, state)
    return encounter if state.fighting else encounter.release(cid)
