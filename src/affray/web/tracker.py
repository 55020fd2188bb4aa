"""What the web tracker holds, and what it does with the tables: the tables
(:class:`~affray.table.Tables`, safe across the server's threads: reads on each
thread's own connection, one writer, each table's fold under its own lock), the
live-update hub, the page templates, recent fight odds; reading a table for a role,
and playing the commands the pages and the API send."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request as HttpRequest
from starlette.responses import HTMLResponse

from affray.dice import Dice, RandomDice
from affray.errors import (
    AffrayError,
    NamingError,
    NotAllowedError,
    QuestionConflictError,
    TableError,
)
from affray.table import Done, Store, TableRow, Tables
from affray.table import journal as journals
from affray.table.commands import Act
from affray.table.model import TableState
from affray.table.own_turn import play_own_turn
from affray.table.projection import player_data, refusal
from affray.table.view import show_data
from affray.web.commands import Request, parse
from affray.web.limits import Limits, Refusals, Streams
from affray.web.odds import OddsKeeper
from affray.web.roles import Role
from affray.web.sheets import Shelf
from affray.web.text import MendedHTML, mended_matches

T = TypeVar("T")
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

    def answer_as(
        self, row: TableRow, who: str, data: Mapping[str, Any], expected: int | None
    ) -> Done:
        """A player's own answer to the die or question the table waits on from their
        combatant ``who`` (a face, or one of the offered choices).

        Raises:
            NotAllowedError: anything else (another verb, or nothing waiting on
                ``who``).
            QuestionConflictError: the answer names a question the table no longer
                asks (answered meanwhile, or dropped): nothing is applied.
        """
        if data.get("verb") != "answer":
            raise NotAllowedError(
                "a player's link can only answer its own dice and questions",
                hint="answer what the table asks of your combatant, or act on its turn",
            )
        waiting = self.tables.waiting(row)
        given = data.get("question")
        if isinstance(given, str) and given and (waiting is None or waiting["question"] != given):
            # the question the page showed was answered meanwhile (or dropped)
            raise QuestionConflictError(given, None if waiting is None else waiting["question"])
        if waiting is None or waiting["who"] != who:
            raise NotAllowedError(f"nothing is waiting on {who} now", hint="wait for your turn")
        request = parse(self.tables, row, data, self.shelf)
        asked = waiting["needs"].get("choice")
        if asked is None:  # a die waits: its one face, and nothing more
            if len(request.rolls) != 1 or request.choices:
                raise TableError("give the one face of the die that is asked", hint="e.g. 14")
            return self.tables.answer(
                row,
                rolls=request.rolls,
                expected=expected,
                question=request.question,
                rolled_one=request.rolled_one,
            )
        # a question waits: its one answer (its label is enough), and nothing more
        labels = [choice.partition("=")[2] or choice for choice in request.choices]
        if len(labels) != 1 or request.rolls:
            raise TableError("give the one answer that is asked", hint="one of the offered answers")
        answer = f"{asked['who']}:{asked['topic']}={labels[0]}"
        return self.tables.answer(
            row, choices=(answer,), expected=expected, question=request.question
        )

    def act_as(
        self, row: TableRow, who: str, data: Mapping[str, Any], expected: int | None
    ) -> Done:
        """A player's own action for their combatant ``who`` on its turn, when the game
        master allows it (``players_choose``): ``{"verb": "act", "actor", "action",
        "target", "rolls", "choose"}``, the faces and answers used only for what is
        asked of ``who`` (:func:`~affray.table.own_turn.play_own_turn`).

        Raises:
            NotAllowedError: another verb, an action for another combatant, not
                allowed, not ``who``'s turn, or the table waits.
            InputNeededError: the action waits on a die or an answer.
        """
        if data.get("verb") != "act":
            raise NotAllowedError(
                "a player's link can only answer its own dice and questions",
                hint="answer what the table asks of your combatant, or act on its turn",
            )
        request = parse(self.tables, row, data, self.shelf)
        command = request.command
        assert isinstance(command, Act)
        state = self.tables.fold(row).state
        if command.actor != who and _resolved(state, command.actor) != who:
            raise NotAllowedError(f"a player's link acts for {who} alone", hint=f"act for {who}")
        chosen = dict(choice.partition("=")[::2] for choice in request.choices)
        try:
            return play_own_turn(
                self.tables,
                row,
                who,
                command.action,
                command.target,
                rolls=request.rolls,
                choose=chosen,
                expected=expected,
            )
        except NamingError as error:  # told to the player: only whom they see
            raise refusal(error, self.tables.fold(row)) from None

    def asking(self, row: TableRow, role: Role) -> dict[str, Any]:
        """For the ask fragment: the table, this link's combatant, and what waits on
        it (None when nothing does)."""
        who = role.me
        waiting = self.tables.waiting(row)
        mine = (
            waiting if waiting is not None and who is not None and waiting["who"] == who else None
        )
        if mine is not None:  # what the faces so far were for: the game master's page's
            mine = {k: v for k, v in mine.items() if k not in ("rolled_for", "did")}
            mine = redacted(mine, self.tables.fold(row).state.hidden)
        return {"table": row, "who": who, "waiting": mine}

    def execute(self, row: TableRow, data: Mapping[str, Any], expected: int | None) -> Done:
        request = parse(self.tables, row, self._unmended(row, data), self.shelf)
        return self._run(row, request, expected)

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

    def _run(self, row: TableRow, request: Request, expected: int | None) -> Done:
        if request.verb == "import":
            dones = self.tables.run_all(row, request.commands, expected, options=request.options)
            if not dones:
                raise TableError("the encounter has no one in it")
            events = tuple(e for done in dones for e in done.events)
            lines = tuple(line for done in dones for line in done.lines)
            return Done(row, dones[-1].version, dones[-1].state, events, lines)
        if request.verb == "answer":
            return self.tables.answer(
                row,
                rolls=request.rolls,
                choices=request.choices,
                roll_rest=request.roll_rest,
                tactics_rest=request.tactics_rest,
                expected=expected,
                question=request.question,
                rolled_one=request.rolled_one,
            )
        if request.verb == "cancel":
            self.tables.cancel(row)
            return Done(row, self.tables.store.version(row.id), self.tables.fold(row).state)
        if request.verb == "undo":
            return self.tables.undo(row, request.steps, expected)
        if request.verb == "redo":
            return self.tables.redo(row, request.steps, expected)
        assert request.command is not None
        return self.tables.run(
            row,
            request.command,
            rolls=request.rolls,
            choices=request.choices,
            seed=request.seed,
            roll_missing=request.roll_missing,
            choose_missing=request.choose_missing,
            expected=expected,
            beside=request.beside,
        )


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


def _resolved(state: TableState, name: str) -> str | None:
    try:
        return state.resolve(name)
    except AffrayError:
        return None


def tracker_of(request: HttpRequest) -> Tracker:
    """The tracker of the app that serves ``request``."""
    found: Tracker = request.app.state.tracker
    return found


def _waiting(what: str) -> None:
    """One line on stderr when a write waits for another affray's lock."""
    import sys

    print(f"affray serve: {what}", file=sys.stderr, flush=True)
