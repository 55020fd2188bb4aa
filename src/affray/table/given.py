"""Who gave each face of a change: typed on the game master's side (the terminal, the
game master's page, the API with the game master's token), typed on a player's link,
or rolled by affray — and then at whose asking. Every face a change used is logged
with its mark and its die (``{"face": 14, "die": "d20 for Knight's attack", "by":
"gm"}``), so the log, the pages and an export can say who rolled what.

A change logged before affray kept the marks has its faces as plain numbers, and the
places of those affray said it rolled (``rolled``): those are affray's (asked by the
game master), the others the game master's — the table typed them (or, in a log older
still, affray rolled them before it said so: nothing tells them apart).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, NamedTuple, TypeAlias

Who: TypeAlias = Literal["gm", "player", "affray"]
Asker: TypeAlias = Literal["gm", "player"]

GM: Asker = "gm"
PLAYER: Asker = "player"
AFFRAY: Who = "affray"

WORDS: dict[str, str] = {GM: "the game master", PLAYER: "a player", AFFRAY: "affray"}
"""Each mark as a page says it."""


class Given(NamedTuple):
    """Who gave one face, and what its die was (a named tuple: a long run has
    thousands, and a checkpoint reads them back fast)."""

    by: str
    """``"gm"``, ``"player"`` or ``"affray"``."""
    asked: str | None = None
    """Affray's: who asked it to roll (``"gm"`` or ``"player"``)."""
    die: str = ""
    """``"d20 for Knight's attack"`` (empty: a log older than it)."""
    did: str = ""
    """What it did, as the log tells the event that holds it ("Brenna attacks Goblin 2:
    d20 15 + 3 = 18 vs evasion 13, hits"; "2 wounds"); empty while that event also
    holds a die not yet given, or in a log older than it."""

    @property
    def rolled(self) -> bool:
        return self.by == AFFRAY

    def data(self, face: int) -> dict[str, Any]:
        """``{"face", "die", "by"}`` (and ``"for"``: who asked, for affray's; ``"did"``:
        what it did, once known)."""
        found: dict[str, Any] = {"face": face, "die": self.die, "by": self.by}
        if self.asked is not None:
            found["for"] = self.asked
        if self.did:
            found["did"] = self.did
        return found

    def words(self) -> str:
        """ "typed by the game master", "rolled by affray for a player"."""
        if self.rolled:
            return f"rolled by affray for {WORDS.get(self.asked or GM, 'the game master')}"
        return f"typed by {WORDS.get(self.by, self.by)}"


def typed(by: Asker, die: str = "") -> Given:
    return Given(by, None, die)


def rolled_for(asker: Asker, die: str = "") -> Given:
    return Given(AFFRAY, asker, die)


def marks_data(given: Sequence[Given]) -> list[list[str | None]]:
    """What a waiting command keeps of its faces' marks: ``[[by, for], ...]`` (what
    each did is told again as it goes on)."""
    return [[mark.by, mark.asked] for mark in given]


def marks_from_data(data: Mapping[str, Any], count: int) -> tuple[Given, ...]:
    """The marks of a waiting command's ``count`` faces so far, as kept by
    :func:`marks_data`; kept by an older affray (``rolled_at``: the places of those affray
    rolled): affray's there, the game master's elsewhere."""
    kept = data.get("given")
    if isinstance(kept, list) and len(kept) == count:
        return tuple(Given(str(by), None if asked is None else str(asked)) for by, asked in kept)
    affray = set(data.get("rolled_at", ()))
    return tuple(rolled_for(GM) if at in affray else typed(GM) for at in range(count))


def faces_data(faces: Sequence[int], given: Sequence[Given]) -> list[dict[str, Any]]:
    """Each face with its die and who gave it (what a change logs)."""
    return [mark.data(face) for face, mark in zip(faces, given, strict=True)]


def faces_from_data(
    logged: Iterable[Any], rolled: Iterable[Sequence[Any]] = ()
) -> tuple[tuple[int, ...], tuple[Given, ...]]:
    """The faces of a logged change and their marks: each ``{"face", "die", "by",
    "for"}``; in a log older than the marks, a plain number, with ``rolled`` the
    ``[place, die]`` of those affray rolled."""
    faces: list[int] = []
    given: list[Given] = []
    said = {int(at): str(die) for at, die in rolled}
    for at, face in enumerate(logged):
        if isinstance(face, dict):
            faces.append(int(face["face"]))
            asked = face.get("for")
            given.append(
                Given(
                    str(face.get("by", GM)),
                    None if asked is None else str(asked),
                    str(face.get("die", "")),
                    str(face.get("did", "")),
                )
            )
        else:
            faces.append(int(face))
            given.append(rolled_for(GM, said[at]) if at in said else typed(GM))
    return tuple(faces), tuple(given)


def words_of(face: Mapping[str, Any]) -> str:
    """Who gave a face of :meth:`Given.data`, in words ("rolled by affray for a player")."""
    return Given(str(face["by"]), face.get("for")).words()
