"""Falling, fire and torches (the text's sections on falling and on fire).

- Falling: 1d8 per 10 feet onto stone or hard ground, 1d6 onto soft ground with
  cover, 1d10 onto rocks (affray adds 1d12 for spikes, "substantially more");
  dice stop accumulating at terminal velocity, about 2000 feet. A saving throw
  against crushing, at or above half the distance in feet, halves the damage
  (30 ft: 15 or higher).
- Fire: 3d6 a round; a saving throw against fire at or above the damage halves
  it; in continuous contact (doused in burning tar, trapped in a blaze) the
  target is the cumulative damage of the contact so far. Clothing and other
  flammables save the same way to avoid catching fire.
- Torches: 1d4 + the damage bonus, smashing, +2 for the flame; flaming arrows
  +2. The flame adds to the total, not as a separate attack.

Halving rounds down. Hazard damage is not an attack: damage reduction (which the
chapter gives against "all attacks") does not apply unless the game master says so.
A resistance to the hazard's type of damage does: fire resistance removes its
percentage (rounded up) of a burn after the save, and 100% or more is immunity
("completely immune to that type of damage").
"""

from __future__ import annotations

from dataclasses import dataclass

from affray.dice import Dice, DieRoll, roll
from affray.errors import RulesError
from affray.rulesystems.midian.character import Character, Encumbrance, Weapon
from affray.rulesystems.midian.checks import SaveType, saving_throw
from affray.rulesystems.midian.damage import resist
from affray.rulesystems.midian.events import SaveRolled
from affray.rulesystems.midian.modifiers import Modifier

FALL_DIE = {"soft": 6, "hard": 8, "stone": 8, "rocks": 10, "spikes": 12}
TERMINAL_FEET = 2000
FIRE_DICE = "3d6"
FLAME = 2


@dataclass(frozen=True, slots=True)
class HazardDamage:
    """Damage rolled, the save (if any), what the resistance removed, and what is taken."""

    dice: tuple[DieRoll, ...]
    rolled: int
    save: SaveRolled | None
    taken: int
    resisted: int = 0


def fall(
    character: Character,
    feet: int,
    dice: Dice,
    *,
    surface: str = "hard",
    save_modifiers: tuple[Modifier, ...] = (),
) -> HazardDamage:
    """Damage from a fall of ``feet`` onto ``surface`` (soft, hard/stone, rocks, spikes)."""
    if feet < 0:
        raise RulesError(f"a fall of {feet} feet is impossible")
    if surface not in FALL_DIE:
        raise RulesError(f"unknown surface {surface!r}", hint=f"one of: {', '.join(FALL_DIE)}")
    count = min(feet, TERMINAL_FEET) // 10
    if count == 0:
        return HazardDamage((), 0, None, 0)
    result = roll(f"{count}d{FALL_DIE[surface]}", dice, f"{character.name}'s fall")
    # "saving against crushing at 15 or higher ... from a 30-foot fall": half the feet,
    # rounded up (a d20 total is whole: 12.5 or higher is 13 or higher)
    target = -(-feet // 2)
    save = saving_throw(character, SaveType.CRUSHING, target, dice, modifiers=save_modifiers)
    taken = result.total // 2 if save.success else result.total
    return HazardDamage(result.rolls, result.total, save, taken)


def burn(
    character: Character,
    dice: Dice,
    *,
    earlier: int = 0,
    continuous: bool = False,
    save_modifiers: tuple[Modifier, ...] = (),
) -> HazardDamage:
    """One round in flames: 3d6, halved by a save against fire at or above the damage,
    or, in continuous contact, the cumulative damage (``earlier`` + this round's); then
    the character's fire resistance (100% or more: immune). The save is rolled even by
    the immune (the dice keep their order; the clothing still saves)."""
    result = roll(FIRE_DICE, dice, f"{character.name} burns")
    target = result.total + (earlier if continuous else 0)
    save = saving_throw(character, SaveType.FIRE, target, dice, modifiers=save_modifiers)
    halved = result.total // 2 if save.success else result.total
    taken, resisted = resist(halved, character.resistance("fire"))
    return HazardDamage(result.rolls, result.total, save, taken, resisted)


def catches_fire(
    character: Character, target: int, dice: Dice, *, item: str = "clothing"
) -> SaveRolled:
    """Whether flammables save (at or above the damage, or the cumulative damage) or ignite."""
    return saving_throw(character, SaveType.FIRE, target, dice, modifiers=(Modifier(item, 0),))


def torch() -> Weapon:
    """A torch: 1d4 + damage bonus, smashing, +2 for the flame."""
    return Weapon(
        "Torch",
        "1d4",
        "smashing",
        hands=1,
        encumbrance=Encumbrance.LIGHT,
        reach=1,
        extra_damage=FLAME,
    )


def flaming(weapon: Weapon) -> Weapon:
    """A flaming arrow (or other missile): +2 to its damage total."""
    from dataclasses import replace

    return replace(
        weapon, name=f"Flaming {weapon.name.lower()}", extra_damage=weapon.extra_damage + FLAME
    )
