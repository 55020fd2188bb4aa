"""The game master's page (``/t/TABLE``): the board, the action panel (the actions of
whoever's turn it is, with their odds, and the die or question the table waits on),
the log, the odds of the fight; and the commands its forms send."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from affray.sheets import bestiary
from affray.table import TableRow
from affray.table.commands import command_from_data
from affray.table.given import words_of
from affray.table.view import describe
from affray.table.waiting import moment_words, waiting_words
from affray.web.access import access
from affray.web.commands import quick
from affray.web.errors import attempt
from affray.web.forms import faces, read_form, rolled_here
from affray.web.odds import Answer
from affray.web.streams import stream
from affray.web.tracker import Tracker, tracker_of
from affray.web.views import dice_log, figures, panel

INTERACTIVE = ("start", "act", "next", "hazard")
"""The verbs the page plays step by step: they stop for each die and question (the
server keeps the command that waits; the page asks it typed, or "roll it"), where the
other verbs roll and answer nothing. A hazard's dice too: the game master may mean to
throw them (a fall's shock die, a fire's save)."""


async def page(request: Request) -> Response:
    tracker = tracker_of(request)
    row, _ = await access(tracker, request, write=True)
    tracker.asked_at = str(request.base_url)  # links' address, when serve did not say
    return tracker.page(
        "gm.html",
        **await tracker.call(context, tracker, row),
        token=row.gm_token,
        creatures=bestiary.names(row.system),
        parties=await tracker.call(_parties_of, tracker, row.system),
        sheet_files=await run_in_threadpool(tracker.shelf.listing, row.system),
    )


def context(tracker: Tracker, row: TableRow, *, message: str | None = None) -> dict[str, Any]:
    """What the game master's page shows of the table now: the board, the turn's
    panel (its actions, the question that waits, what just happened), the log."""
    generation = tracker.generation(row.id)  # before the table is read: it is at least as new
    with tracker.tables.store.reading():  # one moment of the table, for every part
        shown = tracker.for_gm(row)
        last = tracker.last_lines(row)
        odds = (  # what is known of them now (a live update carries it: never older)
            tracker.odds.get(row.id, shown["version"], row.created)
            if shown["phase"] in ("turn", "round over")
            else None
        )
        return {
            "table": row,
            "shown": shown,
            "panel": (turn := panel(tracker.tables, row)),
            "pending": told_faces(shown["pending"]),
            "doing": doing(tracker, row, shown["pending"]),
            "message": message,
            "last": last,
            "items": (items := tracker.log(row)),
            "dice": dice_log(reversed(items), "faces"),
            "players": False,
            "announce": " ".join(last),
            "generation": generation,
            "answer": odds,
            "links": links(tracker, row),
            **sheets(tracker, row),
            "version": shown["version"],
            "wins": (chances := wins(odds, shown["version"])),
            "why": why(turn["actions"], chances),
        }


def told_faces(pending: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """What waits, its faces so far each with who gave it in words, and what a
    held-back outcome waits on (``held``: the round's order, while initiative dice
    are still to come)."""
    if pending is None:
        return pending
    faces = [{**f, "words": words_of(f)} for f in pending.get("faces", ())]
    return {**pending, "faces": faces, "held": moment_words(pending)}


def doing(tracker: Tracker, row: TableRow, pending: Mapping[str, Any] | None) -> str | None:
    """What waits, in the log's words ("Spearman: fall (feet=30)"), or None."""
    if pending is None:
        return None
    called = tracker.tables.fold(row).state.keys_named()
    return describe(command_from_data(pending["command"]), called)


def sheets(tracker: Tracker, row: TableRow) -> dict[str, Any]:
    """Each combatant's stat block, and the state keys the board steps with − and +."""
    fold = tracker.tables.fold(row)
    system = fold.rules.system
    encounter = fold.state.encounter
    block = system.stat_block
    return {
        "blocks": {
            c.id: list(block(encounter.sheet(c.id))) if block is not None else []
            for c in encounter.combatants
        },
        "quick_keys": system.quick_keys,
        "hazards": system.hazards,
    }


async def roll(request: Request) -> Response:
    """The game master's free dice roller: any dice expression, rolled by the
    tracker's dice; nothing is logged and the table does not change."""
    from affray.dice import roll as roll_dice

    tracker = tracker_of(request)
    await access(tracker, request, write=True)
    form = await read_form(request)
    expression = str(form.get("expression", "")).strip()[:200]
    rolled, error = await attempt(run_in_threadpool(roll_dice, expression, tracker.dice))
    return tracker.page("_roller.html", expression=expression, error=error, rolled=rolled)


