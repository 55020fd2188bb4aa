"""Dice notation past NdM: keep/drop, exploding dice, rerolls and success counting.

Exact distributions are checked against brute force: every sequence of faces the dice
could show, each equally likely, read by a small interpreter written here (not the
library's roller) that takes rolls from the sequence as a person would. Sequences
long enough for the most rolls a term can take make every stopping rule exact; the
rerolls and explosions are cut to a small depth (monkeypatched limits) so that the
enumeration stays small, and the library truncates at the same place.
"""

from __future__ import annotations

import itertools
import json
import time
from collections import Counter
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from affray.dice import (
    Compare,
    Count,
    DicePool,
    DiceTerm,
    Explode,
    Reroll,
    ScriptedDice,
    Select,
    Sum,
    distribution,
    limits,
    mean,
    parse,
    roll,
    to_text,
)
from affray.dice.syntax import Constant, dice_terms, signed_leaves
from affray.errors import DiceLimitError, DiceSyntaxError, SheetError

# -- the brute-force interpreter ------------------------------------------------------


def settle_die(pool: DicePool, rolls: Iterator[int]) -> int:
    """One die's value, taking faces from ``rolls`` as the notation says."""

    def one_roll() -> int:
        face = next(rolls)
        if pool.reroll is not None:
            limit = 1 if pool.reroll.once else limits.MAX_REROLLS
            done = 0
            while pool.reroll.when.matches(face) and done < limit:
                face, done = next(rolls), done + 1
        return face

    face = one_roll()
    value, explosions = face, 0
    while (
        pool.explode is not None
        and pool.explode.when.matches(face)
        and explosions < limits.MAX_EXPLOSIONS
    ):
        face = one_roll()
        value, explosions = value + face, explosions + 1
    return value


def select_and_count(pool: DicePool, values: tuple[int, ...]) -> int:
    kept = list(values)
    if pool.select is not None:
        ranked = sorted(values, reverse=True)
        n, kind = pool.select.count, pool.select.kind
        kept = {
            "kh": ranked[:n],
            "dl": ranked[: len(ranked) - n],
            "kl": ranked[len(ranked) - n :],
            "dh": ranked[n:],
        }[kind]
    if pool.count is not None:
        return sum(pool.count.score(value) for value in kept)
    return sum(kept)


def rolls_per_die(pool: DicePool) -> int:
    """The most faces one die of a pool can take."""
    per_roll = 1
    if pool.reroll is not None:
        per_roll += 1 if pool.reroll.once else limits.MAX_REROLLS
    return per_roll * (1 + (limits.MAX_EXPLOSIONS if pool.explode else 0))


def leaf_totals(leaf: DiceTerm | DicePool) -> Counter[int]:
    """A term's totals, each with its number of equally likely ways: one die's values
    over every sequence of faces it could take, then every combination of the dice."""
    pool = leaf if isinstance(leaf, DicePool) else DicePool(leaf)
    sides = pool.dice.sides
    one: Counter[int] = Counter()
    for faces in itertools.product(range(1, sides + 1), repeat=rolls_per_die(pool)):
        one[settle_die(pool, iter(faces))] += 1
    totals: Counter[int] = Counter()
    for combination in itertools.product(one.items(), repeat=pool.dice.count):
        ways = 1
        for _, n in combination:
            ways *= n
        totals[select_and_count(pool, tuple(value for value, _ in combination))] += ways
    return totals


def brute_force(text: str) -> dict[int, Fraction]:
    parts: list[list[tuple[int, int]]] = []
    for sign, leaf in signed_leaves(parse(text)):
        if isinstance(leaf, Constant):
            parts.append([(sign * leaf.value, 1)])
        else:
            parts.append([(sign * total, n) for total, n in leaf_totals(leaf).items()])
    counts: Counter[int] = Counter()
    for combination in itertools.product(*parts):
        ways = 1
        for _, n in combination:
            ways *= n
        counts[sum(total for total, _ in combination)] += ways
    whole = sum(counts.values())
    return {outcome: Fraction(n, whole) for outcome, n in sorted(counts.items())}


