"""Critical effects: the text's list of what a critical hit may do, for a game master
to roll on (one die with a side per effect) or to choose from."""

from __future__ import annotations

from dataclasses import dataclass

from affray.dice import Dice, roll
from affray.errors import RulesError
from affray.rules.midian.events import CriticalEffect


@dataclass(frozen=True, slots=True)
class Effect:
    name: str
    detail: str
    duration: str | None = None


EFFECTS: tuple[Effect, ...] = (
    Effect("beaten senseless", "dazed"),
    Effect("blinded", "an eye lost, or blood running into the eyes"),
    Effect("blow to the jaw or skull", "unconscious"),
    Effect("crippled", "tendon cut or knee smashed"),
    Effect("decapitated", "dead"),
    Effect("equipment damaged", "an item is damaged"),
    Effect("volatile equipment set off", "something carried ignites or bursts"),
    Effect("fingers smashed", "the hand is mostly useless"),
    Effect("funny bone", "drops the weapon; the arm is numb and useless", "1d6"),
    Effect("hit in the ear", "loss of balance: -3 attack and parry, no dodging"),
    Effect("hit below the belt", "doubled over"),
    Effect("knocked down", "2 rounds to get back up"),
    Effect("knocked back", "thrown through the air"),
    Effect("leg mangled", "Speed halved, -2 Grace"),
    Effect("nose broken", "possible loss of Appearance"),
    Effect("paralysed", "cannot move"),
    Effect("ribs broken", "-4 Stamina, cannot run"),
    Effect("severe throat wound", "dies in rounds", "2d6"),
    Effect("shocked", "stares ahead or acts slow and confused"),
    Effect("organ damaged", "spleen, kidney or liver: slowly poisoned"),
    Effect("teeth knocked out", "lost teeth"),
    Effect("sword-hand thumb cut", "cannot hold a weapon in the primary hand"),
    Effect("wind knocked out", "-6 to all rolls", "1d8"),
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
    if effect.duration:
        rounds = roll(effect.duration, dice, f"{effect.name}: rounds")
        detail = (
            f"{detail} for {rounds.total} rounds"
            if "dies" not in detail
            else f"dies in {rounds.total} rounds"
        )
    return (CriticalEffect(character, effect.name, detail, die),)
