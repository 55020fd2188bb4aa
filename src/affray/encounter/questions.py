"""Questions: every choice the rules leave to a combatant, and who answers it.

A ruleset never decides for a combatant. When the rules leave a choice open
(which action and target, parry / block / dodge / take it, which stance for the
round, ...), the ruleset asks a :class:`Question` with the legal options; dice
are asked of a :class:`~affray.dice.Dice` source. The answerers are
interchangeable: the tactics AI of a rule system, typed-in choices at the table
(:class:`ScriptedChooser`), or a recorded fight being replayed
(:class:`RecordingChooser` then :class:`ReplayChooser`). Whatever answers, the
answer must be one of the options (:meth:`Answers.ask` checks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, Protocol, TypeVar

from affray.dice import Dice
from affray.encounter.model import Encounter, SheetT, StateT
from affray.errors import RulesError


class Topic(Enum):
    """What a question is about; the key of ``--choose KEY=VALUE``.

    These are the topics of the built-in systems; a question's topic may be any enum
    member whose value is a short word, so another system brings its own."""

    ACTION = "action"  # what to do this turn, with its target
    DEFENCE = "defence"  # parry, block, dodge or take it
    STANCE = "stance"  # how to fight this round (Midian)
    CIRCUMSTANCE = "circumstance"  # what favours an attack (MST-2 extra power)
    RETEST = "retest"  # spend a retest on a failed roll (Midian)
    INTERRUPT = "interrupt"  # act just before someone else's action (Midian)
    CRITICAL = "critical"  # which critical effect (Midian: rolled, or the game master's pick)
    FUMBLE = "fumble"  # what a fumble does (Midian, when fumble effects are on)


class Option(Protocol):
    """An answer a question offers: anything with a label a person can pick."""

    @property
    def label(self) -> str: ...


OptionT = TypeVar("OptionT", bound=Option)


@dataclass(frozen=True, slots=True)
class Question(Generic[OptionT]):
    """A choice for combatant ``who``: ``prompt`` says why, ``options`` what is legal,
    ``about`` whom it concerns."""

    who: str
    topic: Enum
    prompt: str
    options: tuple[OptionT, ...]
    about: str | None = None
    """The other combatant the choice concerns, if any (the attacker, for a defence)."""

    def __post_init__(self) -> None:
        if not self.options:
            raise ValueError(f"a question needs at least one option: {self.prompt}")

    def option(self, label: str) -> OptionT:
        """The option with this label (case and spacing forgiven).

        Raises:
            RulesError: no option has that label; the message lists the legal ones.
        """
        wanted = " ".join(label.lower().split())
        for option in self.options:
            if option.label.lower() == wanted:
                return option
        matches = [o for o in self.options if o.label.lower().startswith(wanted)]
        if len(matches) == 1:
            return matches[0]
        raise RulesError(
            f"{label!r} is not a legal {self.topic.value} for {self.who} now",
            hint="choose one of: " + ", ".join(o.label for o in self.options),
        )


class Chooser(Protocol[SheetT, StateT]):
    """Whoever answers questions: a tactics AI, a person, a replay."""

    def choose(self, encounter: Encounter[SheetT, StateT], question: Question[OptionT]) -> OptionT:
        """One of ``question.options``."""
        ...


class FirstChoice:
    """Always the first option (the rules list the best or most usual first)."""

    def choose(self, encounter: Encounter[Any, Any], question: Question[OptionT]) -> OptionT:
        return question.options[0]


@dataclass(slots=True)
class ScriptedChooser(Generic[SheetT, StateT]):
    """Choices typed in ahead (``--choose defence=dodge``); every other question goes
    to ``fallback``. A choice names an option by its label; ``who`` limits the
    choices to one combatant's questions."""

    choices: Mapping[Enum, str]
    fallback: Chooser[SheetT, StateT]
    who: str | None = None

    def choose(self, encounter: Encounter[SheetT, StateT], question: Question[OptionT]) -> OptionT:
        label = self.choices.get(question.topic)
        if label is None or (self.who is not None and question.who != self.who):
            return self.fallback.choose(encounter, question)
        return question.option(label)


@dataclass(frozen=True, slots=True)
class Answered:
    """One answer given: to whom, about what, and the label of the option chosen."""

    who: str
    topic: Enum
    label: str


@dataclass(slots=True)
class RecordingChooser(Generic[SheetT, StateT]):
    """Passes questions to ``inner`` and keeps every answer, to replay the fight."""

    inner: Chooser[SheetT, StateT]
    answers: list[Answered] = field(default_factory=list)

    def choose(self, encounter: Encounter[SheetT, StateT], question: Question[OptionT]) -> OptionT:
        answer = self.inner.choose(encounter, question)
        self.answers.append(Answered(question.who, question.topic, answer.label))
        return answer


@dataclass(slots=True)
class ReplayChooser:
    """Gives recorded answers back, in order, checking each fits its question."""

    answers: Sequence[Answered]
    used: int = 0

    def choose(self, encounter: Encounter[Any, Any], question: Question[OptionT]) -> OptionT:
        if self.used >= len(self.answers):
            raise RulesError(
                f"the recording has no answer for {question.who}'s {question.topic.value}",
                hint="replay with the dice and the answers of the same fight",
            )
        answer = self.answers[self.used]
        if (answer.who, answer.topic) != (question.who, question.topic):
            raise RulesError(
                f"recorded answer {self.used + 1} is {answer.who}'s {answer.topic.value}, "
                f"but the rules ask {question.who}'s {question.topic.value}",
                hint="replay with the dice and the answers of the same fight",
            )
        self.used += 1
        return question.option(answer.label)


@dataclass(slots=True)
class Answers(Generic[SheetT, StateT]):
    """Everything that answers a fight's questions: dice for dice, a chooser for choices."""

    dice: Dice
    chooser: Chooser[SheetT, StateT] = field(default_factory=FirstChoice)

    def ask(self, encounter: Encounter[SheetT, StateT], question: Question[OptionT]) -> OptionT:
        """The chooser's answer, which must be one of the options.

        Raises:
            RulesError: the chooser answered something the rules do not allow.
        """
        answer = self.chooser.choose(encounter, question)
        if answer not in question.options:
            raise RulesError(
                f"{answer.label!r} is not a legal {question.topic.value} for {question.who}",
                hint="choose one of: " + ", ".join(o.label for o in question.options),
            )
        return answer
