"""Fast Monte Carlo of Midian duels: whole batches of duels advanced together with numpy.

It plays the plain duel of the reference engine (``affray duel --engine reference``:
the encounter engine with ``MidianRuleset()``'s default options and the tactics AI
with default tactics) with the same rules and the same choices, a round at a time
for every duel still going:

- initiative each round (d10 + modifiers - last round's shock - fatigue), an action
  at N, N-10, ... while positive (one, last, at 0 or less); the turns of both in
  order of initiative, ties to the higher Wits, then to A;
- each turn an attack (the AI's only choice in a plain duel): fumbles, criticals,
  points over 20, shock and fatigue on every roll; the defender's best defence, free
  parries and blocks first, one that costs an action only when the AI would pay it
  (:func:`affray.rulesystems.midian.tactics.worth_an_action`), an action spent that way
  taking the defender's last turn of the round;
- damage doubled on a critical, resistance, reduction (an untrained brawler's bare
  fists: the damage bonus only); hit points then life points;
  the Willpower check when hit points run out (once a fight, with the shock of the
  round's earlier blows), system shock at 0 life points or below; serious wounds;
- at the end of the round bleeding, heroic armour's fatigue and system shock; a
  duel is won by the one still fighting after it, drawn when neither is (or at the
  round cap);
- retests (the AI always spends one) on a missed attack, a failed Willpower check
  and a failed system shock roll, each source once a fight for each kind of roll.

What the AI never does in a plain duel needs no modelling (waiting, interrupts,
grappling, disarming, charges, stances other than normal, binding wounds). What a
sheet can ask that this engine does not play (a ranged weapon, two weapons,
regeneration, an untrained brawler whose best defence would be a bare-hand parry,
which hurts; the rules before round 3 of fidelity) is refused with
:class:`~affray.errors.NotModelledError` (:func:`unsupported` lists it) and
``affray duel`` falls back to the reference engine.

The constants of each side (attack, damage and initiative modifiers, armour class,
the defence open for each state of its pool) are computed once by the rules
library's own functions, so the two engines cannot drift apart on them. Damage dice
are drawn from their exact distribution with one uniform number; every other die is
rolled. Dice come from a :class:`Roller`: numpy for speed, or any
:class:`~affray.dice.Dice` one die at a time (:class:`DiceRoller`), in the order the
reference engine rolls them, so that one duel replays the reference engine's duel
exactly with the same dice (tests/sim/test_midian_fast.py).

Reproducibility and memory are those of the MST-2 engine: fixed chunks of ``CHUNK``
duels, chunk ``i`` drawing from ``SeedSequence(seed, spawn_key=(i,))``, made as
needed (:mod:`affray.sim.chunks`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from functools import partial
from itertools import accumulate
from typing import Protocol

import numpy as np
import numpy.typing as npt

from affray.answers import MAX_ROUNDS
from affray.dice import Dice, distribution, roll
from affray.errors import DiceLimitError, NotModelledError
from affray.estimates import Estimate
from affray.rulesystems.midian.attack import armour_class, attack_modifiers
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.damage import damage_modifiers, striking_dice
from affray.rulesystems.midian.defence import Cost, Defence, DefencePool, Stance, options
from affray.rulesystems.midian.equipment import armour_row
from affray.rulesystems.midian.initiative import initiative_modifiers
from affray.rulesystems.midian.injury import SERIOUS_WOUND, SHOCK_STEP
from affray.rulesystems.midian.modifiers import total
from affray.rulesystems.midian.resolve import FIDELITY, Situation, situation_modifiers
from affray.rulesystems.midian.tactics import mean_damage
from affray.sim.chunks import run_chunks
from affray.stats import DuelStats

CHUNK = 1 << 17
"""Duels per chunk: the unit of seeding, of work for a worker, and of memory."""
ENGINE = "fast Midian duel engine"

Ints = npt.NDArray[np.int32]
Index = npt.NDArray[np.intp]
Bools = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float64]

# what the best defence open to a defender costs (the kind does not matter past that)
NO_DEFENCE, FREE_PARRY, FREE_BLOCK, COSTLY = 0, 1, 2, 3
# kinds of roll a retest rerolls
ATTACK, WILLPOWER, SYSTEM_SHOCK = 0, 1, 2


def unsupported(a: Character, b: Character, *, fidelity: int = FIDELITY) -> tuple[str, ...]:
    """What the fast engine does not play in a duel of these sheets, one phrase each
    (empty when it plays them). It plays round 3 of fidelity only (a duel is always
    played by today's rules; an older round is refused, for the reference engine)."""
    found: list[str] = []
    if fidelity < FIDELITY:
        found.append("the rules before round 3 of fidelity")
    for sheet in (a, b):
        if sheet.weapon.ranged:
            found.append(f"{sheet.name}'s ranged weapon ({sheet.weapon.name})")
        if sheet.off_hand is not None:
            found.append(f"{sheet.name}'s two weapons")
        if sheet.regenerates:
            found.append(f"{sheet.name}'s regeneration")
        best = options(sheet, DefencePool(1, 1, 1, Stance.NORMAL))
        if sheet.untrained_brawler and best and best[0].kind is Defence.PARRY:
            found.append(f"{sheet.name}'s bare-hand parries (they hurt)")
    return tuple(found)


@dataclass(frozen=True, slots=True)
class DuelSide:
    """One side of a duel, as the batch engine needs it, every figure from the rules
    library's own functions.

    ``attack``, ``damage`` and ``initiative`` are the totals of the modifiers its sheet
    brings to those rolls (bonuses, encumbrance, first combat), before shock and
    fatigue; ``damage_values`` and ``damage_cut`` its weapon dice's exact distribution
    (outcomes, and cumulative probabilities but the last); ``armour_class`` counts its
    shield. ``defence_cost[key]`` and ``defence_bonus[key]`` are the best defence open
    to it as a defender (:func:`affray.rulesystems.midian.defence.options`), for
    ``key = 4 * (a free parry left) + 2 * (a free block left) + (an action left)``.
    """

    name: str
    attack: int
    damage: int
    damage_dice: str
    damage_values: tuple[int, ...]
    damage_cut: tuple[float, ...]
    likely_damage: float
    armour_class: int
    damage_reduction: int
    initiative: int
    wits: int
    hit_points: int
    life_points: int
    willpower: int
    system_shock: int
    fatigue: int
    retests: int
    parries: int
    blocks: int
    defence_cost: tuple[int, ...]
    defence_bonus: tuple[int, ...]

    @classmethod
    def of(cls, sheet: Character) -> DuelSide:
        """The side ``sheet`` fights as.

        Raises:
            NotModelledError: its weapon's dice are too many for an exact distribution.
        """
        try:
            dice = distribution(striking_dice(sheet))
        except DiceLimitError:
            reason = f"{sheet.name}'s weapon dice ({sheet.weapon.damage}): too many to draw"
            raise NotModelledError(ENGINE, (reason,)) from None
        weights = [float(p) for _, p in dice]
        cut = tuple(accumulate(weights))[:-1]
        cost: list[int] = []
        bonus: list[int] = []
        for key in range(8):
            pool = DefencePool(key >> 2 & 1, key >> 1 & 1, key & 1, Stance.NORMAL)
            found = options(sheet, pool)
            if not found:
                cost.append(NO_DEFENCE)
                bonus.append(0)
                continue
            best = found[0]
            if best.cost is Cost.ACTION:
                cost.append(COSTLY)
            else:
                cost.append(FREE_PARRY if best.kind is Defence.PARRY else FREE_BLOCK)
            bonus.append(total(best.modifiers))
        fresh = DefencePool.fresh(sheet, stance=Stance.NORMAL)
        return cls(
            name=sheet.name,
            attack=total(
                attack_modifiers(sheet, situational=situation_modifiers(sheet, Situation()))
            ),
            damage=total(
                damage_modifiers(sheet, sheet.weapon, untrained_brawl=sheet.untrained_brawler)
            ),
            damage_dice=striking_dice(sheet),
            damage_values=dice.outcomes,
            damage_cut=cut,
            likely_damage=mean_damage(sheet),
            armour_class=armour_class(sheet),
            damage_reduction=sheet.damage_reduction,
            initiative=total(initiative_modifiers(sheet)),
            wits=sheet.wits,
            hit_points=sheet.hit_points,
            life_points=sheet.life_points,
            willpower=sheet.willpower,
            system_shock=sheet.system_shock,
            fatigue=armour_row(sheet).fatigue_per_round,
            retests=len(set(sheet.retests)),
            parries=fresh.parries,
            blocks=fresh.blocks,
            defence_cost=tuple(cost),
            defence_bonus=tuple(bonus),
        )


@dataclass(frozen=True, slots=True)
class MidianDuelModel:
    """Everything the batch engine needs about a matchup (picklable for workers).

    ``resistance[s]`` is side ``s``'s resistance (percent) to the other's weapon.
    """

    sides: tuple[DuelSide, DuelSide]
    resistance: tuple[int, int]
    a_first_on_ties: bool
    max_rounds: int = MAX_ROUNDS

    @classmethod
    def of(
        cls,
        a: Character,
        b: Character,
        max_rounds: int = MAX_ROUNDS,
        *,
        fidelity: int = FIDELITY,
    ) -> MidianDuelModel:
        """The model of a duel of ``a`` (listed first) and ``b`` by the rules of round
        ``fidelity``.

        Raises:
            NotModelledError: the sheets (or the rules of another round) ask for
                something this engine does not play.
        """
        reasons = unsupported(a, b, fidelity=fidelity)
        if reasons:
            raise NotModelledError(ENGINE, reasons)
        return cls(
            (DuelSide.of(a), DuelSide.of(b)),
            (a.resistance(b.weapon.type), b.resistance(a.weapon.type)),
            a.wits >= b.wits,
            max_rounds,
        )

    def final_damage(self, side: int, rolled: Ints) -> Ints:
        """What ``side``'s blows take from the other: ``rolled`` (the damage rolled,
        doubled on a critical) through resistance and reduction, as
        :func:`affray.rulesystems.midian.damage.finish_damage` does it."""
        percent = self.resistance[1 - side]
        if percent >= 100:
            return np.zeros_like(rolled)
        if percent > 0:
            rolled = rolled - (-(-rolled * percent // 100))
        return np.maximum(rolled - self.sides[1 - side].damage_reduction, 0)

    def can_hurt(self, side: int) -> bool:
        """Whether ``side`` can ever do damage to the other (its best critical)."""
        me = self.sides[side]
        best = max(me.damage_values) + me.damage + max(me.attack, 0)
        return bool(self.final_damage(side, np.array([2 * max(best, 0)]))[0] > 0)


class Roller(Protocol):
    """Where the dice come from. ``at`` names the duels (columns of the batch) that roll,
    one die or one damage roll each; ``keep`` hears which duels go on when the
    finished ones are dropped."""

    def faces(self, sides: int, at: Index) -> Ints:
        """A die of ``sides`` sides for each duel in ``at``."""
        ...

    def damage(self, side: int, at: Index) -> Ints:
        """The total of ``side``'s weapon dice for each duel in ``at``."""
        ...

    def keep(self, going: Bools) -> None:
        """The batch keeps only the duels where ``going`` is true."""
        ...


@dataclass(frozen=True, slots=True)
class NumpyRoller:
    """Dice from a numpy generator; damage from its exact distribution (one uniform
    number per blow)."""

    rng: np.random.Generator
    values: tuple[Ints, Ints]
    cuts: tuple[Floats, Floats]

    @classmethod
    def of(cls, model: MidianDuelModel, rng: np.random.Generator) -> NumpyRoller:
        a, b = model.sides
        return cls(
            rng,
            (np.array(a.damage_values, dtype=np.int32), np.array(b.damage_values, dtype=np.int32)),
            (np.array(a.damage_cut), np.array(b.damage_cut)),
        )

    def faces(self, sides: int, at: Index) -> Ints:
        return self.rng.integers(1, sides + 1, at.size, dtype=np.int32)

    def damage(self, side: int, at: Index) -> Ints:
        values = self.values[side]
        if values.size == 1:
            return np.full(at.size, values[0], dtype=np.int32)
        return values[np.searchsorted(self.cuts[side], self.rng.random(at.size), side="right")]

    def keep(self, going: Bools) -> None:
        pass


@dataclass(slots=True)
class DiceRoller:
    """Dice from one :class:`~affray.dice.Dice` source per duel, rolled one at a time
    (each weapon's dice die by die, as the rules library rolls them): every duel gets
    the same dice in the same order as the reference engine's duel with that source,
    and plays out the same."""

    streams: list[Dice]
    weapons: tuple[str, str]

    def faces(self, sides: int, at: Index) -> Ints:
        dice = [self.streams[i].roll(sides, "fast engine").face for i in at.tolist()]
        return np.array(dice, dtype=np.int32)

    def damage(self, side: int, at: Index) -> Ints:
        expression = self.weapons[side]
        totals = [roll(expression, self.streams[i]).total for i in at.tolist()]
        return np.array(totals, dtype=np.int32)

    def keep(self, going: Bools) -> None:
        self.streams = [s for s, kept in zip(self.streams, going.tolist(), strict=True) if kept]


@dataclass(slots=True)
class Batch:
    """The state of the duels still going (row 0: A, row 1: B; a column per duel):
    hit and life points, this round's shock, last round's (``carried``, the next
    initiative's penalty), serious wounds, whether the Willpower check was made, alive
    and conscious; this round's actions, free parries and blocks left; and the retests
    left for each kind of roll (``retests[side, kind]``)."""

    hit_points: Ints
    life_points: Ints
    shock: Ints
    carried: Ints
    serious: Ints
    checked: Bools
    alive: Bools
    conscious: Bools
    actions: Ints
    parries: Ints
    blocks: Ints
    retests: Ints

    @classmethod
    def fresh(cls, model: MidianDuelModel, size: int) -> Batch:
        a, b = model.sides

        def pair(first: int, second: int) -> Ints:
            return np.repeat(np.array([[first], [second]], dtype=np.int32), size, axis=1)

        zeros = np.zeros((2, size), dtype=np.int32)
        return cls(
            pair(a.hit_points, b.hit_points),
            pair(a.life_points, b.life_points),
            zeros.copy(),
            zeros.copy(),
            zeros.copy(),
            np.zeros((2, size), dtype=bool),
            np.ones((2, size), dtype=bool),
            np.ones((2, size), dtype=bool),
            zeros.copy(),
            zeros.copy(),
            zeros.copy(),
            np.repeat(
                np.array([[[a.retests]] * 3, [[b.retests]] * 3], dtype=np.int32), size, axis=2
            ),
        )

    @property
    def size(self) -> int:
        return int(self.alive.shape[1])

    def keep(self, mask: Bools) -> None:
        """Only the duels where ``mask`` is true go on."""
        going = np.flatnonzero(mask)
        for field in fields(self):
            setattr(self, field.name, getattr(self, field.name).take(going, axis=-1))

    def fighting(self, side: int) -> Bools:
        fighting: Bools = self.alive[side] & self.conscious[side]
        return fighting


def play(model: MidianDuelModel, roller: Roller, size: int) -> DuelStats:
    """Fight ``size`` duels with dice from ``roller`` and count the results: a duel ends
    with the first round after which at most one of the two is still fighting (a win,
    or a draw when neither is), or as a draw after ``model.max_rounds`` rounds."""
    if not (model.can_hurt(0) or model.can_hurt(1)):  # nothing can ever change
        return DuelStats(size, 0, 0, size, size * model.max_rounds)
    duels = Batch.fresh(model, size)
    a_wins = b_wins = draws = rounds = 0
    for number in range(1, model.max_rounds + 1):
        fatigue = (model.sides[0].fatigue * (number - 1), model.sides[1].fatigue * (number - 1))
        play_round(model, duels, roller, fatigue)
        a, b = duels.fighting(0), duels.fighting(1)
        over = ~(a & b)
        a_won = int(np.count_nonzero(a & ~b))
        b_won = int(np.count_nonzero(b & ~a))
        ended = int(np.count_nonzero(over))
        a_wins, b_wins, draws = a_wins + a_won, b_wins + b_won, draws + ended - a_won - b_won
        rounds += number * ended
        if ended:
            duels.keep(~over)
            roller.keep(~over)
        if duels.size == 0:
            break
    left = duels.size
    return DuelStats(size, a_wins, b_wins, draws + left, rounds + left * model.max_rounds)


def play_round(
    model: MidianDuelModel, duels: Batch, roller: Roller, fatigue: tuple[int, int]
) -> None:
    """One round of every duel in ``duels``, in place: initiative, the turns in order
    until one side falls, the end of the round."""
    size = duels.size
    everyone = np.arange(size)
    initiative = [
        roller.faces(10, everyone) + (model.sides[s].initiative - fatigue[s]) - duels.carried[s]
        for s in (0, 1)
    ]
    slots = [slot_count(t) for t in initiative]
    duels.actions = np.stack(slots)
    for s, side in enumerate(model.sides):
        duels.parries[s] = side.parries
        duels.blocks[s] = side.blocks
    used = np.zeros((2, size), dtype=np.int32)
    ended = np.zeros(size, dtype=bool)
    while True:
        left_a, left_b = used[0] < slots[0], used[1] < slots[1]
        turn = ~ended & (left_a | left_b)
        if not turn.any():
            break
        a_turn = turn & a_acts_next(initiative, used, slots, model.a_first_on_ties)
        b_turn = turn & ~a_turn
        used[0] += a_turn
        used[1] += b_turn
        for s, mine in ((0, a_turn), (1, b_turn)):
            goes = mine & (duels.actions[s] > 0)  # an action spent on defending: no turn
            duels.actions[s] -= goes
            strikers = np.flatnonzero(goes)
            if strikers.size:
                ended[strike(model, duels, roller, s, strikers, fatigue)] = True
    end_round(model, duels, roller)


def slot_count(initiative: Ints) -> Ints:
    """How many actions an initiative total gives: one at N, N-10, ... while positive;
    one (last) at 0 or less (:func:`affray.rulesystems.midian.initiative.action_slots`)."""
    count: Ints = np.where(initiative > 0, (initiative + 9) // 10, 1)
    return count


def a_acts_next(
    initiative: Sequence[Ints], used: Ints, slots: Sequence[Ints], a_first_on_ties: bool
) -> Bools:
    """Whether A's next action slot comes before B's, each side having used ``used[s]``
    of its ``slots[s]`` slots at ``initiative[s]``, ``initiative[s] - 10``, ...: the
    higher slot first, ties to the higher Wits, then to A (as
    :func:`affray.rulesystems.midian.initiative.order_slots` orders them). False where A has
    no slot left."""
    left_a, left_b = used[0] < slots[0], used[1] < slots[1]
    at_a, at_b = initiative[0] - 10 * used[0], initiative[1] - 10 * used[1]
    first: Bools = left_a & (~left_b | (at_a > at_b) | ((at_a == at_b) & a_first_on_ties))
    return first


def defends(cost: Ints, actions: Ints, hit_points: Ints, likely_damage: float) -> Bools:
    """Whether the defender takes the best defence open to it (its ``cost``): always a
    free one; one that costs an action when the AI finds it worth it
    (:func:`affray.rulesystems.midian.tactics.worth_an_action` in the normal stance)."""
    worth: Bools = (cost == FREE_PARRY) | (cost == FREE_BLOCK)
    worth |= (cost == COSTLY) & ((actions >= 2) | (hit_points <= likely_damage))
    return worth


def _hits(die: Ints, total: Ints, armour: int) -> Bools:
    """A natural 1-2 misses, 19-20 hits; otherwise the total at or above armour class."""
    return (die >= 19) | ((die >= 3) & (total >= armour))


def strike(
    model: MidianDuelModel,
    duels: Batch,
    roller: Roller,
    side: int,
    at: Index,
    fatigue: tuple[int, int],
) -> Index:
    """``side`` attacks the other in the duels ``at``, in place. Returns the duels
    where the defender is out of the fight."""
    other = 1 - side
    me, them = model.sides[side], model.sides[other]
    penalty = duels.shock[side][at] + fatigue[side]
    die = roller.faces(20, at)
    attack = die + (me.attack - penalty)
    hit = _hits(die, attack, them.armour_class)
    if me.retests:  # the AI spends a retest on a missed attack roll
        left = duels.retests[side, ATTACK]
        for _ in range(me.retests):
            again = np.flatnonzero(~hit & (left[at] > 0))
            if not again.size:
                break
            left[at[again]] -= 1
            die[again] = roller.faces(20, at[again])
            attack[again] = die[again] + (me.attack - penalty[again])
            hit[again] = _hits(die[again], attack[again], them.armour_class)
    defend(model, duels, roller, side, at, hit & (die < 19), attack, fatigue, hit)
    landed = np.flatnonzero(hit)
    if not landed.size:
        return landed
    struck = at[landed]
    rolled = roller.damage(side, struck) + me.damage
    rolled += np.maximum(attack[landed] - 20, 0) - penalty[landed]
    rolled = np.maximum(rolled, 0)
    rolled = np.where(die[landed] >= 19, 2 * rolled, rolled)  # a critical doubles
    damage = model.final_damage(side, rolled)
    hurt = damage > 0
    return take_damage(model, duels, roller, other, struck[hurt], damage[hurt], fatigue[other])


def defend(
    model: MidianDuelModel,
    duels: Batch,
    roller: Roller,
    side: int,
    at: Index,
    open_to_defence: Bools,
    attack: Ints,
    fatigue: tuple[int, int],
    hit: Bools,
) -> None:
    """The defender's choice and roll against the blows that hit and are not critical,
    in place (``hit`` loses the blows defended)."""
    other = 1 - side
    them = model.sides[other]
    chances = np.flatnonzero(open_to_defence)
    if not chances.size or not any(them.defence_cost):
        return
    parries, blocks, actions = duels.parries[other], duels.blocks[other], duels.actions[other]
    where = at[chances]
    left = actions[where]
    key = (parries[where] > 0) * 4 + (blocks[where] > 0) * 2 + (left > 0)
    cost = np.asarray(them.defence_cost)[key]
    worth = defends(cost, left, duels.hit_points[other][where], model.sides[side].likely_damage)
    chosen = chances[worth]
    if not chosen.size:
        return
    where, key, cost = where[worth], key[worth], cost[worth]
    penalty = duels.shock[other][where] + fatigue[other]
    defence = roller.faces(20, where) + np.asarray(them.defence_bonus)[key] - penalty
    hit[chosen[defence >= attack[chosen]]] = False
    for pool, kind in ((parries, FREE_PARRY), (blocks, FREE_BLOCK), (actions, COSTLY)):
        paid = where[cost == kind]
        if paid.size:
            pool[paid] -= 1


def take_damage(
    model: MidianDuelModel,
    duels: Batch,
    roller: Roller,
    side: int,
    at: Index,
    damage: Ints,
    fatigue: int,
) -> Index:
    """``side`` takes ``damage`` (each > 0) in the duels ``at``, in place, with the
    Willpower check and the system shock roll it calls for. Returns the duels where
    ``side`` is out of the fight."""
    if not at.size:
        return at
    me = model.sides[side]
    hit_points, life_points, shock = (
        duels.hit_points[side],
        duels.life_points[side],
        duels.shock[side],
    )
    hp, life, earlier = hit_points[at], life_points[at], shock[at]
    was_down = life <= 0
    from_hit_points = np.minimum(hp, damage)
    hp -= from_hit_points
    life -= damage - from_hit_points
    hit_points[at], life_points[at], shock[at] = hp, life, earlier + damage
    serious = duels.serious[side]
    wounded = at[damage >= SERIOUS_WOUND]
    serious[wounded] += damage[damage >= SERIOUS_WOUND] // SERIOUS_WOUND
    check = np.flatnonzero((hp == 0) & (life > 0) & ~duels.checked[side][at])
    if check.size:  # 2d20 at or under Willpower, with the shock of the earlier blows
        who = at[check]
        effective = me.willpower - (earlier[check] + fatigue)
        passed = _two_d20(roller, who) <= effective
        left = duels.retests[side, WILLPOWER]
        for _ in range(me.retests):
            again = np.flatnonzero(~passed & (left[who] > 0))
            if not again.size:
                break
            left[who[again]] -= 1
            passed[again] = _two_d20(roller, who[again]) <= effective[again]
        duels.checked[side][who] = True
        duels.conscious[side][who[~passed]] = False
    shocked = at[was_down]
    if shocked.size:
        system_shock(model, duels, roller, side, shocked)
    return at[~duels.fighting(side)[at]]


def _two_d20(roller: Roller, at: Index) -> Ints:
    """2d20 for each duel in ``at`` (an ability check)."""
    return roller.faces(20, at) + roller.faces(20, at)


def system_shock(
    model: MidianDuelModel, duels: Batch, roller: Roller, side: int, at: Index
) -> None:
    """d100 at or under the chance, 5% less per life point below 0; failing below 0 is
    death, at 0 a coma (in place)."""
    me = model.sides[side]
    life = duels.life_points[side][at]
    chance = np.clip(me.system_shock - SHOCK_STEP * np.maximum(-life, 0), 0, 100)
    passed = roller.faces(100, at) <= chance
    left = duels.retests[side, SYSTEM_SHOCK]
    for _ in range(me.retests):
        again = np.flatnonzero(~passed & (left[at] > 0))
        if not again.size:
            break
        left[at[again]] -= 1
        passed[again] = roller.faces(100, at[again]) <= chance[again]
    failed = ~passed
    duels.conscious[side][at[failed]] = False
    duels.alive[side][at[failed & (life < 0)]] = False


def bleed(duels: Batch, side: int, amount: Ints) -> None:
    """Lose ``amount`` points (hit points first), shocking like any damage (in place)."""
    from_hit_points = np.minimum(duels.hit_points[side], amount)
    duels.hit_points[side] -= from_hit_points
    duels.life_points[side] -= amount - from_hit_points
    duels.shock[side] += amount


def end_round(model: MidianDuelModel, duels: Batch, roller: Roller) -> None:
    """For A then B, if alive (out of the fight or not): bleeding below 0 life points
    and from serious wounds, system shock at 0 or below; this round's shock becomes
    next round's initiative penalty (in place)."""
    for side in (0, 1):
        alive = duels.alive[side]
        bleed(duels, side, np.where(alive, np.maximum(-duels.life_points[side], 0), 0))
        bleed(duels, side, np.where(alive, duels.serious[side], 0))
        due = np.flatnonzero(alive & (duels.life_points[side] <= 0))
        if due.size:
            system_shock(model, duels, roller, side, due)
        duels.carried[side] = duels.shock[side]
        duels.shock[side] = 0


def simulate_chunk(model: MidianDuelModel, entropy: int, index: int, size: int) -> DuelStats:
    """Fight ``size`` duels with the generator of chunk ``index``."""
    seed = np.random.SeedSequence(entropy, spawn_key=(index,))
    return play(model, NumpyRoller.of(model, np.random.Generator(np.random.PCG64(seed))), size)


def simulate_midian_fast(
    a: Character,
    b: Character,
    n: int,
    *,
    seed: int | None = None,
    workers: int = 1,
    max_rounds: int = MAX_ROUNDS,
    progress: Callable[[int], None] | None = None,
    estimate: Callable[[Estimate], None] | None = None,
    fidelity: int = FIDELITY,
) -> tuple[DuelStats, int]:
    """Simulate ``n`` duels of ``a`` (listed first) and ``b`` in chunks, on ``workers``
    processes (``progress`` hears of each chunk done; ``estimate`` of the run's time,
    before it starts: ``run_chunks``).

    Returns:
        The totals, and the entropy used (the seed, or a fresh one when ``seed`` is
        None) so that any run can be repeated.

    Raises:
        NotModelledError: the sheets need something this engine does not play
            (:func:`unsupported`); the reference engine plays it.
    """
    model = MidianDuelModel.of(a, b, max_rounds, fidelity=fidelity)
    job: Callable[[int, int, int], DuelStats] = partial(simulate_chunk, model)
    return run_chunks(
        job, n, CHUNK, seed=seed, workers=workers, progress=progress, estimate=estimate
    )
