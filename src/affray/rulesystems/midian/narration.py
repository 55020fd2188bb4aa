"""Midian events as narration: every roll with its labelled modifiers."""

from __future__ import annotations

from collections.abc import Sequence

from affray.narration.core import Narration, Segment, faces
from affray.rulesystems.midian import events as mid
from affray.rulesystems.midian.modifiers import describe


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


def _m_regenerated(event: mid.Regenerated) -> tuple[list[Segment], bool]:
    woke = ", and gets back up" if event.woke else ""
    return [
        (event.character, "name"),
        (f" regenerates {event.points} → {event.life_points} LP{woke}", "dim"),
    ], False


def _m_evaded(event: mid.Evaded) -> tuple[list[Segment], bool]:
    return [
        (f"{event.defender} evades it (evasion {event.evasion} vs {event.attack}) → ", ""),
        ("stopped", "hit"),
    ], True


def _m_defence(event: mid.DefenceRolled) -> tuple[list[Segment], bool]:
    if event.defence == "evasion":  # one roll for the whole round, not against one attack
        return [
            (event.defender, "name"),
            (
                f" weaves and dodges: evasion "
                f"{_sum('d20', event.die.face, event.modifiers, event.total)}"
                " stands against every attack this round",
                "dim",
            ),
        ], False
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
    steps = [f"damage {faces(event.dice)}{_mods(event.modifiers)} = {event.rolled}"]
    if event.times == 2 or (event.doubled and event.times == 1):
        steps.append("doubled")
    elif event.times > 2:
        steps.append(f"×{event.times}")
    steps += [f"{kind} resistance {pct}% -{removed}" for kind, pct, removed in event.resisted]
    if event.reduction:
        steps.append(f"reduction -{event.reduction}")
    return [
        (", ".join(steps) + " → ", ""),
        (f"{event.final} damage", "wound" if event.final else "miss"),
    ], True


def _m_taken(event: mid.DamageTaken) -> tuple[list[Segment], bool]:
    count = event.serious_wounds
    wounds = f", {count} serious wound{'' if count == 1 else 's'}" if count else ""
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
            f"2d20 {faces(event.dice)}={event.total}"
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


def _m_hazard(event: mid.HazardRolled) -> tuple[list[Segment], bool]:
    faces = "+".join(str(d.face) for d in event.dice) or "0"
    resisted = f", {event.resisted} resisted" if event.resisted else ""
    return [
        (event.character, "name"),
        (
            f" suffers {event.hazard} ({event.detail}): {faces} = {event.rolled}{resisted}"
            f" → {event.taken} taken",
            "wound",
        ),
    ], False


def _m_critical(event: mid.CriticalEffect) -> tuple[list[Segment], bool]:
    roll = f" (d{event.die.sides}: {event.die.face})" if event.die else ""
    return [
        (f"critical effect on {event.character}{roll}: {event.effect}, {event.detail}", "out")
    ], True


NARRATION = (
    Narration()
    .on(mid.AttackRolled, _m_attack)
    .on(mid.DefenceRolled, _m_defence)
    .on(mid.Evaded, _m_evaded)
    .on(mid.Regenerated, _m_regenerated)
    .on(mid.DamageRolled, _m_damage)
    .on(mid.DamageTaken, _m_taken)
    .on(mid.CheckRolled, _m_check)
    .on(mid.SystemShockRolled, _m_shock)
    .on(mid.StatusChanged, _m_status)
    .on(mid.Bled, _m_bled)
    .on(mid.SaveRolled, _m_save)
    .on(mid.InitiativeRolled, _m_initiative)
    .on(mid.ChallengeResolved, _m_challenge)
    .on(mid.RetestUsed, _m_retest)
    .on(mid.WoundsTended, _m_tended)
    .on(mid.CriticalEffect, _m_critical)
    .on(mid.HazardRolled, _m_hazard)
)
