"""MST-2 as a rule system (:class:`~affray.powers.RuleSystem`): its sheets,
encounter-file keys, ruleset, tactics AI, narration, exact odds, fast engines, the game
master's powers and bestiary (its command group has an entry point of its own,
``affray.commands``). The ``affray.systems`` entry point
``mst2`` names :data:`SYSTEM`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from affray.dice import Dice
from affray.encounter import Action, Attack, Shoot, Targeting
from affray.events import Event
from affray.powers import EncounterKeys, LiveOdds, RestOption, RuleSystem
from affray.rulesystems.mst2.catalog import Missile
from affray.rulesystems.mst2.design import ladders
from affray.rulesystems.mst2.edits import CONDITIONS, edit
from affray.rulesystems.mst2.fighter import Fighter
from affray.rulesystems.mst2.hazards import HAZARDS, apply_hazard
from affray.rulesystems.mst2.healing import rest
from affray.rulesystems.mst2.narration import NARRATION
from affray.rulesystems.mst2.ruleset import Mst2Answers, Mst2Encounter, Mst2Ruleset, TurnOrder
from affray.rulesystems.mst2.sheet import Mst2Sheet, mst2_fighter
from affray.rulesystems.mst2.stat_block import stat_block
from affray.rulesystems.mst2.state import FighterState, Lethality
from affray.rulesystems.mst2.tactics import Mst2AI, Mst2Tactics, Role
from affray.rulesystems.mst2.topics import TOPICS, Mst2Topic
from affray.sheets.validation import EncounterSection, validate

if TYPE_CHECKING:
    from affray.answers import DuelAnswer, RoundsDistribution, RunSpec
    from affray.encounter import Cursor
    from affray.totals import ExactFights, FastFights, First


class EncounterOptions(EncounterSection):
    """MST-2's keys at the top of an encounter file (docs/encounters.md)."""

    lethality: Literal["high", "standard", "optional"] = "standard"
    order: Literal["listed", "shuffled"] = "listed"
    counter_prevents_action: bool = False
    ranged_extra_power: bool = False
    ask_circumstance: bool = True


class TacticsKeys(EncounterSection):
    """MST-2's tactics keys on a side or a member."""

    role: Literal["fighter", "archer"] | None = None
    retreat_at: int | None = Field(default=None, ge=1, le=1000)


def _sheet(data: Mapping[str, object], /, *, where: str | None) -> Fighter:
    return mst2_fighter(validate(Mst2Sheet, data, where), where)


def _ruleset(keys: EncounterKeys) -> Mst2Ruleset:
    options = validate(EncounterOptions, keys.options, keys.where)
    return Mst2Ruleset(
        lethality=Lethality(options.lethality),
        order=TurnOrder(options.order),
        counter_prevents_action=options.counter_prevents_action,
        ranged_extra_power=options.ranged_extra_power,
        ask_circumstance=options.ask_circumstance,
    )


def _tactics(
    target: Targeting, data: Mapping[str, object], /, *, where: str, at: str
) -> Mst2Tactics:
    keys = validate(TacticsKeys, data, where, at=at)
    return Mst2Tactics(target, Role(keys.role or "fighter"), keys.retreat_at)


def _ai(ruleset: Mst2Ruleset, tactics: Mapping[str, Mst2Tactics], /, *, dice: Dice) -> Mst2AI:
    return Mst2AI(ruleset, dice, tactics)


def _exact(a: Fighter, b: Fighter, /, *, rational: bool = False) -> DuelAnswer:
    """Floats from the fast sweep, the 1000-round cap honoured; with ``rational``, the
    exact fractions too (when the cap cannot matter)."""
    from affray.answers import DuelAnswer
    from affray.rulesystems.mst2.odds.chances import duel_chances

    odds = duel_chances(a, b)
    wounds = {
        side: {str(w): p for w, p in dist.items()} for side, dist in odds.winner_wounds.items()
    }
    return DuelAnswer.exact(
        odds.p_a_wins,
        odds.p_b_wins,
        odds.p_draw,
        odds.mean_rounds,
        winner_wounds=wounds,
        fractions=_fractions(a, b, capped=odds.capped) if rational else None,
    )


