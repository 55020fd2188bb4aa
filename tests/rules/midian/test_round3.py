"""Midian fidelity, round 3 (issue 25), the rules library and the CLI: untrained fists,
bare-hand parries, fire resistance against hazards, the ogre's hide. Dice hand-checked."""

from __future__ import annotations

from pathlib import Path

from affray.dice import ScriptedDice
from affray.rulesystems.midian.attack import armour_class
from affray.rulesystems.midian.defence import Choice, Cost, Defence, parry_modifiers
from affray.rulesystems.midian.events import AttackRolled, DamageTaken
from affray.rulesystems.midian.hazards import burn
from affray.rulesystems.midian.injury import Health
from affray.rulesystems.midian.resolve import resolve_attack
from affray.sheets import load_sheet
from tests.helpers import EXAMPLES, run_json
from tests.rules.midian.helpers import character, weapon

DOCKHAND = str(EXAMPLES / "midian" / "dockhand.toml")


# -- 6. untrained fists do only the strength bonus ---------------------------------------


def test_untrained_fists_do_only_the_damage_bonus() -> None:
    brawler = character("Brawler", damage_bonus=2)  # no weapon on the sheet: bare hands
    target = character("Target")
    # 15 hits armour class 5; no damage dice: the damage bonus, 2 (not 1d2 + 2)
    dice = ScriptedDice([15])
    outcome = resolve_attack(brawler, target, Health.fresh(target), dice, defend=False)
    assert (outcome.damage_rolled, outcome.damage) == (2, 2) and dice.remaining == ()


def test_untrained_fists_through_the_cli() -> None:
    # the dockhand (damage bonus 3) punches the merchant: 14 hits; 3 points, no dice
    data = run_json(
        "midian", "attack", DOCKHAND, "merchant", "--rolls", "14", "--no-defence", "--json"
    )
    assert data["hit"] and data["damage_rolled"] == 3 and data["damage"] == 3


def test_trained_fists_keep_their_dice() -> None:
    fists = weapon(name="Fists", damage="1d4", type="smashing", skill=3)
    boxer = character("Boxer", damage_bonus=2, weapon=fists)
    target = character("Target")
    outcome = resolve_attack(
        boxer, target, Health.fresh(target), ScriptedDice([15, 3]), defend=False
    )
    assert outcome.damage == 5


# -- 7. a bare-hand parry hurts even when it works ----------------------------------------


def bare_hand_parry(kind: str, faces: list[int]) -> tuple[int, list[object]]:
    attacker = character(
        "Swordsman", attack_bonus=2, damage_bonus=1, weapon=weapon(damage="1d8", type=kind)
    )
    brawler = character("Brawler", hit_points=20)
    parry = Choice(Defence.PARRY, parry_modifiers(brawler), Cost.ACTION)
    outcome = resolve_attack(
        attacker,
        brawler,
        Health.fresh(brawler),
        ScriptedDice(faces),
        choose_defence=lambda choices, attack: parry,
    )
    assert outcome.defended
    return outcome.health.hit_points, list(outcome.events)


def test_a_bare_hand_parry_of_a_hacking_blow_takes_a_quarter() -> None:
    # 10 + 2 = 12 hits; the bare-hand parry 18 - 5 = 13 stops it; the blow would have
    # done 1d8 [7] + 1 = 8: a quarter, 2 points, to the hand
    hit_points, events = bare_hand_parry("hacking", [10, 18, 7])
    assert hit_points == 18
    assert any(isinstance(e, DamageTaken) and e.amount == 2 for e in events)


def test_a_bare_hand_parry_of_a_stab_takes_one_point() -> None:
    hit_points, _ = bare_hand_parry("stabbing", [10, 18, 7])
    assert hit_points == 19


def test_the_parry_of_a_trained_brawler_does_not_hurt() -> None:
    fists = weapon(
        name="Fists", damage="1d4", type="smashing", skill=3, encumbrance=weapon().encumbrance
    )
    attacker = character("Swordsman", attack_bonus=2, weapon=weapon())
    boxer = character("Boxer", weapon=fists)
    dice = ScriptedDice([10, 12])  # 12 + 3 = 15 parries 12
    outcome = resolve_attack(attacker, boxer, Health.fresh(boxer), dice)
    assert outcome.defended and outcome.health.hit_points == 20 and dice.remaining == ()
    assert not any(isinstance(e, DamageTaken) for e in outcome.events)
    assert isinstance(outcome.events[0], AttackRolled)


# -- 9. the ogre's thick hide does not count against a grapple ---------------------------


def test_the_ogre_shamans_hide_is_not_natural_armour() -> None:
    shaman = load_sheet(EXAMPLES / "midian" / "ogre_shaman.toml")
    assert armour_class(shaman) == 7 and armour_class(shaman, touch=True) == 5


# -- 8. fire resistance against a blaze --------------------------------------------------


def test_full_fire_resistance_is_immunity_to_a_blaze() -> None:
    salamander = character("Salamander", resistances={"fire": 100})
    # 3d6 [4,4,3] = 11, the fire save d20 [2] fails: 11, all of it resisted
    result = burn(salamander, ScriptedDice([4, 4, 3, 2]))
    assert (result.rolled, result.resisted, result.taken) == (11, 11, 0)


def test_fire_resistance_takes_its_share_after_the_save() -> None:
    cloaked = character("Cloaked", resistances={"fire": 30})
    # 3d6 [6,5,5] = 16; the save [17] at 16 halves it: 8; 30% of 8, rounded up, is 3
    result = burn(cloaked, ScriptedDice([6, 5, 5, 17]))
    assert (result.resisted, result.taken) == (3, 5)


def test_fire_resistance_through_the_cli(tmp_path: Path) -> None:
    sheet = tmp_path / "salamander.toml"
    text = (EXAMPLES / "midian" / "ogre_shaman.toml").read_text()
    sheet.write_text(
        text.replace("resistances = { smashing = 10 }", "resistances = { fire = 100 }")
    )
    data = run_json("midian", "hazard", str(sheet), "fire", "--rolls", "4,4,3,2", "--json")
    assert data["rolled"] == 11 and data["damage"] == 0 and data["resisted"] == 11
