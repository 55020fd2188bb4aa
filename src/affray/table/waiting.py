"""A command that waits for a die or an answer, as the table keeps it (in the store's
``pending`` row) until it goes on or is dropped: what it needs, the id of its
question, and what waits in words."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from affray.dice.source import Purpose
from affray.errors import ChoiceNeededError, DieNeededError, InputNeededError
from affray.table.commands import Command, command_data, command_from_data
from affray.table.given import faces_data, marks_data


@dataclass(frozen=True, slots=True)
class Waiting:
    """A command stopped for a die or an answer, as the table keeps it until it goes
    on (:meth:`Tables.answer`) or another change drops it."""

    command: Command
    needed: InputNeededError
    roll_rest: bool
    tactics_rest: bool
    seed: int | None
    who: str | None

    def data(self, version: int) -> dict[str, Any]:
        """What is kept of it, with the id of its question at the table's ``version``
        (:func:`question_id`)."""
        found: dict[str, Any] = {
            "command": command_data(self.command),
            "rolls": list(self.needed.rolls),
            "rolled_for": list(self.needed.rolled_for),
            "did": list(self.needed.did),
            "given": marks_data(self.needed.marks),
            "faces": self.faces(),
            "moment": [{"die": die, "face": face} for die, face in self.needed.moment],
            "answered": [[a.who, a.topic, a.label] for a in self.needed.answered],
            "roll_rest": self.roll_rest,
            "tactics_rest": self.tactics_rest,
            "seed": self.seed,
            "who": self.who,
            "needs": needs(self.needed),
        }
        found["question"] = found["needs"]["question"] = question_id(version, found)
        return found

    def faces(self) -> list[dict[str, Any]]:
        """The faces so far, each ``{"face", "die", "by", "for", "did"}``
        (:mod:`affray.table.given`): what each did, once the event that holds it holds no
        die still to come."""
        rolls, marks = self.needed.rolls, self.needed.marks
        return faces_data(rolls, marks) if len(marks) == len(rolls) else []


def waiting_words(waiting: Mapping[str, Any], called: Mapping[str, str]) -> str:
    """What waits, in words: "Goblin 3: attack Knight waits for a d6 (Goblin 3's
    damage)"."""
    from affray.table.view import describe

    doing = describe(command_from_data(waiting["command"]), called)
    asked = waiting["needs"]
    if "die" in asked:
        die = asked["die"]
        return f"“{doing}” waits for a d{die['sides']} ({die['purpose']})"
    choice = asked["choice"]
    return f"“{doing}” waits for {choice['who']}'s answer: {choice['prompt']}"


def moment_words(waiting: Mapping[str, Any]) -> str | None:
    """What a held-back outcome waits on, in words ("the round's order waits for 3 more
    dice: Guard's initiative 7, Brawler's initiative —, Rogue's initiative —"), or
    None when nothing is held back."""
    moment = waiting.get("moment") or []
    missing = sum(1 for die in moment if die["face"] is None)
    if not missing:
        return None
    listed = ", ".join(
        f"{str(die['die']).partition(' for ')[2] or die['die']} "
        f"{'—' if die['face'] is None else die['face']}"
        for die in moment
    )
    more = f"{missing} more {'die' if missing == 1 else 'dice'}"
    return f"the round's order waits for {more}: {listed}"


def question_id(version: int, waiting: Mapping[str, Any]) -> str:
    """The id of the question a stopped command asks: the same for the same question
    (a page that asks again for it), another for any other (the next die, the same die
    after a change): a hash of the table's version, the faces and answers so far, and
    what is asked."""
    parts = [version, waiting["rolls"], waiting["answered"], waiting["needs"], waiting["command"]]
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


def needs(needed: InputNeededError) -> dict[str, Any]:
    """What a stopped command needs: ``{"die": {"sides", "purpose", "given"}}`` (with
    ``about`` and ``template`` when its purpose names another combatant) or
    ``{"choice": {"who", "topic", "prompt", "options", "explains", "about", "template"}}``
    (``explains``: what each option costs or does, in words, or "")."""
    if isinstance(needed, DieNeededError):
        purpose = needed.purpose
        die = {"sides": needed.sides, "purpose": str(purpose), "given": needed.given}
        if isinstance(purpose, Purpose):  # it names another combatant: by its fields
            die |= {"about": purpose.about, "template": purpose.told("{about}")}
        return {"die": die}
    assert isinstance(needed, ChoiceNeededError)
    return {
        "choice": {
            "who": needed.who,
            "topic": needed.topic,
            "prompt": needed.prompt,
            "options": list(needed.options),
            "explains": list(needed.explains),
            "about": needed.about,
            "template": needed.template,
        }
    }
