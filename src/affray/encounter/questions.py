"""Questions: every choice the rules leave to a combatant, and who answers it.

A ruleset never decides for a combatant. When the rules leave a choice open
(which action and target, parry / block / dodge / take it, which stance for the
round, ...), the ruleset asks a :class:`Question` with the legal options; dice
are asked of a :class:`~affray.dice.Dice` source. The answerers are
interchangeable: the tactics AI of a rule system, typed-in choices at the table
(:class:`ScriptedChooser`, by topic or by who and topic), no one yet
(:class:`Refusing`: the question goes back to a person), or a recorded fight being
replayed (:class:`RecordingChooser` then :class:`ReplayChooser`). They compose: the
table answers with what was typed in, then the tactics (or a person), recording it
all; a replay gives the recording back. Whatever answers, the
answer must be one of the options (:meth:`Answers.ask` checks).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, Protocol, TypeVar

from affray.dice import Dice
from affray.encounter.model import Encounter, SheetT, StateT
from affray.errors import ChoiceNeededError, RulesError


class Topic(Enum):
    """The one topic every rule system asks: what to do this turn, with its target.

    A rule system brings the topics of its own questions as an enum of its own whose
    values are short words (Midian: defence, stance, ...), and lists those words when
    it registers; a topic's word is the key of ``--choose TOPIC=CHOICE``."""

    ACTION = "action"


def word(topic: Enum | str) -> str:
    """A topic's word: ``Topic.ACTION`` → ``"action"``."""
    return topic if isinstance(topic, str) else str(topic.value)


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
    template: str = ""
    """The prompt with ``{who}`` and ``{about}`` where it names them (empty: it names no
    one else), so that a page can put "someone" for a combatant its reader may not
    see, by these fields and never by searching the text (:meth:`named`)."""

    @classmethod
    def named(
        cls,
        who: str,
        topic: Enum,
        template: str,
        options: tuple[OptionT, ...],
        *,
        about: str | None = None,
    ) -> Question[OptionT]:
        """A question whose prompt is ``template`` with ``{who}`` and ``{about}``
        filled in (and kept, to be filled otherwise)."""
        prompt = template.replace("{who}", who).replace("{about}", about or "")
        return cls(who, topic, prompt, options, about, template)

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
            f"{label!r} is not a legal {word(self.topic)} for {self.who} now",
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


ChoiceKey = tuple[str | None, str]
"""Whose question (``None``: anyone's) of which topic (its word) a typed choice answers."""


def choice_keys(
    choices: Mapping[Enum | str | tuple[str | None, Enum | str], str],
) -> dict[ChoiceKey, str]:
    """Typed choices keyed by topic, or by who and topic, as :class:`ScriptedChooser`
    keeps them."""
    keyed: dict[ChoiceKey, str] = {}
    for key, label in choices.items():
        who, topic = key if isinstance(key, tuple) else (None, key)
        keyed[(who, word(topic))] = label
    return keyed


@dataclass(slots=True)
class ScriptedChooser(Generic[SheetT, StateT]):
    """Choices typed in ahead; every other question goes to ``fallback``.

    ``choices`` maps a topic (``"defence"``, or its enum member) to the label of an
    option, which answers every question of that topic; or ``(who, topic)``, which
    answers only ``who``'s and wins over the plain form. ``who`` limits the plain
    forms to one combatant's questions. :attr:`used` keeps the keys that answered."""

    choices: Mapping[Any, str]
    fallback: Chooser[SheetT, StateT]
    who: str | None = None
    used: set[ChoiceKey] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.choices = choice_keys(self.choices)

    def choose(self, encounter: Encounter[SheetT, StateT], question: Question[OptionT]) -> OptionT:
        topic = word(question.topic)
        for key in ((question.who, topic), (None, topic)):
            label = self.choices.get(key)
            if label is None or (key[0] is None and self.who not in (None, question.who)):
                continue
            self.used.add(key)
            return question.option(label)
        return self.fallback.choose(encounter, question)

    @property
    def unused(self) -> list[ChoiceKey]:
        """Typed choices no question asked for."""
        return [key for key in self.choices if key not in self.used]


