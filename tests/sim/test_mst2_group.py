"""The fast MST-2 group engine against the reference engine: within 4 sigma on every
example encounter, on 20 random encounters, from fights stopped half-way (wounds,
engagements, the rest of a round) and after each first action a table offers; the
exact duel on a 1-vs-1 file; seeding and refusals."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path
from statistics import NormalDist

import pytest

import affray
from affray.dice import RandomDice
from affray.encounter import Answers, Phase
from affray.encounter.cursor import Cursor, proceed, start
from affray.errors import NotModelledError
from affray.rulesystems.mst2.sim.fights import ENGINE, mst2_fast_fights
from affray.sheets.encounters import tactics_dice
from affray.sim.fights import (
    REFERENCE,
    Fighting,
    FightOdds,
    FightTotals,
    encounter_file,
    fight_many,
    set_out,
    simulate_fights,
)
from tests.helpers import EXAMPLES

MST2_ENCOUNTERS = [
    p
    for p in sorted((EXAMPLES / "encounters").glob("*.toml"))
    if 'system = "mst2"' in p.read_text()
]
FAST_N = 60_000


def _z(p: float, n: int, q: float, m: int) -> float:
    """How many standard deviations the fast engine's ``p`` (of ``n`` fights) and the
    reference engine's ``q`` (of ``m``) are apart. Where the reference engine expects
    fewer than 10 of them (a rare draw), the normal law overstates the tails: the
    reference engine's count against the binomial of the pooled chance, as the normal
    deviate with the same exact tail."""
    pooled = (p * n + q * m) / (n + m)
    if min(pooled, 1 - pooled) * m < 10:
        return _binomial_z(round(q * m), m, pooled) * (-1 if q > p else 1)
    spread = math.sqrt(max(pooled * (1 - pooled), 1e-9) * (1 / n + 1 / m))
    return (p - q) / spread


def _binomial_z(count: int, m: int, p: float) -> float:
    """The normal deviate with the tail of ``count`` or further from ``m * p`` in a
    binomial of ``m`` trials of chance ``p`` (0 within the middle)."""
    if p <= 0.0 or p >= 1.0:
        return 0.0 if count == round(m * p) else math.inf
    k = range(count, m + 1) if count > m * p else range(count + 1)
    tail = math.fsum(
        math.exp(
            math.lgamma(m + 1) - math.lgamma(j + 1) - math.lgamma(m - j + 1)
            + j * math.log(p) + (m - j) * math.log1p(-p)
        )
        for j in k
    )  # fmt: skip
    if tail >= 0.5:
        return 0.0
    return math.inf if tail == 0.0 else -NormalDist().inv_cdf(tail)


def _rounds_spread(totals: FightTotals) -> float:
    mean = totals.mean_rounds
    return math.sqrt(sum(c * (r - mean) ** 2 for r, c in totals.rounds.items()) / totals.n)


def assert_agree(fast: FightTotals, reference: FightTotals, what: str) -> None:
    """Every side's wins, the draws, every combatant's standing and the mean rounds
    within 4 sigma."""
    n, m = fast.n, reference.n
    for side in {*fast.wins, *reference.wins}:
        p, q = fast.wins.get(side, 0) / n, reference.wins.get(side, 0) / m
        assert abs(_z(p, n, q, m)) < 4, f"{what}: {side} wins {p:.4f} vs {q:.4f}"
    assert abs(_z(fast.draws / n, n, reference.draws / m, m)) < 4, f"{what}: draws"
    for cid in {*fast.standing, *reference.standing}:
        p, q = fast.standing.get(cid, 0) / n, reference.standing.get(cid, 0) / m
        assert abs(_z(p, n, q, m)) < 4, f"{what}: {cid} standing {p:.4f} vs {q:.4f}"
    spread = max(_rounds_spread(fast), _rounds_spread(reference), 1e-9)
    z = (fast.mean_rounds - reference.mean_rounds) / (spread * math.sqrt(1 / n + 1 / m))
    assert abs(z) < 4, f"{what}: mean rounds {fast.mean_rounds:.3f} vs {reference.mean_rounds:.3f}"


def _reference(fighting: Fighting, n: int, seed: int) -> FightTotals:
    ai = fighting.system.ai(fighting.ruleset, fighting.tactics, dice=tactics_dice(seed))
    return fight_many(fighting, Answers(RandomDice(seed), ai), n)


def _fast(fighting: Fighting, n: int, seed: int) -> FightTotals:
    fights = mst2_fast_fights(fighting.ruleset, fighting.cursor, fighting.tactics, fighting.first)
    return fights.fights(seed, 0, n)


@pytest.mark.slow
@pytest.mark.parametrize("path", MST2_ENCOUNTERS, ids=[p.stem for p in MST2_ENCOUNTERS])
def test_every_example_encounter_agrees_with_the_reference_engine(path: Path) -> None:
    start_ = encounter_file(path)
    fast = simulate_fights(start_, FAST_N, seed=1)
    assert fast.engine == ENGINE and fast.note is None
    reference = simulate_fights(start_, 1200, seed=2, engine="reference")
    assert reference.engine == REFERENCE
    assert_agree(fast.totals, reference.totals, path.stem)


SHEETS = ["archer", "bandit", "goblin", "guard", "knight", "orc", "sellsword", "spearman", "wolf"]
SHEETS += ["skeleton", "wizard", "ogre"]


def _random_encounter(rng: random.Random, path: Path) -> None:
    lines = [
        'system = "mst2"',
        f'name = "Random {path.stem}"',
        f'order = "{rng.choice(["listed", "shuffled"])}"',
        f'lethality = "{rng.choice(["high", "standard", "optional"])}"',
        f"ranged_extra_power = {rng.choice(['true', 'false'])}",
        f"max_rounds = {rng.choice([6, 30, 100])}",
    ]
    for s in range(rng.choice([2, 2, 2, 3])):
        lines += ["[[sides]]", f'name = "Side {s + 1}"']
        lines.append(f'tactics = "{rng.choice(["weakest", "random", "nearest", "focus"])}"')
        members = []
        for _ in range(rng.randint(1, 2)):
            sheet = rng.choice(SHEETS)
            extra = ""
            if sheet in ("archer", "wizard") or rng.random() < 0.2:
                extra += ', role = "archer"'
            if rng.random() < 0.3:
                extra += f", retreat_at = {rng.randint(1, 4)}"
            members.append(f'{{ sheet = "{sheet}", count = {rng.randint(1, 2)}{extra} }}')
        lines.append(f"members = [{', '.join(members)}]")
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.slow
def test_twenty_random_encounters_agree_with_the_reference_engine(tmp_path: Path) -> None:
    rng = random.Random(2026)
    for k in range(20):
        path = tmp_path / f"random{k}.toml"
        _random_encounter(rng, path)
        fighting = set_out(encounter_file(path))
        assert_agree(_fast(fighting, 20_000, k), _reference(fighting, 200, k), path.read_text())


def _half_way(path: Path, seed: int, moves: int) -> Fighting:
    """The fight of ``path`` played ``moves`` moves by the tactics, then stopped."""
    fighting = set_out(encounter_file(path))
    ruleset = fighting.ruleset
    ai = fighting.system.ai(ruleset, fighting.tactics, dice=tactics_dice(seed))
    answers = Answers(RandomDice(seed), ai)
    cursor, _ = start(fighting.cursor, ruleset, answers)
    for _ in range(moves):
        if cursor.phase(ruleset) is Phase.OVER:
            break
        cursor, _ = proceed(cursor, ruleset, answers)
    return replace(fighting, cursor=cursor)


@pytest.mark.slow
def test_a_fight_stopped_half_way_goes_on_as_the_reference_engine_plays_it() -> None:
    seen_engaged = seen_wounded = 0
    for path, seed, moves in (
        (EXAMPLES / "encounters" / "ambush.toml", 3, 9),
        (EXAMPLES / "encounters" / "shield_wall.toml", 5, 14),
        (EXAMPLES / "encounters" / "ogre.toml", 1, 3),
    ):
        fighting = _half_way(path, seed, moves)
        cursor = fighting.cursor
        assert cursor.phase(fighting.ruleset) is Phase.TURN and cursor.encounter.queue
        seen_engaged += bool(cursor.encounter.engagements)
        seen_wounded += any(s.wounds for s in cursor.encounter.states.values())
        assert_agree(_fast(fighting, 40_000, 1), _reference(fighting, 500, 2), path.stem)
    assert seen_engaged == 3 and seen_wounded >= 2


@pytest.mark.slow
def test_each_first_action_a_table_offers_agrees_with_the_reference_engine() -> None:
    fighting = _half_way(EXAMPLES / "encounters" / "ambush.toml", 3, 9)
    who = fighting.cursor.current
    assert who is not None
    legal = fighting.ruleset.actions(fighting.cursor.encounter, who)
    kinds = {a.name for a in legal}
    assert {"attack", "flee", "hold"} <= kinds
    chances = {}
    for action in legal:
        first = replace(fighting, first=(action.name, action.target))
        fast, reference = _fast(first, 20_000, 7), _reference(first, 250, 8)
        assert_agree(fast, reference, f"{action.label} first")
        chances[action.label] = fast.wins.get("Caravan guard", 0) / fast.n
    assert len(set(chances.values())) > 1  # the first action matters


def test_a_one_on_one_file_agrees_with_the_exact_duel(tmp_path: Path) -> None:
    knight, ogre = EXAMPLES / "mst2" / "knight.json", EXAMPLES / "mst2" / "ogre.toml"
    path = tmp_path / "pair.toml"
    path.write_text(
        'system = "mst2"\nname = "Pair"\nmax_rounds = 1000\n'
        f'[[sides]]\nname = "Knight"\nmembers = ["{knight}"]\n'
        f'[[sides]]\nname = "Ogre"\nmembers = ["{ogre}"]\n'
    )
    exact = affray.duel(affray.load(knight), affray.load(ogre))
    n = 100_000
    odds = simulate_fights(encounter_file(path), n, seed=11, engine="fast")
    sigma = math.sqrt(exact.p_a_wins * (1 - exact.p_a_wins) / n)
    assert abs(odds.p_wins("Knight") - exact.p_a_wins) < 4 * sigma
    assert abs(odds.totals.mean_rounds - exact.mean_rounds) < 0.05 * exact.mean_rounds


def test_the_answer_depends_on_the_seed_and_n_only() -> None:
    start_ = encounter_file(EXAMPLES / "encounters" / "ambush.toml")
    one = simulate_fights(start_, 45_000, seed=5, workers=1)
    two = simulate_fights(start_, 45_000, seed=5, workers=2)
    assert one.totals == two.totals and one.engine == ENGINE
    assert simulate_fights(start_, 45_000, seed=6).totals != one.totals
    totals = one.totals
    assert sum(totals.wins.values()) + totals.draws == totals.n == 45_000
    assert sum(totals.rounds.values()) == 45_000
    assert totals.total_rounds == sum(r * c for r, c in totals.rounds.items())


def test_the_round_cap_is_a_draw(tmp_path: Path) -> None:
    """Two knights in plate who can hardly wound each other: capped at 3 rounds, most
    fights are draws that last exactly 3 rounds, as in the reference engine."""
    path = tmp_path / "cap.toml"
    path.write_text(
        'system = "mst2"\nmax_rounds = 3\n[[sides]]\nname = "A"\nmembers = ["knight"]\n'
        '[[sides]]\nname = "B"\nmembers = ["knight"]\n'
    )
    fighting = set_out(encounter_file(path))
    fast, reference = _fast(fighting, 20_000, 1), _reference(fighting, 1000, 2)
    assert max(fast.rounds) == 3 and fast.draws > fast.n / 2
    assert fast.rounds[3] >= fast.draws  # every draw lasted the 3 rounds
    assert_agree(fast, reference, "capped")


def test_what_it_cannot_play_it_refuses_and_the_reference_engine_plays() -> None:
    fighting = set_out(encounter_file(EXAMPLES / "encounters" / "ogre.toml"))
    over = _played_out(fighting)
    with pytest.raises(NotModelledError, match="a fight that is over"):
        mst2_fast_fights(fighting.ruleset, over, fighting.tactics, None)
    half = _half_way(EXAMPLES / "encounters" / "ogre.toml", 1, 3)
    with pytest.raises(NotModelledError, match="first action 'dance'"):
        mst2_fast_fights(half.ruleset, half.cursor, half.tactics, ("dance", None))


def _played_out(fighting: Fighting) -> Cursor[object, object]:
    ruleset = fighting.ruleset
    ai = fighting.system.ai(ruleset, fighting.tactics, dice=tactics_dice(0))
    answers = Answers(RandomDice(0), ai)
    cursor, _ = start(fighting.cursor, ruleset, answers)
    while cursor.phase(ruleset) is not Phase.OVER:
        cursor, _ = proceed(cursor, ruleset, answers)
    return cursor


def test_odds_say_their_engine() -> None:
    odds: FightOdds = simulate_fights(
        encounter_file(EXAMPLES / "encounters" / "ogre.toml"), 1000, seed=1
    )
    assert odds.to_dict()["engine"] == ENGINE
    reference = simulate_fights(
        encounter_file(EXAMPLES / "encounters" / "ogre.toml"), 50, seed=1, engine="reference"
    )
    assert reference.to_dict()["engine"] == REFERENCE and "note" not in reference.to_dict()
