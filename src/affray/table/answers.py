"""Who answers the rules' questions at the table: the choices typed in with the
command (``--choose defence=dodge``), then the combatants' tactics; and, replaying
the log, the answers recorded then."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from affray.encounter import Chooser, Encounter, Question, Topic
from affray.encounter.questions import OptionT
from affray.errors import ChoiceNeededError, RulesError, TableError
from affray.table.commands import Answer

TOPICS = tuple(topic.value for topic in Topic)


def parse_choices(pairs: Sequence[str]) -> dict[str, str]:
    """``["defence=dodge", "stance=defensive"]`` → ``{"defence": "dodge", ...}``.

    Raises:
        RulesError: not KEY=VALUE, or a key that is no question's topic.
    """
    choices: dict[str, str] = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        key = key.strip().lower()
        if not equals or not key or not value.strip():
            raise RulesError(
                f"--choose {pair!r} is not KEY=VALUE", hint="e.g. --choose defence=dodge"
            )
        if key not in TOPICS:
            raise RulesError(
                f"--choose {key!r}: the rules ask no such question",
                hint="KEY is one of: " + ", ".join(TOPICS),
            )
        choices[key] = value.strip()
    return choices


@dataclass(slots=True)
class TableChooser:
    """Typed-in choices by topic; every other question goes to ``fallback`` (the
    tactics), or, with none, is an error that says what the rules ask
    (:class:`ChoiceNeededError`). Every answer given is kept in :attr:`answers`, for the log."""

    choices: Mapping[str, str]
    fallback: Chooser[Any, Any] | None
    answers: list[Answer] = field(default_factory=list)
    asked: set[str] = field(default_factory=set)

    def choose(self, encounter: Encounter[Any, Any], question: Question[OptionT]) -> OptionT:
        topic = str(question.topic.value)
        label = self.choices.get(topic)
        if label is None and self.fallback is None:
            labels = tuple(option.label for option in question.options)
            raise ChoiceNeededError(question.who, topic, question.prompt, labels)
        if label is None:
            assert self.fallback is not None
            answer = self.fallback.choose(encounter, question)
        else:
            answer = question.option(label)
            self.asked.add(topic)
        self.answers.append(Answer(question.who, topic, answer.label))
        return answer

    @property
    def unused(self) -> list[str]:
        """Typed-in choices no question asked for."""
        return [topic for topic in self.choices if topic not in self.asked]


@dataclass(slots=True)
class LogChooser:
    """The answers a command recorded, given back in order (a replay)."""

    answers: Sequence[Answer]
    used: int = 0

    def choose(self, encounter: Encounter[Any, Any], question: Question[OptionT]) -> OptionT:
        if self.used >= len(self.answers):
            raise TableError(
                f"the log has no answer for {question.who}'s {question.topic.value}",
                hint="the log was written by another version of the rules",
            )
        answer = self.answers[self.used]
        if (answer.who, answer.topic) != (question.who, question.topic.value):
            raise TableError(
                f"the log answers {answer.who}'s {answer.topic}, but the rules ask "
                f"{question.who}'s {question.topic.value}",
                hint="the log was written by another version of the rules",
            )
        self.used += 1
        return question.option(answer.label)