def parse_choices(pairs: Sequence[str], topics: Sequence[str]) -> dict[ChoiceKey, str]:
    """``["defence=dodge", "Bram:stance=defensive"]`` → ``{(None, "defence"): "dodge",
    ("Bram", "stance"): "defensive"}``: ``TOPIC=CHOICE`` answers every question of
    that topic, ``WHO:TOPIC=CHOICE`` only WHO's (WHO as typed: the caller resolves it).

    Raises:
        RulesError: not [WHO:]TOPIC=CHOICE, or a topic none of ``topics``.
    """
    choices: dict[ChoiceKey, str] = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        who, colon, topic = key.rpartition(":")
        topic = topic.strip().lower()
        if not equals or not topic or not value.strip() or (colon and not who.strip()):
            raise RulesError(
                f"--choose {pair!r} is not TOPIC=CHOICE or WHO:TOPIC=CHOICE",
                hint="e.g. --choose defence=dodge, or --choose Bram:stance=defensive",
            )
        if topic not in topics:
            near = difflib.get_close_matches(topic, topics, n=1)
            raise RulesError(
                f"--choose {topic!r}: the rules ask no such question"
                + (f" (did you mean {near[0]!r}?)" if near else ""),
                hint="TOPIC is one of: " + ", ".join(topics),
            )
        choices[(who.strip() or None, topic)] = value.strip()
    return choices


class Refusing:
    """No one has answered: the question is an error that says what the rules ask
    (:class:`~affray.errors.ChoiceNeededError`), for a person to answer."""

    def choose(self, encounter: Encounter[Any, Any], question: Question[OptionT]) -> OptionT:
        labels = tuple(option.label for option in question.options)
        raise ChoiceNeededError(
            question.who,
            word(question.topic),
            question.prompt,
            labels,
            about=question.about,
            template=question.template,
            explains=tuple(str(getattr(option, "explain", "")) for option in question.options),
        )


@dataclass(frozen=True, slots=True)
class Answered:
    """One answer given: by whom, about what (the topic's word), the option's label."""

    who: str
    topic: str
    label: str


@dataclass(slots=True)
class RecordingChooser(Generic[SheetT, StateT]):
    """Passes questions to ``inner`` and keeps every answer, to replay the fight."""

    inner: Chooser[SheetT, StateT]
    answers: list[Answered] = field(default_factory=list)

    def choose(self, encounter: Encounter[SheetT, StateT], question: Question[OptionT]) -> OptionT:
        answer = self.inner.choose(encounter, question)
        self.answers.append(Answered(question.who, word(question.topic), answer.label))
        return answer


class ReplayError(RulesError):
    """A recording does not fit the questions the rules ask (another version of the
    rules wrote it, or it was cut short)."""


@dataclass(slots=True)
class ReplayChooser:
    """Gives recorded answers back, in order, checking each is the answer of its
    question's combatant and topic; when they run out, ``then`` answers (or, with no
    ``then``, that is an error)."""

    answers: Sequence[Answered]
    then: Chooser[Any, Any] | None = None
    used: int = 0

    def choose(self, encounter: Encounter[Any, Any], question: Question[OptionT]) -> OptionT:
        topic = word(question.topic)
        if self.used >= len(self.answers):
            if self.then is not None:
                return self.then.choose(encounter, question)
            raise ReplayError(
                f"the recording has no answer for {question.who}'s {topic}",
                hint="replay with the dice and the answers of the same fight",
            )
        answer = self.answers[self.used]
        if (answer.who, answer.topic) != (question.who, topic):
            raise ReplayError(
                f"recorded answer {self.used + 1} is {answer.who}'s {answer.topic}, "
                f"but the rules ask {question.who}'s {topic}",
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
                f"{answer.label!r} is not a legal {word(question.topic)} for {question.who}",
                hint="choose one of: " + ", ".join(o.label for o in question.options),
            )
        return answer


class NoAnswers:
    """Answers that answer nothing: a die or a question is :class:`NoAnswers.NeededError`.
    For looking ahead at what the rules do when they need no one."""

    class NeededError(Exception):
        """The rules asked for a die or a choice."""

    class _Dice(Dice):
        def _face(self, sides: int, purpose: str) -> int:
            raise NoAnswers.NeededError(purpose)

    def choose(self, encounter: Encounter[Any, Any], question: Question[OptionT]) -> OptionT:
        raise NoAnswers.NeededError(question.prompt)

    @classmethod
    def answers(cls) -> Answers[Any, Any]:
        return Answers(cls._Dice(), cls())
