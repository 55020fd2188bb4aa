"""The fast Midian group engine compiled: one whole encounter at a time in machine code
(numba), every rule and every choice of the reference engine's tactics AI played in
the order the reference engine plays them.

:mod:`affray.rulesystems.midian.sim.fights` builds the tables this kernel reads (every modifier
computed by the rules library's own functions) and says what it models and refuses;
this module only plays. Everything is in int64 arrays indexed by combatant (listing
order) and by the field constants below:

- ``p[i, P_*]``: combatant ``i``'s fixed figures (side, attack and damage totals,
  armour classes, reach, role, target policy ...);
- ``s[i, S_*]``: its changing state (hit and life points, shock, holds, actions and
  free defences left this round, retests left for each kind of roll ...);
- ``e[i, j]``: whether ``i`` and ``j`` are engaged in melee;
- ``q``: the round's turns still to come (``g[G_QH]`` to ``g[G_QT]``, a turn taken
  early or cancelled is -1);
- ``g``: the round, whether it is closed, and the queue's ends.

Dice: in play, from NumPy's generator inside the kernel (seeded once per chunk), each
weapon's damage from its exact distribution with one uniform number; in replay (``ctl[C_MODE] = 1``)
every die comes from a script of (sides, face) pairs, each weapon's dice die by die,
in the order the reference engine rolls them, so that a fight replays the reference
engine's fight with the same dice exactly (a die of the wrong size sets
``ctl[C_ERROR]``). The tactics AI's own dice (a random target) have their own script.

Compiled with numba where it is installed (``cache=True`` keeps the machine code beside
this file: compiling takes about 30 s, once per machine and per change of this file;
numba checks the file's time stamp, so everything the kernel calls lives here), plain
Python elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from affray.sim import jit

_jit = jit.entry

Ints = np.ndarray[Any, np.dtype[np.int64]]
Floats = np.ndarray[Any, np.dtype[np.float64]]

# -- fixed figures: p[i, P_*] -----------------------------------------------------------
P_SIDE = 0
P_HP = 1  # the sheet's hit points (what "damage taken" counts from)
P_LIFE = 2
P_WILL = 3
P_SSHOCK = 4
P_WITS = 5
P_INIT = 6  # initiative modifiers (before shock and fatigue)
P_ATK = 7  # attack modifiers of the weapon in hand (before the situation)
P_DMG = 8  # damage modifiers (before points over 20, shock and fatigue)
P_AC = 9  # armour class against blows (with the shield)
P_AC_RANGED = 10
P_AC_TOUCH = 11  # against a grapple: natural armour class
P_AC_SHEET = 12  # the sheet's own armour class (a body in the way of a shot)
P_DR = 13
P_FATIGUE = 14  # fatigue per round (heroic armour)
P_RETESTS = 15
P_REACH = 16
P_RANGED = 17
P_GRAPPLING = 18
P_ESCAPE = 19  # the better of Strength and Agility
P_DBONUS = 20  # the sheet's damage bonus (what a hold squeezes with)
P_ROLE = 21
P_TARGET = 22
P_RETREAT = 23  # -1: never
P_RANGE = 24  # the range penalty of a shot at the encounter's distance
P_PARRIES = 25  # free parries a round
P_BLOCKS = 26
P_LIKELY = 27  # floor(mean damage): what the AI expects a blow of this one to do
P_SQRES = 28  # resistance to the smashing of a hold
P_VALUES = 29  # outcomes of the damage distribution: weapon, hold (two fields)
P_DICE = 31  # dice of the weapon, of the hold (replay)
P_CONST = 33  # the constant of the weapon's, the hold's expression (replay)
P_FIELDS = 35

# -- state: s[i, S_*] -------------------------------------------------------------------
S_HP = 0
S_LIFE = 1
S_SHOCK = 2
S_CARRIED = 3
S_FATIGUE = 4
S_SERIOUS = 5
S_TENDED = 6
S_CHECKED = 7
S_CONSCIOUS = 8
S_ALIVE = 9
S_FLED = 10
S_SURPRISED = 11
S_SET = 12
S_DOWN = 13
S_HOLDING = 14  # whom it holds, -1: no one
S_HOLD_SINCE = 15
S_HOLD_SEQ = 16  # when it took hold (the held one's holders are in this order)
S_CHARGED = 17
S_FOCUS = 18  # -1: none
S_RT_ATTACK = 19  # retests left for each kind of roll
S_RT_WILL = 20
S_RT_SHOCK = 21
S_ACTIONS = 22
S_PARRIES = 23
S_BLOCKS = 24
S_COMA = 25
S_CLOSED = 26  # it has been in melee: no run-up left for a charge
S_FIELDS = 27

# -- the fight's globals: g[G_*] ---------------------------------------------------------
G_ROUND = 0
G_CLOSED = 1
G_QH = 2
G_QT = 3
G_SEQ = 4
G_FIELDS = 5

# -- options: o[O_*] ---------------------------------------------------------------------
O_DISTANCE = 0
O_EXCEED = 1
O_WILL_EACH = 2
O_WILL_ALL = 3
O_COVER = 4  # the melee cover's attack modifier
O_CRITICALS = 5
O_MAX_ROUNDS = 6
O_SURPRISE = 7  # 0: no one, 1: every side, 2: some
O_SIDES = 8
O_FIELDS = 9

# -- where a fight starts: start[T_*] ----------------------------------------------------
T_PHASE = 0
T_ROUND = 1
T_CURRENT = 2
T_BEGUN = 3
T_CLOSED = 4
T_FIRST = 5  # the first action's kind (-1: none)
T_FIRST_TARGET = 6
T_SEQ = 7
T_FIELDS = 8
SETUP, TURN, ROUND_OVER, OVER = 0, 1, 2, 3

# -- dice control: ctl[C_*] --------------------------------------------------------------
C_MODE = 0  # 0: random, 1: replay the scripts
C_POS = 1
C_ERROR = 2
C_AI_POS = 3
C_FIELDS = 4

# roles, target policies, actions
FIGHTER, ARCHER, GRAPPLER, PIKEMAN = 0, 1, 2, 3
WEAKEST, RANDOM, NEAREST, FOCUS = 0, 1, 2, 3
A_ATTACK, A_SHOOT, A_GRAPPLE, A_ESCAPE, A_FLEE, A_HOLD = 0, 1, 2, 3, 4, 5
A_KEEP_HOLD, A_SET, A_KEEP_SET, A_TEND, A_CALLED_EASY, A_CALLED_HARD = 6, 7, 8, 9, 10, 11
# defences: d[i, allowed, key] with allowed 0 (any) or 1 (dodge only) and key = 4 * (a
# free parry left) + 2 * (a free block left) + (an action left)
NO_DEFENCE, FREE_PARRY, FREE_BLOCK, COSTLY = 0, 1, 2, 3
# blows
PLAIN, CHARGE, SET_BLOW = 0, 1, 2
# critical effects that change the fight
KNOCKED_DOWN, KNOCKED_OUT, DECAPITATED = 1, 2, 3
# the rules' constants, kept here so that numba's cache sees a change to them (the tests
# hold them equal to the rules library's)
KNOCKED_DOWN_ROUNDS = 2
CHARGE_RUN_UP = 20
MAX_GANG = 8
SERIOUS_WOUND = 10
SHOCK_STEP = 5


def compiled() -> bool:
    """Whether the kernel runs as machine code (numba installed and switched on); as
    plain Python it still plays some 7x the reference engine's fights a second."""
    return jit.COMPILED


