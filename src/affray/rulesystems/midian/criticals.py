"""Critical effects: the text's list of what a critical hit may do, for a game master
to roll on (one die with a side per effect) or to choose from."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from affray.dice import Dice, roll
from affray.errors import RulesError
from affray.rulesystems.midian.events import CriticalEffect


class Critical(StrEnum):
    """The effects a critical hit may have, in the order of the text's table."""

    @property
    def label(self) -> str:
        return self.value

    BEATEN_SENSELESS = "beaten senseless"
    BLINDED = "blinded"
    BLOW_TO_THE_JAW_OR_SKULL = "blow to the jaw or skull"
    CRIPPLED = "crippled"
    DECAPITATED = "decapitated"
    EQUIPMENT_DAMAGED = "equipment damaged"
    VOLATILE_EQUIPMENT_SET_OFF = "volatile equipment set off"
    FINGERS_SMASHED = "fingers smashed"
    FUNNY_BONE = "funny bone"
    HIT_IN_THE_EAR = "hit in the ear"
    HIT_BELOW_THE_BELT = "hit below the belt"
    KNOCKED_DOWN = "knocked down"
    KNOCKED_BACK = "knocked back"
    LEG_MANGLED = "leg mangled"
    NOSE_BROKEN = "nose broken"
    PARALYSED = "paralysed"
    RIBS_BROKEN = "ribs broken"
    SEVERE_THROAT_WOUND = "severe throat wound"
    SHOCKED = "shocked"
    ORGAN_DAMAGED = "organ damaged"
    TEETH_KNOCKED_OUT = "teeth knocked out"
    SWORD_HAND_THUMB_CUT = "sword-hand thumb cut"
    WIND_KNOCKED_OUT = "wind knocked out"


@dataclass(frozen=True, slots=True)
class Effect:
    name: Critical
    detail: str
    duration: str | None = None


EFFECTS: tuple[Effect, ...] = (
    Effect(Critical.BEATEN_SENSELESS, "dazed"),
    Effect(Critical.BLINDED, "an eye lost, or blood running into the eyes"),
    Effect(Critical.BLOW_TO_THE_JAW_OR_SKULL, "unconscious"),
    Effect(Critical.CRIPPLED, "tendon cut or knee smashed"),
    Effect(Critical.DECAPITATED, "dead"),
    Effect(Critical.EQUIPMENT_DAMAGED, "an item is damaged"),
    Effect(Critical.VOLATILE_EQUIPMENT_SET_OFF, "something carried ignites or bursts"),
    Effect(Critical.FINGERS_SMASHED, "the hand is mostly useless"),
    Effect(Critical.FUNNY_BONE, "drops the weapon; the arm is numb and useless", "1d6"),
    Effect(Critical.HIT_IN_THE_EAR, "loss of balance: -3 attack and parry, no dodging"),
    Effect(Critical.HIT_BELOW_THE_BELT, "doubled over"),
    Effect(Critical.KNOCKED_DOWN, "2 rounds to get back up"),
    Effect(Critical.KNOCKED_BACK, "thrown through the air"),
    Effect(Critical.LEG_MANGLED, "Speed halved, -2 Grace"),
    Effect(Critical.NOSE_BROKEN, "possible loss of Appearance"),
    Effect(Critical.PARALYSED, "cannot move"),
    Effect(Critical.RIBS_BROKEN, "-4 Stamina, cannot run"),
    Effect(Critical.SEVERE_THROAT_WOUND, "dies in rounds", "2d6"),
    Effect(Critical.SHOCKED, "stares ahead or acts slow and confused"),
    Effect(Critical.ORGAN_DAMAGED, "spleen, kidney or liver: slowly poisoned"),
    Effect(Critical.TEETH_KNOCKED_OUT, "lost teeth"),
    Effect(Critical.SWORD_HAND_THUMB_CUT, "cannot hold a weapon in the primary hand"),
    Effect(Critical.WIND_KNOCKED_OUT, "-6 to all rolls", "1d8"),
)


def critical_effect(
    character: str, dice: Dice, *, choose: str | None = None
) -> tuple[CriticalEffect, ...]:
    """Roll (or ``choose`` by name) an effect; effects that last a number of rounds roll
    that too. Returns the effect event (and its duration roll's faces in the detail)."""
    if choose is not None:
        matches = [e for e in EFFECTS if e.name == choose.strip().lower()]
        if not matches:
            raise RulesError(
                f"unknown critical effect {choose!r}", hint=", ".join(e.name for e in EFFECTS)
            )
        effect, die = matches[0], None
    else:
        die = dice.roll(len(EFFECTS), f"critical effect on {character}")
        effect = EFFECTS[die.face - 1]
    detail = effect.detail
    lasts = None
    if effect.duration:
        rounds = roll(effect.duration, dice, f"{effect.name}: rounds")
        lasts = rounds.total
        unit = "round" if rounds.total == 1 else "rounds"
        detail = (
            f"{detail} for {rounds.total} {unit}"
            if "dies" not in detail
            else f"dies in {rounds.total} {unit}"
        )
    return (CriticalEffect(character, effect.name.value, detail, die, lasts),)
