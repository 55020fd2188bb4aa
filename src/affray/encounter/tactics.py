"""Target policies for simulated combatants, pluggable by name.

A policy picks one of ``candidates`` (foe ids) for ``actor``. Policies see the
encounter and ask the ruleset how weak a combatant is, so they serve every rule
system. Random choices go through the Dice source, so a scripted or seeded
fight repeats exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from affray.dice import Dice
from affray.encounter.model import Encounter
from affray.encounter.ruleset import Ruleset
from affray.errors import RulesError

TargetPolicy = Callable[[Encounter, Ruleset, str, Sequence[str], Dice], str]


def weakest(
    encounter: Encounter, ruleset: Ruleset, actor: str, candidates: Sequence[str], dice: Dice
) -> str:
    """The foe closest to falling (ties: first listed)."""
    return max(candidates, key=lambda cid: ruleset.weakness(encounter, cid))


def random_foe(
    encounter: Encounter, ruleset: Ruleset, actor: str, candidates: Sequence[str], dice: Dice
) -> str:
    """Any foe, uniformly (one die with a side per candidate)."""
    if len(candidates) == 1:
        return candidates[0]
    return candidates[dice.roll(len(candidates), f"{actor} picks a target at random").face - 1]


def nearest(
    encounter: Encounter, ruleset: Ruleset, actor: str, candidates: Sequence[str], dice: Dice
) -> str:
    """The nearest threat: a foe engaged with the actor, else one engaged with an
    ally (come to the rescue), else the first listed."""
    mine = set(encounter.engaged_with(actor))
    for cid in candidates:
        if cid in mine:
            return cid
    allies = {c.id for c in encounter.allies(actor)}
    for cid in candidates:
        if allies & set(encounter.engaged_with(cid)):
            return cid
    return candidates[0]


def focus(
    encounter: Encounter, ruleset: Ruleset, actor: str, candidates: Sequence[str], dice: Dice
) -> str:
    """Focus fire: the foe most allies are already fighting (ties: the weakest)."""
    allies = {c.id for c in encounter.allies(actor)}

    def pressure(cid: str) -> tuple[int, float]:
        return (len(allies & set(encounter.engaged_with(cid))), ruleset.weakness(encounter, cid))

    return max(candidates, key=pressure)


TARGET_POLICIES: dict[str, TargetPolicy] = {
    "weakest": weakest,
    "random": random_foe,
    "nearest": nearest,
    "focus": focus,
}
ROLES = ("fighter", "archer")


def target_policy(name: str) -> TargetPolicy:
    try:
        return TARGET_POLICIES[name]
    except KeyError:
        raise RulesError(
            f"unknown target policy {name!r}", hint=f"one of: {', '.join(TARGET_POLICIES)}"
        ) from None
