"""Midian as a rule system (:class:`~affray.powers.RuleSystem`): its sheets,
encounter-file keys, ruleset, tactics AI, narration, live odds, fast engines, the game
master's powers and bestiary (its command group has an entry point of its own,
``affray.commands``). The ``affray.systems`` entry point
``midian`` names :data:`SYSTEM`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import resources
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from affray.dice import Dice
from affray.encounter import Action, Answers, Attack, Shoot, Targeting
from affray.errors import AffrayError, SheetError
from affray.events import Event
from affray.powers import EncounterKeys, LiveOdds, RuleSystem
from affray.quoting import as_written
from affray.rulesystems.midian.attack import HitRule
from affray.rulesystems.midian.character import Character
from affray.rulesystems.midian.defence import Stance
from affray.rulesystems.midian.design import ladders
from affray.rulesystems.midian.edits import CONDITIONS, edit, effects, health
from affray.rulesystems.midian.hazard_powers import HAZARDS, apply_hazard
from affray.rulesystems.midian.injury import WillpowerRule, WillpowerShock
from affray.rulesystems.midian.narration import NARRATION
from affray.rulesystems.midian.resolve import Readings
from affray.rulesystems.midian.rest import rest
from affray.rulesystems.midian.ruleset import MidianRuleset
from affray.rulesystems.midian.sheet import MidianSheet, midian_character
from affray.rulesystems.midian.stat_block import stat_block
from affray.rulesystems.midian.state import MidianEncounter, MidianState
from affray.rulesystems.midian.tactics import MidianAI, MidianTactics, Role
from affray.rulesystems.midian.topics import TOPICS
from affray.sheets.validation import EncounterSection, validate

if TYPE_CHECKING:
    from affray.answers import DuelAnswer, RoundsDistribution, RunSpec
    from affray.encounter import Cursor
    from affray.rulesystems.midian.exact_duel import ExactMidianDuel
    from affray.totals import ExactFights, FastFights, First


class EncounterOptions(EncounterSection):
    """Midian's keys at the top of an encounter file (docs/encounters.md)."""

    distance: int = Field(default=0, ge=0, le=10_000)
    hit_rule: Literal["at-or-above", "exceed"] = "at-or-above"
    willpower: Literal["first", "each"] = "first"
    willpower_shock: Literal["earlier", "all"] = "earlier"
    critical_effects: bool = False
    critical_numbers: bool = False
    fumble_effects: bool = False
    melee_cover: int = Field(default=0, ge=0, le=90)


class SideKeys(EncounterSection):
    """Midian's keys on a side."""

    surprised: bool = False


class TacticsKeys(EncounterSection):
    """Midian's tactics keys on a side or a member."""

    role: Literal["fighter", "archer", "grappler", "disarmer", "pikeman"] | None = None
    retreat_at: int | None = Field(default=None, ge=1, le=1000)
    stance: Literal["normal", "defensive", "total defence", "evasion"] | None = None
    defend_at: int | None = Field(default=None, ge=1, le=10_000)


def _sheet(data: Mapping[str, object], /, *, where: str | None) -> Character:
    return midian_character(validate(MidianSheet, data, where), where)


def _ruleset(keys: EncounterKeys) -> MidianRuleset:
    options = validate(EncounterOptions, keys.options, keys.where)
    if options.critical_numbers and not options.critical_effects:
        raise SheetError(
            "critical_numbers applies the numbers of the critical effects rolled, and "
            "none are rolled",
            path=keys.where,
            key="critical_numbers",
            hint="set critical_effects = true with it",
        )
    surprised = [
        side
        for side, data in keys.sides.items()
        if validate(
            SideKeys, data, keys.where, at=keys.side_keys.get(side, f"side {as_written(side)}")
        ).surprised
    ]
    return MidianRuleset(
        rules=Readings(
            HitRule(options.hit_rule),
            WillpowerRule(options.willpower),
            WillpowerShock(options.willpower_shock),
        ),
        distance=options.distance,
        surprised=surprised,
        critical_effects=options.critical_effects,
        fumble_effects=options.fumble_effects,
        melee_cover=options.melee_cover,
        critical_numbers=options.critical_numbers,
    )


def _tactics(
    target: Targeting, data: Mapping[str, object], /, *, where: str, at: str
) -> MidianTactics:
    keys = validate(TacticsKeys, data, where, at=at)
    return MidianTactics(
        target,
        Role(keys.role or "fighter"),
        keys.retreat_at,
        Stance(keys.stance or "normal"),
        keys.defend_at,
    )