def _fractions(a: Fighter, b: Fighter, *, capped: bool) -> dict[str, str]:
    from affray.errors import AffrayError
    from affray.rulesystems.mst2.odds import duel_odds

    if capped:
        raise AffrayError(
            "the 1000-round cap decides part of this duel, so its exact fractions are not "
            "computed (the float odds honour the cap)",
            hint="leave out --rational",
        )
    exact = duel_odds(a, b)
    return {
        "p_a_wins": str(exact.p_a_wins),
        "p_b_wins": str(exact.p_b_wins),
        "p_draw": str(exact.p_draw),
        "mean_rounds": str(exact.mean_rounds),
    }


def _rounds(a: Fighter, b: Fighter, /) -> RoundsDistribution:
    from affray.rulesystems.mst2.odds import rounds_distribution

    return rounds_distribution(a, b)


def _simulate(a: Fighter, b: Fighter, /, *, run: RunSpec) -> DuelAnswer:
    """The fast duel engine (compiled where numba is)."""
    from affray.answers import DuelAnswer
    from affray.rulesystems.mst2.sim.duels import simulate_fast

    stats, used = simulate_fast(
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


def _hazard(
    ruleset: Mst2Ruleset,
    encounter: Mst2Encounter,
    who: str,
    kind: str,
    values: Mapping[str, object],
    /,
    *,
    answers: Mst2Answers,
) -> tuple[Mst2Encounter, list[Event]]:
    """A hazard the game master brings on ``who``, by the table's lethality."""
    return apply_hazard(ruleset.lethality, encounter, who, kind, values, answers.dice)


def _fast_fights(
    ruleset: Mst2Ruleset,
    cursor: Cursor[Fighter, FighterState],
    /,
    *,
    tactics: Mapping[str, Mst2Tactics],
    first: First | None,
) -> FastFights:
    """The fast MST-2 group engine's fights from ``cursor`` (loaded only when asked)."""
    from affray.rulesystems.mst2.sim.fights import mst2_fast_fights

    return mst2_fast_fights(ruleset, cursor, tactics, first)


def _fight_ends(
    ruleset: Mst2Ruleset,
    cursors: Sequence[Cursor[Fighter, FighterState]],
    /,
    *,
    tactics: Mapping[str, Mst2Tactics],
    seed: int,
) -> Sequence[Mst2Encounter]:
    """Fights of a day on the fast MST-2 group engine (loaded only when asked)."""
    from affray.rulesystems.mst2.sim.ends import mst2_fight_ends

    return mst2_fight_ends(ruleset, cursors, tactics=tactics, seed=seed)


def _fight_ends_compiles_first() -> bool:
    from affray.rulesystems.mst2.sim.fights_kernel import fight_ends
    from affray.sim.jit import needs_compiling

    return needs_compiling(fight_ends)


def _exact_fights(
    ruleset: Mst2Ruleset,
    cursor: Cursor[Fighter, FighterState],
    /,
    *,
    tactics: Mapping[str, Mst2Tactics],
    first: First | None,
) -> ExactFights:
    """Exact odds of a whole MST-2 fight from ``cursor`` (loaded only when asked)."""
    from affray.rulesystems.mst2.odds.encounter import exact_fight

    return exact_fight(ruleset, cursor, tactics, first)


def _exact_work(
    ruleset: Mst2Ruleset,
    cursor: Cursor[Fighter, FighterState],
    /,
    *,
    tactics: Mapping[str, Mst2Tactics],
    first: First | None,
) -> int:
    """The steps of the exact chain of the fight from ``cursor``, found at once.

    Raises:
        RulesError: past the chain's limits (five or more fighting are refused here,
            before the chain is planned: planning them takes seconds, and a chain of
            five fighters is past the work budget but in rare cases).
    """
    from affray.errors import RulesError
    from affray.rulesystems.mst2.odds.encounter import exact_limit

    fighting = sum(state.fighting for state in cursor.encounter.states.values())
    if fighting > 4:
        raise RulesError(f"{fighting} combatants fighting: past the exact chain's quick reach")
    return exact_limit(ruleset, cursor, tactics, first).work


def _exact_compiles_first() -> bool:
    from affray.rulesystems.mst2.odds.encounter_kernel import needs_compiling

    return needs_compiling()


def _live_odds(
    ruleset: Mst2Ruleset, encounter: Mst2Encounter, /, *, who: str, action: Action
) -> LiveOdds | None:
    """The exact odds of an attack or shot about to be made, from the state before it."""
    from affray.rulesystems.mst2.odds import attack_odds

    cid = who
    if not isinstance(action, Attack | Shoot) or action.target is None:
        return None
    attacker, target = encounter.sheet(cid), encounter.sheet(action.target)
    power = None
    if isinstance(action, Shoot) and isinstance(attacker.missile, Missile):
        power = attacker.missile.power
        near = [
            n for n in encounter.cluster(action.target) if n != cid and encounter.states[n].fighting
        ]
        if near:
            return _shot_odds(encounter, cid, action.target, near, power)
    odds = attack_odds(attacker, target, encounter.states[action.target].wounds, power=power)

    return LiveOdds(
        f"odds of {cid} against {action.target} if the attack goes ahead: {odds.summary()}",
        {
            "p_hit": float(odds.p_hit),
            "p_wound": float(odds.p_wound),
            "p_defender_out": float(odds.p_out),
        },
    )


def _shot_odds(
    encounter: Mst2Encounter, cid: str, target: str, near: list[str], power: Any
) -> LiveOdds:
    """A shot at ``target`` in a melee: on an even d20 it flies at the target, on an odd
    one at the target or anyone near it, alike (docs/rules/mst2.md); each is then hit on the same
    d20. Who could be hit, and how likely each is to be hit and to go out (if no
    counter-attack stops the shot first)."""
    from fractions import Fraction

    from affray.rulesystems.mst2.odds import attack_odds

    shooter = encounter.sheet(cid)
    candidates = [target, *near]
    chances: dict[str, tuple[Fraction, Fraction]] = {}
    for who in candidates:
        odds = attack_odds(shooter, encounter.sheet(who), encounter.states[who].wounds, power=power)
        hitting = round(odds.p_hit * 20)  # the top faces hit: d20 + skill > evasion
        faces = range(21 - hitting, 21)
        share = Fraction(1, len(candidates))
        p_hit = sum(
            (Fraction(1, 20) * (share if f % 2 else (1 if who == target else 0)) for f in faces),
            Fraction(0),
        )
        out_given_hit = odds.p_out / odds.p_hit if odds.p_hit else Fraction(0)
        chances[who] = (p_hit, p_hit * out_given_hit)
    words = ", ".join(
        f"{who} {float(hit) * 100:.1f}% hit, {float(out) * 100:.1f}% out"
        for who, (hit, out) in chances.items()
    )
    figures: dict[str, float] = {
        "p_hit": float(chances[target][0]),
        "p_defender_out": float(chances[target][1]),
    }
    for who in near:
        figures[f"p_hit:{who}"] = float(chances[who][0])
    return LiveOdds(f"odds of {cid}'s shot at {target}, who is in a melee: {words}", figures)


SYSTEM: RuleSystem[Fighter, FighterState, Mst2Ruleset, Mst2Tactics] = RuleSystem(
    name="mst2",
    title="MST-2",
    sheet_type=Fighter,
    read_sheet=_sheet,
    option_keys=frozenset(EncounterOptions.model_fields),
    side_keys=frozenset(),
    tactics_keys=frozenset(TacticsKeys.model_fields),
    ruleset=_ruleset,
    duel_ruleset=Mst2Ruleset,
    tactics=_tactics,
    ai=_ai,
    narration=NARRATION,
    topics=TOPICS,
    conditions=CONDITIONS,
    bestiary=resources.files(__package__) / "bestiary",
    listed=0,
    exact=_exact,
    rounds=_rounds,
    simulate=_simulate,
    fast_fights=_fast_fights,
    fight_ends=_fight_ends,
    fight_ends_compiles_first=_fight_ends_compiles_first,
    exact_fights=_exact_fights,
    exact_work=_exact_work,
    live_odds=_live_odds,
    edit=edit,
    hazards=HAZARDS,
    hazard=_hazard,
    rest=rest,
    stat_block=stat_block,
    ladders=ladders,
    exact_compiles_first=_exact_compiles_first,
    who_first="{a} attacks first",
    # at a table the game master gives a circumstance by fiat (a player's link could
    # award itself one): the question is asked only with the option, and of him
    table_defaults={"ask_circumstance": False},
    quick_keys=("wounds",),
    game_masters_topics=(Mst2Topic.CIRCUMSTANCE.value,),
    rest_options=(
        RestOption("setting", "healing", (("low", "low fantasy"), ("high", "high fantasy"))),
    ),
)