def why(actions: list[dict[str, Any]], chances: dict[int, dict[str, str]]) -> str | None:
    """The best move in one line, where the odds mark one: what it does now (its own
    odds, as the rules give them) beside what the next best does, and how sure the
    mark is ("within the noise" when a runner-up is as good)."""
    best = next((i for i, c in chances.items() if c["best"] == "best"), None)
    if best is None or best > len(actions):
        return None
    ranked = sorted(
        (i for i in chances if i != best and i <= len(actions)),
        key=lambda i: float(chances[i]["p"]),
        reverse=True,
    )
    top = actions[best - 1]
    line = f"Best: {top['label']} ({chances[best]['side']} {chances[best]['text']})"
    if top.get("odds"):
        line += f": {figures(top['odds'])}"
    if ranked:
        nxt = ranked[0]
        second = actions[nxt - 1]
        line += f". Next: {second['label']} ({chances[nxt]['text']})"
        if second.get("odds"):
            line += f": {figures(second['odds'])}"
        if chances[nxt]["best"] == "tied":
            line += ". Within the noise of each other: either will do"
    return line + "."


def links(tracker: Tracker, row: TableRow) -> list[dict[str, str]]:
    """Every player's link of the table: whose, its address (where the server says it
    answers, or as the game master's page was asked for), and its QR code (SVG)."""
    import segno

    base = (tracker.address or tracker.asked_at or "").rstrip("/")
    listed = []
    for cid, token in tracker.tables.link_tokens(row).items():
        url = f"{base}/p/{row.id}?token={token}"
        code = segno.make(url, error="m")
        svg = code.svg_inline(scale=3, title=f"{cid}'s player's link")
        listed.append({"who": cid, "url": url, "qr": svg})
    return listed


def wins(answer: Answer | None, version: int) -> dict[int, dict[str, str]]:
    """The chance to win after each action (by its place in the panel, from 1), where
    the odds of this version are known: its words (± one standard error where it was
    simulated), whose chance it is (``side``), how it was found, and whether it is
    the best move (``best``: "best"; "tied" when a simulated runner-up is within the
    noise of it, two standard errors)."""
    odds = None if answer is None or answer.version != version else answer.odds
    if odds is None or not odds.actions:
        return {}
    chances = [a.p_win for a in odds.actions]
    errors = [0.0 if a.n is None else _error(a.p_win, a.n) for a in odds.actions]
    # a move that rests on a handful of fights (a slow engine's, when time ran out) is
    # never marked best by its luck: the best is among the others where there are any
    sure = [i for i, a in enumerate(odds.actions) if a.n is None or a.n >= FEW_FIGHTS]
    top = max(sure or range(len(chances)), key=chances.__getitem__)
    found = {}
    for index, action in enumerate(odds.actions, start=1):
        exact = action.n is None
        error = errors[index - 1]
        if exact:
            words = f"{action.p_win * 100:.1f}% exact"
            how = "exactly"
        else:
            digits = 0 if error >= 0.01 else 1  # a point's tenths where they mean something
            words = f"{action.p_win * 100:.{digits}f}% ±{error * 100:.{digits}f}"
            how = f"from {action.n:,} simulated fights (± one standard error)"
        near = abs(chances[top] - action.p_win) <= 2 * (errors[top] ** 2 + error**2) ** 0.5
        best = "best" if index - 1 == top else ("tied" if near and not exact else "")
        found[index] = {
            "p": f"{action.p_win:.6f}",
            "text": words,
            "side": odds.side or "",
            "title": f"{odds.side}'s chance to win after this action, {how} (the others "
            "play by their tactics)",
            "best": best,
        }
    return found


FEW_FIGHTS = 100
"""Fewer simulated fights than this do not mark a move best (their error is past five
points)."""


def _error(p: float, n: int) -> float:
    """The standard error of a chance ``p`` simulated from ``n`` fights, with one win
    and one loss added to the count (so that 3 wins of 3 is not "±0")."""
    smoothed = (p * n + 1) / (n + 2)
    return float((smoothed * (1 - smoothed) / max(n, 1)) ** 0.5)


def _parties_of(tracker: Tracker, system: str) -> list[tuple[str, str]]:
    """The parties of ``system`` (each its id and name): the add form brings one."""
    from affray.table.party_store import PartyStore

    listed = PartyStore(tracker.tables.store).parties()
    return [(row.id, row.name) for row, _ in listed if row.system == system]


async def live(request: Request) -> Response:
    """The page's live updates: one message for each change of the table (or of the
    question it waits on), every part it touches in it."""
    tracker = tracker_of(request)
    row, _ = await access(tracker, request, write=True)
    return await stream(tracker, request, row, lambda: tracker.call(render, tracker, row))


