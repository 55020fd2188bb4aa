"""The generic encounter engine: state, sides, turn order, event log, tactics.

Rule systems plug in through :class:`Ruleset`.
"""

from affray.encounter.engine import DEFAULT_MAX_ROUNDS, EncounterResult, Step, run_encounter, steps
from affray.encounter.model import Combatant, Encounter, Tactics, pair
from affray.encounter.ruleset import Ruleset
from affray.encounter.tactics import TARGET_POLICIES, target_policy

__all__ = [
    "DEFAULT_MAX_ROUNDS",
    "TARGET_POLICIES",
    "Combatant",
    "Encounter",
    "EncounterResult",
    "Ruleset",
    "Step",
    "Tactics",
    "pair",
    "run_encounter",
    "steps",
    "target_policy",
]
