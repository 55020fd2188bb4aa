"""A day of rest for a Midian character (docs/table.md, "Parties").

The chapter gives no rate of healing, only that game time heals ("you don't get 7
hit points back just because the next time you play is a week later") and that one
who fell to 0 life points or below gets no hit points back until life points are
at half again. affray's reading (decisions):

- A day of rest heals one point: a life point while life points are below their
  maximum, else a hit point (life points first, :func:`~affray.rulesystems.midian.injury.heal`;
  so no hit point comes back before life points are whole, which keeps the half rule
  whatever the character's past).
- Resting, the wounds are tended and close: no serious wound is left to bleed; the
  fight's shock, fatigue, initiative, actions and stance are gone.
- A living character with life points above 0 is awake after a day's rest.
- The dead do not heal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from affray.dice import Dice
from affray.errors import SheetError
from affray.events import Event
from affray.rulesystems.midian.defence import DefencePool
from affray.rulesystems.midian.injury import heal
from affray.rulesystems.midian.state import MidianEncounter

HEALED_PER_DAY = 1
"""Points a day of rest heals (decision: the chapter gives no rate)."""


def rest(
    encounter: MidianEncounter, cid: str, /, *, dice: Dice, options: Mapping[str, object]
) -> tuple[MidianEncounter, list[Event]]:
    """``cid`` after one day of rest (no dice are rolled).

    Raises:
        SheetError: any option (Midian's rest takes none).
    """
    if options:
        key = next(iter(options))
        raise SheetError(
            "is not an option of a Midian rest", path="rest", key=key, hint="leave it out"
        )
    character = encounter.sheet(cid)
    state = encounter.states[cid]
    health = state.health
    if not health.alive:
        return encounter, []
    if health.life_points < health.max_life_points:
        health = heal(character, health, life_points=HEALED_PER_DAY)
    else:
        health = heal(character, health, hit_points=HEALED_PER_DAY)
    health = replace(
        health,
        serious_wounds=0,
        tended=False,
        shock=0,
        carried_shock=0,
        fatigue=0,
        willpower_checked=False,
        fell_to_zero=health.fell_to_zero and health.life_points * 2 < health.max_life_points,
    )
    if health.life_points > 0:
        health = replace(health, conscious=True, coma=False)
    pool = DefencePool.fresh(character, actions=0)
    return encounter.with_state(cid, replace(state, health=health, pool=pool, initiative=0)), []
