"""A player's own turn: with ``players_choose`` allowed, a player's own link chooses
its combatant's action on its turn, and rolls and answers only what is asked of that
combatant. The command is played once, the faces and answers they sent serving their
combatant's dice and questions alone; the first die or question of anyone else (the
game master, another player) is where it waits, as any command does.

Every text here names only combatants the players can see (a hidden target reads as
one that is not there)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from affray.encounter.cursor import Phase
from affray.errors import NotAllowedError
from affray.table.commands import Act
from affray.table.fold import Fold
from affray.table.given import PLAYER
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


def only_target(fold: Fold, who: str, action: str) -> str | None:
    """The target of ``action`` when the player sees exactly one it may be aimed at
    (another, hidden from them, does not make it "whom?"), else None."""
    wanted = " ".join(action.lower().split())
    aims = {
        a.target
        for a in own_actions(fold, who)
        if a.target is not None and wanted in (a.kind.lower(), a.name.lower())
    }
    return aims.pop() if len(aims) == 1 else None


def unseen_foes(fold: Fold, who: str) -> bool:
    """Whether ``who``'s rules offer actions at combatants the players do not see,
    and none at one they see: its player's page says "no foe you can see"."""
    state = fold.state
    if state.phase(fold.rules) is not Phase.TURN or state.current != who:
        return False
    aims = {a.target for a in fold.rules.ruleset.actions(state.encounter, who) if a.target}
    return bool(aims) and all(aim in state.hidden for aim in aims)


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
    """``who``'s action, chosen by its player, played once: each die and question put
    to ``who`` answered from ``rolls`` (in order) and ``choose`` (``{topic: label}``)
    while they last; the first die or question put to anyone else, or one of ``who``'s
    past what was sent, is where it waits (in the same change of what waits). Faces
    and answers are never used for a die or a question put to anyone else.

    Raises:
        NotAllowedError: as :func:`check_turn`.
        InputNeededError: the command waits (on ``who`` for more, or on someone else).
        ConflictError: ``expected`` is not the table's version.
        AffrayError: the rules refuse it (nothing applied).
    """
    fold = tables.fold(table)
    check_turn(fold, who, tables.waiting(table))
    if target is None:  # the one foe of that action the player sees is the one meant
        target = only_target(fold, who, action)
    command = Act(who, action, seen_target(fold, target))
    theirs = fold.rules.system.game_masters_topics  # never a player's to answer
    return tables.run(
        table,
        command,
        rolls=rolls,
        choices=[
            f"{topic}={label}"
            for topic, label in (choose or {}).items()
            if " ".join(topic.lower().split()) not in theirs
        ],
        roll_missing=False,
        choose_missing=False,
        expected=fold.version if expected is None else expected,
        owner=who,
        by=PLAYER,
    )
