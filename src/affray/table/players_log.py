"""What happened at the table, as the players may read it: each change in their
words, told by its command's fields and by the board before and after it (never by
the game master's narration): friends' (the sides of player characters, and a link's
own combatant's) states in full, everyone else's as the board shows them (health in a
word, condition), no hidden combatant named (it reads "someone", or the line is left
out; one hidden now is never named, even where it was seen then), and none of the
game master's private doings (notes, private marks, hiding).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from affray.table.commands import (
    Act,
    Add,
    Allow,
    Command,
    Hazard,
    Mark,
    Move,
    Next,
    Remove,
    Rename,
    Reveal,
    Run,
    Start,
    Unmark,
)
from affray.table.events import ALLOWED_WORDS
from affray.table.fold import Fold
from affray.table.model import Rules, TableState
from affray.table.view import health_in

SOMEONE = "someone"
LATEST = 30
"""How many of the latest changes the players' log tells."""


def players_log(fold: Fold, me: str | None = None, latest: int = LATEST) -> list[dict[str, Any]]:
    """The latest changes as the players may read them, newest first:
    ``[{"version", "text", "lines"}]``; ``text`` says what was done (empty for a
    game master's ruling that only shows in its outcome), ``lines`` what came of it.
    A change the players see nothing of is left out."""
    done = fold.done
    now = fold.state.hidden  # hidden now: never named, even where it was seen then
    told: list[dict[str, Any]] = []
    start = max(0, len(done) - latest)
    for index in range(start, len(done)):
        applied = done[index]
        before = done[index - 1].state if index > 0 else fold.initial
        after = applied.state
        hidden = before.hidden | after.hidden | now
        friends = _friend_sides(after, me) | _friend_sides(before, me)
        text = heading(applied.command, before, hidden, friends)
        if text is None:
            continue
        lines = outcome(fold.rules, before, after, hidden, me)
        if text or lines:
            told.append({"version": applied.version, "text": text, "lines": lines})
    return told[::-1]


def heading(
    command: Command, before: TableState, hidden: frozenset[str], friends: set[str]
) -> str | None:
    """What was done, in the players' words; "" for a ruling told by its outcome
    alone; None for what the players do not hear of at all (a mark the players do not
    see: a private one on someone not of their friends' sides)."""

    def name(who: str | None) -> str:
        return SOMEONE if who is None or who in hidden else who

    match command:
        case Add(combatant=who, side=side):
            return None if who in hidden else f"{who} joins the fight (side {side})"
        case Start():
            return "The fight begins"
        case Act(actor=actor, action=action, target=target):
            at = f" {name(_resolved(before, target))}" if target else ""
            return f"{name(_resolved(before, actor))}: {action}{at}"
        case Next():
            current = before.current
            return f"{name(current)}'s turn ends" if current else "Next round"
        case Run(to_end=to_end):
            return "The fight plays on to its end" if to_end else "The fight plays on"
        case Mark(combatant=who, public=public):  # its outcome tells it: "now prone"
            seen = public or _side(before, who) in friends
            return "" if seen and who not in hidden else None
        case Unmark(combatant=who, text=text):
            seen = any(k.public for k in before.conditions_of(who) if k.text == text)
            seen = seen or _side(before, who) in friends
            return "" if seen and who not in hidden else None
        case Rename(who=who, name=new):
            old = _resolved(before, who)
            return None if old in hidden else f"{old} is now called {new}"
        case Remove(who=who):
            gone = _resolved(before, who)
            return None if gone in hidden else f"{gone} leaves the table"
        case Reveal(who=who):
            return f"{_resolved(before, who)} appears"
        case Move(who=who):
            moved = _resolved(before, who)
            return None if moved in hidden else f"{moved}'s turn moves"
        case Hazard(who=who, kind=kind):
            struck = _resolved(before, who)
            return None if struck in hidden else f"{struck}: {kind.replace('-', ' ')}"
        case Allow(values=values):
            return "The game master: " + "; ".join(
                f"the players {'may' if on else 'may no longer'} {ALLOWED_WORDS.get(k, k)}"
                for k, on in values.items()
            )
        case _:  # set (its outcome tells it), notes, hiding: the game master's own
            return "" if command.verb == "set" else None


def outcome(
    rules: Rules,
    before: TableState,
    after: TableState,
    hidden: frozenset[str],
    me: str | None,
) -> list[str]:
    """What changed on the board, combatant by combatant: a friend's state keys and
    condition in full, anyone else's health word and condition."""
    friends = _friend_sides(after, me) | _friend_sides(before, me)
    was = {c.id for c in before.encounter.combatants}
    lines = []
    for combatant in after.encounter.combatants:
        cid = combatant.id
        if cid in hidden or cid not in was:
            continue
        friend = combatant.side in friends
        if friend:
            changed = _changes(_seen_in_full(rules, before, cid), _seen_in_full(rules, after, cid))
        else:
            changed = _changes(_seen_across(rules, before, cid), _seen_across(rules, after, cid))
        was_marked, now_marked = _marks(before, cid, friend), _marks(after, cid, friend)
        changed += [f"now {text}" for text in now_marked if text not in was_marked]
        changed += [f"no longer {text}" for text in was_marked if text not in now_marked]
        if changed:
            lines.append(f"{cid}: " + ", ".join(changed))
    return lines


def _marks(state: TableState, cid: str, friend: bool) -> list[str]:
    """The game master's marks on ``cid`` that the players see."""
    return [k.text for k in state.conditions_of(cid) if k.public or friend]


def _side(state: TableState, who: str) -> str | None:
    return next((c.side for c in state.encounter.combatants if c.id == who), None)


def _friend_sides(state: TableState, me: str | None) -> set[str]:
    return {c.side for c in state.encounter.combatants if c.id in state.players or c.id == me}


def _seen_in_full(rules: Rules, state: TableState, cid: str) -> dict[str, Any]:
    encounter = state.encounter
    seen = {
        k: v for k, v in rules.ruleset.snapshot(encounter, cid).items() if not isinstance(v, bool)
    }
    return {"condition": rules.ruleset.condition(encounter, cid), **seen}


def _seen_across(rules: Rules, state: TableState, cid: str) -> dict[str, Any]:
    return {
        "condition": rules.ruleset.condition(state.encounter, cid),
        "health": health_in(rules, state, cid),
    }


def _changes(was: dict[str, Any], now: dict[str, Any]) -> list[str]:
    return [
        f"{key.replace('_', ' ')} {was.get(key, '—')} → {now[key]}"
        for key in now
        if was.get(key) != now[key]
    ]


def _resolved(state: TableState, name: str | None) -> str | None:
    """The id a command's name had in ``state`` (as the command was played)."""
    if name is None:
        return None
    ids: Iterable[str] = (c.id for c in state.encounter.combatants)
    wanted = " ".join(name.lower().split())
    found = [cid for cid in ids if cid.lower() == wanted]
    return found[0] if found else name
