"""Events → readable text: one line per action, every roll and modifier shown.

The narrator is a view of the event log. It returns lines of styled segments
(plain data: ``(text, style)``) so that the CLI can colour them with rich and
everything else can use :func:`plain`.

Example line::

    Sellsword attacks Spearman (sword): d20 14+3=17 vs evasion 12 → hit;
    power 3d6 [5,2,6] vs protection 2 → 2 wounds (total 2);
    shock 1d10 [7]=7 > 2 → keeps fighting
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from affray.dice import DieRoll
from affray.encounter import events as enc
from affray.events import Event
from affray.rules.midian import events as mid
from affray.rules.midian.modifiers import describe
from affray.rules.mst2 import events as mst2
from affray.rules.mst2.catalog import pool_text

Segment = tuple[str, str]
"""``(text, style)``; style names: name, hit, miss, wound, out, dim, or ""."""
Line = tuple[Segment, ...]


def plain(line: Line) -> str:
    """A line without styles."""
    return "".join(text for text, _ in line)


def narrate(events: Iterable[Event]) -> list[Line]:
    """Turn an event log into lines. Events that continue an action (power, shock,
    succumbing) are appended to the line of the attack they belong to."""
    lines: list[list[Segment]] = []
    for event in events:
        handler = _HANDLERS.get(type(event))
        if handler is None:
            lines.append([(f"{event.kind}: {event.to_dict()}", "dim")])
            continue
        segments, continues = handler(event)
        if not segments:
            continue
        if continues and lines:
            lines[-1].extend([("; ", ""), *segments])
        else:
            lines.append(list(segments))
    return [tuple(line) for line in lines]


def narrate_text(events: Iterable[Event]) -> list[str]:
    """:func:`narrate` as plain strings."""
    return [plain(line) for line in narrate(events)]


def _faces(dice: Sequence[DieRoll]) -> str:
    return "[" + ",".join(str(die.face) for die in dice) + "]"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


_Handler = Callable[[Any], tuple[list[Segment], bool]]


def _attack(event: mst2.AttackRolled) -> tuple[list[Segment], bool]:
    verb = {"melee": "attacks", "counter": "counter-attacks", "ranged": "shoots at"}[event.mode]
    outcome = ("hit", "hit") if event.hit else ("miss", "miss")
    indent = "  ↳ " if event.mode == "counter" else ""
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
        (f"power {pool}{extra} {_faces(event.dice)} vs protection {event.protection} → ", ""),
        (_plural(event.wounds, "wound"), style),
    ], True


def _wounded(event: mst2.Wounded) -> tuple[list[Segment], bool]:
    return [(f"total {_plural(event.total_wounds, 'wound')}", "wound")], True


def _shock(event: mst2.ShockChecked) -> tuple[list[Segment], bool]:
    label = "shock" if event.check == 1 else "second shock"
    pool = pool_text(tuple(die.sides for die in event.dice))
    bonus = f"{event.bonus:+d}" if event.bonus else ""
    comparison = ">" if event.passed else "≤"
    verdict = ("keeps fighting", "hit") if event.passed else ("fails", "out")
    return [
        (
            f"{label} {pool}{bonus} {_faces(event.dice)}={event.total} {comparison} "
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
    return [
        ("  ", ""),
        (event.attacker, "name"),
        (f"'s {event.action} is prevented", "miss"),
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
        detail = f" {_faces(event.dice)} vs protection {event.protection}"
    else:
        detail = " (ignores armour)"
    return [
        (event.fighter, "name"),
        (f" suffers {event.hazard} ({event.detail}){detail} → ", ""),
        (_plural(event.wounds, "wound"), "wound" if event.wounds else "miss"),
    ], False


def _healed(event: mst2.Healed) -> tuple[list[Segment], bool]:
    pool = pool_text(tuple(die.sides for die in event.dice))
    bonus = event.total - sum(die.face for die in event.dice)
    pool += f"{bonus:+d}" if bonus else ""
    return [
        (event.fighter, "name"),
        (
            f" rests a day ({event.setting} fantasy): {pool} {_faces(event.dice)}={event.total}"
            f" → heals {event.healed}, {_plural(event.wounds, 'wound')} left",
            "",
        ),
    ], False


def _started(event: enc.EncounterStarted) -> tuple[list[Segment], bool]:
    sides = "; ".join(f"{side}: {', '.join(members)}" for side, members in event.sides)
    return [(event.name or "Encounter", "name"), (f" ({event.system}) — {sides}", "")], False


def _round(event: enc.RoundStarted) -> tuple[list[Segment], bool]:
    return [
        (f"— Round {event.round} —", "name"),
        (f" order: {', '.join(event.order)}", "dim"),
    ], False


_ACTION_WORDS = {
    "flee": "tries to flee",
    "step away": "steps back out of the melee",
    "hold": "holds",
    "grapple": "tries to grapple {target}",
    "disarm": "tries to disarm {target}",
    "keeps the hold": "keeps {target} in a hold",
    "squeezes": "squeezes {target} in the hold",
    "tries to break the hold": "tries to break {target}'s hold",
    "total defence": "stays on total defence",
    "evasion": "weaves and dodges (evasion)",
}


def _chosen(event: enc.ActionChosen) -> tuple[list[Segment], bool]:
    # attacks announce themselves through their dice; other actions need a header
    if event.action in ("melee", "shoot"):
        return [], False
    words = _ACTION_WORDS.get(event.action, event.action).format(target=event.target or "")
    return [(event.combatant, "name"), (f" {words}", "")], False


def _skipped(event: enc.TurnSkipped) -> tuple[list[Segment], bool]:
    return [(event.combatant, "name"), (f" does nothing: {event.reason}", "dim")], False


def _engaged(event: enc.Engaged) -> tuple[list[Segment], bool]:
    return [
        (event.a, "name"),
        (" engages ", "dim"),
        (event.b, "name"),
        (f" (distance {event.distance})", "dim"),
    ], False


def _disengaged(event: enc.Disengaged) -> tuple[list[Segment], bool]:
    return [(event.combatant, "name"), (f" is clear of {', '.join(event.from_)}", "dim")], False


def _ended(event: enc.EncounterEnded) -> tuple[list[Segment], bool]:
    result = f"Winner: {event.winner}" if event.winner else "Draw"
    standing = f"; still standing: {', '.join(event.standing)}" if event.standing else ""
    return [
        (result, "hit" if event.winner else "name"),
        (f", after {event.rounds} rounds ({event.reason}){standing}", ""),
    ], False


def _mods(modifiers: Sequence[object]) -> str:
    text = describe(modifiers)  # type: ignore[arg-type]
    return f" {text}" if text else ""


def _sum(label: str, face: int, modifiers: Sequence[object], result: int) -> str:
    """``d20 13 +2 attack bonus = 15``."""
    return f"{label} {face}{_mods(modifiers)} = {result}"


def _m_attack(event: mid.AttackRolled) -> tuple[list[Segment], bool]:
    if event.fumble:
        outcome = ("fumble, misses", "miss")
    elif event.critical:
        outcome = ("critical hit!", "out")
    else:
        outcome = ("hit", "hit") if event.hit else ("miss", "miss")
    return [
        (event.attacker, "name"),
        (" attacks ", ""),
        (event.defender, "name"),
        (
            f" ({event.weapon.lower()}): "
            f"{_sum('d20', event.die.face, event.modifiers, event.total)}"
            f" vs AC {event.armour_class} → ",
            "",
        ),
        outcome,
    ], False


def _m_defence(event: mid.DefenceRolled) -> tuple[list[Segment], bool]:
    verdict = ("stopped", "hit") if event.success else ("fails", "miss")
    return [
        (
            f"{event.defence} ({event.cost}) "
            f"{_sum('d20', event.die.face, event.modifiers, event.total)} vs {event.against} → ",
            "",
        ),
        verdict,
    ], True


def _m_damage(event: mid.DamageRolled) -> tuple[list[Segment], bool]:
    steps = [f"damage {_faces(event.dice)}{_mods(event.modifiers)} = {event.rolled}"]
    if event.doubled:
        steps.append("doubled")
    steps += [f"{kind} resistance {pct}% -{removed}" for kind, pct, removed in event.resisted]
    if event.reduction:
        steps.append(f"reduction -{event.reduction}")
    return [
        (", ".join(steps) + " → ", ""),
        (f"{event.final} damage", "wound" if event.final else "miss"),
    ], True


def _m_taken(event: mid.DamageTaken) -> tuple[list[Segment], bool]:
    wounds = f", {event.serious_wounds} serious wounds" if event.serious_wounds else ""
    return [
        (
            f"{event.character} at {event.hit_points} HP / {event.life_points} LP{wounds}, "
            f"shock -{event.shock}",
            "wound",
        )
    ], True


def _m_check(event: mid.CheckRolled) -> tuple[list[Segment], bool]:
    mods = f" {describe(event.modifiers)} → {event.effective}" if event.modifiers else ""
    verdict = ("success", "hit") if event.success else ("failure", "miss")
    return [
        (
            f"{event.character}'s {event.attribute} {event.purpose}: "
            f"2d20 {_faces(event.dice)}={event.total}"
            f" vs {event.attribute} {event.score}{mods} → ",
            "",
        ),
        verdict,
    ], event.purpose == "check to stay conscious"


def _m_shock(event: mid.SystemShockRolled) -> tuple[list[Segment], bool]:
    verdict = ("survives", "hit") if event.success else ("fails", "out")
    return [
        (f"system shock ({event.reason}): d100 {event.die.face} vs {event.chance}% → ", ""),
        verdict,
    ], True


def _m_status(event: mid.StatusChanged) -> tuple[list[Segment], bool]:
    return [(f"{event.character} is {event.status} ({event.reason})", "out")], True


def _m_bled(event: mid.Bled) -> tuple[list[Segment], bool]:
    return [(event.character, "name"), (f" bleeds {event.amount} ({event.source})", "wound")], False


def _m_save(event: mid.SaveRolled) -> tuple[list[Segment], bool]:
    verdict = ("saved", "hit") if event.success else ("failed", "miss")
    return [
        (event.character, "name"),
        (
            f" saves against {event.save}: "
            f"{_sum('d20', event.die.face, event.modifiers, event.total)} vs {event.target} → ",
            "",
        ),
        verdict,
    ], False


def _m_initiative(event: mid.InitiativeRolled) -> tuple[list[Segment], bool]:
    slots = ", ".join(str(s) for s in event.slots)
    return [
        (event.character, "name"),
        (
            f" initiative: {_sum('d10', event.die.face, event.modifiers, event.total)}"
            f" → acts at {slots}",
            "",
        ),
    ], False


def _m_challenge(event: mid.ChallengeResolved) -> tuple[list[Segment], bool]:
    result = f"{event.winner} wins" if event.winner else "undetermined: try again next round"
    return [
        (
            f"challenge: {event.characters[0]} {event.totals[0]} vs "
            f"{event.characters[1]} {event.totals[1]} → {result}",
            "",
        )
    ], False


def _m_retest(event: mid.RetestUsed) -> tuple[list[Segment], bool]:
    return [(event.character, "name"), (f" retests ({event.source})", "dim")], False


def _m_tended(event: mid.WoundsTended) -> tuple[list[Segment], bool]:
    return [(event.character, "name"), ("'s wounds are bound: the bleeding stops", "")], False


def _m_critical(event: mid.CriticalEffect) -> tuple[list[Segment], bool]:
    roll = f" (d{event.die.sides}: {event.die.face})" if event.die else ""
    return [
        (f"critical effect on {event.character}{roll}: {event.effect}, {event.detail}", "out")
    ], True


_HANDLERS: dict[type[Event], _Handler] = {
    mid.AttackRolled: _m_attack,
    mid.DefenceRolled: _m_defence,
    mid.DamageRolled: _m_damage,
    mid.DamageTaken: _m_taken,
    mid.CheckRolled: _m_check,
    mid.SystemShockRolled: _m_shock,
    mid.StatusChanged: _m_status,
    mid.Bled: _m_bled,
    mid.SaveRolled: _m_save,
    mid.InitiativeRolled: _m_initiative,
    mid.ChallengeResolved: _m_challenge,
    mid.RetestUsed: _m_retest,
    mid.WoundsTended: _m_tended,
    mid.CriticalEffect: _m_critical,
    enc.EncounterStarted: _started,
    enc.RoundStarted: _round,
    enc.ActionChosen: _chosen,
    enc.TurnSkipped: _skipped,
    enc.Engaged: _engaged,
    enc.Disengaged: _disengaged,
    enc.EncounterEnded: _ended,
    mst2.AttackRolled: _attack,
    mst2.PowerRolled: _power,
    mst2.Wounded: _wounded,
    mst2.ShockChecked: _shock,
    mst2.Succumbed: _succumbed,
    mst2.CounterAttackGranted: _counter,
    mst2.AttackPrevented: _prevented,
    mst2.DistanceChanged: _distance,
    mst2.OutOfReach: _out_of_reach,
    mst2.TargetScattered: _scattered,
    mst2.Fled: _fled,
    mst2.ActionTaken: _action,
    mst2.HazardStruck: _hazard,
    mst2.Healed: _healed,
}
