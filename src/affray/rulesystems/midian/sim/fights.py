"""The fast Midian group engine: whole Midian encounters, any number of sides and
combatants, each fight played in compiled code (:mod:`affray.rulesystems.midian.sim.fights_kernel`,
numba; plain Python, some 7x the reference engine, without it) with the same rules and
the same choices as the reference engine (the turn cursor driven by the tactics AI,
:mod:`affray.sim.fights`).

What it plays, as the reference engine does (docs/encounters.md, "How a Midian round
goes"):

- the turn cursor's loop: initiative each round (d10 + modifiers - last round's shock -
  fatigue; an action at N, N-10, ... while positive), turns highest first, ties to the
  higher Wits, then to the earlier listed; turns skipped for those out of the fight,
  those whose action went on defending and those getting up; a fight decided in
  mid-round still closes that round (holds, bleeding, system shock); the round cap is
  a draw; the surprise round (the surprised get no action and no active defence, the
  others act once in listing order; every side surprised: no one acts);
- the tactics AI of every combatant: its target policy (weakest, random, nearest,
  focus; an engaged foe first, a foe surrounded by eight out of reach), its role
  (fighter, archer, grappler, pikeman; a disarmer with bare hands fights as a
  fighter), ``retreat_at``; the best defence, free ones always, one that costs an
  action when worth it (:func:`affray.rulesystems.midian.tactics.worth_an_action`); every
  retest it has, on a missed attack, a failed Willpower check, a failed system shock;
- blows: several actions a round, ganging up (+2, dodge only, no defence against one
  not faced), knocked-down targets and attackers, melee cover, charges across open
  ground by those never yet in melee (double damage, no defence for the charger, no
  more actions for it; a weapon set against the charge strikes too, the longer reach
  first; a longer reach not set strikes first with one of its actions), criticals
  (doubled, undefendable) and their effects (knocked down, knocked out, decapitated),
  points over 20;
- shots: range, the shooter's allies fighting the target as cover, a miss the cover
  explains striking the first of them;
- grapples (a touch attack that hurts and starts a hold), holds that squeeze at the
  end of each round after the first, breaking free (a Strength-or-Agility challenge);
  fleeing;
- damage: an untrained brawler's bare fists (the damage bonus only), resistance,
  reduction, hit points then life points, serious wounds, shock,
  the Willpower check (``willpower`` and ``willpower_shock`` options), system shock,
  bleeding, fatigue; the hit rule option.

Fights start where the cursor stands: a fresh encounter, or a table's fight between
turns (wounds, holds, engagements, whose turn it is and whether its bookkeeping is
done, the round's turns still to come, the actions and free defences left), with the
first action of the one whose turn it is given (``first``: attack, called shots,
shoot, grapple, escape, flee, hold, keep hold, set, keep set, tend: one with serious
wounds or below 0 life points).

What it refuses (:class:`~affray.errors.NotModelledError`, naming the combatant; the
reference engine then plays): the rules before round 3 of fidelity (``fidelity`` 2: a
table's change logged before it), fumble effects, two weapons, regeneration, an untrained
brawler whose best defence would be a (hurting) bare-hand parry, a stance
other than normal or ``defend_at`` (tactics or a table's state), a disarmer with a
weapon, a lost weapon, a ranged weapon out of range, weapon dice too many for an exact
distribution, a first action of another kind (disarm, wait, defend, both weapons),
and a table logged before decided fights closed their round.

Every figure (attack, damage and initiative modifiers, armour classes, the best
defence open for each state of a pool, ranges) is computed once by the rules
library's own functions, as in the fast duel engine (:mod:`affray.rulesystems.midian.sim.duels`),
so that the engines cannot drift apart on them.

Seeding: chunk ``i`` of a run seeds the kernel's generator from ``SeedSequence(entropy,
spawn_key=(i,))``; the answer depends on the seed and ``n`` (chunks of ``CHUNK``
fights), never on the number of workers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate

import numpy as np
import numpy.typing as npt

from affray.dice import distribution, parse
from affray.dice.syntax import constant_total, dice_terms
from affray.encounter import Action, Answers, Cursor, Phase, Targeting
from affray.errors import AffrayError, DiceLimitError, NotModelledError, RulesError
from affray.rulesystems.midian.attack import armour_class, attack_modifiers
from affray.rulesystems.midian.character import Character, Encumbrance
from affray.rulesystems.midian.criticals import EFFECTS, Critical
from affray.rulesystems.midian.damage import damage_modifiers, striking_dice
from affray.rulesystems.midian.defence import Cost, Defence, DefencePool, Stance, options
from affray.rulesystems.midian.equipment import armour_row
from affray.rulesystems.midian.initiative import initiative_modifiers
from affray.rulesystems.midian.injury import RollKind, WillpowerRule, WillpowerShock
from affray.rulesystems.midian.modifiers import total
from affray.rulesystems.midian.resolve import Situation, situation_modifiers
from affray.rulesystems.midian.ruleset import MidianRuleset
from affray.rulesystems.midian.sim import fights_kernel as kernel
from affray.rulesystems.midian.state import MidianEncounter, MidianState
from affray.rulesystems.midian.tactics import MidianTactics, Role, mean_damage
from affray.totals import FightTotals, First

ENGINE = "fast Midian group engine"
CHUNK = 4096
"""Fights per chunk: the unit of seeding and of work for a worker (about a tenth of a
second)."""

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

_ROLES = {Role.FIGHTER: 0, Role.ARCHER: 1, Role.GRAPPLER: 2, Role.PIKEMAN: 3}
_TARGETS = {Targeting.WEAKEST: 0, Targeting.RANDOM: 1, Targeting.NEAREST: 2, Targeting.FOCUS: 3}
FIRST_ACTIONS = {
    "attack": 0,
    "shoot": 1,
    "grapple": 2,
    "escape": 3,
    "flee": 4,
    "hold": 5,
    "keep hold": 6,
    "set": 7,
    "keep set": 8,
    "tend": 9,
    "called shot easy": 10,
    "called shot hard": 11,
}
"""The first actions it plays, by name, as the kernel numbers them."""
_EFFECTS = {Critical.KNOCKED_DOWN: 1, Critical.BLOW_TO_THE_JAW_OR_SKULL: 2, Critical.DECAPITATED: 3}


def refusals(
    ruleset: MidianRuleset,
    cursor: Cursor[Character, MidianState],
    tactics: Mapping[str, MidianTactics],
    first: First | None,
) -> tuple[str, ...]:
    """What the engine does not play in these fights, one phrase each (empty when it
    plays them)."""
    found: list[str] = []
    options_ = ruleset.options
    encounter = cursor.encounter
    if options_.fumble_effects:
        found.append("fumble effects (fumble_effects = true)")
    if options_.critical_numbers and options_.critical_effects:
        found.append("the numbers of critical effects (critical_numbers = true)")
    if not cursor.decided_closes:
        found.append("a table whose decided fights do not close their round")
    if not options_.round3:
        found.append("the rules before round 3 of fidelity (a table's change logged then)")
    for c in encounter.combatants:
        sheet, state = c.sheet, encounter.states[c.id]
        plan = tactics.get(c.id, MidianTactics())
        health = state.health
        if health.winded or health.off_balance or health.dying_in:
            found.append(f"{c.id}'s critical effects (winded, off balance or dying)")
        if state.on_fire:
            found.append(f"{c.id} on fire (it burns at each round's end)")
        if sheet.off_hand is not None:
            found.append(f"{c.id}'s two weapons")
        if sheet.regenerates:
            found.append(f"{c.id}'s regeneration")
        if plan.stance is not Stance.NORMAL:
            found.append(f"{c.id}'s stance ({plan.stance.value})")
        if plan.defend_at is not None:
            found.append(f"{c.id}'s defend_at")
        if plan.role is Role.DISARMER and sheet.weapon.encumbrance is not Encumbrance.NONE:
            found.append(f"{c.id}'s role (disarmer)")
        if state.pool.stance is not Stance.NORMAL or state.pool.evasion_total is not None:
            found.append(f"{c.id}'s stance this round ({state.pool.stance.value})")
        if state.pool.spare_dodges:
            found.append(f"{c.id}'s spare dodges")
        if state.weapon_lost:
            found.append(f"{c.id}'s lost weapon")
        if sheet.untrained_brawler and _parries_bare_handed(sheet):
            found.append(f"{c.id}'s bare-hand parries (they hurt)")
        try:
            distribution(sheet.weapon.damage)
        except DiceLimitError:
            found.append(f"{c.id}'s weapon dice ({sheet.weapon.damage}): too many to draw")
        try:
            dice_terms(parse(sheet.weapon.damage))
        except AffrayError:  # the engine rolls plain dice one by one
            found.append(
                f"{c.id}'s weapon dice ({sheet.weapon.damage}): kept, dropped, exploding, "
                "rerolled or counted dice"
            )
        if sheet.weapon.ranged:
            try:
                _range(sheet, options_.distance)
            except RulesError:
                found.append(
                    f"{c.id}'s {sheet.weapon.name} at {options_.distance} ft: out of range"
                )
    if first is not None and cursor.phase(ruleset) is Phase.TURN and first[0] not in FIRST_ACTIONS:
        found.append(f"the first action {first[0]!r}")
    return tuple(found)


WAIT = "wait"
"""A first action played by the rules before the engine starts: it rolls no die (the
waiter's turn moves after the one it waits for, its later turns with it)."""


def after_wait(
    ruleset: MidianRuleset,
    cursor: Cursor[Character, MidianState],
    tactics: Mapping[str, MidianTactics],
    first: First,
) -> Cursor[Character, MidianState]:
    """The fight once the combatant whose turn it is has waited as ``first`` says: the
    reference rules' own move (no die is rolled; a question on the way is the tactics
    AI's), every fight going on from there alike.

    Raises:
        NotModelledError: the wait is not open to it, or a die would be rolled.
    """
    from affray.dice import ScriptedDice
    from affray.encounter import cursor as turns
    from affray.rulesystems.midian.tactics import MidianAI

    who = cursor.current
    assert who is not None

    def pick(encounter: MidianEncounter) -> Action:
        for action in ruleset.actions(encounter, who):
            if (action.name, action.target) == first:
                return action
        raise NotModelledError(ENGINE, (f"the first action {first[0]!r} (target {first[1]!r})",))

    no_dice = ScriptedDice([])
    answers = Answers(no_dice, MidianAI(ruleset, no_dice, tactics))
    try:
        after, _ = turns.act(cursor, ruleset, answers, pick)
    except NotModelledError:
        raise
    except AffrayError:
        raise NotModelledError(ENGINE, ("a wait that rolls a die before the next turn",)) from None
    return after


def _parries_bare_handed(sheet: Character) -> bool:
    """Whether the AI's best defence for ``sheet`` is ever a parry (for an untrained
    brawler, a bare-hand parry that hurts; a dodge, at no penalty, always beats it)."""
    pool = DefencePool(1, 1, 1, Stance.NORMAL)
    found = options(sheet, pool)
    return bool(found) and found[0].kind is Defence.PARRY


def _range(sheet: Character, distance: int) -> int:
    return total(situation_modifiers(sheet, Situation(ranged=True, distance=distance)))


def _defences(sheet: Character) -> tuple[list[list[int]], list[list[int]]]:
    """The best defence open to ``sheet`` (its cost, its bonus) against any blow and
    against one it can only dodge, for each pool key (4 * a free parry left + 2 * a
    free block left + an action left), as :func:`affray.rulesystems.midian.defence.options`
    orders them."""
    costs: list[list[int]] = [[], []]
    bonuses: list[list[int]] = [[], []]
    for allowed, kinds in enumerate(
        ((Defence.PARRY, Defence.BLOCK, Defence.DODGE), (Defence.DODGE,))
    ):
        for key in range(8):
            pool = DefencePool(key >> 2 & 1, key >> 1 & 1, key & 1, Stance.NORMAL)
            found = options(sheet, pool, allowed=kinds)
            if not found:
                costs[allowed].append(kernel.NO_DEFENCE)
                bonuses[allowed].append(0)
                continue
            best = found[0]
            if best.cost is Cost.ACTION:
                costs[allowed].append(kernel.COSTLY)
            elif best.kind is Defence.PARRY:
                costs[allowed].append(kernel.FREE_PARRY)
            else:
                costs[allowed].append(kernel.FREE_BLOCK)
            bonuses[allowed].append(total(best.modifiers))
    return costs, bonuses


@dataclass(frozen=True, slots=True)
class _Dice:
    """A dice expression as the kernel rolls it: its exact distribution (outcomes and
    cumulative probabilities) and, for replays, its dice (signed sides) and constant."""

    values: tuple[int, ...]
    cuts: tuple[float, ...]
    dice: tuple[int, ...]
    constant: int

    @classmethod
    def of(cls, expression: str) -> _Dice:
        exact = distribution(expression)
        cuts = tuple(accumulate(float(weight) for _, weight in exact))[:-1]
        tree = parse(expression)
        dice = tuple(
            sign * term.sides for sign, term in dice_terms(tree) for _ in range(term.count)
        )
        return cls(exact.outcomes, cuts, dice, constant_total(tree))


@dataclass(frozen=True, eq=False)
class MidianGroupFights:
    """Fights of one starting point made ready for the kernel (picklable): the tables
    of :mod:`affray.rulesystems.midian.sim.fights_kernel` and the names to count by."""

    sides: tuple[str, ...]
    combatants: tuple[str, ...]
    figures: Ints
    option: Ints
    surprised: Ints
    resistance: Ints
    values: Ints
    cuts: Floats
    dice: Ints
    defence: Ints
    bonus: Ints
    critical: Ints
    state: Ints
    engaged: Ints
    queue: Ints
    globals_: Ints
    start: Ints
    rounds_size: int
    engine: str = ENGINE
    chunk: int = CHUNK

    @property
    def compiles_first(self) -> bool:
        """Whether the first fight compiles the engine (once per machine, ~30 s)."""
        return kernel.needs_compiling()

    def fights(self, entropy: int, index: int, size: int) -> FightTotals:
        """``size`` fights of chunk ``index`` of a run seeded with ``entropy``."""
        seed = int(np.random.SeedSequence(entropy, spawn_key=(index,)).generate_state(1)[0])
        return self._play(seed, size, _NO_SCRIPT, _NO_SCRIPT)[0]

    def replay(
        self, rolled: Sequence[tuple[int, int]], ai: Sequence[tuple[int, int]] = ()
    ) -> tuple[FightTotals, bool]:
        """One fight with the dice a reference fight rolled (``(sides, face)`` in order:
        the rules' dice, and the tactics AI's): its totals, and whether it rolled
        exactly those dice, every one of them, each of the same size."""
        script = _script(rolled)
        ai_script = _script(ai)
        totals, ctl = self._play(0, 1, script, ai_script, replay=True)
        same = (
            ctl[kernel.C_ERROR] == 0
            and ctl[kernel.C_POS] == len(rolled)
            and ctl[kernel.C_AI_POS] == len(ai)
        )
        return totals, bool(same)

    def _play(
        self, seed: int, size: int, script: Ints, ai: Ints, *, replay: bool = False
    ) -> tuple[FightTotals, Ints]:
        ctl = np.zeros(kernel.C_FIELDS, dtype=np.int64)
        ctl[kernel.C_MODE] = 1 if replay else 0
        sides = len(self.sides)
        wins = np.zeros(sides + 1, dtype=np.int64)
        rounds = np.zeros(self.rounds_size, dtype=np.int64)
        standing = np.zeros(len(self.combatants), dtype=np.int64)
        kernel.fight_chunk(
            seed, size, self.figures, self.option, self.surprised, self.resistance,
            self.values, self.cuts, self.dice, self.defence, self.bonus, self.critical,
            self.state, self.engaged, self.queue, self.globals_, self.start, ctl, script, ai,
            wins, rounds, standing,
        )  # fmt: skip
        counted = FightTotals(
            size,
            {side: int(w) for side, w in zip(self.sides, wins[:sides].tolist(), strict=True) if w},
            int(wins[sides]),
            int(np.dot(np.arange(rounds.size), rounds)),
            {r: int(c) for r, c in enumerate(rounds.tolist()) if c},
            {cid: int(c) for cid, c in zip(self.combatants, standing.tolist(), strict=True) if c},
        )
        return counted, ctl


_NO_SCRIPT = np.zeros((2, 0), dtype=np.int64)


def _script(rolled: Sequence[tuple[int, int]]) -> Ints:
    script = np.zeros((2, len(rolled)), dtype=np.int64)
    for k, (sides, face) in enumerate(rolled):
        script[0, k], script[1, k] = sides, face
    return script


def midian_fast_fights(
    ruleset: MidianRuleset,
    cursor: Cursor[Character, MidianState],
    tactics: Mapping[str, MidianTactics],
    first: First | None,
) -> MidianGroupFights:
    """The fights from ``cursor`` made ready for the fast engine (the registry's
    ``fast_fights``).

    Raises:
        NotModelledError: they need something this engine does not play
            (:func:`refusals`); the reference engine plays them.
    """
    if first is not None and first[0] == WAIT and cursor.phase(ruleset) is Phase.TURN:
        cursor, first = after_wait(ruleset, cursor, tactics, first), None
    reasons = refusals(ruleset, cursor, tactics, first)
    if reasons:
        raise NotModelledError(ENGINE, reasons)
    k = kernel
    encounter = cursor.encounter
    combatants = encounter.combatants
    ids = [c.id for c in combatants]
    where = {cid: i for i, cid in enumerate(ids)}
    sides = encounter.sides
    side_of = {side: i for i, side in enumerate(sides)}
    n = len(combatants)
    opts = ruleset.options
    figures = np.zeros((n, k.P_FIELDS), dtype=np.int64)
    resistance = np.zeros((n, n), dtype=np.int64)
    tables = [[_Dice.of(striking_dice(c.sheet)), _Dice.of(_hold_dice(c.sheet))] for c in combatants]
    width = max(len(d.values) for row in tables for d in row)
    depth = max(max((len(d.dice) for row in tables for d in row), default=0), 1)
    values = np.zeros((n, 2, width), dtype=np.int64)
    cuts = np.ones((n, 2, width), dtype=np.float64)
    dice = np.zeros((n, 2, depth), dtype=np.int64)
    defence = np.zeros((n, 2, 8), dtype=np.int64)
    bonus = np.zeros((n, 2, 8), dtype=np.int64)
    for i, c in enumerate(combatants):
        sheet = c.sheet
        plan = tactics.get(c.id, MidianTactics())
        fresh = DefencePool.fresh(sheet, stance=Stance.NORMAL)
        row = figures[i]
        row[k.P_SIDE] = side_of[c.side]
        row[k.P_HP], row[k.P_LIFE] = sheet.hit_points, sheet.life_points
        row[k.P_WILL], row[k.P_SSHOCK], row[k.P_WITS] = (
            sheet.willpower,
            sheet.system_shock,
            sheet.wits,
        )
        row[k.P_INIT] = total(initiative_modifiers(sheet))
        row[k.P_ATK] = total(attack_modifiers(sheet))
        row[k.P_DMG] = total(
            damage_modifiers(sheet, sheet.weapon, untrained_brawl=sheet.untrained_brawler)
        )
        row[k.P_AC] = armour_class(sheet)
        row[k.P_AC_RANGED] = armour_class(sheet, ranged=True)
        row[k.P_AC_TOUCH] = armour_class(sheet, touch=True)
        row[k.P_AC_SHEET] = sheet.armour_class
        row[k.P_DR] = sheet.damage_reduction
        row[k.P_FATIGUE] = armour_row(sheet).fatigue_per_round
        row[k.P_RETESTS] = len(set(sheet.retests))
        row[k.P_REACH] = sheet.weapon.reach
        row[k.P_RANGED] = 1 if sheet.weapon.ranged else 0
        row[k.P_GRAPPLING] = sheet.grappling
        row[k.P_ESCAPE] = max(sheet.attribute("strength"), sheet.attribute("agility"))
        row[k.P_DBONUS] = sheet.damage_bonus
        row[k.P_ROLE] = _ROLES.get(plan.role, 0)  # a disarmer with bare hands fights
        row[k.P_TARGET] = _TARGETS[plan.target]
        row[k.P_RETREAT] = -1 if plan.retreat_at is None else plan.retreat_at
        row[k.P_RANGE] = _range(sheet, opts.distance) if sheet.weapon.ranged else 0
        row[k.P_PARRIES], row[k.P_BLOCKS] = fresh.parries, fresh.blocks
        row[k.P_LIKELY] = math.floor(mean_damage(sheet))
        row[k.P_SQRES] = sheet.resistance("smashing")
        for kind, table in enumerate(tables[i]):
            row[k.P_VALUES + kind] = len(table.values)
            row[k.P_DICE + kind] = len(table.dice)
            row[k.P_CONST + kind] = table.constant
            values[i, kind, : len(table.values)] = table.values
            cuts[i, kind, : len(table.cuts)] = table.cuts
            dice[i, kind, : len(table.dice)] = table.dice
        for j, other in enumerate(combatants):
            resistance[i, j] = other.sheet.resistance(sheet.weapon.type)
        costs, bonuses = _defences(sheet)
        defence[i] = costs
        bonus[i] = bonuses
    critical = np.zeros((len(EFFECTS), 3), dtype=np.int64)
    for face, effect in enumerate(EFFECTS):
        critical[face, 0] = _EFFECTS.get(effect.name, 0)
        if effect.duration:
            terms = dice_terms(parse(effect.duration))
            critical[face, 1] = sum(term.count for _, term in terms)
            critical[face, 2] = terms[0][1].sides
    option = np.zeros(k.O_FIELDS, dtype=np.int64)
    option[k.O_DISTANCE] = opts.distance
    option[k.O_EXCEED] = 0 if opts.rules.hit_rule.value == "at-or-above" else 1
    option[k.O_WILL_EACH] = 1 if opts.rules.willpower is WillpowerRule.EACH else 0
    option[k.O_WILL_ALL] = 1 if opts.rules.willpower_shock is WillpowerShock.ALL else 0
    option[k.O_COVER] = -(opts.melee_cover // 5)
    option[k.O_CRITICALS] = 1 if opts.critical_effects else 0
    option[k.O_MAX_ROUNDS] = cursor.max_rounds
    if opts.surprised:
        option[k.O_SURPRISE] = 1 if opts.surprised >= set(sides) else 2
    option[k.O_SIDES] = len(sides)
    surprised = np.array([1 if side in opts.surprised else 0 for side in sides], dtype=np.int64)
    state = _states(encounter, where)
    engaged = np.zeros((n, n), dtype=np.int64)
    for pair in encounter.engagements:
        a, b = sorted(where[x] for x in pair)
        engaged[a, b] = engaged[b, a] = 1
    slots = max(1, (10 + int(figures[:, k.P_INIT].max()) + 9) // 10)
    queue = np.full((2, len(encounter.queue) + n * slots + n), -1, dtype=np.int64)
    for at, cid in enumerate(encounter.queue):
        queue[0, at] = where[cid]
    globals_ = np.zeros(k.G_FIELDS, dtype=np.int64)
    globals_[k.G_ROUND] = encounter.round
    globals_[k.G_CLOSED] = 1 if cursor.closed else 0
    globals_[k.G_QT] = len(encounter.queue)
    globals_[k.G_SEQ] = n
    start = np.full(k.T_FIELDS, -1, dtype=np.int64)
    phase = cursor.phase(ruleset)
    start[k.T_PHASE] = {Phase.SETUP: k.SETUP, Phase.TURN: k.TURN}.get(phase, k.ROUND_OVER)
    if phase is Phase.OVER:
        start[k.T_PHASE] = k.OVER
    start[k.T_ROUND] = encounter.round
    start[k.T_CURRENT] = where[cursor.current] if cursor.current is not None else -1
    start[k.T_BEGUN] = 1 if cursor.begun else 0
    start[k.T_CLOSED] = globals_[k.G_CLOSED]
    if first is not None and phase is Phase.TURN:
        start[k.T_FIRST] = FIRST_ACTIONS[first[0]]
        start[k.T_FIRST_TARGET] = -1 if first[1] is None else where.get(first[1], -2)
    return MidianGroupFights(
        tuple(sides),
        tuple(ids),
        figures,
        option,
        surprised,
        resistance,
        values,
        cuts,
        dice,
        defence,
        bonus,
        critical,
        state,
        engaged,
        queue,
        globals_,
        start,
        max(cursor.max_rounds, encounter.round) + 2,
    )


def _hold_dice(sheet: Character) -> str:
    """What a hold squeezes with: the natural weapon's dice (fists, claws), else none
    (the damage bonus only)."""
    return sheet.weapon.damage if sheet.weapon.encumbrance is Encumbrance.NONE else "0"


def _states(encounter: MidianEncounter, where: Mapping[str, int]) -> Ints:
    """Every combatant's state as the kernel keeps it."""
    k = kernel
    n = len(where)
    state = np.zeros((n, k.S_FIELDS), dtype=np.int64)
    for i, c in enumerate(encounter.combatants):
        now = encounter.states[c.id]
        health, pool, row = now.health, now.pool, state[i]
        row[k.S_HP], row[k.S_LIFE] = health.hit_points, health.life_points
        row[k.S_SHOCK], row[k.S_CARRIED] = health.shock, health.carried_shock
        row[k.S_FATIGUE], row[k.S_SERIOUS] = health.fatigue, health.serious_wounds
        row[k.S_TENDED] = health.tended
        row[k.S_CHECKED] = health.willpower_checked
        row[k.S_CONSCIOUS], row[k.S_ALIVE], row[k.S_COMA] = (
            health.conscious,
            health.alive,
            health.coma,
        )
        row[k.S_FLED], row[k.S_SURPRISED] = now.fled, now.surprised
        row[k.S_SET], row[k.S_DOWN] = now.set_against_charge, now.down_rounds
        row[k.S_HOLDING] = -1 if now.holding is None else where[now.holding]
        row[k.S_HOLD_SINCE] = now.holding_since
        row[k.S_CHARGED] = now.charged
        row[k.S_CLOSED] = now.closed_in
        row[k.S_FOCUS] = -1 if now.focus is None else where[now.focus]
        sources = set(c.sheet.retests)
        for field, kind in (
            (k.S_RT_ATTACK, RollKind.ATTACK),
            (k.S_RT_WILL, RollKind.WILLPOWER),
            (k.S_RT_SHOCK, RollKind.SYSTEM_SHOCK),
        ):
            row[field] = len({s for s in sources if (s, kind) not in now.retests_used})
        row[k.S_ACTIONS], row[k.S_PARRIES], row[k.S_BLOCKS] = (
            pool.actions,
            pool.parries,
            pool.blocks,
        )
    for c in encounter.combatants:  # a held one's holders, in the order they took hold
        for order, holder in enumerate(encounter.states[c.id].held_by):
            state[where[holder], k.S_HOLD_SEQ] = order
    return state
