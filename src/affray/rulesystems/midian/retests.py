"""Retests in an encounter: after a failed Willpower check or system shock roll, the
combatant may spend a retest it has not yet spent on that kind of roll in this
battle (the chapter: "each retest may only be used ONCE per situation"; its example
allows no further system-shock rerolls from the same trait during that battle)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from affray.encounter import Question
from affray.events import Event
from affray.rulesystems.midian.events import RetestUsed
from affray.rulesystems.midian.injury import Retest, RollKind, no_retest
from affray.rulesystems.midian.state import MidianAnswers, MidianEncounter
from affray.rulesystems.midian.topics import MidianTopic


@dataclass(frozen=True, slots=True)
class Reroll:
    """Spend the retest from ``source``."""

    source: str

    @property
    def label(self) -> str:
        return self.source


@dataclass(frozen=True, slots=True)
class LetItStand:
    """Keep the failed roll."""

    @property
    def label(self) -> str:
        return "no retest"


LET_IT_STAND = LetItStand()


def retester(encounter: MidianEncounter, cid: str, answers: MidianAnswers) -> Retest:
    """``cid``'s choice, asked of ``answers`` after each failed roll, among the retests
    it has left for that kind of roll."""
    sources = encounter.sheet(cid).retests
    if not sources:
        return no_retest
    spent: set[tuple[str, RollKind]] = set(encounter.states[cid].retests_used)

    def ask(kind: RollKind, failed: Event) -> str | None:
        left = [Reroll(s) for s in sources if (s, kind) not in spent]
        if not left:
            return None
        prompt = f"{cid} failed the {kind.value} roll: spend a retest?"
        options: tuple[Reroll | LetItStand, ...] = (*left, LET_IT_STAND)
        answer = answers.ask(encounter, Question(cid, MidianTopic.RETEST, prompt, options))
        if not isinstance(answer, Reroll):
            return None
        spent.add((answer.source, kind))
        return answer.source

    return ask


def note_retests(encounter: MidianEncounter, events: Sequence[Event]) -> MidianEncounter:
    """Mark the retests these events spent as spent for the rest of the battle."""
    for event in events:
        if isinstance(event, RetestUsed) and event.character in encounter.states:
            state = encounter.states[event.character]
            used = state.retests_used | {(event.source, RollKind(event.situation))}
            encounter = encounter.with_state(event.character, replace(state, retests_used=used))
    return encounter