def needs_compiling() -> bool:
    """Whether the first fight will compile the kernel (about 30 s, once per machine and
    per change of this file)."""
    return jit.needs_compiling(fight_chunk)


# -- dice --------------------------------------------------------------------------------


def _die(sides: int, ctl: Ints, script: Ints) -> int:
    """One die: random, or the script's next face (it must be of this size)."""
    if ctl[C_MODE] == 0:
        return int(np.random.randint(1, sides + 1))
    k = ctl[C_POS]
    if k >= script.shape[1] or script[0, k] != sides:
        ctl[C_ERROR] = 1
        return 1
    ctl[C_POS] = k + 1
    return int(script[1, k])


def _ai_die(sides: int, ctl: Ints, script: Ints) -> int:
    """One of the tactics AI's own dice (a random target)."""
    if ctl[C_MODE] == 0:
        return int(np.random.randint(1, sides + 1))
    k = ctl[C_AI_POS]
    if k >= script.shape[1] or script[0, k] != sides:
        ctl[C_ERROR] = 2
        return 1
    ctl[C_AI_POS] = k + 1
    return int(script[1, k])


def _roll(
    p: Ints, i: int, kind: int, values: Ints, cuts: Floats, dice: Ints, ctl: Ints, script: Ints
) -> int:
    """The total of ``i``'s weapon dice (``kind`` 0) or hold dice (1): one uniform number
    into the exact distribution, or (replay) die by die in reading order."""
    if ctl[C_MODE] == 0:
        count = p[i, P_VALUES + kind]
        k = 0
        if count > 1:
            u = np.random.random()
            while k < count - 1 and u >= cuts[i, kind, k]:
                k += 1
        return int(values[i, kind, k])
    total = p[i, P_CONST + kind]
    for d in range(p[i, P_DICE + kind]):
        sides = dice[i, kind, d]
        if sides > 0:
            total += die(sides, ctl, script)
        else:
            total -= die(-sides, ctl, script)
    return int(total)


def _two_d20(ctl: Ints, script: Ints) -> int:
    first = die(20, ctl, script)
    return first + die(20, ctl, script)


# -- who is where ------------------------------------------------------------------------


def _fighting(s: Ints, i: int) -> bool:
    return bool(s[i, S_ALIVE] == 1 and s[i, S_CONSCIOUS] == 1 and s[i, S_FLED] == 0)


def _sides_fighting(p: Ints, s: Ints, sides: int) -> tuple[int, int]:
    """How many sides have someone still fighting, and the last such side."""
    count = 0
    last = -1
    for side in range(sides):
        for i in range(p.shape[0]):
            if p[i, P_SIDE] == side and fighting(s, i):
                count += 1
                last = side
                break
    return count, last


def _held(s: Ints, i: int) -> bool:
    for j in range(s.shape[0]):  # noqa: SIM110 (numba: a plain loop)
        if s[j, S_HOLDING] == i:
            return True
    return False


def _first_holder(s: Ints, i: int) -> int:
    """The first (earliest) of those holding ``i``, -1 for none."""
    best = -1
    for j in range(s.shape[0]):
        if s[j, S_HOLDING] == i and (best < 0 or s[j, S_HOLD_SEQ] < s[best, S_HOLD_SEQ]):
            best = j
    return best


def _engaged_any(e: Ints, i: int) -> bool:
    for j in range(e.shape[0]):  # noqa: SIM110 (numba: a plain loop)
        if e[i, j]:
            return True
    return False


def _engaged_foe(p: Ints, s: Ints, e: Ints, i: int) -> bool:
    """Whether ``i`` is engaged with a foe still fighting."""
    for j in range(e.shape[0]):
        if e[i, j] and p[j, P_SIDE] != p[i, P_SIDE] and fighting(s, j):
            return True
    return False


def _foes_on(p: Ints, s: Ints, e: Ints, t: int) -> int:
    """How many foes still fighting are engaged with ``t``."""
    count = 0
    for j in range(e.shape[0]):
        if e[t, j] and fighting(s, j) and p[j, P_SIDE] != p[t, P_SIDE]:
            count += 1
    return count


def _in_reach(p: Ints, s: Ints, e: Ints, i: int, t: int) -> bool:
    """Whether ``i`` can come to blows with foe ``t`` (fighting): engaged with it, or
    it is not surrounded yet (:func:`affray.rulesystems.midian.state.within_reach`)."""
    return e[i, t] == 1 or foes_on(p, s, e, t) < MAX_GANG


def _defenceless(s: Ints, g: Ints, t: int) -> bool:
    charged = s[t, S_CHARGED] != 0 and s[t, S_CHARGED] == g[G_ROUND]
    return bool(s[t, S_SURPRISED] == 1 or charged)


def _penalty(s: Ints, i: int) -> int:
    return int(s[i, S_SHOCK] + s[i, S_FATIGUE])