@pytest.fixture
def shallow(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rerolls and explosions cut short, for the library and the brute force alike."""
    monkeypatch.setattr(limits, "MAX_EXPLOSIONS", 2)
    monkeypatch.setattr(limits, "MAX_REROLLS", 2)


# -- exact distributions against brute force ------------------------------------------

KEEP_AND_COUNT = [
    "4d6kh3",
    "4d6k3",
    "4d6kh3+2",
    "2d20kl1+5",
    "2d20kh1",
    "4d6dl1",
    "4d6dh1",
    "3d6kl2-1d4",
    "5d4kh2",
    "5d4dh3",
    "1d8kh1",
    "5d6>=5",
    "6d4>3",
    "4d6<3",
    "4d6<=2",
    "3d6=6",
    "5d6>=5f1",
    "4d10>=8f<=2",
    "4d6kh2>=4",
    "5d4kl3<2",
    "-(3d4kh2)+2d4dl1",
    "2d6>=5+3",
]


@pytest.mark.parametrize("text", KEEP_AND_COUNT)
def test_keep_drop_and_counts_match_enumeration(text: str) -> None:
    assert distribution(text).probabilities() == brute_force(text)


REROLL_AND_EXPLODE = [
    "2d6r1",
    "2d6r<3",
    "2d4r>=3",
    "2d6ro1",
    "2d4ro<3",
    "3d4!",
    "2d6!",
    "2d4!>=3",
    "2d4!1",
    "1d6!>5",
    "2d3!+1",
    "2d4!kh1",
    "3d3!dl1",
    "3d3!3>=3",
    "2d4r1!",
    "3d3ro1kh2",
    "2d4!4>=3f1",
    "2d3!<2",
]


@pytest.mark.parametrize("text", REROLL_AND_EXPLODE)
def test_rerolls_and_explosions_match_enumeration_truncated_alike(shallow: None, text: str) -> None:
    assert distribution(text).probabilities() == brute_force(text)


def roller_distribution(text: str) -> dict[int, Fraction]:
    """The library's roller fed every sequence of faces (equally likely)."""
    tree = parse(text)
    pools = [
        leaf if isinstance(leaf, DicePool) else DicePool(leaf)
        for _, leaf in signed_leaves(tree)
        if not isinstance(leaf, Constant)
    ]
    needed = sum(pool.dice.count * rolls_per_die(pool) for pool in pools)
    (size,) = {pool.dice.sides for pool in pools}
    counts: Counter[int] = Counter()
    for faces in itertools.product(range(1, size + 1), repeat=needed):
        counts[roll(tree, ScriptedDice(faces)).total] += 1
    whole = sum(counts.values())
    return {outcome: Fraction(n, whole) for outcome, n in sorted(counts.items())}


@pytest.mark.parametrize(
    "text", ["2d4!", "2d3r1", "2d4ro<3", "3d3!kh2", "2d3!>=2>=3", "3d4dl1+1", "1d3r1!3>=3f1"]
)
def test_the_roller_and_the_distribution_agree(shallow: None, text: str) -> None:
    assert roller_distribution(text) == distribution(text).probabilities()


def test_explosions_at_full_depth_are_cut_where_documented() -> None:
    """d2!: a 1 ends it, a 2 explodes, 20 times at most (the last roll stands)."""
    depth = limits.MAX_EXPLOSIONS
    assert depth == 20
    expected = {2 * k + 1: Fraction(1, 2 ** (k + 1)) for k in range(depth)}
    expected[2 * depth + 1] = Fraction(1, 2 ** (depth + 1))
    expected[2 * depth + 2] = Fraction(1, 2 ** (depth + 1))
    assert distribution("d2!").probabilities() == expected
    assert distribution("d6!").maximum == 6 * (depth + 1)


def test_rerolls_at_full_depth_are_cut_where_documented() -> None:
    """d6r1: a 1 is rerolled while it shows 1, 20 times at most (the 20th reroll stands)."""
    bound = limits.MAX_REROLLS
    assert bound == 20
    stands = sum(Fraction(1, 6 ** (k + 1)) for k in range(bound + 1))
    expected = {1: Fraction(1, 6 ** (bound + 1))} | dict.fromkeys(range(2, 7), stands)
    assert distribution("d6r1").probabilities() == expected
    # ro: once, whatever the reroll shows
    assert distribution("d6ro1").probabilities() == {1: Fraction(1, 36)} | {
        face: Fraction(7, 36) for face in range(2, 7)
    }


def test_worked_values() -> None:
    assert distribution("4d6kh3").mean == Fraction(15869, 1296)
    assert distribution("2d20kh1").p_where(lambda t: t >= 15) == 1 - Fraction(14 * 14, 400)
    assert distribution("2d20kl1").probability(20) == Fraction(1, 400)
    assert distribution("6d10>=8").probability(0) == Fraction(7**6, 10**6)
    assert distribution("3d6=6").mean == Fraction(1, 2)
    assert distribution("4d6kh3") == distribution("4d6dl1")
    assert distribution("4d6kl3") == distribution("4d6dh1")


@pytest.mark.parametrize(
    "text", [*KEEP_AND_COUNT, *REROLL_AND_EXPLODE, "10d6!", "20d6kh10", "3d20r<20"]
)
def test_the_mean_is_the_distributions(text: str) -> None:
    assert mean(text) == distribution(text).mean


# -- the syntax tree --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        ("4d6kh3", DicePool(DiceTerm(4, 6), select=Select("kh", 3))),
        ("4d6k3", DicePool(DiceTerm(4, 6), select=Select("kh", 3))),
        ("2d20KL", DicePool(DiceTerm(2, 20), select=Select("kl", 1))),
        ("4d6dl1", DicePool(DiceTerm(4, 6), select=Select("dl", 1))),
        ("3d6!", DicePool(DiceTerm(3, 6), explode=Explode(Compare("=", 6)))),
        ("3d6!6", DicePool(DiceTerm(3, 6), explode=Explode(Compare("=", 6)))),
        ("1d6!>=5", DicePool(DiceTerm(1, 6), explode=Explode(Compare(">=", 5)))),
        ("2d6r1", DicePool(DiceTerm(2, 6), reroll=Reroll(Compare("=", 1)))),
        ("2d6r=1", DicePool(DiceTerm(2, 6), reroll=Reroll(Compare("=", 1)))),
        ("2d6ro<3", DicePool(DiceTerm(2, 6), reroll=Reroll(Compare("<", 3), once=True))),
        ("6d10>=8", DicePool(DiceTerm(6, 10), count=Count(Compare(">=", 8)))),
        (
            "6d10>=8f1",
            DicePool(DiceTerm(6, 10), count=Count(Compare(">=", 8), Compare("=", 1))),
        ),
        ("d%kh1", DicePool(DiceTerm(1, 100), select=Select("kh", 1))),
        (
            "2d6>=5+3",
            Sum(((1, DicePool(DiceTerm(2, 6), count=Count(Compare(">=", 5)))), (1, Constant(3)))),
        ),
    ],
)
def test_parses_modifiers(text: str, tree: object) -> None:
    assert parse(text) == tree


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("4d6K3", "4d6kh3"),
        ("3d6!6", "3d6!"),
        ("3d6!6>=5", "3d6!6>=5"),  # a bare '!' before '>=' would read as the explosion's
        ("3d6!kh2>=5", "3d6!kh2>=5"),
        ("5d6>=5!kh3r1", "5d6r1!kh3>=5"),  # any order in, one order out
        ("2d6r=1", "2d6r1"),
        ("6d10=10", "6d10=10"),
        ("6d10f1>=8", "6d10>=8f1"),
        ("-4d6dl1+2", "-4d6dl1+2"),
    ],
)
def test_to_text_is_canonical(text: str, canonical: str) -> None:
    assert to_text(parse(text)) == canonical
    assert parse(canonical) == parse(text)


