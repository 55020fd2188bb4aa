"""Active defence: parry, block and dodge (Part II, and the notes on total defence,
fighting defensively, multiple dodge and bare-hand parries).

A rule decision (docs/rules/midian.md):
d20 + bonuses at or above the attacker's total stops the attack.
A skilled defender has ceil(skill level / 2) free parries per round (blocks: the
same with the shield skill); +1 per level; -5 to parry without the skill, and
such a parry costs an action. A dodge always costs an action; the dodge skill
adds its level and there is no unskilled penalty. A critical hit cannot be
defended.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum, StrEnum

from affray.dice import Dice
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.equipment import free_blocks, shield_block_modifiers
from affray.rulesystems.midian.events import DefenceRolled
from affray.rulesystems.midian.modifiers import Modifier, nonzero, total

UNSKILLED_PARRY = -5
DEFENSIVE_PARRY = 2
DEFENSIVE_ATTACK = -4
MULTIPLE_DODGE = -6


class Stance(Enum):
    """How a combatant fights this round."""

    NORMAL = "normal"
    DEFENSIVE = "defensive"  # +2 parry, -4 attack
    TOTAL_DEFENCE = "total defence"  # parries = skill level, 2 dodges an action, +2 AC, no attack
    EVASION = "evasion"  # multiple dodge: one roll at -6 for every attack, no attack

    @property
    def label(self) -> str:
        return self.value


class Defence(StrEnum):
    """An active defence: parry with the weapon, block with a shield, dodge."""

    PARRY = "parry"
    BLOCK = "block"
    DODGE = "dodge"


class Cost(StrEnum):
    """What a defence uses up: one of the round's free parries or blocks, or an action."""

    FREE = "free"
    ACTION = "action"