def _simulate(a: Character, b: Character, /, *, run: RunSpec) -> DuelAnswer:
    """The batch simulator of plain duels; raises NotModelledError for sheets it does
    not play (the reference engine then plays them)."""
    from affray.answers import DuelAnswer
    from affray.rulesystems.midian.sim.duels import simulate_midian_fast

    stats, used = simulate_midian_fast(
        a,
        b,
        run.n,
        seed=run.seed,
        workers=run.workers,
        progress=run.progress,
        max_rounds=run.max_rounds,
        estimate=run.announce,
    )
    return DuelAnswer.simulated(stats, engine="fast", seed=used)


def _exact(a: Character, b: Character, /, *, rational: bool = False) -> DuelAnswer:
    """The exact chain of the duel the fast engine plays (floats: the chain sums
    probabilities in floating point, so ``rational`` is refused, saying why)."""
    from affray.answers import DuelAnswer

    if rational:
        raise AffrayError(
            "Midian's exact duel odds are summed in floating point over the chain's "
            "thousands of states, not as fractions",
            hint="leave out --rational (the odds are exact to about 1e-14)",
        )
    odds = _chain(a, b)
    return DuelAnswer.exact(odds.p_a_wins, odds.p_b_wins, odds.p_draw, odds.mean_rounds)


def _rounds(a: Character, b: Character, /) -> RoundsDistribution:
    """How many rounds the duel lasts, by winner, from the same chain."""
    from affray.answers import RoundsDistribution

    odds = _chain(a, b, by_round=True)
    a_wins = {r: won[0] for r, won in enumerate(odds.by_round, start=1) if won[0] > 0}
    b_wins = {r: won[1] for r, won in enumerate(odds.by_round, start=1) if won[1] > 0}
    going = max(0.0, 1.0 - odds.p_a_wins - odds.p_b_wins - sum(w[2] for w in odds.by_round))
    return RoundsDistribution(a_wins, b_wins, going, odds.rounds)


def _chain(a: Character, b: Character, *, by_round: bool = False) -> ExactMidianDuel:
    """The exact chain of the duel; a pair it does not play is refused in its words."""
    from affray.errors import NotModelledError
    from affray.rulesystems.midian.exact_duel import exact_midian_duel

    try:
        return exact_midian_duel(a, b, by_round=by_round)
    except NotModelledError as refused:
        raise AffrayError(
            "no exact odds of this Midian duel: the chain plays the plain duel of the "
            f"fast engine, which does not play {'; '.join(refused.reasons)}",
            hint="simulate it: affray duel A B -n 100000 (the reference engine plays it)",
        ) from None


def _exact_within(a: Character, b: Character, /, *, seconds: float) -> DuelAnswer | None:
    """The exact odds of this duel if the chain gives them within ``seconds`` (``affray
    duel`` without ``--exact`` then gives them; else it simulates)."""
    from affray.answers import DuelAnswer
    from affray.rulesystems.midian.exact_duel import quick_midian_duel

    odds = quick_midian_duel(a, b, seconds=seconds)
    if odds is None:
        return None
    return DuelAnswer.exact(odds.p_a_wins, odds.p_b_wins, odds.p_draw, odds.mean_rounds)


def _exact_fights(
    ruleset: MidianRuleset,
    cursor: Cursor[Character, MidianState],
    /,
    *,
    tactics: Mapping[str, MidianTactics],
    first: First | None,
) -> ExactFights:
    """Exact odds of a two-combatant fight from ``cursor``, where the exact duel's chain
    reaches it (loaded only when asked)."""
    from affray.rulesystems.midian.exact_table import exact_fight

    return exact_fight(ruleset, cursor, tactics, first)


def _exact_fights_by_round(
    ruleset: MidianRuleset,
    cursor: Cursor[Character, MidianState],
    /,
    *,
    tactics: Mapping[str, MidianTactics],
    first: First | None,
) -> Sequence[ExactFights]:
    """:func:`_exact_fights` with the cap at each round, in one run of the chain."""
    from affray.rulesystems.midian.exact_table import exact_fight_by_round

    return exact_fight_by_round(ruleset, cursor, tactics, first)


def _exact_work(
    ruleset: MidianRuleset,
    cursor: Cursor[Character, MidianState],
    /,
    *,
    tactics: Mapping[str, MidianTactics],
    first: First | None,
) -> int:
    """What the exact chain of the fight from ``cursor`` would take, found at once."""
    from affray.rulesystems.midian.exact_table import exact_work

    return exact_work(ruleset, cursor, tactics, first)


def _hazard(
    ruleset: MidianRuleset,
    encounter: MidianEncounter,
    who: str,
    kind: str,
    values: Mapping[str, object],
    /,
    *,
    answers: Answers[Character, MidianState],
) -> tuple[MidianEncounter, list[Event]]:
    """A hazard the game master brings on ``who``."""
    return apply_hazard(ruleset.options, encounter, who, kind, values, answers)


