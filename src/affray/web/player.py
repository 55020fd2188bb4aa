"""The player page (``/p/TABLE``): the board as the players see it, and, with a
player's own link, what the table asks of that player's combatant."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from affray.errors import AffrayError
from affray.table import Done, TableRow
from affray.table.fold import Fold
from affray.table.given import faces_data
from affray.table.projection import players_log
from affray.web.access import access, token
from affray.web.errors import attempt, words
from affray.web.forms import faces, read_form, rolled_here
from affray.web.roles import Role
from affray.web.streams import stream
from affray.web.tracker import Told, Tracker, tracker_of
from affray.web.views import dice_log, own_turn, you


async def page(request: Request) -> Response:
    tracker = tracker_of(request)
    row, role = await access(tracker, request, write=False)
    found = await tracker.call(context, tracker, row, role)
    return tracker.page("player.html", **found, token=token(request))


def context(tracker: Tracker, row: TableRow, role: Role) -> dict[str, Any]:
    """What the player page shows of the table now: the board as the players see it,
    what happened (in the players' words), and with a player's own link, that player's
    combatant with its sheet, what the table asks of it, and its own turn."""
    generation = tracker.generation(row.id)  # before the table is read: it is at least as new
    me = role.me
    with tracker.tables.store.reading():  # one moment of the table, for every part
        shown = tracker.for_players(row, me)
        asking = tracker.asking(row, role)
        fold = tracker.tables.fold(row)
        story = players_log(fold, me)
        waiting = tracker.tables.waiting(row) if me is not None else None
        mine_did = own_dice(fold, me, waiting) if me is not None else ""
        turn = own_turn(tracker.tables, row, me) if me is not None else None
        mine = you(tracker.tables, row, me) if me is not None else None
        allowed = fold.state.allows(fold.rules, "players_odds")
        odds = _own_odds(tracker, row, me) if turn is not None and allowed and me else None
    status = shown["status"]
    signal = _signal(shown, me, asking["waiting"] is not None, turn is not None)
    if asking["waits_on"] is not None:
        signal = ""  # their action is taken: someone else answers now
    said = {
        "ask": f" {me}, the table asks you something.",
        "turn": f" {me}, your turn: choose your action.",
        "next": f" {me}, you're next.",
        "": "",
    }[signal]
    kept = tracker.told.get((row.id, me)) if me is not None else None
    question = None if waiting is None else waiting["question"]
    if kept is not None and (kept.version, kept.question) != (shown["version"], question):
        kept = None  # the table changed since, or asks something else: that moment passed
    newest = story[0] if story else None
    told = "" if newest is None else " ".join([newest["text"], *newest["lines"]]).strip()
    if mine is not None:
        mine["row"] = next((c for c in shown["combatants"] if c["id"] == me), None)
    return {
        **asking,
        "shown": shown,
        "players": True,
        "message": None if kept is None else kept.text,
        "mine_did": mine_did,
        "announce": " ".join(part for part in (told, status + said) if part),
        "generation": generation,
        "story": story,
        "dice": dice_log(story, "dice"),
        "turn": turn,
        "you": mine,
        "own_odds": odds,
        "signal": signal,
    }


def _signal(shown: dict[str, Any], me: str | None, asked: bool, my_turn: bool) -> str:
    """What a player's phone signals: "ask" (a die or a question waits on them),
    "turn" (their turn: choose), "next" (their turn comes next), or ""."""
    if me is None:
        return ""
    if asked:
        return "ask"
    if my_turn or (shown["turn"] == me and shown["phase"] == "turn"):
        return "turn"
    if shown["phase"] == "turn" and shown["queue"][:1] == [me]:
        return "next"
    return ""


async def live(request: Request) -> Response:
    """The page's live updates: one message for each change of the table (or of what
    it asks), the board and this link's question in it."""
    tracker = tracker_of(request)
    row, role = await access(tracker, request, write=False)

    async def render() -> str:
        found = await tracker.call(context, tracker, row, role)
        return tracker.render("_live.html", **found)

    return await stream(tracker, request, row, render)


async def board(request: Request) -> Response:
    tracker = tracker_of(request)
    row, role = await access(tracker, request, write=False)
    shown = await tracker.call(tracker.for_players, row, role.me)
    return tracker.page("_board.html", shown=shown, players=True)


async def ask(request: Request) -> Response:
    """What the table asks of this link's combatant now (nothing, a die, a choice)."""
    tracker = tracker_of(request)
    row, role = await access(tracker, request, write=False)
    return tracker.page("_ask.html", **await tracker.call(context, tracker, row, role))


