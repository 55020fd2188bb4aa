"""Dice sources: where die faces come from.

Rules never touch global random state: they are handed a :class:`Dice`. A
:class:`RandomDice` draws from its own seeded generator; a :class:`ScriptedDice`
hands out faces typed in by a game master (or a test) in the order the rules
roll them. Every roll carries what it was for; a source made with ``record=True``
also keeps them all in :attr:`Dice.log` (for replaying a fight), and keeps nothing
otherwise, so a program that fights millions of duels does not grow.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass

from affray.errors import DieNeededError, ScriptedDiceError


class Purpose(str):
    """What a die is rolled for when it names a combatant besides the one who rolls it
    (``"Guard's attack on Assassin"``): the text, with its ``template`` and whom it is
    ``about`` kept as fields, so that a page can say "someone" for a combatant its
    reader may not see without searching the text."""

    template: str
    who: str
    about: str

    def __new__(cls, template: str, who: str, about: str) -> Purpose:
        made = super().__new__(cls, template.replace("{who}", who).replace("{about}", about))
        made.template, made.who, made.about = template, who, about
        return made

    def __reduce__(self) -> tuple[type[Purpose], tuple[str, str, str]]:
        return (Purpose, (self.template, self.who, self.about))

    def told(self, about: str) -> str:
        """The text with ``about`` in place of the combatant it is about."""
        return self.template.replace("{who}", self.who).replace("{about}", about)


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One die rolled: its size, the face shown and what it was rolled for."""

    sides: int
    face: int
    purpose: str


class Dice(ABC):
    """A source of die faces; with ``record=True`` it keeps a log of every roll.

    Args:
        record: keep every roll in :attr:`log` (off by default: a long run must
            not grow).
    """

    def __init__(self, *, record: bool = False) -> None:
        self.record = record
        self.log: list[DieRoll] = []

    def roll(self, sides: int, purpose: str) -> DieRoll:
        """Roll one die of ``sides`` sides for ``purpose`` (and log it when recording)."""
        if sides < 1:
            raise ValueError(f"a die needs at least one side, got {sides}")
        result = DieRoll(sides, self._face(sides, purpose), purpose)
        if self.record:
            self.log.append(result)
        return result

    @property
    def recorded(self) -> tuple[int, ...]:
        """The faces logged so far (a recording source), e.g. to replay a fight."""
        return tuple(die.face for die in self.log)

    def roll_pool(self, pool: Iterable[int], purpose: str) -> tuple[DieRoll, ...]:
        """Roll each die of ``pool`` (a sequence of side counts) in order."""
        return tuple(
            self.roll(sides, f"{purpose} {index}") for index, sides in enumerate(pool, start=1)
        )

    @abstractmethod
    def _face(self, sides: int, purpose: str) -> int:
        """The next face for a die of ``sides`` sides."""


class RandomDice(Dice):
    """Faces from a private pseudo-random generator.

    Args:
        seed: an integer seed, a ``random.Random`` to draw from, or ``None`` for
            a generator seeded from the operating system.
        record: keep every roll in :attr:`log`.
    """

    def __init__(self, seed: int | random.Random | None = None, *, record: bool = False) -> None:
        super().__init__(record=record)
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def _face(self, sides: int, purpose: str) -> int:
        return self.rng.randint(1, sides)


class ScriptedDice(Dice):
    """Faces given in advance, consumed in order (typed-in physical dice).

    Raises:
        ScriptedDiceError: from :meth:`roll`, when the faces run out or a face
            cannot be shown by the die being rolled.
    """

    def __init__(self, faces: Iterable[int], *, record: bool = False) -> None:
        super().__init__(record=record)
        self.faces = tuple(faces)
        self.used = 0

    @property
    def remaining(self) -> tuple[int, ...]:
        """Faces not consumed yet."""
        return self.faces[self.used :]

    def _face(self, sides: int, purpose: str) -> int:
        if self.used >= len(self.faces):
            raise ScriptedDiceError(
                f"ran out of scripted dice: roll {self.used + 1} is a d{sides} for "
                f"{purpose}, but only {len(self.faces)} "
                f"{'face was' if len(self.faces) == 1 else 'faces were'} given",
                hint="add the missing faces to the end of the list",
            )
        face = self.faces[self.used]
        if not 1 <= face <= sides:
            raise ScriptedDiceError(
                f"scripted roll {self.used + 1} is {face}, but it is a d{sides} "
                f"(for {purpose}) and shows 1 to {sides}",
                hint="check the order of the faces: the rules roll dice in a fixed order",
            )
        self.used += 1
        return face


class TypedDice(ScriptedDice):
    """Faces typed in at the table first, then dice rolled by the machine.

    Args:
        faces: the faces rolled at the table, in the order the rules roll them.
        rng: where the machine's faces come from once the typed ones run out, or
            ``None`` to roll nothing: a die not typed in is then an error that says
            which die comes next.
        record: keep every roll in :attr:`log`.
    """

    def __init__(
        self, faces: Iterable[int], rng: random.Random | None, *, record: bool = False
    ) -> None:
        super().__init__(faces, record=record)
        self.rng = rng

    def _face(self, sides: int, purpose: str) -> int:
        if self.used >= len(self.faces) and self.rng is not None:
            return self.rng.randint(1, sides)
        if self.used >= len(self.faces):
            raise DieNeededError(sides, purpose, len(self.faces))
        return super()._face(sides, purpose)


def parse_faces(text: str) -> tuple[int, ...]:
    """Parse typed-in faces such as ``"14, 5,2,6"`` (commas and/or spaces).

    Raises:
        ScriptedDiceError: a token is not a whole number.
    """
    tokens = [token for token in text.replace(",", " ").split() if token]
    faces: list[int] = []
    for index, token in enumerate(tokens, start=1):
        if not (token.isascii() and token.isdigit()) or len(token) > 7:
            raise ScriptedDiceError(
                f"roll {index} is {token[:20]!r}, not a die face",
                hint="give faces as whole numbers separated by commas, e.g. 14,5,2,6",
            )
        faces.append(int(token))
    if not faces:
        raise ScriptedDiceError(
            "no dice faces given", hint="give faces separated by commas, e.g. 14,5,2,6"
        )
    return tuple(faces)