def render(tracker: Tracker, row: TableRow) -> str:
    return tracker.render("_live.html", **context(tracker, row))


async def fragment(request: Request) -> Response:
    tracker = tracker_of(request)
    row, _ = await access(tracker, request, write=True)
    name = request.path_params["fragment"]
    if name in ("board", "panel", "log"):
        return tracker.page(f"_{name}.html", **await tracker.call(context, tracker, row))
    if name == "odds":
        version = await tracker.call(tracker.tables.store.version, row.id)
        answer = tracker.odds.get(row.id, version, row.created)
        found = wins(answer, version)
        turn = await tracker.call(panel, tracker.tables, row)
        return tracker.page(
            "_odds.html",
            answer=answer,
            table=row,
            version=version,
            wins=found,
            why=why(turn["actions"], found),
        )
    raise HTTPException(404, f"no part {name!r}")


async def do(request: Request) -> Response:
    """A command from the game master's page; the panel comes back (asking for the
    next die or choice the rules need, if any: the server keeps the command that
    waits, with every face and answer it used so far)."""
    tracker = tracker_of(request)
    row, _ = await access(tracker, request, write=True)
    data = await read_form(request, uploads=True)
    typed = [r for r in str(data.get("rolls", "")).split(",") if r.strip()]
    data["rolls"] = ",".join(faces(data, tracker.dice, typed=typed))
    if rolled_here(data):  # the change says that face is affray's
        data["rolled_one"] = "1"
    interactive = data.get("verb") in INTERACTIVE
    data.setdefault("roll_missing", "0" if interactive else "1")
    data.setdefault("choose_missing", "0" if interactive else "1")
    expected = str(data.get("expected_version", "")).strip()
    if data.get("verb") == "link":  # not a change of the fight: a player's link
        return await link(tracker, request, row, str(data.get("who", "")))
    if not expected and not quick(data):  # every form of the page sends it, but ±
        raise HTTPException(
            422,
            "expected_version is missing: the version of the table the form was filled "
            "in against — Tip: reload the page",
        )
    refused = await tracker.call(_dropping, tracker, row, data)
    if refused is not None:
        return await panel_page(tracker, row, message=refused)
    version = int(expected) if expected.isdigit() else None
    _, message = await attempt(tracker.submit(row, tracker.execute, row, data, version))
    return await panel_page(tracker, row, message=message)


def _dropping(tracker: Tracker, row: TableRow, data: Mapping[str, Any]) -> str | None:
    """Why a command from the page is refused, if it would drop a command that waits
    for a die or an answer (begun here, in another window, or from a phone): nothing
    is applied, and the panel shows what waits. An answer, a cancel and a quick key
    (kept beside what waits, :meth:`Tables.run`) never drop it."""
    if data.get("verb") in ("answer", "cancel") or quick(data):
        return None
    waiting = tracker.tables.waiting(row)
    if waiting is None:
        return None
    called = tracker.tables.fold(row).state.keys_named()
    if data.get("shown_waiting") is not None and waiting["question"] != data["shown_waiting"]:
        doing = describe(command_from_data(waiting["command"]), called)
        whose = f"{waiting['who']}'s" if waiting["who"] else "your"
        return (
            f"Meanwhile, another window began “{doing}”: it waits for {whose} answer, here. "
            "Nothing was applied: answer it or cancel it first."
        )
    return f"{waiting_words(waiting, called)}: finish it or cancel it first. Nothing was applied."


async def link(tracker: Tracker, request: Request, row: TableRow, who: str) -> Response:
    """A player's own link for ``who``, said in the panel."""
    made, error = await attempt(tracker.call(tracker.tables.link, row, who))
    if made is None:
        return await panel_page(tracker, row, message=error)
    cid, token = made
    base = tracker.address or str(request.base_url)
    url = f"{base.rstrip('/')}/p/{row.id}?token={token}"
    text = f"{cid}'s player's own link (any older one no longer works): {url}"
    return await panel_page(tracker, row, message=text, done=True)


async def panel_page(
    tracker: Tracker, row: TableRow, *, message: str | None = None, done: bool = False
) -> Response:
    """The turn's panel (the answer to a form of the page); ``done``: the message says
    what was done (not what went wrong)."""
    found = await tracker.call(functools.partial(context, message=message), tracker, row)
    found["message_done"] = done
    answer = tracker.page("_panel.html", **found)
    answer.headers["X-Affray-Generation"] = found["generation"]
    return answer