async def odds(request: Request) -> Response:
    """A player's chances after each action open to their combatant on its turn (when
    the game master lets the players see the odds): the same worked-out odds as the
    game master's, best first, none of an action at a hidden combatant."""
    tracker = tracker_of(request)
    row, role = await access(tracker, request, write=False)
    if role.me is None:
        raise HTTPException(403, "only a player's own link has its turn's odds")
    found = await tracker.call(_own_odds, tracker, row, role.me)
    return tracker.page("_own_odds.html", own_odds=found, table=row, who=role.me)


def _own_odds(tracker: Tracker, row: TableRow, who: str) -> dict[str, Any]:
    fold = tracker.tables.fold(row)
    state = fold.state
    if not state.allows(fold.rules, "players_odds") or state.current != who:
        return {"actions": [], "working": False, "exact": False}
    version = fold.version
    answer = tracker.odds.get(row.id, version, row.created)
    known = answer.odds if answer.version == version else None
    if known is None or known.who != who:
        return {"actions": [], "working": answer.working, "exact": False}
    shown = [a for a in known.actions if a.target is None or a.target not in state.hidden]
    ranked = sorted(shown, key=lambda a: a.p_win, reverse=True)
    return {
        "actions": [
            {
                "label": a.label,
                "p": a.p_win,
                # one standard error of a simulated chance (none for an exact one)
                "error": None if a.n is None else (a.p_win * (1 - a.p_win) / max(a.n, 1)) ** 0.5,
                "n": a.n,
            }
            for a in ranked
        ],
        "working": answer.working,
        "side": known.side,
        # exact only where every action's chance is (Midian's exact odds leave the
        # moves its chain does not play to simulation)
        "exact": known.exact and all(a.n is None for a in shown),
        "mixed": known.exact and any(a.n is not None for a in shown),
    }


async def answer(request: Request) -> Response:
    """A player's answer to the die or question the table asks of their combatant."""
    return await _own(request, "answer")


async def act(request: Request) -> Response:
    """A player's own action on their combatant's turn (when the game master lets the
    players choose)."""
    return await _own(request, "act")


async def _own(request: Request, verb: str) -> Response:
    tracker = tracker_of(request)
    row, role = await access(tracker, request, write=False)
    if role.me is None:
        raise HTTPException(403, "only a player's own link answers here")
    data = await read_form(request)
    data["verb"] = verb
    if verb == "answer":
        data["rolls"] = ",".join(faces(data, tracker.dice))
        if rolled_here(data):  # the change says that face is affray's
            data["rolled_one"] = "1"
    else:
        data["actor"] = role.me
    own = tracker.submit(row, _told, tracker, row, role.me, data)
    await attempt(own, "player")  # what it says stays told (Tracker.told)
    found = await tracker.call(context, tracker, row, role)
    answered = tracker.page("_ask.html", **found)
    answered.headers["X-Affray-Generation"] = found["generation"]
    return answered


def _told(tracker: Tracker, row: TableRow, me: str, data: dict[str, Any]) -> Done:
    """A player's own change (:meth:`Tracker.own`); a refusal of it is kept until the
    table changes again (:attr:`Tracker.told`), before the live pages hear of it, so
    that no update drawn without it replaces it."""
    key = (row.id, me)
    try:
        return tracker.own(row, me, data, None)
    except AffrayError as error:
        said = words(error, "player")
        if said is None:  # taken, and waiting: the page asks for what it waits on
            tracker.told.pop(key, None)
        else:
            with tracker.tables.store.reading():
                version = tracker.tables.store.version(row.id)
                waiting = tracker.tables.waiting(row)
            question = None if waiting is None else waiting["question"]
            tracker.told[key] = Told(version, question, said)
        raise


def own_dice(fold: Fold, me: str, waiting: Mapping[str, Any] | None) -> str:
    """What a player's own dice did in what waits now, or else in the latest change
    (whoever gave its last face), in their words ("Your d20 3: Brenna attacks Goblin 2
    (sword): d20 3+5=8 vs evasion 13 → miss."); the dice that did one thing together
    as one ("Your d6 6, d6 4: power 2d6 …"). What names a combatant the players do not
    see is left out; "" when none of their dice was rolled."""
    if waiting is not None:
        faces: Iterable[Mapping[str, Any]] = waiting.get("faces", ())
    elif fold.done and fold.done[-1].version == fold.version:
        latest = fold.done[-1].inputs
        faces = faces_data(latest.faces, latest.given)
    else:
        return ""  # an undo or a redo: nothing was rolled
    state = fold.state
    hidden = [name for name in state.hidden if name != me]
    told: list[tuple[list[str], str]] = []
    for face in faces:
        die, _, purpose = str(face["die"]).partition(" for ")
        did = str(face.get("did", ""))
        if state.whose_die(purpose) != me or not did or any(h in did for h in hidden):
            continue
        shown = f"{die} {face['face']}"
        if told and told[-1][1] == did:
            told[-1][0].append(shown)
        else:
            told.append(([shown], did))
    return " ".join(f"Your {', '.join(dice)}: {did}." for dice, did in told)