def test_modifiers_act_in_one_order_whatever_order_they_are_written_in() -> None:
    assert parse("4d6kh3r1") == parse("4d6r1kh3")
    counted = parse("5d6>=5!")  # the '!' after the count: explodes on a 6
    assert counted == DicePool(
        DiceTerm(5, 6), explode=Explode(Compare("=", 6)), count=Count(Compare(">=", 5))
    )
    assert to_text(counted) == "5d6!6>=5"
    assert parse("5d6!>=5") != counted  # here '>=5' is the explosion's: 5 and 6 explode


# -- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "position", "words", "tip"),
    [
        ("4d6kh5", 3, "keeps 5 of 4 dice", "keep 1 to 4"),
        ("4d6kh0", 3, "keeps 0 of 4 dice", "keep 1 to 4"),
        ("4d6dl4", 3, "drops 4 of 4 dice", "drop 1 to 3"),
        ("1d20dl1", 4, "drops 1 of 1 die", "2d20dl1"),
        ("4d6d1", 3, "unexpected 'd'", "dl1"),
        ("3d6 kh3", 4, "unexpected 'k'", "without spaces"),
        ("(2d6)kh1", 5, "unexpected 'k'", "not to parentheses"),
        ("5kh1", 1, "unexpected 'k'", "follow a dice term"),
        ("2d6+3>=8", 5, "unexpected '>'", "affray odds '2d6+3>=8'"),
        ("2d6r", 4, "a number must follow 'r'", "2d6r1"),
        ("2d6r<", 5, "a number must follow '<'", "faces of a d6"),
        ("6d10>=", 6, "a number must follow '>='", "6d10>=8"),
        ("2d6r7", 3, "never rerolls: a d6 shows 1 to 6", "2d6r1"),
        ("2d6r<=6", 3, "rerolls every face", "ro"),
        ("3d6!7", 3, "never explodes", "3d6!"),
        ("3d6!>=8", 3, "never explodes", "3d6!6>=8"),
        ("3d6!>=1", 3, "explodes on every face", "!>=5"),
        ("3d6!!", 4, "'!!'", "write 3d6!"),
        ("d6!=6", 2, "ambiguous", "!6"),
        ("6d10f1", 4, "counts no successes", "6d10>=8f1"),
        ("6d10>=8f>=9", 7, "both a success", "must not overlap"),
        ("2d6r1r2", 5, "a second reroll", "r<3"),
        ("4d6kh3kh2", 6, "a second keep or drop", "dl1"),
        ("3d6!!>5", 4, "'!!'", "3d6!"),
        ("6d10>=8>=9", 7, "a second compare point", "6d10>=8"),
    ],
)
def test_bad_notation_says_what_and_where_with_a_tip(
    text: str, position: int, words: str, tip: str
) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert caught.value.position == position, str(caught.value)
    assert words in caught.value.message
    assert caught.value.hint is not None and tip in caught.value.hint
    assert "^" in str(caught.value)


