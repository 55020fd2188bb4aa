"""One attack: d20 + skill against evasion, power dice against protection
(sections *Overview*, *Weapons*, *Armor*, and the circumstantial extra power of
*Other types of damage and wounds*).

A rule decision (docs/rules/mst2.md): the attack hits when d20 + skill is strictly greater than the
defender's evasion; each power die strictly greater than protection is a wound.
Dice order: the d20, then each power die (weapon, then extra power, then the
largest circumstance), then the defender's hit dice if wounded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from affray.dice import Dice, DieRoll, Purpose
from affray.events import Event
from affray.rulesystems.mst2.catalog import Circumstance, Pool, largest_circumstance
from affray.rulesystems.mst2.events import AttackMode, AttackRolled, PowerRolled
from affray.rulesystems.mst2.fighter import Fighter
from affray.rulesystems.mst2.shock import suffer_wounds
from affray.rulesystems.mst2.state import FighterState, Lethality

MELEE = AttackMode.MELEE
COUNTER = AttackMode.COUNTER
RANGED = AttackMode.RANGED


@dataclass(frozen=True, slots=True)
class AttackResult:
    """Everything one attack did. ``defender`` is the defender's new state."""

    natural: int
    total: int
    hit: bool
    power_faces: tuple[int, ...]
    wounds: int
    defender: FighterState
    shock_total: int | None
    events: tuple[Event, ...]


ROLLED_FOR = {
    AttackMode.MELEE: "{who}'s attack on {about}",
    AttackMode.COUNTER: "{who}'s counter-attack on {about}",
    AttackMode.RANGED: "{who}'s shot at {about}",
}
"""What an attack's d20 is asked for, by how the attack comes: a game master typing a
counter-attack's die knows it is not the attacker's own."""


def attack_roll(
    attacker: Fighter, defender_name: str, dice: Dice, mode: AttackMode = AttackMode.MELEE
) -> DieRoll:
    """Roll the attacker's d20."""
    return dice.roll(20, Purpose(ROLLED_FOR[mode], attacker.name, defender_name))


def attack(
    attacker: Fighter,
    defender: Fighter,
    defender_state: FighterState,
    dice: Dice,
    *,
    mode: AttackMode = MELEE,
    circumstances: Sequence[Circumstance] = (),
    lethality: Lethality = Lethality.STANDARD,
) -> AttackResult:
    """Resolve one direct attack (no reach check): roll to hit, roll power, check shock."""
    natural = attack_roll(attacker, defender.name, dice, mode)
    return strike(
        attacker,
        defender,
        defender_state,
        natural,
        dice,
        mode=mode,
        circumstances=circumstances,
        lethality=lethality,
    )


def strike(
    attacker: Fighter,
    defender: Fighter,
    defender_state: FighterState,
    natural: DieRoll,
    dice: Dice,
    *,
    mode: AttackMode = MELEE,
    power: Pool | None = None,
    circumstances: Sequence[Circumstance] = (),
    lethality: Lethality = Lethality.STANDARD,
) -> AttackResult:
    """Resolve an attack whose d20 is already rolled (ranged attacks roll it before
    the target is known).

    Args:
        power: the power pool; defaults to the attacker's melee power (weapon + extra).
        circumstances: circumstantial extra power; only the largest applies.
    """
    total = natural.face + attacker.skill
    hit = total > defender.evasion
    weapon = attacker.missile.name if mode == RANGED and attacker.missile else attacker.weapon_label
    events: list[Event] = [
        AttackRolled(
            attacker.name,
            defender.name,
            mode,
            weapon,
            natural,
            attacker.skill,
            total,
            defender.evasion,
            hit,
        )
    ]
    if not hit:
        return AttackResult(natural.face, total, False, (), 0, defender_state, None, tuple(events))
    pool = attacker.melee_power if power is None else power
    bonus = largest_circumstance(tuple(circumstances))
    rolled = dice.roll_pool(pool, f"{attacker.name}'s power die")
    if bonus is not None:
        rolled += dice.roll_pool(bonus.power, f"{attacker.name}'s {bonus.key} power die")
    wounds = sum(die.face > defender.protection for die in rolled)
    events.append(
        PowerRolled(
            attacker.name,
            defender.name,
            rolled,
            defender.protection,
            wounds,
            bonus.key if bonus else None,
        )
    )
    outcome = suffer_wounds(
        defender,
        defender_state,
        wounds,
        dice,
        source=f"{attacker.name}'s {weapon.lower()}",
        lethality=lethality,
    )
    events.extend(outcome.events)
    return AttackResult(
        natural.face,
        total,
        True,
        tuple(die.face for die in rolled),
        wounds,
        outcome.state,
        outcome.shock_total,
        tuple(events),
    )
