"""Exact odds of one MST-2 attack and of a shock check, in Fractions.

Each power die wounds independently with probability P(die > protection), so
the wound count is a Poisson-binomial distribution; the attack hits with
probability P(d20 + skill > evasion); the defender is taken out when a wounding
attack's shock check fails: hit-dice total + bonus <= total wounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import accumulate

from affray.dice import Distribution
from affray.odds.format import percent
from affray.rulesystems.mst2.catalog import Circumstance, Pool, largest_circumstance
from affray.rulesystems.mst2.fighter import Fighter, HitDice


def hit_chance(skill: int, evasion: int) -> Fraction:
    """P(d20 + skill > evasion)."""
    return Fraction(sum(face + skill > evasion for face in range(1, 21)), 20)


@lru_cache(maxsize=1024)
def wound_distribution(pool: Pool, protection: int) -> Distribution:
    """Distribution of the number of power dice above ``protection`` (kept: a grid
    asks for the same pool against the same armour for every skill)."""
    result = Distribution.constant(0)
    for sides in pool:
        wounding = min(max(sides - protection, 0), sides)
        result = result + Distribution.from_weights({1: wounding, 0: sides - wounding})
    return result


@cache
def hit_dice_distribution(hit_dice: HitDice) -> Distribution:
    """Distribution of a hit-dice total including its bonus (kept: grids and duels ask
    for the same hit dice again and again)."""
    result = Distribution.constant(hit_dice.bonus)
    for sides in hit_dice.pool:
        result = result + Distribution.die(sides)
    return result


@cache
def _at_most(hit_dice: HitDice) -> tuple[dict[int, int], int, int, int]:
    """The hit-dice total's cumulative weights (``weights[t]``: of totals up to ``t``,
    from its least to its greatest total), with the least, the greatest and the sum of
    all weights: P(total <= t) in one look-up."""
    totals = hit_dice_distribution(hit_dice)
    cumulative = dict(zip(totals.outcomes, accumulate(w for _, w in totals.pairs), strict=True))
    return cumulative, totals.minimum, totals.maximum, totals.total


def p_total_at_most(hit_dice: HitDice, threshold: int) -> Fraction:
    """P(hit-dice total + bonus <= ``threshold``)."""
    cumulative, least, most, whole = _at_most(hit_dice)
    if threshold < least:
        return Fraction(0)
    if threshold >= most:
        return Fraction(1)
    while threshold not in cumulative:  # totals are consecutive; defensive for gaps
        threshold -= 1
    return Fraction(cumulative[threshold], whole)


def shock_survival(hit_dice: HitDice, wounds: int) -> Fraction:
    """P(a shock check against ``wounds`` total wounds is passed)."""
    return hit_dice_distribution(hit_dice).p_greater(wounds)


def shock_table(hit_dice: HitDice) -> dict[int, Fraction]:
    """P(passing a shock check) for every total of wounds from 1 until it reaches 0."""
    totals = hit_dice_distribution(hit_dice)
    return {w: totals.p_greater(w) for w in range(1, max(totals.maximum, 0) + 1)}


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """Exact odds of one direct attack.

    Attributes:
        p_hit: chance the attack hits.
        wounds: unconditional distribution of wounds inflicted (a miss is 0).
        p_out: chance the attack takes out a defender who already had ``prior_wounds``.
    """

    p_hit: Fraction
    wounds: dict[int, Fraction]
    p_out: Fraction
    prior_wounds: int

    @property
    def p_wound(self) -> Fraction:
        """Chance of at least one wound."""
        return 1 - self.wounds.get(0, Fraction(0))

    def summary(self) -> str:
        """One line for people: "hit 55.0%, wound 53.0%, takes out 11.0%"."""
        return (
            f"hit {percent(self.p_hit)}, wound {percent(self.p_wound)}, "
            f"takes out {percent(self.p_out)}"
        )


def attack_power(attacker: Fighter, circumstances: Sequence[Circumstance] = ()) -> Pool:
    """The pool a melee attack rolls: weapon, extra power, then the largest circumstance."""
    bonus = largest_circumstance(tuple(circumstances))
    return attacker.melee_power + (bonus.power if bonus else ())


def attack_odds(
    attacker: Fighter,
    defender: Fighter,
    prior_wounds: int = 0,
    *,
    circumstances: Sequence[Circumstance] = (),
    power: Pool | None = None,
) -> AttackOdds:
    """Exact odds of one direct attack (no reach counter-attack) on a defender
    who has ``prior_wounds`` and is still fighting."""
    p_hit = hit_chance(attacker.skill, defender.evasion)
    pool = attack_power(attacker, circumstances) if power is None else power
    on_hit = wound_distribution(pool, defender.protection).probabilities()
    wounds = {k: p_hit * p for k, p in on_hit.items()}
    wounds[0] = wounds.get(0, Fraction(0)) + (1 - p_hit)
    p_out = Fraction(0)
    for new_wounds, p in wounds.items():
        if new_wounds > 0:
            p_out += p * p_total_at_most(defender.hit_dice, prior_wounds + new_wounds)
    return AttackOdds(p_hit, dict(sorted(wounds.items())), p_out, prior_wounds)