def _fast_fights(
    ruleset: MidianRuleset,
    cursor: Cursor[Character, MidianState],
    /,
    *,
    tactics: Mapping[str, MidianTactics],
    first: First | None,
) -> FastFights:
    """The fast group engine's fights from ``cursor`` (imported when first needed: it
    brings numpy); raises NotModelledError for what it does not play."""
    from affray.rulesystems.midian.sim.fights import midian_fast_fights

    return midian_fast_fights(ruleset, cursor, tactics, first)


def _ai(ruleset: MidianRuleset, tactics: Mapping[str, MidianTactics], /, *, dice: Dice) -> MidianAI:
    return MidianAI(ruleset, dice, tactics)


def _live_odds(
    ruleset: MidianRuleset, encounter: MidianEncounter, /, *, who: str, action: Action
) -> LiveOdds | None:
    """The exact odds of a plain melee attack on a foe already engaged, or of a shot,
    from the state before it: the defender's health and the defences it has left this
    round, the attacker's shock and fatigue; a shot's range (the encounter's distance),
    cover (the shooter's allies in melee with the target) and the ally it may strike
    instead (other actions and first blows: none)."""
    from affray.rulesystems.midian.odds import attack_odds
    from affray.rulesystems.midian.resolve import Situation
    from affray.rulesystems.midian.situations import bodies_in_the_way
    from affray.rulesystems.midian.state import armed, defenceless
    from affray.rulesystems.midian.strikes import positioned

    cid = who
    if action.target is None or type(action) not in (Attack, Shoot):
        return None
    target = action.target
    shot = type(action) is Shoot
    if not shot and encounter.distance(cid, target) is None:
        return None  # not engaged yet: the first blow may be a charge, which this leaves out
    attacker, defender = encounter.states[cid], encounter.states[target]
    situation = None
    in_the_way: list[str] = []
    if shot:
        side = encounter.combatant(cid).side
        in_the_way = [
            a
            for a in encounter.engaged_with(target)
            if encounter.combatant(a).side == side and encounter.states[a].fighting
        ]
        situation = Situation(
            ranged=True,
            distance=ruleset.options.distance,
            cover=bodies_in_the_way(len(in_the_way)) if in_the_way else 0,
            surprised=defenceless(encounter, target),
        )
    # the situation as it stands: stances (a defender in total defence: +2 AC), ganging
    # up, the fallen, surprise, cover, as a strike resolves it
    situation = positioned(ruleset.options, encounter, cid, target, situation or Situation())
    odds = attack_odds(
        armed(encounter, cid),
        encounter.sheet(target),
        health=defender.health,
        pool=defender.pool,
        attacker_penalty=attacker.health.penalty,
        situation=situation,
    )
    what = "shot at" if shot else "against"
    cover = f", {situation.cover}% cover" if situation.cover else ""
    text = (
        f"odds of {cid} {what} {target}{cover}: hit {float(odds.p_hit):.1%}, "
        f"defended {float(odds.p_defended):.1%}, "
        f"takes down {float(odds.p_defender_down):.1%}"
    )
    if in_the_way:
        text += f"; a miss may strike {in_the_way[0]}, in the way"
    return LiveOdds(
        text,
        {
            "p_hit": float(odds.p_hit),
            "p_defended": float(odds.p_defended),
            "p_defender_down": float(odds.p_defender_down),
        },
    )


SYSTEM: RuleSystem[Character, MidianState, MidianRuleset, MidianTactics] = RuleSystem(
    name="midian",
    title="Midian",
    sheet_type=Character,
    read_sheet=_sheet,
    option_keys=frozenset(EncounterOptions.model_fields),
    side_keys=frozenset(SideKeys.model_fields),
    tactics_keys=frozenset(TacticsKeys.model_fields),
    ruleset=_ruleset,
    duel_ruleset=MidianRuleset,
    tactics=_tactics,
    ai=_ai,
    narration=NARRATION,
    topics=TOPICS,
    conditions=CONDITIONS,
    bestiary=resources.files(__package__) / "bestiary",
    listed=1,
    simulate=_simulate,
    exact=_exact,
    rounds=_rounds,
    exact_within=_exact_within,
    fast_fights=_fast_fights,
    exact_fights=_exact_fights,
    exact_fights_by_round=_exact_fights_by_round,
    exact_work=_exact_work,
    live_odds=_live_odds,
    edit=edit,
    effects=effects,
    hazards=HAZARDS,
    hazard=_hazard,
    health=health,
    rest=rest,
    stat_block=stat_block,
    ladders=ladders,
    quick_keys=("hit_points", "life_points"),
)