@pytest.mark.parametrize(
    "text", ["1000d1000kh500", "30d6!", "d1000!>1", "1000d10>=8f1", "200d20kh100", "100d20r<20"]
)
def test_pools_too_large_are_refused_at_once_with_the_limit_named(text: str) -> None:
    start = time.perf_counter()
    with pytest.raises(DiceLimitError, match="too large") as caught:
        distribution(text)
    assert "3,000,000" in str(caught.value)
    assert time.perf_counter() - start < 0.5  # refused before the work, not during it


def test_large_pools_within_the_budget_answer() -> None:
    assert distribution("1000d20kh1").maximum == 20
    assert distribution("1000d1000>=500").mean == 501
    assert distribution("100d6kh50").minimum == 50


# -- plain dice only, where the rules need them ----------------------------------------


@pytest.mark.parametrize("text", ["4d6kh3", "2d6+3d6!", "2d6r1", "6d10>=8"])
def test_dice_terms_refuse_pools_with_a_clear_message(text: str) -> None:
    with pytest.raises(DiceSyntaxError, match="only plain dice") as caught:
        dice_terms(parse(text))
    assert caught.value.hint is not None and "without modifiers" in caught.value.hint


def test_mst2_power_and_hit_dice_still_refuse_the_new_notation(tmp_path: Path) -> None:
    from affray.rulesystems.mst2 import HitDice, parse_pool
    from affray.sheets import load_sheet

    assert parse_pool("1d6+1d8") == (6, 8)
    with pytest.raises(DiceSyntaxError, match="4d6kh3 keeps or drops dice: only plain dice"):
        parse_pool("4d6kh3")
    with pytest.raises(DiceSyntaxError, match="explodes"):
        HitDice.parse("2d10!+1")
    sheet = tmp_path / "pool.toml"
    sheet.write_text(
        'system = "mst2"\nname = "X"\nskill = 1\nweapon = "sword"\narmor = "none"\n'
        'hit_dice = "3d10kh2"\n'
    )
    with pytest.raises(SheetError, match="only plain dice") as caught:
        load_sheet(sheet)
    assert "hit_dice" in str(caught.value)


# -- rolling with scripted dice ---------------------------------------------------------


def test_keep_highest_rolls_every_die_and_drops_the_lowest() -> None:
    result = roll("4d6kh3+2", ScriptedDice([3, 1, 4, 6]))
    assert result.total == 3 + 4 + 6 + 2
    assert result.faces == (3, 1, 4, 6)
    assert [d.kept for d in result.dice] == [True, False, True, True]
    assert all(d.term == "4d6kh3" for d in result.dice)


def test_equal_dice_the_first_rolled_ranks_higher() -> None:
    """4d6kh3 and 4d6dl1 are the same roll and drop the same die."""
    for text in ("4d6kh3", "4d6dl1"):
        assert [d.kept for d in roll(text, ScriptedDice([2, 5, 2, 2])).dice] == [
            True,
            True,
            True,
            False,
        ]
    for text in ("4d6kl1", "4d6dh3"):
        assert [d.kept for d in roll(text, ScriptedDice([2, 5, 2, 2])).dice] == [
            False,
            False,
            False,
            True,
        ]


