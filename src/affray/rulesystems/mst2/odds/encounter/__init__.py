"""Exact odds of small MST-2 encounters: a Markov chain over whole fights, playing
exactly what the reference engine plays, every die summed over instead of rolled.

docs/encounters.md ("Exact odds of small encounters", and "The chain, as the code
has it") says what a state is, how decisions are made, how the families of wounds
grids are swept (here and in :mod:`.encounter_kernel`), how the rounds and the round
cap are counted, and the limits (:data:`MAX_COMBATANTS`, ``MAX_CELLS``,
:data:`WORK_BUDGET`: refused at once by :func:`exact_limit`). The modules follow the
algorithm: :mod:`.answers` (the answer, the limits, the state's types), :mod:`.game`
(the fight's fixed facts, engagements, the policy, what one action does, turns),
:mod:`.families` (the wounds grids and their blocks' loops), :mod:`.plan` (where the
fight starts, explored and counted), :mod:`.sweep` (compiled or numpy),
:mod:`.forward` (pushed to the cap without numba) and :mod:`.door`
(:func:`exact_fight`).
"""

from affray.rulesystems.mst2.odds.encounter.answers import (
    CAP_TOLERANCE,
    FORWARD_BUDGET,
    MAX_COMBATANTS,
    ROUNDS_BUDGET,
    WORK_BUDGET,
    ExactFightOdds,
    ExactLimit,
)
from affray.rulesystems.mst2.odds.encounter.door import exact_fight
from affray.rulesystems.mst2.odds.encounter.plan import exact_limit

__all__ = [
    "CAP_TOLERANCE",
    "FORWARD_BUDGET",
    "MAX_COMBATANTS",
    "ROUNDS_BUDGET",
    "WORK_BUDGET",
    "ExactFightOdds",
    "ExactLimit",
    "exact_fight",
    "exact_limit",
]
