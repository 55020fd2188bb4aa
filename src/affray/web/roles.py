"""What a token may do at its table: its role."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class Role:
    """What a token may do at its table: the game master's (everything), the players'
    (read what the player page shows), or one player's own link (read as the players
    do, and answer what the table asks of its combatant ``who``)."""

    kind: Literal["gm", "players", "player"]
    who: str | None = None

    @property
    def is_gm(self) -> bool:
        return self.kind == "gm"

    @property
    def me(self) -> str | None:
        """The combatant of a player's own link (None for the other roles)."""
        return self.who if self.kind == "player" else None


GAME_MASTER = Role("gm")
PLAYERS = Role("players")


def player(who: str) -> Role:
    """The role of ``who``'s player's own link."""
    return Role("player", who)