def test_advantage_and_disadvantage() -> None:
    assert roll("2d20kh1+5", ScriptedDice([7, 15])).total == 20
    assert roll("2d20kl1+5", ScriptedDice([7, 15])).total == 12


def test_an_exploding_die_is_settled_before_the_next_is_rolled() -> None:
    dice = ScriptedDice([6, 6, 2, 3, 4], record=True)
    result = roll("3d6!", dice)
    assert result.total == 14 + 3 + 4
    first = result.dice[0]
    assert first.faces == (6, 6, 2) and first.value == 14 and first.explosions == 2
    assert [r.purpose for r in result.rolls][:3] == [
        "roll d6 #1",
        "roll d6 #2 (explosion)",
        "roll d6 #3 (explosion)",
    ]
    assert dice.remaining == ()


def test_explosions_stop_at_the_depth_limit() -> None:
    depth = limits.MAX_EXPLOSIONS
    dice = ScriptedDice([2] * (depth + 1) + [1])
    result = roll("1d2!", dice)
    assert result.total == 2 * (depth + 1) and dice.remaining == (1,)


def test_rerolls_until_the_face_no_longer_matches() -> None:
    result = roll("2d6r1", ScriptedDice([1, 1, 5, 3]))
    assert result.total == 8
    assert result.dice[0].rerolled == (1, 1) and result.dice[0].faces == (5,)
    assert result.rolls[1].purpose == "roll d6 #2 (reroll)"
    bound = limits.MAX_REROLLS
    dice = ScriptedDice([1] * (bound + 1) + [6])
    assert roll("1d6r1", dice).total == 1 and dice.remaining == (6,)


def test_reroll_once_keeps_the_second_face() -> None:
    result = roll("2d6ro<3", ScriptedDice([1, 2, 2, 5]))
    assert result.total == 2 + 5  # the first die's reroll shows 2: it stands
    assert result.dice[0].rerolled == (1,) and result.dice[1].rerolled == (2,)


def test_each_explosion_is_rerolled_by_the_same_rule() -> None:
    result = roll("1d6r1!", ScriptedDice([6, 1, 4]))
    assert result.total == 10 and result.dice[0].rerolled == (1,)


def test_success_counting_scores_each_die() -> None:
    result = roll("6d10>=8f1+1", ScriptedDice([8, 1, 3, 10, 9, 2]))
    assert result.total == 3 - 1 + 1
    assert [d.score for d in result.dice] == [1, -1, 0, 1, 1, 0]


def test_counting_kept_dice_only() -> None:
    result = roll("4d6kh2>=4", ScriptedDice([4, 6, 5, 1]))
    assert result.total == 2  # 6 and 5 kept; the 4 is dropped
    assert [d.score for d in result.dice] == [None, 1, 1, None]


def test_exploding_dice_count_by_their_value() -> None:
    result = roll("2d6!6>=8", ScriptedDice([6, 1, 5]))
    assert result.total == 0  # 6+1 = 7 and 5: neither reaches 8
    result = roll("2d6!6>=8", ScriptedDice([6, 3, 5]))
    assert result.total == 1


def test_plain_dice_roll_as_before() -> None:
    result = roll("2d6+1d8-(1d4)+5", ScriptedDice([3, 4, 6, 2]))
    assert result.total == 3 + 4 + 6 - 2 + 5
    assert [r.purpose for r in result.rolls] == [
        "roll d6 #1",
        "roll d6 #2",
        "roll d8 #3",
        "roll d4 #4",
    ]
    assert [(d.sign, d.faces, d.kept) for d in result.dice] == [
        (1, (3,), True),
        (1, (4,), True),
        (1, (6,), True),
        (-1, (2,), True),
    ]


# -- the command line ---------------------------------------------------------------------


@pytest.fixture
def typed_dice(monkeypatch: pytest.MonkeyPatch) -> Callable[[list[int]], None]:
    """``affray roll`` rolling the given faces instead of random ones."""

    def use(faces: list[int]) -> None:
        monkeypatch.setattr("affray.dice.RandomDice", lambda seed=None: ScriptedDice(faces))

    return use