def _release(e: Ints, i: int) -> None:
    for j in range(e.shape[0]):
        e[i, j] = 0
        e[j, i] = 0


def _release_fallen(s: Ints, e: Ints, i: int) -> None:
    """One who fell lets go of its hold, is let go, and leaves its melee."""
    if fighting(s, i):
        return
    s[i, S_HOLDING] = -1
    for j in range(s.shape[0]):
        if s[j, S_HOLDING] == i:
            s[j, S_HOLDING] = -1
    release(e, i)


def _take_turn_now(q: Ints, g: Ints, i: int) -> None:
    """``i``'s next turn this round is used now: it comes off the queue."""
    for k in range(g[G_QH], g[G_QT]):
        if q[0, k] == i:
            q[0, k] = -1
            return


def _turned_around(s: Ints, q: Ints, g: Ints, i: int) -> None:
    """No more actions this round (after a charge, or meeting one set)."""
    s[i, S_ACTIONS] = 0
    for k in range(g[G_QH], g[G_QT]):
        if q[0, k] == i:
            q[0, k] = -1


def _strength(s: Ints, i: int) -> int:
    """Hit points and life points above 0: the less, the weaker (the ruleset's
    ``weakness`` is minus this)."""
    return int(s[i, S_HP] + max(s[i, S_LIFE], 0))


# -- injury ------------------------------------------------------------------------------


def _system_shock(p: Ints, s: Ints, i: int, ctl: Ints, script: Ints) -> None:
    """d100 at or under the chance, 5% less per life point below 0, retested while a
    retest is left; failing below 0 is death, at 0 a coma."""
    chance = min(100, max(0, p[i, P_SSHOCK] - SHOCK_STEP * max(0, -s[i, S_LIFE])))
    while True:
        passed = die(100, ctl, script) <= chance
        if passed or s[i, S_RT_SHOCK] <= 0:
            break
        s[i, S_RT_SHOCK] -= 1
    if passed:
        return
    s[i, S_CONSCIOUS] = 0
    if s[i, S_LIFE] < 0:
        s[i, S_ALIVE] = 0
    else:
        s[i, S_COMA] = 1


def _take_damage(p: Ints, s: Ints, o: Ints, i: int, amount: int, ctl: Ints, script: Ints) -> None:
    """``amount`` points of damage (:func:`affray.rulesystems.midian.injury.take_damage`): hit
    points first, serious wounds, shock; the Willpower check once the hit points are
    gone, system shock if already at 0 life points or below."""
    if amount <= 0 or s[i, S_ALIVE] == 0:
        return
    was_down = s[i, S_LIFE] <= 0
    from_hp = min(s[i, S_HP], amount)
    s[i, S_HP] -= from_hp
    s[i, S_LIFE] -= amount - from_hp
    wounds = amount // SERIOUS_WOUND
    s[i, S_SERIOUS] += wounds
    if wounds:
        s[i, S_TENDED] = 0
    s[i, S_SHOCK] += amount
    check = s[i, S_SHOCK] + s[i, S_FATIGUE] - (0 if o[O_WILL_ALL] else amount)
    if (
        s[i, S_CONSCIOUS] == 1
        and s[i, S_HP] == 0
        and s[i, S_LIFE] > 0
        and (o[O_WILL_EACH] == 1 or s[i, S_CHECKED] == 0)
    ):
        while True:
            passed = two_d20(ctl, script) <= p[i, P_WILL] - check
            if passed or s[i, S_RT_WILL] <= 0:
                break
            s[i, S_RT_WILL] -= 1
        s[i, S_CHECKED] = 1
        if not passed:
            s[i, S_CONSCIOUS] = 0
    if was_down:
        system_shock(p, s, i, ctl, script)


