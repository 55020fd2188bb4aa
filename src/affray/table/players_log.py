"""What happened at the table, as the players may read it: each change in their
words, told by its command's fields and by the board before and after it (never by
the game master's narration): friends' (the sides of player characters, and a link's
own combatant's) states in full, everyone else's as the board shows them (health in a
word, condition), no hidden combatant named (it reads "someone", or the line is left
out; one hidden now is never named, even where it was seen then), and none of the
game master's private doings (notes, private marks, hiding).
"""

from __future__ import annotations

from typing import Any

from affray.errors import AffrayError
from affray.table.commands import (
    Act,
    Add,
    Allow,
    Command,
    Hazard,
    Inputs,
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
from affray.table.given import faces_data
from affray.table.model import Rules, TableState
from affray.table.view import health_in

SOMEONE = "someone"
LATEST = 30
"""How many of the latest changes the players' log tells."""


def secret_keys(fold: Fold) -> frozenset[str]:
    """The keys of the combatants the players are never told of, in any entry: those
    hidden now, and those that left the table while hidden (removed, or undone away:
    what the players saw of them before goes with them)."""
    secret = {fold.state.key_of(cid) for cid in fold.state.hidden}
    was_hidden: set[str] = set()
    seen: tuple[object, object] = (None, None)
    for state in (fold.initial, *(applied.state for applied in fold.done)):
        if state.hidden is seen[0] and state.keys is seen[1]:
            continue  # no one hidden, renamed, added or gone since (the same values)
        seen = (state.hidden, state.keys)
        if was_hidden:
            present = set(state.keys.values())
            secret |= {key for key in was_hidden if key not in present}
        was_hidden = {state.key_of(cid) for cid in state.hidden}
    return frozenset(secret)


def hidden_keys(state: TableState) -> set[str]:
    """The keys of those hidden in ``state``."""
    return {state.key_of(cid) for cid in state.hidden}


def players_log(fold: Fold, me: str | None = None, latest: int = LATEST) -> list[dict[str, Any]]:
    """The latest changes as the players may read them, newest first:
    ``[{"version", "text", "lines", "dice"}]``; ``text`` says what was done (empty for a
    game master's ruling that only shows in its outcome), ``lines`` what came of it,
    ``dice`` the faces it used that the players may know of (:func:`seen_faces`).
    A change the players see nothing of is left out.

    Combatants are told apart by key, never by name: a combatant is named in an entry
    only if it was seen when the entry was written (not hidden before it or after it)
    and is not secret now (:func:`secret_keys`); it is named as it was called then.
    ``me``: the combatant of a player's own link (its id now), whose side is that
    player's friends too."""
    done = fold.done
    mine = fold.state.key_of(me) if me is not None else None
    secret = secret_keys(fold)
    told: list[dict[str, Any]] = []
    start = max(0, len(done) - latest)
    for index in range(start, len(done)):
        applied = done[index]
        before = done[index - 1].state if index > 0 else fold.initial
        after = applied.state
        unseen = frozenset(secret | hidden_keys(before) | hidden_keys(after))
        friends = _friend_sides(after, mine) | _friend_sides(before, mine)
        text = heading(applied.command, before, after, unseen, friends, secret)
        if text is None:
            continue
        lines = outcome(fold.rules, before, after, unseen, mine)
        if text or lines:
            dice = seen_faces(applied.inputs, before, after, unseen)
            told.append({"version": applied.version, "text": text, "lines": lines, "dice": dice})
    return told[::-1]


def seen_faces(
    inputs: Inputs, before: TableState, after: TableState, unseen: frozenset[str]
) -> list[dict[str, Any]]:
    """The faces of a change the players read of, each ``{"face", "die", "by", "for"}``
    (:mod:`affray.table.given`), less any whose die names a combatant of ``unseen``
    (keys) by what it was called before or after it (a hidden goblin's attack, or its
    attack on a friend: the players do not learn that a die was rolled for it); and
    less what a face did (``did``) where that names one (a friend's parry of a hidden
    goblin's attack)."""
    names = [name for state in (before, after) for key in unseen if (name := state.named(key))]
    seen = []
    for face in faces_data(inputs.faces, inputs.given):
        if any(name in face["die"] for name in names):
            continue
        if any(name in face.get("did", "") for name in names):
            face.pop("did")
        seen.append(face)
    return seen


def heading(
    command: Command,
    before: TableState,
    after: TableState,
    unseen: frozenset[str],
    friends: set[str],
    secret: frozenset[str],
) -> str | None:
    """What was done, in the players' words; "" for a ruling told by its outcome
    alone; None for what the players do not hear of at all (a mark the players do not
    see: a private one on someone not of their friends' sides). ``unseen``: the keys
    not to be named in this entry."""

    def key(who: str | None, state: TableState = before) -> str | None:
        found = _resolved(state, who)
        return None if found is None else state.key_of(found)

    def name(who: str | None, state: TableState = before) -> str:
        found = _resolved(state, who)
        return SOMEONE if found is None or state.key_of(found) in unseen else found

    def seen(who: str | None, state: TableState = before) -> bool:
        found = key(who, state)
        return found is not None and found not in unseen

    match command:
        case Add(combatant=who, side=side):
            return f"{who} joins the fight (side {side})" if seen(who, after) else None
        case Start():
            return "The fight begins"
        case Act(actor=actor, action=action, target=target):
            at = f" {name(target)}" if target else ""
            return f"{name(actor)}: {action}{at}"
        case Next():
            current = before.current
            return f"{name(current)}'s turn ends" if current else "Next round"
        case Run(to_end=to_end):
            return "The fight plays on to its end" if to_end else "The fight plays on"
        case Mark(combatant=who, public=public):  # its outcome tells it: "now prone"
            shown = public or _side(before, _resolved(before, who)) in friends
            return "" if shown and seen(who) else None
        case Unmark(combatant=who, text=text):
            cid = _resolved(before, who)
            shown = any(k.public for k in before.conditions_of(cid or "") if k.text == text)
            shown = shown or _side(before, cid) in friends
            return "" if shown and seen(who) else None
        case Rename(who=who, name=new):
            return f"{name(who)} is now called {new}" if seen(who) else None
        case Remove(who=who):
            return f"{name(who)} leaves the table" if seen(who) else None
        case Reveal(who=who):  # hidden before it, by its nature: seen if not secret now
            appearing = _resolved(before, who)
            if appearing is None or before.key_of(appearing) in secret:
                return None
            return f"{appearing} appears"
        case Move(who=who):
            return f"{name(who)}'s turn moves" if seen(who) else None
        case Hazard(who=who, kind=kind):
            return f"{name(who)}: {kind.replace('-', ' ')}" if seen(who) else None
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
    unseen: frozenset[str],
    me: str | None,
) -> list[str]:
    """What changed on the board, combatant by combatant: a friend's state keys and
    condition in full, anyone else's health word and condition; none of ``unseen``
    (keys), and none who joined or left in this change. ``me``: a link's own key."""
    friends = _friend_sides(after, me) | _friend_sides(before, me)
    was = {before.key_of(c.id): c.id for c in before.encounter.combatants}
    lines = []
    for combatant in after.encounter.combatants:
        cid = combatant.id
        key = after.key_of(cid)
        if key in unseen or key not in was:
            continue
        then = was[key]  # what it was called before this change (a rename: told apart)
        friend = combatant.side in friends
        if friend:
            changed = _changes(_seen_in_full(rules, before, then), _seen_in_full(rules, after, cid))
        else:
            changed = _changes(_seen_across(rules, before, then), _seen_across(rules, after, cid))
        was_marked, now_marked = _marks(before, then, friend), _marks(after, cid, friend)
        changed += [f"now {text}" for text in now_marked if text not in was_marked]
        changed += [f"no longer {text}" for text in was_marked if text not in now_marked]
        if changed:
            lines.append(f"{cid}: " + ", ".join(changed))
    return lines


def _marks(state: TableState, cid: str, friend: bool) -> list[str]:
    """The game master's marks on ``cid`` that the players see."""
    return [k.text for k in state.conditions_of(cid) if k.public or friend]


def _side(state: TableState, who: str | None) -> str | None:
    return next((c.side for c in state.encounter.combatants if c.id == who), None)


def _friend_sides(state: TableState, me: str | None) -> set[str]:
    """The sides of the player characters in ``state``, and of ``me`` (a link's key)."""
    return {
        c.side
        for c in state.encounter.combatants
        if c.id in state.players or (me is not None and state.keys.get(c.id) == me)
    }


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


def _resolved(state: TableState, who: str | None) -> str | None:
    """The id in ``state`` of the combatant a logged command names (by key; by name, a
    unique start too, in an older log), or None: never the text itself, which may be
    what a game master typed of a hidden one."""
    if who is None:
        return None
    try:
        return state.resolve(who)
    except AffrayError:
        return None