def free_parries(skill: int, stance: Stance = Stance.NORMAL) -> int:
    """ceil(level / 2) free parries a round; one per level in total defence."""
    if stance is Stance.TOTAL_DEFENCE:
        return skill
    return -(-skill // 2)


@dataclass(frozen=True, slots=True)
class DefencePool:
    """What a defender has left this round."""

    parries: int
    blocks: int
    actions: int
    stance: Stance = Stance.NORMAL
    evasion_total: int | None = None
    spare_dodges: int = 0
    """Total defence: "may dodge twice for each action" — the second dodge of an
    action already spent."""

    @classmethod
    def fresh(
        cls, character: Character, *, actions: int = 1, stance: Stance = Stance.NORMAL
    ) -> DefencePool:
        blocks = free_blocks(character)
        if stance is Stance.TOTAL_DEFENCE and character.shield is not None:
            blocks = character.shield.skill
        return cls(free_parries(character.weapon.skill, stance), blocks, actions, stance)


def parry_modifiers(defender: Character, stance: Stance = Stance.NORMAL) -> tuple[Modifier, ...]:
    skill = defender.weapon.skill
    level = (
        Modifier(f"{defender.weapon.name} skill {skill}", skill)
        if skill
        else Modifier("unskilled parry", UNSKILLED_PARRY)
    )
    defensive = stance in (Stance.DEFENSIVE, Stance.TOTAL_DEFENCE)
    return (level, *nonzero(Modifier("fighting defensively", DEFENSIVE_PARRY if defensive else 0)))


def dodge_modifiers(defender: Character) -> tuple[Modifier, ...]:
    return nonzero(Modifier(f"dodge skill {defender.dodge}", defender.dodge))


@dataclass(frozen=True, slots=True)
class Choice:
    """A defence to attempt: its kind, its modifiers and what it costs."""

    kind: Defence
    modifiers: tuple[Modifier, ...]
    cost: Cost

    @property
    def label(self) -> str:
        return self.kind.value

    @property
    def explain(self) -> str:
        """What it costs, in words (a page says it beside the option)."""
        if self.cost is Cost.ACTION:
            return "spends an action (the next one this round)"
        return "free: one of the round's free parries or blocks"


@dataclass(frozen=True, slots=True)
class TakeIt:
    """No defence: take the blow (and keep the free parry or the action)."""

    @property
    def label(self) -> str:
        return "take it"

    @property
    def explain(self) -> str:
        return "no defence: keeps the free parries and the actions"


TAKE_IT = TakeIt()
ALL_DEFENCES = (Defence.PARRY, Defence.BLOCK, Defence.DODGE)


def options(
    defender: Character, pool: DefencePool, *, allowed: Sequence[Defence] = ALL_DEFENCES
) -> list[Choice]:
    """Every defence open to the defender now, free ones first, best bonus first."""
    found: list[Choice] = []
    if Defence.PARRY in allowed:
        mods = parry_modifiers(defender, pool.stance)
        if defender.weapon.skill and pool.parries:
            found.append(Choice(Defence.PARRY, mods, Cost.FREE))
        elif pool.actions:
            found.append(Choice(Defence.PARRY, mods, Cost.ACTION))
    if Defence.BLOCK in allowed and defender.shield is not None:
        mods = shield_block_modifiers(defender)
        if defender.shield.skill and pool.blocks:
            found.append(Choice(Defence.BLOCK, mods, Cost.FREE))
        elif pool.actions:
            found.append(Choice(Defence.BLOCK, mods, Cost.ACTION))
    if Defence.DODGE in allowed and pool.spare_dodges:
        found.append(Choice(Defence.DODGE, dodge_modifiers(defender), Cost.FREE))
    elif Defence.DODGE in allowed and pool.actions:
        found.append(Choice(Defence.DODGE, dodge_modifiers(defender), Cost.ACTION))
    found.sort(key=lambda c: (c.cost is not Cost.FREE, -total(c.modifiers)))
    return found


def spend(pool: DefencePool, choice: Choice) -> DefencePool:
    """Pay for a defence: a free parry or block, an action, or — on total defence — the
    second dodge of an action already spent (each action buys two dodges)."""
    if choice.kind is Defence.DODGE and choice.cost is Cost.FREE:
        return replace(pool, spare_dodges=pool.spare_dodges - 1)
    if choice.cost is Cost.ACTION:
        spare = 1 if choice.kind is Defence.DODGE and pool.stance is Stance.TOTAL_DEFENCE else 0
        return replace(pool, actions=pool.actions - 1, spare_dodges=pool.spare_dodges + spare)
    if choice.kind is Defence.PARRY:
        return replace(pool, parries=pool.parries - 1)
    return replace(pool, blocks=pool.blocks - 1)


def roll_defence(
    defender: Character,
    choice: Choice,
    attack_total: int,
    dice: Dice,
    *,
    penalty: int = 0,
    extra: Sequence[Modifier] = (),
) -> DefenceRolled:
    """Roll d20 + bonuses; the defence succeeds at or above the attack total."""
    modifiers = (*choice.modifiers, *nonzero(Modifier("shock and fatigue", -penalty)), *extra)
    die = dice.roll(20, f"{defender.name}'s {choice.kind}")
    result = die.face + total(modifiers)
    return DefenceRolled(
        defender.name,
        choice.kind.value,
        die,
        modifiers,
        result,
        attack_total,
        result >= attack_total,
        choice.cost.value,
    )


def evade(defender: Character, dice: Dice, *, penalty: int = 0) -> DefenceRolled:
    """Evasion (multiple dodge): one dodge roll at -6 that stands against every attack of
    the round; the evader cannot attack. Its ``against`` is 0: compare the total with
    each attack as it comes (:func:`evaded`)."""
    modifiers = (
        *dodge_modifiers(defender),
        Modifier("evasion", MULTIPLE_DODGE),
        *nonzero(Modifier("shock and fatigue", -penalty)),
    )
    die = dice.roll(20, f"{defender.name}'s evasion")
    result = die.face + total(modifiers)
    return DefenceRolled(defender.name, "evasion", die, modifiers, result, 0, True, "action")


def evaded(evasion_total: int, attack_total: int) -> bool:
    return evasion_total >= attack_total


def allowed_defences(
    *, critical: bool = False, from_behind: bool = False, no_active: bool = False
) -> tuple[Defence, ...]:
    """A critical hit, a charge (for both sides) or surprise leave no active defence;
    an attack from behind or a flank can only be dodged."""
    if critical or no_active:
        return ()
    if from_behind:
        return (Defence.DODGE,)
    return ALL_DEFENCES


def bare_hand_parry_damage(damage: int, damage_type: str) -> int:
    """What an untrained brawler's bare-hand parry costs it even when it works ("Even on
    a successful parry, stabbing weapons do 1 point of damage, and hacking or smashing
    weapons do 1/4th damage (round down)"), from ``damage``, what the blow would have
    done (after resistance and reduction): 1 point of a stabbing blow, a quarter of any
    other (rounded down); never more than the blow would have done."""
    if damage <= 0:
        return 0
    if damage_type == "stabbing":
        return 1
    return damage // 4
