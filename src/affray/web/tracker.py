"""What the web tracker holds, and what it does with the tables: the tables
(:class:`~affray.table.Tables`, safe across the server's threads: reads on each
thread's own connection, one writer, each table's fold under its own lock), the
live-update hub, the page templates, recent fight odds; reading a table for a role,
and playing the commands the pages and the API send."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request as HttpRequest
from starlette.responses import HTMLResponse

from affray.dice import Dice, RandomDice
from affray.errors import (
    NotAllowedError,
)
from affray.table import Done, Store, TableRow, Tables, TableState
from affray.table import journal as journals
from affray.table.projection import player_data
from affray.table.submission import Author, submit
from affray.table.view import show_data
from affray.web.commands import parse
from affray.web.limits import Limits, Refusals, Streams
from affray.web.odds import OddsKeeper
from affray.web.roles import Role
from affray.web.sheets import Shelf
from affray.web.text import MendedHTML, mended_matches

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Told:
    """What a player's page said of their own change that was refused, at the table's
    version and question then: it stays in view until the table changes again or asks
    something else."""

    version: int
    question: str | None
    text: str


SERVED_AT = "served_at"
"""The setting that keeps where the last ``affray serve`` answered (for links)."""
BUSY_S = 2.0
"""How long a write of the server waits for another affray writing to the database."""


class Tracker:
    """What the app holds (``app.state.tracker``), and its uses of the tables."""

    def __init__(
        self,
        db: str | Path,
        poll_s: float,
        limits: Limits,
        shelf: Shelf,
        *,
        make_folder: bool = False,
    ) -> None:
        from affray.web.live import Hub

        self.shelf = shelf
        self.limits = limits
        self.refusals = Refusals()
        self.streams = Streams(limits, self.refusals)
        # a write waits at most BUSY_S for another affray writing to the file (then a
        # 503), so that a request is never held long
        self.tables = Tables(
            Store(db, busy_timeout=BUSY_S, waiting=_waiting, make_folder=make_folder)
        )
        self.hub = Hub(
            self.tables.store.stamp, poll_s, outside=self.tables.store.database.data_version
        )
        self.pages = Environment(
            loader=PackageLoader("affray.web", "templates"),
            autoescape=select_autoescape(default=True),
        )
        self.odds = OddsKeeper(db)
        self.epoch = secrets.token_hex(4)
        """This server's life: a page's generations are counted within one."""
        self.dice: Dice = RandomDice()
        """The dice a page asks the tracker to roll ("roll it for me", a party's rest)."""
        self.address: str | None = None
        """Where this server answers, as the players' phones reach it (``affray serve``
        says); None: as the game master's page was asked for (:attr:`asked_at`)."""
        self.asked_at: str | None = None
        self.told: dict[tuple[str, str], Told] = {}
        """What each player's own link was last told of its own change, by table and
        combatant (:class:`Told`)."""

    async def call(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` on a thread of the pool, off the event loop."""
        return await run_in_threadpool(function, *args)

    async def submit(self, row: TableRow, function: Callable[..., T], *args: Any) -> T:
        """A change (``function(*args)``, off the event loop): whatever comes of it, a
        change made or a command that waits now, live pages hear of it."""
        try:
            return await run_in_threadpool(function, *args)
        finally:
            await self.hub.look(row.id)

    def page(self, name: str, **context: Any) -> HTMLResponse:
        """A page or a fragment of one, rendered."""
        return MendedHTML(self.pages.get_template(name).render(**context))

    # -- reading --------------------------------------------------------------------

    def for_gm(self, row: TableRow) -> dict[str, Any]:
        """The table as the game master sees it (``table show``'s data, and who has a link)."""
        with self.tables.store.reading():  # the log, what waits and the links: one moment
            shown = show_data(row, self.tables.fold(row), self.tables.waiting(row))
            shown["linked"] = self.tables.linked_ids(row)
        return shown

    def for_players(self, row: TableRow, me: str | None = None) -> dict[str, Any]:
        """The table as the players see it (``me``: a player's own link's combatant)."""
        return player_data(row, self.tables.fold(row), me)

    def last_lines(self, row: TableRow) -> list[str]:
        """What the latest change did, in words (its narration; for an undo or a redo,
        what it took back or brought back)."""
        version = self.tables.store.version(row.id)
        if version == 0:
            return []
        (change,) = self.tables.store.changes(row.id, after=version - 1)
        lines = change.payload.get("lines")
        if isinstance(lines, list) and lines:
            return [str(line) for line in lines]
        word = {"undo": "undone", "redo": "redone"}.get(change.verb)
        if word is not None:
            what = change.payload.get("commands", [])
            return [f"{word}: {len(what)} change{'s' if len(what) != 1 else ''}"]
        return [change.verb]

    def generation(self, table_id: str) -> str:
        """The table's generation in this server's life (``EPOCH:N``), to be read before
        the table is: what a page shows is at least that new. A page never takes an
        update older than the one it shows (updates and answers to forms may cross)."""
        return f"{self.epoch}:{self.hub.generations.get(table_id, 0)}"

    def render(self, name: str, **context: Any) -> str:
        """A page or a fragment of one, as text."""
        return self.pages.get_template(name).render(**context)

    def log(self, row: TableRow) -> list[dict[str, Any]]:
        return journals.entries(self.tables.store.changes(row.id), self.tables.fold(row))

    # -- writing --------------------------------------------------------------------

    def own(self, row: TableRow, who: str, data: Mapping[str, Any], expected: int | None) -> Done:
        """A player's own link's change for its combatant ``who``: the answer to the die
        or question the table waits on from it, or (when the game master allows it) its
        action on its turn (:func:`~affray.table.submission.submit`).

        Raises:
            NotAllowedError: anything else.
            QuestionConflictError: an answer to a question no longer asked.
            InputNeededError: the action waits on a die or an answer.
        """
        if data.get("verb") not in ("answer", "act"):  # refused before it is read
            raise NotAllowedError(
                "a player's link can only answer its own dice and questions",
                hint="answer what the table asks of your combatant, or act on its turn",
            )
        asked = parse(self.tables, row, data, self.shelf)
        return submit(
            self.tables, row, replace(asked, author=Author("player", who), expected=expected)
        )

    def asking(self, row: TableRow, role: Role) -> dict[str, Any]:
        """For the ask fragment: the table, this link's combatant, and what waits on
        it (None when nothing does)."""
        who = role.me
        waiting = self.tables.waiting(row)
        mine = (
            waiting if waiting is not None and who is not None and waiting["who"] == who else None
        )
        state = self.tables.fold(row).state
        if mine is not None:  # what the faces so far were for: the game master's page's
            mine = {k: v for k, v in mine.items() if k not in ("rolled_for", "did", "faces")}
            mine = redacted(mine, state.hidden)
        waits_on = None
        if waiting is not None and who is not None and mine is None:
            waits_on = waiting_on_others(waiting, who, state, self.tables.linked_ids(row))
        return {"table": row, "who": who, "waiting": mine, "waits_on": waits_on}

    def execute(self, row: TableRow, data: Mapping[str, Any], expected: int | None) -> Done:
        """The game master's change (a command's JSON, or a page's form)."""
        asked = parse(self.tables, row, self._unmended(row, data), self.shelf)
        return submit(self.tables, row, replace(asked, expected=expected))

    def _unmended(self, row: TableRow, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """The command with each combatant it names as the table names it: a name an
        older affray stored with a lone surrogate half shows on the page with U+FFFD,
        and the page sends it back so (to rename or remove it, say)."""
        ids = [c.id for c in self.tables.fold(row).state.encounter.combatants]
        fixed = dict(data)
        for key in ("who", "actor", "target", "of", "before", "after", "other"):
            value = data.get(key)
            found = mended_matches(value, ids) if isinstance(value, str) else None
            if found is not None:
                fixed[key] = found
        return fixed


def redacted(waiting: Mapping[str, Any], hidden: Iterable[str]) -> dict[str, Any]:
    """What waits on a player's combatant as the player may read it: a question or a
    die's purpose about a combatant the players do not see says "someone" in its place,
    by their own fields (a template and whom it is about), never by searching the text."""
    needs = waiting["needs"]
    kind, text = ("die", "purpose") if "die" in needs else ("choice", "prompt")
    asked = needs[kind]
    if asked.get("about") not in set(hidden):
        return dict(waiting)
    template = asked.get("template") or ""
    told = (
        template.replace("{who}", asked.get("who", "")).replace("{about}", "someone")
        if template
        else "someone's doing"
    )
    return {**waiting, "needs": {**needs, kind: {**asked, text: told, "about": "someone"}}}


def waiting_on_others(
    waiting: Mapping[str, Any], me: str, state: TableState, linked: Iterable[str]
) -> str | None:
    """What a player's own action waits on when someone else must answer first ("Waiting
    for the game master: Goblin 2's shock check (a d6)"), or None when what waits is
    not their action. A die or a question of a combatant the players do not see is
    not named ("Waiting for the game master's die")."""
    actor = waiting["command"].get("actor")
    if actor is None or actor not in (me, state.keys.get(me)):
        return None
    owner = waiting.get("who")
    by = f"{owner}'s player" if owner is not None and owner in set(linked) else "the game master"
    needs = redacted(waiting, state.hidden)["needs"]
    if "die" in needs:
        die = needs["die"]
        what, about = f"{die['purpose']} (a d{die['sides']})", die["purpose"]
    else:
        what = about = str(needs["choice"]["prompt"])
    if owner in state.hidden or any(name in about for name in state.hidden):
        return f"Waiting for {by}'s {'die' if 'die' in needs else 'answer'}."
    return f"Waiting for {by}: {what}."


def tracker_of(request: HttpRequest) -> Tracker:
    """The tracker of the app that serves ``request``."""
    found: Tracker = request.app.state.tracker
    return found


def _waiting(what: str) -> None:
    """One line on stderr when a write waits for another affray's lock."""
    import sys

    print(f"affray serve: {what}", file=sys.stderr, flush=True)