def _finish_damage(rolled: int, percent: int, reduction: int) -> int:
    """Resistance (ceil of the percentage), then reduction, never below 0
    (:func:`affray.rulesystems.midian.damage.finish_damage` after the doubling)."""
    amount = max(rolled, 0)
    if percent >= 100:
        return 0
    if percent > 0 and amount > 0:
        amount -= -(-amount * percent // 100)
    return amount - min(reduction, amount)


# -- attacks -----------------------------------------------------------------------------


def _hits(die: int, total: int, armour: int, exceed: int) -> bool:
    if die <= 2:
        return False
    if die >= 19:
        return True
    return total > armour if exceed else total >= armour


def _attack(
    p: Ints,
    s: Ints,
    o: Ints,
    res: Ints,
    values: Ints,
    cuts: Floats,
    dice: Ints,
    defence: Ints,
    bonus: Ints,
    i: int,
    t: int,
    modifiers: int,
    armour: int,
    no_active: bool,
    dodge_only: bool,
    multiplier: int,
    ctl: Ints,
    script: Ints,
    out: Ints,
) -> None:
    """One attack roll of ``i`` on ``t`` (:func:`affray.rulesystems.midian.resolve.resolve_attack`
    as the AI plays it): the d20 (retested while a retest is left), the defender's best
    defence when the AI takes it, the damage, the injury. ``out`` hears the natural
    natural, the total, whether it hit (undefended) and the damage done."""
    exceed = o[O_EXCEED]
    natural = die(20, ctl, script)
    total = natural + modifiers
    hit = hits(natural, total, armour, exceed)
    while not hit and s[i, S_RT_ATTACK] > 0:
        s[i, S_RT_ATTACK] -= 1
        natural = die(20, ctl, script)
        total = natural + modifiers
        hit = hits(natural, total, armour, exceed)
    out[0] = natural
    out[1] = total
    out[2] = 0
    out[3] = 0
    if not hit:
        return
    if natural < 19 and not no_active:
        allowed = 1 if dodge_only else 0
        actions = 0 if s[t, S_DOWN] > 0 else s[t, S_ACTIONS]  # getting up: free ones only
        key = 4 * (s[t, S_PARRIES] > 0) + 2 * (s[t, S_BLOCKS] > 0) + (actions > 0)
        cost = defence[t, allowed, key]
        take = cost in (FREE_PARRY, FREE_BLOCK)
        if cost == COSTLY:  # worth_an_action, in the normal stance
            take = s[t, S_ACTIONS] >= 2 or p[i, P_LIKELY] >= s[t, S_HP]
        if take:
            guard = die(20, ctl, script) + bonus[t, allowed, key] - penalty(s, t)
            if cost == FREE_PARRY:
                s[t, S_PARRIES] -= 1
            elif cost == FREE_BLOCK:
                s[t, S_BLOCKS] -= 1
            else:
                s[t, S_ACTIONS] -= 1
            if guard >= total:
                return
    out[2] = 1
    rolled = roll(p, i, 0, values, cuts, dice, ctl, script) + p[i, P_DMG]
    rolled = max(rolled + max(total - 20, 0) - penalty(s, i), 0)
    rolled *= (2 if natural >= 19 else 1) * multiplier
    damage = finish_damage(rolled, res[i, t], p[t, P_DR])
    out[3] = damage
    take_damage(p, s, o, t, damage, ctl, script)


def _turn_to_come(s: Ints, q: Ints, g: Ints, i: int) -> bool:
    """Whether ``i`` has a turn still to come this round (and an action for it)."""
    if s[i, S_ACTIONS] <= 0:
        return False
    for k in range(g[G_QH], g[G_QT]):  # noqa: SIM110 (numba: a plain loop)
        if q[0, k] == i:
            return True
    return False


def _critical(s: Ints, q: Ints, g: Ints, crit: Ints, t: int, ctl: Ints, script: Ints) -> None:
    """A damaging critical's effect, rolled on the table (d23, then the effect's
    duration, which changes nothing here): knocked down (two rounds of turns getting
    up, :func:`affray.rulesystems.midian.state.knock_down`; a set weapon falls), knocked out,
    decapitated."""
    face = die(crit.shape[0], ctl, script)
    if ctl[C_MODE] == 1:
        for _ in range(crit[face - 1, 1]):
            die(crit[face - 1, 2], ctl, script)
    effect = crit[face - 1, 0]
    if effect == KNOCKED_DOWN:
        s[t, S_DOWN] = KNOCKED_DOWN_ROUNDS + (0 if turn_to_come(s, q, g, t) else 1)
        s[t, S_SET] = 0
    elif effect == KNOCKED_OUT and s[t, S_ALIVE] == 1:
        s[t, S_CONSCIOUS] = 0
    elif effect == DECAPITATED:
        s[t, S_ALIVE] = 0
        s[t, S_CONSCIOUS] = 0


def _strike(
    p: Ints,
    s: Ints,
    e: Ints,
    q: Ints,
    g: Ints,
    o: Ints,
    res: Ints,
    values: Ints,
    cuts: Floats,
    dice: Ints,
    defence: Ints,
    bonus: Ints,
    crit: Ints,
    i: int,
    t: int,
    blow: int,
    called: int,
    ctl: Ints,
    script: Ints,
    out: Ints,
) -> None:
    """One blow (:func:`affray.rulesystems.midian.strikes.strike`): ganging up (+2, dodge
    only, no defence against one not faced), knocked down, melee cover; no active
    defence for the defenceless or against a set weapon or a charge on one set."""
    gang = foes_on(p, s, e, t)
    unfaced = gang >= 2 and s[t, S_FOCUS] != -1 and s[t, S_FOCUS] != i
    no_active = (
        defenceless(s, g, t) or unfaced or (blow == CHARGE and s[t, S_SET] == 1) or blow == SET_BLOW
    )
    modifiers = p[i, P_ATK] - penalty(s, i) + o[O_COVER] + called
    if gang >= 2:
        modifiers += 2
    if s[t, S_DOWN] > 0:
        modifiers += 4
    if s[i, S_DOWN] > 0:
        modifiers -= 4
    multiplier = 1 if blow == PLAIN else 2
    attack(
        p, s, o, res, values, cuts, dice, defence, bonus, i, t, modifiers, p[t, P_AC],
        no_active, gang >= 2, multiplier, ctl, script, out,
    )  # fmt: skip
    s[i, S_FOCUS] = t
    if out[0] >= 19 and out[3] > 0 and o[O_CRITICALS] == 1:
        critical(s, q, g, crit, t, ctl, script)
    release_fallen(s, e, t)


def _melee(
    p: Ints,
    s: Ints,
    e: Ints,
    q: Ints,
    g: Ints,
    o: Ints,
    res: Ints,
    values: Ints,
    cuts: Floats,
    dice: Ints,
    defence: Ints,
    bonus: Ints,
    crit: Ints,
    i: int,
    t: int,
    called: int,
    ctl: Ints,
    script: Ints,
    out: Ints,
) -> None:
    """A melee attack (:func:`affray.rulesystems.midian.strikes.melee`): across open ground
    the first blow of one never yet in melee is a charge (double damage, no defence for
    the charger this round, no more actions for it); a weapon set against it strikes
    too, the longer reach first; a defender of longer reach not set strikes first with
    one of its actions."""
    charging = o[O_DISTANCE] >= CHARGE_RUN_UP and not engaged_any(e, i) and s[i, S_CLOSED] == 0
    e[i, t] = 1
    e[t, i] = 1
    s[i, S_CLOSED] = 1
    s[t, S_CLOSED] = 1
    if not charging:
        strike(p, s, e, q, g, o, res, values, cuts, dice, defence, bonus, crit, i, t, PLAIN,
                called, ctl, script, out)  # fmt: skip
        return
    s[i, S_CHARGED] = g[G_ROUND]
    if s[t, S_SET] == 1 and s[t, S_DOWN] == 0:
        set_first = p[t, P_REACH] > p[i, P_REACH]
        for k in range(2):
            if not (fighting(s, i) and fighting(s, t)):
                break
            if s[t if (k == 0) == set_first else i, S_DOWN] > 0:
                continue  # knocked down by the first blow: no strike while getting up
            if (k == 0) == set_first:
                strike(p, s, e, q, g, o, res, values, cuts, dice, defence, bonus, crit, t, i,
                        SET_BLOW, 0, ctl, script, out)  # fmt: skip
            else:
                strike(p, s, e, q, g, o, res, values, cuts, dice, defence, bonus, crit, i, t,
                        CHARGE, called, ctl, script, out)  # fmt: skip
        s[t, S_SET] = 0
        turned_around(s, q, g, t)
    else:
        if (
            p[t, P_REACH] > p[i, P_REACH]
            and fighting(s, t)
            and s[t, S_ACTIONS] > 0
            and s[t, S_DOWN] == 0
            and not defenceless(s, g, t)
        ):
            s[t, S_ACTIONS] -= 1
            take_turn_now(q, g, t)
            strike(p, s, e, q, g, o, res, values, cuts, dice, defence, bonus, crit, t, i, PLAIN,
                    0, ctl, script, out)  # fmt: skip
        if fighting(s, i) and s[i, S_DOWN] == 0 and fighting(s, t):
            strike(p, s, e, q, g, o, res, values, cuts, dice, defence, bonus, crit, i, t,
                    CHARGE, called, ctl, script, out)  # fmt: skip
    turned_around(s, q, g, i)


def _shoot(
    p: Ints,
    s: Ints,
    e: Ints,
    g: Ints,
    o: Ints,
    res: Ints,
    values: Ints,
    cuts: Floats,
    dice: Ints,
    defence: Ints,
    bonus: Ints,
    i: int,
    t: int,
    ctl: Ints,
    script: Ints,
    out: Ints,
) -> None:
    """A shot (:func:`affray.rulesystems.midian.strikes.shoot`): range, the shooter's allies
    fighting the target as cover (40% each); a miss the cover explains strikes the
    first of them instead."""
    bodies = 0
    obstacle = -1
    for j in range(p.shape[0]):
        if e[t, j] and p[j, P_SIDE] == p[i, P_SIDE] and fighting(s, j):
            bodies += 1
            if obstacle < 0:
                obstacle = j
    cover = -(min(90, 40 * bodies) // 5)
    modifiers = p[i, P_ATK] - penalty(s, i) + p[i, P_RANGE] + cover
    armour = p[t, P_AC_RANGED]
    attack(
        p, s, o, res, values, cuts, dice, defence, bonus, i, t, modifiers, armour,
        defenceless(s, g, t), False, 1, ctl, script, out,
    )  # fmt: skip
    natural, total = out[0], out[1]
    if (
        obstacle >= 0
        and natural > 2
        and not (natural >= 19 or hits(natural, total, armour, o[O_EXCEED]))
    ):
        uncovered = total - cover
        if total < armour <= uncovered and uncovered >= p[obstacle, P_AC_SHEET]:
            rolled = roll(p, i, 0, values, cuts, dice, ctl, script) + p[i, P_DMG]
            rolled = max(rolled - penalty(s, i), 0)
            damage = finish_damage(rolled, res[i, obstacle], p[obstacle, P_DR])
            take_damage(p, s, o, obstacle, damage, ctl, script)
            release_fallen(s, e, obstacle)
    release_fallen(s, e, t)


def _grapple(
    p: Ints,
    s: Ints,
    e: Ints,
    g: Ints,
    o: Ints,
    res: Ints,
    values: Ints,
    cuts: Floats,
    dice: Ints,
    defence: Ints,
    bonus: Ints,
    i: int,
    t: int,
    ctl: Ints,
    script: Ints,
    out: Ints,
) -> None:
    """A grapple (:func:`affray.rulesystems.midian.wrestling.grapple`): a touch attack on the
    natural armour class that hurts like a blow; landed undefended on one still
    fighting, it starts a hold."""
    e[i, t] = 1
    e[t, i] = 1
    s[i, S_CLOSED] = 1
    s[t, S_CLOSED] = 1
    attack(
        p, s, o, res, values, cuts, dice, defence, bonus, i, t, p[i, P_ATK] - penalty(s, i),
        p[t, P_AC_TOUCH], defenceless(s, g, t), False, 1, ctl, script, out,
    )  # fmt: skip
    if out[2] == 1 and fighting(s, t):
        s[i, S_HOLDING] = t
        s[i, S_HOLD_SINCE] = g[G_ROUND]
        s[i, S_HOLD_SEQ] = g[G_SEQ]
        g[G_SEQ] += 1
    release_fallen(s, e, t)


def _escape(p: Ints, s: Ints, i: int, h: int, ctl: Ints, script: Ints) -> None:
    """A Strength-or-Agility challenge to break ``h``'s hold (-5 without grappling,
    shock and fatigue on both sides); the escaper wins with the higher total that is
    not over its own score."""
    if s[h, S_HOLDING] != i:
        return
    mine = p[i, P_ESCAPE] - (5 if p[i, P_GRAPPLING] == 0 else 0) - penalty(s, i)
    theirs = p[h, P_ESCAPE] - (5 if p[h, P_GRAPPLING] == 0 else 0) - penalty(s, h)
    a = two_d20(ctl, script)
    b = two_d20(ctl, script)
    if a <= mine and (b > theirs or a > b):
        s[h, S_HOLDING] = -1


# -- choices -----------------------------------------------------------------------------


def _pick(
    p: Ints, s: Ints, e: Ints, i: int, candidates: Ints, count: int, ctl: Ints, ai: Ints
) -> int:
    """The target ``i``'s policy picks (:class:`affray.encounter.tactics.Targeting`)."""
    policy = p[i, P_TARGET]
    if policy == RANDOM:
        if count == 1:
            return int(candidates[0])
        return int(candidates[ai_die(count, ctl, ai) - 1])
    if policy == WEAKEST:
        best = candidates[0]
        for k in range(1, count):
            if strength(s, candidates[k]) < strength(s, best):
                best = candidates[k]
        return int(best)
    if policy == NEAREST:
        for k in range(count):
            if e[i, candidates[k]]:
                return int(candidates[k])
        for k in range(count):
            c = candidates[k]
            for a in range(p.shape[0]):
                if a != i and p[a, P_SIDE] == p[i, P_SIDE] and e[c, a]:
                    return int(c)
        return int(candidates[0])
    best = -1
    best_allies = -1
    for k in range(count):
        c = candidates[k]
        allies = 0
        for a in range(p.shape[0]):
            if a != i and p[a, P_SIDE] == p[i, P_SIDE] and e[c, a]:
                allies += 1
        weaker = allies == best_allies and strength(s, c) < strength(s, best)
        if allies > best_allies or weaker:
            best = c
            best_allies = allies
    return int(best)


def _choose(
    p: Ints, s: Ints, e: Ints, o: Ints, i: int, candidates: Ints, ctl: Ints, ai: Ints
) -> tuple[int, int]:
    """The tactics AI's action for ``i`` (:meth:`affray.rulesystems.midian.tactics.MidianAI.action`
    in the normal stance): break free of the first holder; flee once hurt past
    ``retreat_at``; keep a hold; shoot (an archer no foe is on); set against a charge
    (a pikeman with room for one); grapple (a grappler, a foe no one holds); attack."""
    holder = first_holder(s, i)
    if holder >= 0:
        return A_ESCAPE, holder
    lost = p[i, P_HP] + p[i, P_LIFE] - s[i, S_HP] - s[i, S_LIFE]
    if p[i, P_RETREAT] >= 0 and lost >= p[i, P_RETREAT] and s[i, S_HOLDING] < 0:
        return A_FLEE, -1
    foes = 0
    for j in range(p.shape[0]):
        if p[j, P_SIDE] != p[i, P_SIDE] and fighting(s, j):
            candidates[foes] = j
            foes += 1
    if foes == 0:
        return A_HOLD, -1
    if s[i, S_HOLDING] >= 0:
        return A_KEEP_HOLD, s[i, S_HOLDING]
    engaged = engaged_foe(p, s, e, i)
    role = p[i, P_ROLE]
    if role == ARCHER and p[i, P_RANGED] == 1 and not engaged:
        return A_SHOOT, pick(p, s, e, i, candidates, foes, ctl, ai)
    if role == PIKEMAN and not engaged and o[O_DISTANCE] >= CHARGE_RUN_UP:
        return (A_KEEP_SET if s[i, S_SET] == 1 else A_SET), -1
    count = 0
    if engaged:
        for k in range(foes):
            if e[i, candidates[k]]:
                candidates[count] = candidates[k]
                count += 1
    else:
        for k in range(foes):
            if in_reach(p, s, e, i, candidates[k]):
                candidates[count] = candidates[k]
                count += 1
    if count == 0:
        return A_HOLD, -1
    target = pick(p, s, e, i, candidates, count, ctl, ai)
    if role == GRAPPLER and p[i, P_GRAPPLING] > 0 and not held(s, target):
        return A_GRAPPLE, target
    return A_ATTACK, target


def _legal(p: Ints, s: Ints, e: Ints, o: Ints, i: int, kind: int, t: int) -> bool:
    """Whether action ``kind`` at ``t`` is among ``i``'s legal actions now
    (:func:`affray.rulesystems.midian.ruleset.legal_actions`, those this engine plays)."""
    if held(s, i):
        if t < 0 or s[t, S_HOLDING] != i:
            return False
        return kind == A_ESCAPE or (
            kind == A_GRAPPLE and p[i, P_GRAPPLING] > 0 and s[i, S_HOLDING] < 0
        )
    if kind == A_HOLD:
        return True
    if s[i, S_HOLDING] >= 0:
        return kind == A_KEEP_HOLD and t == s[i, S_HOLDING]
    if kind == A_FLEE:
        return True
    if kind in (A_SET, A_KEEP_SET):
        room = not engaged_foe(p, s, e, i) and o[O_DISTANCE] >= CHARGE_RUN_UP
        return room and (s[i, S_SET] == 1) == (kind == A_KEEP_SET)
    if kind == A_TEND:
        return (
            t >= 0
            and p[t, P_SIDE] == p[i, P_SIDE]
            and s[t, S_ALIVE] == 1
            and s[t, S_FLED] == 0
            and (s[t, S_SERIOUS] > 0 or s[t, S_LIFE] < 0)  # serious wounds, or below 0
            and s[t, S_TENDED] == 0
        )
    if t < 0 or p[t, P_SIDE] == p[i, P_SIDE] or not fighting(s, t):
        return False
    if kind == A_SHOOT:
        return bool(p[i, P_RANGED] == 1)
    near = in_reach(p, s, e, i, t)
    if kind == A_GRAPPLE:
        return near and p[i, P_GRAPPLING] > 0
    return near and (kind in (A_ATTACK, A_CALLED_EASY, A_CALLED_HARD))


def _perform(
    p: Ints,
    s: Ints,
    e: Ints,
    q: Ints,
    g: Ints,
    o: Ints,
    res: Ints,
    values: Ints,
    cuts: Floats,
    dice: Ints,
    defence: Ints,
    bonus: Ints,
    crit: Ints,
    i: int,
    kind: int,
    t: int,
    ctl: Ints,
    script: Ints,
    out: Ints,
) -> None:
    if kind in (A_ATTACK, A_CALLED_EASY, A_CALLED_HARD):
        called = 0 if kind == A_ATTACK else (-2 if kind == A_CALLED_EASY else -5)
        melee(p, s, e, q, g, o, res, values, cuts, dice, defence, bonus, crit, i, t, called,
               ctl, script, out)  # fmt: skip
    elif kind == A_SHOOT:
        shoot(p, s, e, g, o, res, values, cuts, dice, defence, bonus, i, t, ctl, script, out)
    elif kind == A_GRAPPLE:
        grapple(p, s, e, g, o, res, values, cuts, dice, defence, bonus, i, t, ctl, script, out)
    elif kind == A_ESCAPE:
        escape(p, s, i, t, ctl, script)
    elif kind == A_FLEE:
        s[i, S_FLED] = 1
        release(e, i)
    elif kind == A_SET:
        s[i, S_SET] = 1
    elif kind == A_TEND:
        s[t, S_TENDED] = 1
        if s[t, S_CONSCIOUS] == 0 and s[t, S_LIFE] < 0:
            s[t, S_COMA] = 1


# -- rounds ------------------------------------------------------------------------------


def _fresh_pool(p: Ints, s: Ints, i: int, actions: int) -> None:
    s[i, S_ACTIONS] = actions
    s[i, S_PARRIES] = p[i, P_PARRIES]
    s[i, S_BLOCKS] = p[i, P_BLOCKS]


def _begin_round(
    p: Ints, s: Ints, q: Ints, g: Ints, o: Ints, surprised: Ints, ctl: Ints, script: Ints
) -> None:
    """Initiative and fresh defences; the round's turns, highest first, ties to the
    higher Wits, then to the earlier listed (:func:`affray.rulesystems.midian.round.begin_round`).
    Round 1 of an ambush: the surprised get no action and no active defence, the
    others act once in listing order; when every side is surprised no one acts."""
    n = p.shape[0]
    g[G_QH] = 0
    g[G_QT] = 0
    if g[G_ROUND] == 1 and o[O_SURPRISE] != 0:
        if o[O_SURPRISE] == 1:
            return
        for i in range(n):
            if not fighting(s, i):
                continue
            if surprised[p[i, P_SIDE]]:
                fresh_pool(p, s, i, 0)
                s[i, S_SURPRISED] = 1
            else:
                fresh_pool(p, s, i, 1)
                s[i, S_SURPRISED] = 0
                q[0, g[G_QT]] = i
                g[G_QT] += 1
        return
    count = 0
    for i in range(n):
        if not fighting(s, i):
            continue
        if s[i, S_HOLDING] >= 0 and not held(s, i):  # a continuing hold: no roll
            fresh_pool(p, s, i, 0)
            continue
        total = die(10, ctl, script) + p[i, P_INIT] - s[i, S_CARRIED] - s[i, S_FATIGUE]
        slots = (total + 9) // 10 if total > 0 else 1
        fresh_pool(p, s, i, slots)
        s[i, S_CARRIED] = 0
        s[i, S_SURPRISED] = 0
        for k in range(slots):  # each slot into its place (row 1: the slots' values)
            value = total - 10 * k
            at = count
            while at > 0:
                j = q[0, at - 1]
                before = q[1, at - 1]
                if before > value or (before == value and p[j, P_WITS] >= p[i, P_WITS]):
                    break
                q[0, at] = j
                q[1, at] = before
                at -= 1
            q[0, at] = i
            q[1, at] = value
            count += 1
    g[G_QT] = count


def _bleed(s: Ints, i: int, amount: int) -> None:
    """Lose ``amount`` points to bleeding (hit points first); it shocks like damage."""
    if amount <= 0:
        return
    from_hp = min(s[i, S_HP], amount)
    s[i, S_HP] -= from_hp
    s[i, S_LIFE] -= amount - from_hp
    s[i, S_SHOCK] += amount


def _end_round(
    p: Ints,
    s: Ints,
    e: Ints,
    g: Ints,
    o: Ints,
    res: Ints,
    values: Ints,
    cuts: Floats,
    dice: Ints,
    ctl: Ints,
    script: Ints,
) -> None:
    """Holds squeeze (from the round after they were taken); then everyone alive and
    on the field bleeds (unless tended), tires, rolls system shock at 0 life points or
    below; shock becomes next round's initiative penalty
    (:func:`affray.rulesystems.midian.round.end_round`)."""
    n = p.shape[0]
    for i in range(n):
        victim = s[i, S_HOLDING]
        if victim >= 0 and fighting(s, i) and g[G_ROUND] > s[i, S_HOLD_SINCE]:
            rolled = max(roll(p, i, 1, values, cuts, dice, ctl, script) + p[i, P_DBONUS], 0)
            damage = finish_damage(rolled, p[victim, P_SQRES], p[victim, P_DR])
            take_damage(p, s, o, victim, damage, ctl, script)
            release_fallen(s, e, victim)
    for i in range(n):
        if s[i, S_ALIVE] == 0 or s[i, S_FLED] == 1:
            continue
        if s[i, S_TENDED] == 0:
            bleed(s, i, max(-s[i, S_LIFE], 0))
            bleed(s, i, s[i, S_SERIOUS])
        s[i, S_FATIGUE] += p[i, P_FATIGUE]
        if s[i, S_LIFE] <= 0:
            system_shock(p, s, i, ctl, script)
        s[i, S_CARRIED] = s[i, S_SHOCK]
        s[i, S_SHOCK] = 0
        s[i, S_DOWN] = max(0, s[i, S_DOWN] - 1)
        release_fallen(s, e, i)


def _fight(
    p: Ints,
    s: Ints,
    e: Ints,
    q: Ints,
    g: Ints,
    o: Ints,
    surprised: Ints,
    res: Ints,
    values: Ints,
    cuts: Floats,
    dice: Ints,
    defence: Ints,
    bonus: Ints,
    crit: Ints,
    start: Ints,
    candidates: Ints,
    ctl: Ints,
    script: Ints,
    ai: Ints,
    out: Ints,
) -> int:
    """One fight from where ``s``, ``e``, ``q`` and ``g`` stand (``start`` says whose turn
    it is), as the turn cursor plays it (:mod:`affray.encounter.cursor`): turns in
    order, skipped for those out of the fight or whose action went on defending or
    who are getting up; a fight decided mid-round still closes that round; the round
    cap is a draw. Returns the winning side, -1 for a draw."""
    sides = o[O_SIDES]
    phase = start[T_PHASE]
    current = -1
    begun = False
    if phase == OVER:
        count, last = sides_fighting(p, s, sides)
        return last if count == 1 else -1
    if phase == SETUP:
        g[G_ROUND] = 0
        g[G_CLOSED] = 1
        count, last = sides_fighting(p, s, sides)
        if count <= 1 or o[O_MAX_ROUNDS] <= 0:
            return last if count == 1 else -1
        g[G_ROUND] = 1
        g[G_CLOSED] = 0
        begin_round(p, s, q, g, o, surprised, ctl, script)
    elif phase == TURN:
        current = start[T_CURRENT]
        begun = start[T_BEGUN] == 1
    first = start[T_FIRST]
    while True:
        if current >= 0:
            free = begun
            if not begun and s[current, S_ACTIONS] > 0:
                s[current, S_ACTIONS] -= 1
                free = s[current, S_DOWN] == 0
            if free:
                kind, target = -1, -1
                if first >= 0 and legal(p, s, e, o, current, first, start[T_FIRST_TARGET]):
                    kind, target = first, start[T_FIRST_TARGET]
                else:
                    kind, target = choose(p, s, e, o, current, candidates, ctl, ai)
                perform(p, s, e, q, g, o, res, values, cuts, dice, defence, bonus, crit,
                         current, kind, target, ctl, script, out)  # fmt: skip
            first = -1
            current = -1
            count, last = sides_fighting(p, s, sides)
            if count <= 1:
                if g[G_CLOSED] == 0:
                    end_round(p, s, e, g, o, res, values, cuts, dice, ctl, script)
                    g[G_CLOSED] = 1
                count, last = sides_fighting(p, s, sides)
                return last if count == 1 else -1
        first = -1
        while g[G_QH] < g[G_QT] and current < 0:
            i = q[0, g[G_QH]]
            g[G_QH] += 1
            if i >= 0 and fighting(s, i):
                current = i
                begun = False
        if current >= 0:
            continue
        if g[G_CLOSED] == 0:  # every turn taken: the round closes
            end_round(p, s, e, g, o, res, values, cuts, dice, ctl, script)
            g[G_CLOSED] = 1
        count, last = sides_fighting(p, s, sides)
        if count <= 1 or g[G_ROUND] >= o[O_MAX_ROUNDS]:
            return last if count == 1 else -1
        g[G_ROUND] += 1
        g[G_CLOSED] = 0
        begin_round(p, s, q, g, o, surprised, ctl, script)


def _fight_chunk(
    seed: int,
    size: int,
    p: Ints,
    o: Ints,
    surprised: Ints,
    res: Ints,
    values: Ints,
    cuts: Floats,
    dice: Ints,
    defence: Ints,
    bonus: Ints,
    crit: Ints,
    s0: Ints,
    e0: Ints,
    q0: Ints,
    g0: Ints,
    start: Ints,
    ctl: Ints,
    script: Ints,
    ai: Ints,
    wins: Ints,
    rounds: Ints,
    standing: Ints,
) -> None:
    """Fight ``size`` fights from the same start (in random mode seeded with ``seed``),
    adding into ``wins`` (a count per side, then draws), ``rounds`` (fights by the
    round they ended in) and ``standing`` (fights each combatant was still in)."""
    if ctl[C_MODE] == 0:
        np.random.seed(seed)
    n = p.shape[0]
    s = np.empty_like(s0)
    e = np.empty_like(e0)
    q = np.empty_like(q0)
    g = np.empty_like(g0)
    candidates = np.empty(n, dtype=np.int64)
    out = np.zeros(4, dtype=np.int64)
    sides = o[O_SIDES]
    for _ in range(size):
        s[:] = s0
        e[:] = e0
        q[:] = q0
        g[:] = g0
        winner = fight(p, s, e, q, g, o, surprised, res, values, cuts, dice, defence, bonus,
                        crit, start, candidates, ctl, script, ai, out)  # fmt: skip
        wins[winner if winner >= 0 else sides] += 1
        rounds[g[G_ROUND]] += 1
        for i in range(n):
            if fighting(s, i):
                standing[i] += 1


die: Callable[[int, Ints, Ints], int] = _jit(_die)
ai_die: Callable[[int, Ints, Ints], int] = _jit(_ai_die)
roll: Callable[..., int] = _jit(_roll)
two_d20: Callable[[Ints, Ints], int] = _jit(_two_d20)
fighting: Callable[[Ints, int], bool] = _jit(_fighting)
sides_fighting: Callable[[Ints, Ints, int], tuple[int, int]] = _jit(_sides_fighting)
held: Callable[[Ints, int], bool] = _jit(_held)
first_holder: Callable[[Ints, int], int] = _jit(_first_holder)
engaged_any: Callable[[Ints, int], bool] = _jit(_engaged_any)
engaged_foe: Callable[[Ints, Ints, Ints, int], bool] = _jit(_engaged_foe)
foes_on: Callable[[Ints, Ints, Ints, int], int] = _jit(_foes_on)
in_reach: Callable[[Ints, Ints, Ints, int, int], bool] = _jit(_in_reach)
defenceless: Callable[[Ints, Ints, int], bool] = _jit(_defenceless)
penalty: Callable[[Ints, int], int] = _jit(_penalty)
release: Callable[[Ints, int], None] = _jit(_release)
release_fallen: Callable[[Ints, Ints, int], None] = _jit(_release_fallen)
take_turn_now: Callable[[Ints, Ints, int], None] = _jit(_take_turn_now)
turned_around: Callable[[Ints, Ints, Ints, int], None] = _jit(_turned_around)
strength: Callable[[Ints, int], int] = _jit(_strength)
system_shock: Callable[[Ints, Ints, int, Ints, Ints], None] = _jit(_system_shock)
take_damage: Callable[[Ints, Ints, Ints, int, int, Ints, Ints], None] = _jit(_take_damage)
finish_damage: Callable[[int, int, int], int] = _jit(_finish_damage)
hits: Callable[[int, int, int, int], bool] = _jit(_hits)
attack: Callable[..., None] = _jit(_attack)
turn_to_come: Callable[[Ints, Ints, Ints, int], bool] = _jit(_turn_to_come)
critical: Callable[[Ints, Ints, Ints, Ints, int, Ints, Ints], None] = _jit(_critical)
strike: Callable[..., None] = _jit(_strike)
melee: Callable[..., None] = _jit(_melee)
shoot: Callable[..., None] = _jit(_shoot)
grapple: Callable[..., None] = _jit(_grapple)
escape: Callable[[Ints, Ints, int, int, Ints, Ints], None] = _jit(_escape)
pick: Callable[[Ints, Ints, Ints, int, Ints, int, Ints, Ints], int] = _jit(_pick)
choose: Callable[[Ints, Ints, Ints, Ints, int, Ints, Ints, Ints], tuple[int, int]] = _jit(_choose)
legal: Callable[[Ints, Ints, Ints, Ints, int, int, int], bool] = _jit(_legal)
perform: Callable[..., None] = _jit(_perform)
fresh_pool: Callable[[Ints, Ints, int, int], None] = _jit(_fresh_pool)
begin_round: Callable[..., None] = _jit(_begin_round)
bleed: Callable[[Ints, int, int], None] = _jit(_bleed)
end_round: Callable[..., None] = _jit(_end_round)
fight: Callable[..., int] = _jit(_fight)
fight_chunk: Callable[..., None] = _jit(_fight_chunk)
"""Fight a chunk of fights (the arguments of :func:`_fight_chunk`), compiled."""
