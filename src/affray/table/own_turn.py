"""A player's own turn: with ``players_choose`` allowed, a player's own link chooses
its combatant's action on its turn, and rolls and answers only what is asked of that
combatant. The command is begun with nothing given; each die and question then waits
on whoever it is put to (the player's own, from the faces and answers they sent; any
other's, from the game master or that combatant's player), as any command does.

Every text here names only combatants the players can see (a hidden target reads as
one that is not there)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from affray.encounter.cursor import Phase
from affray.errors import InputNeededError, NotAllowedError
from affray.table.commands import Act
from affray.table.fold import Fold
from affray.table.service import Done, Tables
from affray.table.store import TableRow


def own_actions(fold: Fold, who: str) -> list[Any]:
    """The actions ``who`` may take now as its player sees them: the rules' legal
    actions, less any at a combatant the players do not see."""
    state = fold.state
    if state.phase(fold.rules) is not Phase.TURN or state.current != who:
        return []
    hidden = state.hidden
    return [
        action
        for action in fold.rules.ruleset.actions(state.encounter, who)
        if action.target is None or action.target not in hidden
    ]


def check_turn(fold: Fold, who: str, waiting: Mapping[str, Any] | None) -> None:
    """That ``who``'s player may choose an action now.

    Raises:
        NotAllowedError: the game master has not allowed it, it is not ``who``'s turn,
            or the table waits on a die or an answer first.
    """
    state = fold.state
    if not state.allows(fold.rules, "players_choose"):
        raise NotAllowedError(
            "the game master chooses the actions at this table",
            hint="the game master can allow it: players_choose=on",
        )
    if state.phase(fold.rules) is not Phase.TURN or state.current != who:
        raise NotAllowedError(f"it is not {who}'s turn", hint="wait for your turn")
    if waiting is not None:
        raise NotAllowedError(
            "the table waits on a die or an answer first", hint="answer it, or wait"
        )


def seen_target(fold: Fold, target: str | None) -> str | None:
    """The combatant a player names as a target, among those the players see (one
    they do not see is refused as no one: the refusal names no hidden combatant).

    Raises:
        RulesError: no one, or more than one, the players see is called that.
    """
    if target is None:
        return None
    state = fold.state
    seen = [c.id for c in state.encounter.combatants if c.id not in state.hidden]
    return state.resolve(target, among=seen)


def play_own_turn(
    tables: Tables,
    table: TableRow,
    who: str,
    action: str,
    target: str | None,
    *,
    rolls: Sequence[int] = (),
    choose: Mapping[str, str] | None = None,
    expected: int | None = None,
) -> Done:
    """``who``'s action, chosen by its player: begun with nothing given, then each die
    and question put to ``who`` answered from ``rolls`` (in order) and ``choose``
    (``{topic: label}``) while they last. Faces and answers are never used for a die
    or a question put to anyone else.

    Raises:
        NotAllowedError: as :func:`check_turn`.
        InputNeededError: the command waits (on ``who`` for more, or on someone else).
        ConflictError: ``expected`` is not the table's version.
        AffrayError: the rules refuse it (nothing applied).
    """
    fold = tables.fold(table)
    check_turn(fold, who, tables.waiting(table))
    command = Act(who, action, seen_target(fold, target))
    faces = list(rolls)
    answers = {" ".join(k.lower().split()): v for k, v in (choose or {}).items()}
    try:
        return tables.run(
            table,
            command,
            roll_missing=False,
            choose_missing=False,
            expected=fold.version if expected is None else expected,
        )
    except InputNeededError as needed:
        last = needed
    while True:
        waiting = tables.waiting(table)
        if waiting is None or waiting["who"] != who:
            raise last  # it waits on someone else now
        needs = waiting["needs"]
        asked = needs.get("choice")
        try:
            if "die" in needs and faces:
                return tables.answer(table, rolls=(faces.pop(0),), question=waiting["question"])
            if asked is not None and asked["topic"] in answers:
                label = answers.pop(asked["topic"])
                return tables.answer(
                    table,
                    choices=(f"{asked['who']}:{asked['topic']}={label}",),
                    question=waiting["question"],
                )
        except InputNeededError as needed:
            last = needed
            continue  # answered: what is asked next?
        raise last  # it waits on this player, for more than they sent
