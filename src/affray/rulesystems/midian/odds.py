"""Exact odds of one Midian attack: hit, critical, fumble, defended, the damage the
defender loses and the chance the blow leaves it down (docs/rules/midian.md, "Midian odds of one
attack").

The attack goes as :func:`affray.rulesystems.midian.resolve.resolve_attack` plays it in a
plain melee (no retests, no special situation): the d20 against armour class, the
defender's best defence this round (the first one offered: free before costly,
best bonus first) unless ``defend`` is off, the damage dice through doubling,
resistance and reduction, then the Willpower check or the system-shock roll the
damage calls for. Each stage is worked out once per distinct input and chained:
the 20 faces of the attack die; the 20 of the defence die for each attack total;
the distribution of the damage dice's total for each kind of hit (critical or not,
points over 20); every roll ``take_damage`` makes for each distinct amount. The
stages are the library's own functions; the tests check the whole against
enumerating every die through ``resolve_attack`` itself.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypeVar

from affray.dice import Dice, distribution
from affray.errors import AffrayError
from affray.rulesystems.midian.attack import (
    armour_class,
    attack_modifiers,
    over_twenty,
    roll_attack,
)
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.damage import damage_modifiers, finish_damage, striking_dice
from affray.rulesystems.midian.defence import (
    Defence,
    DefencePool,
    Stance,
    allowed_defences,
    evaded,
    options,
    roll_defence,
)
from affray.rulesystems.midian.injury import Health, take_damage
from affray.rulesystems.midian.modifiers import total
from affray.rulesystems.midian.resolve import Readings, Situation, best_defence, situation_modifiers

T = TypeVar("T")
PLAIN = Readings()
MAX_PATHS = 200_000
"""Dice paths one stage may enumerate (a Willpower check is 400)."""


@dataclass(frozen=True, slots=True)
class MidianAttackOdds:
    """Exact chances of one attack (every probability a fraction of all attacks).

    Attributes:
        p_hit: the attack roll succeeds (criticals included).
        p_critical, p_fumble: a natural 19-20, a natural 1-2.
        p_defended: a defence stops a hit.
        damage: points the defender loses, ``{points: p}`` (a miss or a defended
            hit counts as 0).
        p_defender_down: the blow leaves the defender unconscious or dead.
    """

    p_hit: Fraction
    p_critical: Fraction
    p_fumble: Fraction
    p_defended: Fraction
    damage: Mapping[int, Fraction] = field(default_factory=dict)
    p_defender_down: Fraction = Fraction(0)

    def to_dict(self) -> dict[str, object]:
        """The JSON of ``midian odds --json`` (floats)."""
        return {
            "p_hit": float(self.p_hit),
            "p_critical": float(self.p_critical),
            "p_fumble": float(self.p_fumble),
            "p_defended": float(self.p_defended),
            "damage": {str(k): float(p) for k, p in sorted(self.damage.items())},
            "p_defender_down": float(self.p_defender_down),
        }


def attack_odds(
    attacker: Character,
    defender: Character,
    *,
    health: Health | None = None,
    pool: DefencePool | None = None,
    attacker_penalty: int = 0,
    defend: bool = True,
    rules: Readings = PLAIN,
    situation: Situation | None = None,
) -> MidianAttackOdds:
    """The exact odds of ``attacker``'s attack on ``defender``, whose state is
    ``health`` (fresh by default) with the defences ``pool`` left this round (a fresh
    one by default); ``attacker_penalty`` is the attacker's shock and fatigue;
    ``situation`` the attack's circumstances as the rules resolve them (a plain melee
    blow by default; a shot: range, cover, the armour class against missiles, the
    defences open, evasion).

    Raises:
        AffrayError: a stage would enumerate more than :data:`MAX_PATHS` dice paths.
    """
    health = health or Health.fresh(defender)
    pool = pool or DefencePool.fresh(defender)
    where = situation or Situation()
    modifiers = attack_modifiers(
        attacker, penalty=attacker_penalty, situational=situation_modifiers(attacker, where)
    )
    target = armour_class(
        defender,
        ranged=where.ranged,
        touch=where.touch,
        total_defence=where.total_defence or where.defender_stance is Stance.TOTAL_DEFENCE,
        shield=not where.from_behind,
    )
    p = Fraction(1, 20)
    hit = critical = fumble = defended = Fraction(0)
    landing: dict[tuple[bool, int], Fraction] = defaultdict(Fraction)  # (critical, over 20)
    for face in range(1, 21):
        attack = roll_attack(
            attacker,
            defender,
            _Faces([face]),
            modifiers=modifiers,
            target=target,
            rule=rules.hit_rule,
        )
        critical += p if attack.critical else 0
        fumble += p if attack.fumble else 0
        if not attack.hit:
            continue
        hit += p
        stopped = Fraction(0)
        allowed = allowed_defences(
            critical=attack.critical,
            from_behind=where.from_behind or where.ganging >= 2,
            no_active=where.surprised or where.set_against_charge or where.defence_given_up,
        )
        choices = options(defender, pool, allowed=allowed)
        choice = best_defence(choices, attack) if defend and choices else None
        evasion = pool.evasion_total if pool.stance is Stance.EVASION else None
        if defend and evasion is not None and (where.ranged or defender.melee_evasion):
            choice = None  # one roll at -6 stands for the round (resolve_attack)
            if Defence.DODGE in allowed and evaded(evasion, attack.total):
                stopped = Fraction(1)
        if choice is not None:
            stopped = sum(
                (
                    Fraction(1, 20)
                    for d in range(1, 21)
                    if roll_defence(
                        defender, choice, attack.total, _Faces([d]), penalty=health.penalty
                    ).success
                ),
                Fraction(0),
            )
        defended += p * stopped
        landing[(attack.critical, over_twenty(attack.total))] += p * (1 - stopped)
    damage: dict[int, Fraction] = defaultdict(Fraction)
    damage[0] = 1 - sum(landing.values(), Fraction(0))
    for (crit, over), weight in landing.items():
        for points, q in _damage(attacker, defender, crit, over, attacker_penalty).items():
            damage[points] += weight * q
    down = sum(
        (q * _down(defender, health, points, rules) for points, q in damage.items() if points),
        Fraction(0),
    )
    return MidianAttackOdds(
        hit, critical, fumble, defended, {k: v for k, v in damage.items() if v}, down
    )


def _damage(
    attacker: Character, defender: Character, critical: bool, over_20: int, penalty: int
) -> dict[int, Fraction]:
    """What a blow that lands takes off, by points (as ``roll_damage`` carries the
    dice's total through doubling, resistance and reduction)."""
    weapon = attacker.weapon
    bonus = total(
        damage_modifiers(
            attacker,
            weapon,
            over_20=over_20,
            penalty=penalty,
            untrained_brawl=attacker.untrained_brawler,
        )
    )
    found: dict[int, Fraction] = defaultdict(Fraction)
    for rolled, q in distribution(striking_dice(attacker)):
        final, _, _ = finish_damage(
            max(rolled + bonus, 0), defender, weapon.type, critical=critical
        )
        found[final] += q
    return dict(found)


def _down(defender: Character, health: Health, points: int, rules: Readings) -> Fraction:
    """P(``points`` of damage leave the defender unconscious or dead), through every
    roll ``take_damage`` makes."""

    def after(dice: Dice) -> bool:
        hurt = take_damage(
            defender,
            health,
            points,
            dice,
            source="the attack",
            willpower=rules.willpower,
            willpower_shock=rules.willpower_shock,
        )
        return not hurt.health.fighting

    return enumerate_dice(after).get(True, Fraction(0))


def enumerate_dice(play: Callable[[Dice], T], limit: int = MAX_PATHS) -> dict[T, Fraction]:
    """The exact distribution of ``play``'s result over every face of every die it
    rolls (each path weighted by its dice), by running it once per path.

    Raises:
        AffrayError: more than ``limit`` paths.
    """
    found: dict[T, Fraction] = defaultdict(Fraction)
    prefix: list[int] = []
    paths = 0
    while True:
        dice = _Odometer(prefix)
        result = play(dice)
        paths += 1
        if paths > limit:
            raise AffrayError(
                f"the odds of this attack would follow over {limit:,} paths of dice",
                hint="simulate instead: affray duel A B -n 100000",
            )
        weight = Fraction(1)
        for size in dice.sides:
            weight /= size
        found[result] += weight
        faces, sizes = dice.faces, dice.sides
        while faces and faces[-1] == sizes[-1]:  # the next path, like an odometer
            faces.pop()
            sizes.pop()
        if not faces:
            return dict(found)
        prefix = [*faces[:-1], faces[-1] + 1]


class _Odometer(Dice):
    """Faces from ``prefix``, then 1s; keeps every face given and every die's size."""

    def __init__(self, prefix: list[int]) -> None:
        super().__init__()
        self.prefix = prefix
        self.faces: list[int] = []
        self.sides: list[int] = []

    def _face(self, sides: int, purpose: str) -> int:
        face = self.prefix[len(self.faces)] if len(self.faces) < len(self.prefix) else 1
        self.faces.append(face)
        self.sides.append(sides)
        return face


class _Faces(Dice):
    def __init__(self, faces: list[int]) -> None:
        super().__init__()
        self.faces = faces

    def _face(self, sides: int, purpose: str) -> int:
        return self.faces.pop(0)
