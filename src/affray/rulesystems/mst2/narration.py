"""MST-2 events as narration: ``Sellsword attacks Spearman (sword): d20 14+3=17 vs
evasion 12 → hit; power 3d6 [5,2,6] vs protection 2 → 2 wounds; ...``."""

from __future__ import annotations

from affray.narration.core import Narration, Segment, faces, plural
from affray.rulesystems.mst2 import events as mst2
from affray.rulesystems.mst2.catalog import pool_text
from affray.rulesystems.mst2.events import AttackMode


def _attack(event: mst2.AttackRolled) -> tuple[list[Segment], bool]:
    verb = {
        AttackMode.MELEE: "attacks",
        AttackMode.COUNTER: "counter-attacks",
        AttackMode.RANGED: "shoots at",
    }[event.mode]
    outcome = ("hit", "hit") if event.hit else ("miss", "miss")
    indent = "  ↳ " if event.mode is AttackMode.COUNTER else ""
    return [
        (indent, ""),
        (event.attacker, "name"),
        (f" {verb} ", ""),
        (event.defender, "name"),
        (f" ({event.weapon.lower()}): d20 {event.die.face}{event.skill:+d}={event.total}", ""),
        (f" vs evasion {event.evasion} → ", ""),
        outcome,
    ], False


def _power(event: mst2.PowerRolled) -> tuple[list[Segment], bool]:
    pool = pool_text(tuple(die.sides for die in event.dice))
    extra = f" (incl. {event.circumstance})" if event.circumstance else ""
    style = "wound" if event.wounds else "miss"
    return [
        (f"power {pool}{extra} {faces(event.dice)} vs protection {event.protection} → ", ""),
        (plural(event.wounds, "wound"), style),
    ], True


def _wounded(event: mst2.Wounded) -> tuple[list[Segment], bool]:
    return [(f"total {plural(event.total_wounds, 'wound')}", "wound")], True


def _shock(event: mst2.ShockChecked) -> tuple[list[Segment], bool]:
    label = "shock" if event.check == 1 else "second shock"
    pool = pool_text(tuple(die.sides for die in event.dice))
    bonus = f"{event.bonus:+d}" if event.bonus else ""
    comparison = ">" if event.passed else "≤"
    verdict = ("keeps fighting", "hit") if event.passed else ("fails", "out")
    return [
        (
            f"{label} {pool}{bonus} {faces(event.dice)}={event.total} {comparison} "
            f"{event.wounds} → ",
            "",
        ),
        verdict,
    ], True


def _succumbed(event: mst2.Succumbed) -> tuple[list[Segment], bool]:
    words = {
        "out": "is out of the fight",
        "incapacitated": "is incapacitated",
        "dying": "is dying",
        "dead": "is dead",
    }
    return [
        (f"{event.fighter} {words.get(event.condition.value, event.condition.value)}", "out")
    ], True


def _counter(event: mst2.CounterAttackGranted) -> tuple[list[Segment], bool]:
    return [
        ("  ", ""),
        (event.by, "name"),
        (f" gets a free counter-attack ({event.against} is {event.reason})", "dim"),
    ], False


def _prevented(event: mst2.AttackPrevented) -> tuple[list[Segment], bool]:
    """ "Sellsword's attack is prevented by Spearman's counter-attack (a counter-attack
    that hits stops it)": the rule said with the outcome (reach, shooting engaged)."""
    by = "the counter-attack" if event.by == "counter-attack" else f"{event.by}'s counter-attack"
    return [
        ("  ", ""),
        (event.attacker, "name"),
        (f"'s {event.action} is prevented by {by}", "miss"),
        (" (a counter-attack that hits stops it)", "dim"),
    ], False


def _distance(event: mst2.DistanceChanged) -> tuple[list[Segment], bool]:
    return [
        ("  ", ""),
        (event.mover, "name"),
        (f" {event.how}: distance {event.before} → {event.after}", "dim"),
    ], False


def _out_of_reach(event: mst2.OutOfReach) -> tuple[list[Segment], bool]:
    return [
        ("  ", ""),
        (event.foe, "name"),
        (f" cannot reach {event.fighter} at {event.distance} distance: no counter-attack", "dim"),
    ], False


def _scattered(event: mst2.TargetScattered) -> tuple[list[Segment], bool]:
    roll = f" (d{event.die.sides}: {event.die.face})" if event.die else ""
    return [
        (event.shooter, "name"),
        (" aims at ", ""),
        (event.intended, "name"),
        (f"; an odd roll sends the shot astray{roll} towards ", "dim"),
        (event.actual, "name"),
    ], False


def _fled(event: mst2.Fled) -> tuple[list[Segment], bool]:
    return [(event.fighter, "name"), (" flees the fight", "")], False


def _action(event: mst2.ActionTaken) -> tuple[list[Segment], bool]:
    done = "does" if event.performed else "fails to do"
    return [(event.fighter, "name"), (f" {done}: {event.action}", "")], False


def _hazard(event: mst2.HazardStruck) -> tuple[list[Segment], bool]:
    if event.dice:
        detail = f" {faces(event.dice)} vs protection {event.protection}"
    else:
        detail = " (ignores armour)"
    return [
        (event.fighter, "name"),
        (f" suffers {event.hazard} ({event.detail}){detail} → ", ""),
        (plural(event.wounds, "wound"), "wound" if event.wounds else "miss"),
    ], False


def _healed(event: mst2.Healed) -> tuple[list[Segment], bool]:
    pool = pool_text(tuple(die.sides for die in event.dice))
    bonus = event.total - sum(die.face for die in event.dice)
    pool += f"{bonus:+d}" if bonus else ""
    before = event.wounds + event.healed
    if event.setting == "low":  # one wound healed when the roll is less than the wounds
        rule = f" {'<' if event.healed else '≥'} {plural(before, 'wound')}"
    else:  # high fantasy: the roll's total healed, at most every wound
        rule = ""
    return [
        (event.fighter, "name"),
        (
            f" rests a day ({event.setting} fantasy): {pool} {faces(event.dice)}={event.total}"
            f"{rule} → heals {event.healed}, {plural(event.wounds, 'wound')} left",
            "",
        ),
    ], False


def _back(event: mst2.BackOnFeet) -> tuple[list[Segment], bool]:
    return [(event.fighter, "name"), (f" is back on their feet (was {event.was})", "")], False


NARRATION = (
    Narration()
    .on(mst2.BackOnFeet, _back)
    .on(mst2.AttackRolled, _attack)
    .on(mst2.PowerRolled, _power)
    .on(mst2.Wounded, _wounded)
    .on(mst2.ShockChecked, _shock)
    .on(mst2.Succumbed, _succumbed)
    .on(mst2.CounterAttackGranted, _counter)
    .on(mst2.AttackPrevented, _prevented)
    .on(mst2.DistanceChanged, _distance)
    .on(mst2.OutOfReach, _out_of_reach)
    .on(mst2.TargetScattered, _scattered)
    .on(mst2.Fled, _fled)
    .on(mst2.ActionTaken, _action)
    .on(mst2.HazardStruck, _hazard)
    .on(mst2.Healed, _healed)
)
