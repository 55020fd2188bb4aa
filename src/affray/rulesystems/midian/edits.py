"""The game master's fiat on a Midian character: hit points, life points, serious
wounds, shock, initiative, actions left, stance and condition, set directly
(``affray table set TABLE WHO hit_points=4 condition=unconscious``), checked like a
sheet's values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import ClassVar, Literal

from pydantic import Field

from affray.errors import SheetError
from affray.rulesystems.midian.defence import Stance
from affray.rulesystems.midian.state import MidianEncounter, release_fallen
from affray.sheets.validation import Strict, validate

CONDITIONS = ("conscious", "unconscious", "dead", "fled")


class MidianEdit(Strict):
    """What may be set: any key of the snapshot, and the condition."""

    DOCS: ClassVar[str] = "docs/table.md"

    hit_points: int | None = Field(default=None, ge=0, le=100_000)
    life_points: int | None = Field(default=None, ge=-100_000, le=100_000)
    conscious: bool | None = None
    alive: bool | None = None
    serious_wounds: int | None = Field(default=None, ge=0, le=1_000)
    shock: int | None = Field(default=None, ge=0, le=100_000)
    initiative: int | None = Field(default=None, ge=-1_000, le=1_000)
    actions_left: int | None = Field(default=None, ge=0, le=100)
    stance: Literal["normal", "defensive", "total defence", "evasion"] | None = None
    condition: Literal["conscious", "unconscious", "dead", "fled"] | None = None
    on_fire: bool | None = None
    """False puts a fire out (true sets one alight, burning from the round's end)."""
    winded: int | None = Field(default=None, ge=0, le=100)
    off_balance: bool | None = None
    dying_in: int | None = Field(default=None, ge=0, le=100)
    """Rounds left to live with a severe throat wound; 0 cures it."""


def edit(
    encounter: MidianEncounter, cid: str, values: Mapping[str, object], /, *, where: str
) -> MidianEncounter:
    """``cid`` with ``values`` set; one no longer fighting lets go of its holds, is let
    go, and leaves its melee.

    Raises:
        SheetError: a key that cannot be set, or a value it cannot take.
    """
    chosen = validate(MidianEdit, values, where)
    state = encounter.states[cid]
    health = state.health
    if chosen.life_points is not None and chosen.life_points > health.max_life_points:
        raise SheetError(
            f"is {chosen.life_points}, more than {cid}'s {health.max_life_points}",
            path=where,
            key="life_points",
            hint=f"life_points is at most {health.max_life_points} for {cid}",
        )
    changed: dict[str, object] = {
        key: value
        for key in ("hit_points", "life_points", "conscious", "alive", "serious_wounds", "shock")
        if (value := getattr(chosen, key)) is not None
    }
    health = replace(health, **changed)  # type: ignore[arg-type]
    fled = state.fled
    match chosen.condition:
        case "conscious":
            health, fled = replace(health, alive=True, conscious=True, coma=False), False
        case "unconscious":
            health, fled = replace(health, alive=True, conscious=False), False
        case "dead":
            health, fled = replace(health, alive=False, conscious=False), False
        case "fled":
            fled = True
    if not health.alive:
        health = replace(health, conscious=False)
    pool = state.pool
    if chosen.actions_left is not None:
        pool = replace(pool, actions=chosen.actions_left)
    if chosen.stance is not None:
        pool = replace(pool, stance=Stance(chosen.stance))
    initiative = state.initiative if chosen.initiative is None else chosen.initiative
    lasting = {
        key: value
        for key in ("winded", "off_balance", "dying_in")
        if (value := getattr(chosen, key)) is not None
    }
    health = replace(health, **lasting)
    state = replace(state, health=health, pool=pool, fled=fled, initiative=initiative)
    if chosen.on_fire is not None:
        fire = chosen.on_fire
        state = replace(
            state,
            on_fire=fire,
            in_blaze=state.in_blaze and fire,
            burnt=state.burnt if fire and state.on_fire else 0,
        )
    return release_fallen(encounter.with_state(cid, state), cid)


def effects(encounter: MidianEncounter, cid: str, /) -> tuple[str, ...]:
    """What lasts on ``cid`` beside its figures: a fire, a critical's numbers."""
    state = encounter.states[cid]
    found = []
    if state.on_fire:
        found.append("in a blaze" if state.in_blaze else "on fire")
    health = state.health
    if health.winded:
        found.append(f"winded ({health.winded} round{'s' if health.winded != 1 else ''})")
    if health.off_balance:
        found.append("off balance (hit in the ear)")
    if health.dying_in:
        unit = "round" if health.dying_in == 1 else "rounds"
        found.append(f"dies in {health.dying_in} {unit} (throat wound)")
    return tuple(found)


def health(encounter: MidianEncounter, cid: str, /) -> str:
    """How a Midian character still fighting looks: *unhurt*; *hurt* (hit points
    lost, fewer than half); *bloodied* (half its hit points or more gone, or any life
    point: the wounds that count)."""
    state = encounter.states[cid].health
    if state.life_points < state.max_life_points:
        return "bloodied"
    most = encounter.sheet(cid).hit_points
    lost = most - state.hit_points
    if lost <= 0:
        return "unhurt"
    return "bloodied" if 2 * lost >= most else "hurt"
