"""Encounter-engine events as narration: rounds, turns, engagements, the ending."""

from __future__ import annotations

from affray.encounter import events as enc
from affray.narration.core import Narration, Segment


def _started(event: enc.EncounterStarted) -> tuple[list[Segment], bool]:
    """The fight's name and who is on which side; a duel named after its two fighters
    ("Sellsword vs Spearman") lists no one again."""
    alone = all(members == (side,) for side, members in event.sides)
    if alone and event.name == " vs ".join(side for side, _ in event.sides):
        return [(event.name, "name"), (f" ({event.system})", "")], False
    sides = "; ".join(
        members[0] if members == (side,) else f"{side}: {', '.join(members)}"
        for side, members in event.sides
    )
    return [(event.name or "Encounter", "name"), (f" ({event.system}) — {sides}", "")], False


def _round(event: enc.RoundStarted) -> tuple[list[Segment], bool]:
    return [
        (f"— Round {event.round} —", "name"),
        (f" order: {', '.join(event.order)}", "dim"),
    ], False


def _chosen(event: enc.ActionChosen) -> tuple[list[Segment], bool]:
    # attacks announce themselves through their dice; other actions need a header
    words = event.action.announce()
    if not words:
        return [], False
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
    rounds = f"{event.rounds} round{'' if event.rounds == 1 else 's'}"
    return [
        (result, "hit" if event.winner else "name"),
        (f", after {rounds} ({event.reason}){standing}", ""),
    ], False


ENCOUNTER = (
    Narration()
    .on(enc.EncounterStarted, _started)
    .on(enc.RoundStarted, _round)
    .on(enc.ActionChosen, _chosen)
    .on(enc.TurnSkipped, _skipped)
    .on(enc.Engaged, _engaged)
    .on(enc.Disengaged, _disengaged)
    .on(enc.EncounterEnded, _ended)
)
"""How the encounter engine's own events are told."""
