"""Hazards a game master brings on a combatant at a table: a fall, a round in flames,
and a fire that burns at the end of every round until it is put out (the text's
sections on falling and on fire: :mod:`affray.rulesystems.midian.hazards` rolls them).

The damage is taken as any damage outside an attack roll: hit points then life
points, serious wounds (one per 10 points of one hazard), the Willpower check and
system shock, a retest where the sheet has one. ``affray table hazard TABLE WHO KIND
KEY=VALUE...`` is one change of the log, undone by ``undo`` like any other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import ClassVar, Literal

from pydantic import Field

from affray.errors import RulesError, SheetError
from affray.events import Event
from affray.powers import HazardKind
from affray.rulesystems.midian.events import HazardRolled, StatusChanged
from affray.rulesystems.midian.hazards import FALL_DIE, HazardDamage, burn, fall
from affray.rulesystems.midian.injury import Health
from affray.rulesystems.midian.modifiers import Modifier, nonzero
from affray.rulesystems.midian.state import MidianAnswers, MidianEncounter, MidianOptions
from affray.rulesystems.midian.strikes import hurt
from affray.sheets.validation import Strict, validate

FALL = "fall"
FIRE = "fire"
PUT_OUT = "put-out"

HAZARDS = (
    HazardKind(
        FALL,
        "a fall: dice per 10 feet by the surface, halved by a crushing save at half the feet",
        ("feet", "surface", "save_bonus"),
    ),
    HazardKind(
        FIRE,
        "a round in flames: 3d6, halved by a fire save at the damage; burning=true keeps "
        "it burning once a round (at the end of each later round) until put out, "
        "blaze=true in continuous contact (the save against this fire's damage so far)",
        ("burning", "blaze", "save_bonus"),
    ),
    HazardKind(PUT_OUT, "the fire on it is put out"),
)


class FallValues(Strict):
    DOCS: ClassVar[str] = "docs/table.md"

    feet: int = Field(ge=0, le=100_000)
    surface: Literal["soft", "hard", "stone", "rocks", "spikes"] = "hard"
    save_bonus: int = Field(default=0, ge=-100, le=100)


class FireValues(Strict):
    DOCS: ClassVar[str] = "docs/table.md"

    burning: bool = False
    blaze: bool = False
    save_bonus: int = Field(default=0, ge=-100, le=100)


class NoValues(Strict):
    DOCS: ClassVar[str] = "docs/table.md"


def apply_hazard(
    options: MidianOptions,
    encounter: MidianEncounter,
    who: str,
    kind: str,
    values: Mapping[str, object],
    answers: MidianAnswers,
) -> tuple[MidianEncounter, list[Event]]:
    """``who`` suffers the hazard ``kind`` with ``values`` (:data:`HAZARDS` lists them).

    Raises:
        RulesError: no such kind, a value it does not take, or ``who`` is dead.
    """
    where = f"hazard {kind}"
    state = encounter.states[who]
    try:
        if kind == FALL:
            chosen = validate(FallValues, values, where)
            if not state.health.alive:
                raise RulesError(f"{who} is dead", hint="a hazard befalls the living")
            damage = fall(
                encounter.sheet(who),
                chosen.feet,
                answers.dice,
                surface=chosen.surface,
                save_modifiers=_save(state.health, chosen.save_bonus),
            )
            detail = f"{chosen.feet} ft onto {chosen.surface}, 1d{FALL_DIE[chosen.surface]} a 10 ft"
            return _suffer(options, encounter, who, "a fall", detail, damage, answers)
        if kind == FIRE:
            fire = validate(FireValues, values, where)
            if not state.health.alive:
                raise RulesError(f"{who} is dead", hint="a hazard befalls the living")
            burning = fire.burning or fire.blaze
            encounter = encounter.with_state(
                who,
                replace(
                    state,
                    on_fire=state.on_fire or burning,
                    in_blaze=state.in_blaze or fire.blaze,
                    burnt=state.burnt if state.on_fire else 0,  # a new fire starts afresh
                ),
            )
            return burn_round(options, encounter, who, answers, bonus=fire.save_bonus)
        if kind == PUT_OUT:
            validate(NoValues, values, where)
            if not state.on_fire:
                raise RulesError(f"{who} is not on fire", hint="nothing to put out")
            put_out = replace(state, on_fire=False, in_blaze=False, burnt=0)
            return encounter.with_state(who, put_out), [
                StatusChanged(who, "no longer on fire", "the fire is put out")
            ]
    except SheetError as error:
        raise RulesError(error.message, hint=error.hint) from None
    kinds = ", ".join(h.name for h in HAZARDS)
    raise RulesError(f"no hazard called {kind!r}", hint=f"one of: {kinds}")


def burn_round(
    options: MidianOptions,
    encounter: MidianEncounter,
    who: str,
    answers: MidianAnswers,
    *,
    bonus: int = 0,
) -> tuple[MidianEncounter, list[Event]]:
    """A round in flames for ``who``: 3d6 and the save (against the damage so far in a
    blaze), the resistance, and the damage taken; the fire's damage so far grows."""
    state = encounter.states[who]
    damage = burn(
        encounter.sheet(who),
        answers.dice,
        earlier=state.burnt,
        continuous=state.in_blaze,
        save_modifiers=_save(state.health, bonus),
    )
    how = "in a blaze" if state.in_blaze else "on fire" if state.on_fire else "a round"
    burnt = replace(state, burnt=state.burnt + damage.rolled, burnt_in=encounter.round)
    encounter = encounter.with_state(who, burnt)
    return _suffer(options, encounter, who, "fire", f"{how}, 3d6", damage, answers)


def burn_at_round_end(
    options: MidianOptions, encounter: MidianEncounter, answers: MidianAnswers
) -> tuple[MidianEncounter, list[Event]]:
    """Everyone alive and on fire burns, in listing order (the end of a round), but
    one whose fire already burnt this round (the game master brought it): "3d6 per
    round"."""
    events: list[Event] = []
    for c in encounter.combatants:
        state = encounter.states[c.id]
        burnt_now = state.burnt_in == encounter.round
        if state.on_fire and state.health.alive and not state.fled and not burnt_now:
            encounter, more = burn_round(options, encounter, c.id, answers)
            events.extend(more)
    return encounter, events


def _suffer(
    options: MidianOptions,
    encounter: MidianEncounter,
    who: str,
    hazard: str,
    detail: str,
    damage: HazardDamage,
    answers: MidianAnswers,
) -> tuple[MidianEncounter, list[Event]]:
    rolled = HazardRolled(
        who, hazard, detail, damage.dice, damage.rolled, damage.resisted, damage.taken
    )
    events: list[Event] = [rolled] if damage.save is None else [damage.save, rolled]
    encounter, more = hurt(options, encounter, who, damage.taken, answers, hazard)
    return encounter, [*events, *more]


def _save(health: Health, bonus: int) -> tuple[Modifier, ...]:
    """A hazard's save: its bonus, and the round's shock and fatigue ("-1 to ALL
    rolls"; the wind knocked out with them)."""
    return nonzero(Modifier("save bonus", bonus), Modifier("shock and fatigue", -health.penalty))
