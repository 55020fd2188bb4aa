"""What the players see of a table: one projection of its log for each reader.

Every surface a player's token or a player's link reads (the players' page and its
live updates, a phone, the JSON API, the players' log, the status line read aloud,
a refusal and its tip) is made here, from the fold of the log and who reads it, and
from nothing else. Combatants are told apart by key, never by name
(:mod:`affray.table.identity`):

- a combatant hidden now is not there for the players: not on the board, not in the
  order, not named in any entry of the log (it reads "someone"), not in a refusal;
- an entry written while a combatant was hidden never names it (a rename while
  hidden is never told), and one that left the table hidden stays unnamed for good;
- an entry written while it was seen names it as it was called then.

The game master's page reads :func:`affray.table.view.show_data` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from affray.errors import AffrayError, NamingError
from affray.table.fold import Fold
from affray.table.players_log import SOMEONE, players_log
from affray.table.store import TableRow
from affray.table.view import health_word, show_data

__all__ = ["SOMEONE", "player_data", "players_log", "refusal", "sees", "status"]


def sees(fold: Fold) -> Callable[[str], bool]:
    """Whether the players may know of the combatant with this id now."""
    hidden = fold.state.hidden
    return lambda cid: cid not in hidden


def refusal(error: AffrayError, fold: Fold) -> AffrayError:
    """``error`` as the players may read it: a refusal that names combatants
    (:class:`~affray.errors.NamingError`) told again from its fields, naming only
    those the players see; any other as it is."""
    if isinstance(error, NamingError):
        return error.seen_by(sees(fold))
    return error


def player_data(table: TableRow, fold: Fold, me: str | None = None) -> dict[str, Any]:
    """What the players see, on every route: :func:`show_data` with friends (the
    sides of player characters) in full, everyone else's ``state`` only
    ``{"health": WORD}``, hidden combatants left out everywhere (their turns too), and
    no notes, sheet sources, tokens or waiting commands. ``me``: the combatant of a
    player's own link, whose side is that player's friends too. ``status`` says where
    the fight is in words (:func:`status`)."""
    data = show_data(table, fold)
    state = fold.state
    friends = {c.side for c in state.encounter.combatants if c.id in state.players or c.id == me}
    hidden = state.hidden
    shown = []
    for combatant in data["combatants"]:
        if combatant["id"] in hidden:
            continue
        combatant["friend"] = combatant["side"] in friends
        combatant["health"] = health_word(fold, combatant["id"])
        if not combatant["friend"]:
            combatant["state"] = {"health": combatant["health"]}
        kept = [k for k in state.conditions_of(combatant["id"]) if k.public or combatant["friend"]]
        combatant["conditions"] = [  # "until Assassin's turn" says too much: by its fields
            {
                "text": k.text,
                "until": replace(k, of=SOMEONE).until if k.of in hidden else k.until,
                "public": k.public,
            }
            for k in kept
        ]
        combatant["source"] = ""
        del combatant["notes"]  # the game master's own
        combatant["engaged"] = [e for e in combatant["engaged"] if e["with"] not in hidden]
        del combatant["hidden"]
        shown.append(combatant)
    data["combatants"] = shown
    data["order"] = [cid for cid in data["order"] if cid not in hidden]
    data["strip"] = [turn for turn in data["strip"] if turn["id"] not in hidden]
    data["queue"] = [cid for cid in data["queue"] if cid not in hidden]
    if data["turn"] in hidden:
        data["turn"] = None
    data["notes"] = []
    data["pending"] = None
    data["status"] = status(data)
    return data


def status(shown: dict[str, Any]) -> str:
    """Where the fight is, in the players' words ("Round 2: Knight's turn."; a hidden
    combatant's turn is someone's)."""
    phase = shown["phase"]
    if phase == "setup":
        return "The game master is setting up the fight."
    if phase == "turn":
        return f"Round {shown['round']}: {shown['turn'] or SOMEONE}'s turn."
    if phase == "round over":
        return f"Round {shown['round']} is over."
    return "The fight is over."
