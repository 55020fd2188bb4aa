"""The generic encounter engine: state, sides, turn order, event log, actions and
the questions that decide them.

Rule systems plug in through :class:`Ruleset`; whoever decides (tactics AI,
person, replay) plugs in as a :class:`Chooser` inside :class:`Answers`.
"""

from affray.encounter.actions import Action, Attack, Flee, Hold, Shoot
from affray.encounter.cursor import Cursor, Phase
from affray.encounter.engine import (
    DEFAULT_MAX_ROUNDS,
    EncounterResult,
    Step,
    action_question,
    play_turn,
    run_encounter,
    steps,
)
from affray.encounter.model import (
    Combatant,
    Encounter,
    Named,
    SheetT,
    StateT,
    named,
    pair,
    told_apart,
)
from affray.encounter.questions import (
    Answered,
    Answers,
    Chooser,
    FirstChoice,
    NoAnswers,
    Question,
    RecordingChooser,
    Refusing,
    ReplayChooser,
    ScriptedChooser,
    Topic,
    word,
)
from affray.encounter.ruleset import Outcome, Ruleset
from affray.encounter.tactics import Targeting

__all__ = [
    "DEFAULT_MAX_ROUNDS",
    "Action",
    "Answered",
    "Answers",
    "Attack",
    "Chooser",
    "Combatant",
    "Cursor",
    "Encounter",
    "EncounterResult",
    "FirstChoice",
    "Flee",
    "Hold",
    "Named",
    "NoAnswers",
    "Outcome",
    "Phase",
    "Question",
    "RecordingChooser",
    "Refusing",
    "ReplayChooser",
    "Ruleset",
    "ScriptedChooser",
    "SheetT",
    "Shoot",
    "StateT",
    "Step",
    "Targeting",
    "Topic",
    "action_question",
    "named",
    "pair",
    "play_turn",
    "run_encounter",
    "steps",
    "told_apart",
    "word",
]