def test_roll_shows_each_die_kept_dropped_exploded_rerolled(
    typed_dice: Callable[[list[int]], None],
) -> None:
    from tests.helpers import run

    typed_dice([3, 1, 4, 6])
    assert run("roll", "4d6kh3+2").stdout.strip() == "4d6kh3+2 → d6:3 d6:1(dropped) d6:4 d6:6 → 15"
    typed_dice([6, 6, 2, 3, 1, 5])
    assert run("roll", "2d6!+1d6r1").stdout.strip() == (
        "2d6!+1d6r1 → d6:6+6+2=14(exploded 2 times) d6:3 d6:5(rerolled 1) → 22"
    )
    typed_dice([8, 1, 3, 10, 9, 2])
    assert run("roll", "6d10>=8f1").stdout.strip() == (
        "6d10>=8f1 → d10:8(success) d10:1(failure) d10:3 d10:10(success) d10:9(success) d10:2 → 2"
    )
    typed_dice([3, 4])
    assert run("roll", "2d6").stdout.strip() == "2d6 → d6:3 d6:4 → 7"  # as before


def test_roll_json_keeps_its_keys_and_adds_each_die(
    typed_dice: Callable[[list[int]], None],
) -> None:
    from tests.helpers import run_json

    typed_dice([1, 5, 6, 2, 4])
    data = run_json("roll", "3d6r1!kh2")
    assert data["expression"] == "3d6r1!kh2"
    assert data["rolls"] == [1, 5, 6, 2, 4]  # every face, in order: to type in again
    assert data["total"] == (6 + 2) + 5  # the dice: 1 rerolled to 5; 6 exploding to 8; 4
    assert data["dice"] == [
        {"sides": 6, "face": 1, "die": 1, "rerolled": True, "exploded": False, "kept": True},
        {"sides": 6, "face": 5, "die": 1, "rerolled": False, "exploded": False, "kept": True},
        {"sides": 6, "face": 6, "die": 2, "rerolled": False, "exploded": True, "kept": True},
        {"sides": 6, "face": 2, "die": 2, "rerolled": False, "exploded": False, "kept": True},
        {"sides": 6, "face": 4, "die": 3, "rerolled": False, "exploded": False, "kept": False},
    ]
    pool = data["pool"]
    assert isinstance(pool, list) and len(pool) == 3
    assert pool[1] == {
        "sides": 6,
        "term": "3d6r1!kh2",
        "sign": 1,
        "value": 8,
        "faces": [6, 2],
        "rerolled": [],
        "exploded": True,
        "kept": True,
        "score": None,
    }
    assert pool[0]["rerolled"] == [1] and pool[0]["value"] == 5
    assert pool[2]["kept"] is False


def test_expressions_may_start_with_a_minus() -> None:
    from tests.helpers import run, run_json

    data = run_json("odds", "-1d4")
    assert data["expression"] == "-1d4" and data["mean"] == -2.5
    assert run_json("odds", "-d4+2d6kh1")["expression"] == "-d4+2d6kh1"  # an 'h', not -h
    assert run_json("odds", "-d6>=5")["mean"] == pytest.approx(-1 / 3)
    for asking in ("-h", "--help"):
        shown = run("odds", asking)
        assert shown.exit_code == 0 and "odds [OPTIONS] EXPRESSION" in shown.stdout
    rolled = run_json("roll", "-1d4+10", "--seed", "3")
    assert 6 <= rolled["total"] <= 9  # type: ignore[operator]
    assert run("roll", "-1d4", "--seed", "3").exit_code == 0
    after_dashes = run("roll", "--seed", "1", "--json", "--", "-1+d6")  # as before
    assert json.loads(after_dashes.stdout)["expression"] == "-1+d6"
    assert run_json("odds", "2d6", "+", "1")["expression"] == "2d6 + 1"


def test_a_mistyped_option_is_not_read_as_dice() -> None:
    from tests.helpers import run

    result = run("odds", "2d6", "--jsno")
    assert result.exit_code == 2 and "No such option '--jsno'" in result.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("odds", "4d6kh5"), "kh5 keeps 5 of 4 dice (at column 4 of '4d6kh5')"),
        (("roll", "3d6 kh3"), "unexpected 'k' (at column 5 of '3d6 kh3')"),
        (("odds", "2d6+3>=x"), "unexpected '>' (at column 6"),
        (("odds", "30d6!"), "too large"),
    ],
)
def test_bad_notation_exits_2_with_one_line_and_a_tip(args: tuple[str, ...], words: str) -> None:
    from tests.helpers import run

    result = run(*args)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and words in lines[0] and lines[1].startswith("Tip: ")
