"""The ASGI app: the JSON API (SPEC.md, "The web tracker"), the game master's page,
the player page, server-sent events; every asset served from the package.

Tokens: ``Authorization: Bearer TOKEN`` or ``?token=TOKEN``. No token, or one no
table has, is 401; the player token on a write is 403; another table's token is the
404 of a table that is not there.
The game master's page sends its token in a header (never a cookie), so a page
on another site cannot write through the game master's browser.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request as HttpRequest
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from affray import registry
from affray.errors import (
    AffrayError,
    ConflictError,
    DatabaseBusyError,
    InputNeededError,
    TableError,
)
from affray.sheets import bestiary
from affray.table import Done, Phase, Store, TableRow, Tables
from affray.table import journal as journals
from affray.table.service import needs
from affray.table.view import describe, player_data, show_data
from affray.web.commands import Request, parse
from affray.web.limits import BodyLimit, Limits, Refusals, Streams, loop_errors, protocol
from affray.web.odds import OddsKeeper
from affray.web.sheets import Shelf
from affray.web.text import (
    MendedHTML,
    MendedJSON,
    MendedText,
    mended_matches,
    refuse_unencodable,
    shown,
)

T = TypeVar("T")
STREAM_KEEPALIVE_S = 15.0
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class Tracker:
    """What the app holds: the tables (:class:`~affray.table.Tables`, safe across the
    server's threads: reads on each thread's own connection, one writer, each table's
    fold under its own lock), the live-update hub, the page templates, and recent
    fight odds."""

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
            self.tables.store.version, poll_s, outside=self.tables.store.database.data_version
        )
        self.pages = Environment(
            loader=PackageLoader("affray.web", "templates"),
            autoescape=select_autoescape(default=True),
        )
        self.odds = OddsKeeper(db)

    async def call(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` on a thread of the pool, off the event loop."""
        return await run_in_threadpool(function, *args)

    # -- access ---------------------------------------------------------------------

    async def access(self, request: HttpRequest, *, write: bool) -> tuple[TableRow, str]:
        """The table of the request's path, and ``"gm"``, ``"player"``, or
        ``"player:WHO"`` (a player's own link, which reads as the players do; whether it
        may answer is for the answer route to say).

        Raises:
            HTTPException: 401 (no token, or no table's), 403 (the player token on a
                write), 404 (no such table, or another table's token: the same).
        """
        token = _token(request)
        if not token:
            raise HTTPException(401, "a token is needed: Authorization: Bearer TOKEN")
        table_id = request.path_params["table"]
        row, owner = await self.call(self._lookup, table_id, token)
        linked = await self.call(self.tables.linked, token)
        if owner is None and linked is None:  # the same for a table that is not there
            raise HTTPException(401, "no table has that token")
        if row is None:
            raise HTTPException(404, f"no table {shown(table_id)}")
        if secrets.compare_digest(token, row.gm_token):
            return row, "gm"
        if secrets.compare_digest(token, row.player_token):
            if write:
                raise HTTPException(403, "the player token cannot change the table")
            return row, "player"
        if linked is not None and linked[0] == row.id:
            if linked[1] is None:
                raise HTTPException(403, "this link's combatant has left the table")
            if write:
                raise HTTPException(
                    403, "a player's link can only answer its own dice and questions"
                )
            return row, f"player:{linked[1]}"
        # another table's token: the same answer as for a table that is not there, so
        # that no token tells which tables exist
        raise HTTPException(404, f"no table {shown(table_id)}")

    def _lookup(self, table_id: str, token: str) -> tuple[TableRow | None, str | None]:
        try:
            row = self.tables.store.table(table_id)
        except AffrayError:
            row = None
        if row is not None and row.id != table_id:
            row = None  # ids only, on the web
        return row, self.tables.store.token_owner(token)

    async def home_key(self, request: HttpRequest) -> None:
        """The home page's key, from ``?key=`` or the Bearer header (read off the event
        loop, like every use of the tables).

        Raises:
            HTTPException: 401 with none, 403 with a wrong one.
        """
        given = request.query_params.get("key") or _token(request)
        if not given:
            raise HTTPException(
                401, "the home page needs its key: /?key=KEY (affray serve prints it)"
            )
        if not secrets.compare_digest(given, await self.call(self.tables.store.home_key)):
            raise HTTPException(403, "that is not this tracker's key")

    def listing(self) -> dict[str, Any]:
        """Every table for the home page: active and archived, each with where its fight
        stands, its last change and its two tokens."""
        active: list[dict[str, Any]] = []
        archived: list[dict[str, Any]] = []
        for row, _ in self.tables.store.tables():
            try:
                shown = show_data(row, self.tables.fold(row))
                where = {
                    "setup": f"setting up ({len(shown['combatants'])} combatants)",
                    "turn": f"round {shown['round']}, {shown['turn']}'s turn",
                    "round over": f"round {shown['round']} is over",
                    "over": "the fight is over",
                }[shown["phase"]]
            except AffrayError as error:  # a log this affray cannot read: still listed
                where = f"cannot be read ({error.message})"
            entry = {
                "id": row.id,
                "name": row.name,
                "system": row.system,
                "where": where,
                "last": (self.tables.store.last_change(row.id) or row.created).replace("T", " ")[
                    :16
                ],
                "gm_token": row.gm_token,
                "player_token": row.player_token,
            }
            (archived if row.archived else active).append(entry)
        return {"active": active, "archived": archived, "parties": self.party_listing()}

    def party_listing(self) -> list[dict[str, Any]]:
        """Every party for the home page: its members and what each carries."""
        from affray.table.parties import Parties

        parties = Parties(self.tables)
        listed = []
        for row, version in parties.store.parties():
            state = parties.fold(row).state
            listed.append(
                {
                    "id": row.id,
                    "name": row.name,
                    "system": row.system,
                    "version": version,
                    "creatures": bestiary.names(row.system),
                    "rest_options": registry.system(row.system).rest_options,
                    "members": [
                        {
                            "id": m.id,
                            "carries": ", ".join(f"{k} {v}" for k, v in m.values.items())
                            or "fresh",
                        }
                        for m in state.members
                    ],
                }
            )
        return listed

    def party_do(self, form: Mapping[str, str]) -> str | None:
        """A party change from the home page: new, add (a bestiary creature), rest,
        undo; a message to show."""
        import random as chance

        from affray.dice import RandomDice
        from affray.table.parties import Parties

        parties = Parties(self.tables)
        verb = form.get("verb")
        if verb == "party-new":
            row = parties.new(form.get("name", ""), form.get("system", ""))
            return f"Made the party {row.name}."
        row = parties.party(form.get("party", ""))
        if verb == "party-add":
            sheet = form.get("sheet", "")
            self.shelf.sheet(row.system, sheet)  # refuses what the page may not read
            found = self.shelf.file(sheet)
            done = parties.add(row, str(found or sheet), form.get("as") or None, anywhere=False)
        elif verb == "party-rest":
            days = form.get("days", "")
            if not days.isdigit() or not 1 <= int(days) <= 365:
                raise TableError("days of rest are a whole number from 1 to 365")
            options: dict[str, object] = {
                option.key: form[f"rest.{option.key}"]
                for option in registry.system(row.system).rest_options
                if form.get(f"rest.{option.key}")
            }
            done = parties.rest(row, int(days), RandomDice(chance.Random()), options)
        elif verb == "party-undo":
            done = parties.undo(row)
        else:
            raise TableError(f"unknown verb {verb!r}")
        return " ".join(done.lines) or None

    def home_do(self, form: Mapping[str, str]) -> str | None:
        """A change from the home page; a message to show, if any."""
        verb = form.get("verb")
        if verb is not None and verb.startswith("party-"):
            return self.party_do(form)
        if verb == "new":
            from affray.table.commands import parse_pairs

            options = parse_pairs(form.get("options", "").split(), flag="option")
            row = self.tables.new(form.get("name", ""), form.get("system", ""), options)
            return f"Made {row.name}."
        row = self.tables.table(form.get("table", ""))
        if verb in ("archive", "restore"):
            self.tables.store.archive(row.id, verb == "archive")
            return None
        if verb == "delete":
            if not row.archived:
                raise TableError("archive a table before deleting it")
            self.tables.store.delete(row.id)
            self.tables.forget(row.id)
            return f"Deleted {row.name}."
        raise TableError(f"unknown verb {verb!r}")

    # -- reading --------------------------------------------------------------------

    def show(self, row: TableRow) -> dict[str, Any]:
        with self.tables.store.reading():  # the log, what waits and the links: one moment
            shown = show_data(row, self.tables.fold(row), self.tables.waiting(row))
            shown["linked"] = self.tables.linked_ids(row)
        return shown

    def players(self, row: TableRow, me: str | None = None) -> dict[str, Any]:
        return player_data(row, self.tables.fold(row), me)

    def panel(self, row: TableRow) -> dict[str, Any]:
        """The game master's action panel: the legal actions of whoever's turn it is,
        each with the system's odds for it when it has them."""
        fold = self.tables.fold(row)
        state = fold.state
        system = fold.rules.system
        actions: list[dict[str, Any]] = []
        if state.phase(fold.rules) is Phase.TURN and state.current is not None:
            for action in fold.rules.ruleset.actions(state.encounter, state.current):
                odds = None
                if system.live_odds is not None:
                    live = system.live_odds(
                        fold.rules.ruleset, state.encounter, who=state.current, action=action
                    )
                    odds = live.text if live is not None else None
                actions.append(
                    {
                        "label": action.label,
                        "name": action.name,
                        "target": action.target,
                        "odds": odds,
                        "explain": action.explain,
                    }
                )
        # grouped: each foe's (or friend's) actions together, in the rules' order, then
        # the actions at no one
        groups: dict[str, list[dict[str, Any]]] = {}
        for index, entry in enumerate(actions, start=1):
            entry["index"] = index
            heading = f"at {entry['target']}" if entry["target"] else "the rest"
            groups.setdefault(heading, []).append(entry)
        rest = groups.pop("the rest", [])
        ordered = [*groups.items(), *([("the rest", rest)] if rest else [])]
        return {"actions": actions, "groups": ordered}

    def log(self, row: TableRow) -> list[dict[str, Any]]:
        return journals.entries(self.tables.store.changes(row.id), self.tables.fold(row))

    # -- writing --------------------------------------------------------------------

    def answer_as(
        self, row: TableRow, who: str, data: Mapping[str, Any], expected: int | None
    ) -> Done:
        """A player's own answer to the die or question the table waits on from their
        combatant ``who`` (a face, or one of the offered choices).

        Raises:
            HTTPException: 403 for anything else (another verb, or nothing waiting on
                ``who``).
        """
        if data.get("verb") != "answer":
            raise HTTPException(403, "a player's link can only answer its own dice and questions")
        waiting = self.tables.waiting(row)
        if waiting is None or waiting["who"] != who:
            raise HTTPException(403, f"nothing is waiting on {who} now")
        request = parse(self.tables, row, data, self.shelf)
        asked = waiting["needs"].get("choice")
        if asked is None:  # a die waits: its one face, and nothing more
            if len(request.rolls) != 1 or request.choices:
                raise TableError("give the one face of the die that is asked", hint="e.g. 14")
            return self.tables.answer(row, rolls=request.rolls, expected=expected)
        # a question waits: its one answer (its label is enough), and nothing more
        labels = [choice.partition("=")[2] or choice for choice in request.choices]
        if len(labels) != 1 or request.rolls:
            raise TableError("give the one answer that is asked", hint="one of the offered answers")
        answer = f"{asked['who']}:{asked['topic']}={labels[0]}"
        return self.tables.answer(row, choices=(answer,), expected=expected)

    def asking(self, row: TableRow, role: str) -> dict[str, Any]:
        """For the ask fragment: the table, this link's combatant, and what waits on
        it (None when nothing does)."""
        who = role.split(":", 1)[1] if role.startswith("player:") else None
        waiting = self.tables.waiting(row)
        mine = (
            waiting if waiting is not None and who is not None and waiting["who"] == who else None
        )
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
        )


def create_app(
    db: str | Path,
    *,
    poll_s: float = 0.2,
    limits: Limits | None = None,
    sheets: Iterable[str | Path] = (),
    make_folder: bool = False,
) -> Starlette:
    """The web tracker over the table database ``db``, within ``limits`` (its caps and
    timeouts; ``affray serve``'s by default), adding combatants from the bestiary and
    from the sheet files in the folders ``sheets`` (and nowhere else on the server).

    Raises:
        TableError: one of ``sheets`` is not a folder.
    """
    tracker = Tracker(db, poll_s, limits or Limits(), Shelf.of(sheets), make_folder=make_folder)

    async def api_show(request: HttpRequest) -> Response:
        row, role = await tracker.access(request, write=False)
        if role == "gm":
            return MendedJSON(await tracker.call(tracker.show, row))
        return MendedJSON(await tracker.call(tracker.players, row, _me(role)))

    async def api_command(request: HttpRequest) -> Response:
        row, role = await tracker.access(request, write=False)
        if role == "player":
            raise HTTPException(403, "the player token cannot change the table")
        try:
            body = json.loads(await request.body())
        except ValueError:  # also not UTF-8, and a number of over 4,300 digits
            return _unprocessable(
                "the body is not JSON (or a number in it has over 4,300 digits)",
                'send {"expected_version": V, "command": {...}}',
            )
        except RecursionError:
            return _unprocessable(
                "the body nests too deeply to read",
                'send {"expected_version": V, "command": {...}}',
            )
        try:
            refuse_unencodable(body, "body")
        except AffrayError as error:
            return _refused(error)
        if not isinstance(body, dict) or not isinstance(body.get("command"), dict):
            return _unprocessable(
                "the body needs a command", 'send {"expected_version": V, "command": {...}}'
            )
        expected = body.get("expected_version")
        if isinstance(expected, bool) or not isinstance(expected, int):
            return _unprocessable(
                "expected_version must be the version you read", "GET the table first"
            )
        try:
            if role == "gm":
                done = await tracker.call(tracker.execute, row, body["command"], expected)
            else:  # a player's own link: its combatant's answer, and nothing else
                who = role.split(":", 1)[1]
                done = await tracker.call(tracker.answer_as, row, who, body["command"], expected)
        except ConflictError as error:
            return MendedJSON(
                {"error": error.message, "tip": error.hint, "version": error.current}, 409
            )
        except InputNeededError as error:
            if role != "gm":  # taken; the table waits on someone (maybe this player)
                return MendedJSON({"answered": True, "waiting": True}, 202)
            return _refused(error)
        except AffrayError as error:
            return _refused(error)
        tracker.hub.seen(row.id, done.version)
        if role != "gm":  # a player's link hears only that its answer was taken
            return MendedJSON({"version": done.version, "answered": True})
        shown = await tracker.call(tracker.show, row)
        return MendedJSON(_done_json(done, shown))

    async def api_stream(request: HttpRequest) -> Response:
        row, _ = await tracker.access(request, write=False)
        refusal = tracker.streams.start(row.id)
        if refusal is not None:
            return MendedJSON(
                {"error": refusal, "tip": "close another page of this tracker, or try again soon"},
                503,
                headers={"Retry-After": "10"},
            )
        return _CountedStream(
            _changes(tracker, request, row.id),
            lambda: tracker.streams.end(row.id),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    async def api_log(request: HttpRequest) -> Response:
        row, _ = await tracker.access(request, write=True)
        form = request.query_params.get("format", "json")
        items = await tracker.call(tracker.log, row)
        if form == "markdown":
            return MendedText(journals.markdown(row, items), media_type="text/markdown")
        if form == "text":
            return MendedText(journals.text(row, items))
        return MendedJSON({"table": row.id, "changes": items})

    # -- pages ------------------------------------------------------------------------

    def page(name: str, **context: Any) -> HTMLResponse:
        return MendedHTML(tracker.pages.get_template(name).render(**context))

    async def home(request: HttpRequest) -> Response:
        await tracker.home_key(request)
        key = request.query_params.get("key") or _token(request)
        return page(
            "home.html",
            key=key,
            db=tracker.tables.store.path,
            systems=registry.all_systems(),
            listing=await tracker.call(tracker.listing),
            message=None,
        )

    async def home_list(request: HttpRequest) -> Response:
        await tracker.home_key(request)
        return page("_home.html", listing=await tracker.call(tracker.listing), message=None)

    async def home_change(request: HttpRequest) -> Response:
        await tracker.home_key(request)
        async with request.form() as form:
            data = {k: v for k, v in form.items() if isinstance(v, str)}
        _check_form(data)
        try:
            message = await tracker.call(tracker.home_do, data)
        except AffrayError as error:
            message = error.message + (f" — {error.hint}" if error.hint else "")
        return page("_home.html", listing=await tracker.call(tracker.listing), message=message)

    async def gm_page(request: HttpRequest) -> Response:
        row, _ = await tracker.access(request, write=True)
        shown = await tracker.call(tracker.show, row)
        return page(
            "gm.html",
            table=row,
            token=row.gm_token,
            shown=shown,
            creatures=bestiary.names(row.system),
            sheet_files=await run_in_threadpool(tracker.shelf.listing, row.system),
        )

    async def gm_fragment(request: HttpRequest) -> Response:
        row, _ = await tracker.access(request, write=True)
        name = request.path_params["fragment"]
        shown = await tracker.call(tracker.show, row)
        if name == "board":
            return page("_board.html", shown=shown, players=False)
        if name == "panel":
            return await panel_page(row)
        if name == "log":
            return page("_log.html", items=await tracker.call(tracker.log, row))
        if name == "odds":
            version = await tracker.call(tracker.tables.store.version, row.id)
            answer = tracker.odds.get(row.id, version, row.created)
            return page("_odds.html", answer=answer, table=row, version=version)
        raise HTTPException(404, f"no part {name!r}")

    async def gm_do(request: HttpRequest) -> Response:
        """A command from the game master's page; the panel comes back (asking for the
        next die or choice the rules need, if any: the server keeps the command that
        waits, with every face and answer it used so far)."""
        row, _ = await tracker.access(request, write=True)
        async with request.form() as form:  # an uploaded file is closed at its end
            data: dict[str, Any] = {k: v for k, v in form.items() if isinstance(v, str)}
            data["choose"] = [str(v) for v in form.getlist("choose") if v]
            for field, key in (
                ("sheet_file", "sheet_text"),
                ("encounter_file", "encounter_text"),
            ):
                upload = form.get(field)
                if upload is not None and not isinstance(upload, str):
                    data[key] = (await upload.read(100_001)).decode("utf-8", "replace")
        _check_form(data)
        rolls = [r for r in str(data.get("rolls", "")).split(",") if r.strip()]
        if data.get("face", "").strip():
            rolls.append(data["face"].strip())
        if data.get("roll_die", "").strip().isdigit():
            rolls.append(str(random.randint(1, max(2, int(data["roll_die"])))))
        data["rolls"] = ",".join(rolls)
        interactive = data.get("verb") in ("start", "act", "next")
        data.setdefault("roll_missing", "0" if interactive else "1")
        data.setdefault("choose_missing", "0" if interactive else "1")
        expected = data.get("expected_version", "").strip()
        if not expected and data.get("verb") != "link":  # every form of the page sends it
            raise HTTPException(
                422,
                "expected_version is missing: the version of the table the form was filled "
                "in against — Tip: reload the page",
            )
        message: str | None = None
        lines: tuple[str, ...] = ()
        if data.get("verb") == "link":  # not a change of the fight: a player's link
            try:
                cid, link = await tracker.call(tracker.tables.link, row, data.get("who", ""))
            except AffrayError as error:
                return await panel_page(row, message=error.message)
            url = f"{str(request.base_url).rstrip('/')}/p/{row.id}?token={link}"
            text = f"{cid}'s player's own link (any older one no longer works): {url}"
            return await panel_page(row, message=text)
        try:
            done = await tracker.call(
                tracker.execute, row, data, int(expected) if expected.isdigit() else None
            )
            tracker.hub.seen(row.id, done.version)
            word = "undone" if data.get("verb") == "undo" else "redone"
            lines = done.lines or tuple(f"{word}: {describe(m.command)}" for m in done.moved)
        except ConflictError as error:
            message = f"The table changed (now version {error.current}); here it is again."
        except InputNeededError:
            pass  # the table waits on it: the panel asks
        except AffrayError as error:
            message = f"{error.message}" + (f" — {error.hint}" if error.hint else "")
        return await panel_page(row, message=message, lines=lines)

    async def panel_page(
        row: TableRow, *, message: str | None = None, lines: tuple[str, ...] = ()
    ) -> Response:
        shown = await tracker.call(tracker.show, row)
        panel = await tracker.call(tracker.panel, row)
        return page(
            "_panel.html",
            table=row,
            shown=shown,
            panel=panel,
            pending=shown["pending"],
            message=message,
            lines=lines,
        )

    async def player_page(request: HttpRequest) -> Response:
        row, role = await tracker.access(request, write=False)
        token = _token(request)
        who = role.split(":", 1)[1] if role.startswith("player:") else None
        shown = await tracker.call(tracker.players, row, who)
        return page("player.html", table=row, token=token, shown=shown, who=who)

    async def player_ask(request: HttpRequest) -> Response:
        """What the table asks of this link's combatant now (nothing, a die, a choice)."""
        row, role = await tracker.access(request, write=False)
        return page("_ask.html", **await tracker.call(tracker.asking, row, role), message=None)

    async def player_answer(request: HttpRequest) -> Response:
        row, role = await tracker.access(request, write=False)
        if not role.startswith("player:"):
            raise HTTPException(403, "only a player's own link answers here")
        async with request.form() as form:
            data: dict[str, Any] = {k: v for k, v in form.items() if isinstance(v, str)}
            data["choose"] = [str(v) for v in form.getlist("choose") if v]
        data["verb"] = "answer"
        _check_form(data)
        faces = [data["face"].strip()] if data.get("face", "").strip() else []
        if data.get("roll_die", "").strip().isdigit():  # "roll for me"
            faces = [str(random.randint(1, max(2, int(data["roll_die"]))))]
        data["rolls"] = ",".join(faces)
        message = None
        try:
            done = await tracker.call(tracker.answer_as, row, role.split(":", 1)[1], data, None)
            tracker.hub.seen(row.id, done.version)
        except InputNeededError:
            pass  # answered; the command asks more of someone
        except AffrayError as error:
            message = error.message
        context = await tracker.call(tracker.asking, row, role)
        return page("_ask.html", **context, message=message)

    async def player_board(request: HttpRequest) -> Response:
        row, role = await tracker.access(request, write=False)
        shown = await tracker.call(tracker.players, row, _me(role))
        return page("_board.html", shown=shown, players=True)

    async def on_error(request: HttpRequest, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        # a body cut off (too large, too slow) is not read to its end: the connection
        # closes, rather than reading the rest
        headers = {"Connection": "close"} if error.status_code in (408, 413) else None
        if request.url.path.startswith("/api/"):
            said, _, tip = str(error.detail).partition(" — Tip: ")
            body = {"error": said, **({"tip": tip} if tip else {})}
            return MendedJSON(body, error.status_code, headers=headers)
        return MendedText(f"{error.status_code}: {error.detail}", error.status_code, headers)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await tracker.hub.close()
        tracker.odds.close()

    app = Starlette(
        routes=[
            Route("/", home),
            Route("/home/list", home_list),
            Route("/home/do", home_change, methods=["POST"]),
            Route("/api/tables/{table}", api_show),
            Route("/api/tables/{table}/commands", api_command, methods=["POST"]),
            Route("/api/tables/{table}/stream", api_stream),
            Route("/api/tables/{table}/log", api_log),
            Route("/t/{table}", gm_page),
            Route("/t/{table}/part/{fragment}", gm_fragment),
            Route("/t/{table}/do", gm_do, methods=["POST"]),
            Route("/p/{table}", player_page),
            Route("/p/{table}/board", player_board),
            Route("/p/{table}/ask", player_ask),
            Route("/p/{table}/answer", player_answer, methods=["POST"]),
            Mount("/static", StaticFiles(packages=[("affray.web", "static")]), name="static"),
        ],
        middleware=[
            Middleware(SecurityHeaders),
            Middleware(BodyLimit, limits=tracker.limits, refusals=tracker.refusals),
        ],
        exception_handlers={HTTPException: on_error},
        lifespan=lifespan,
    )
    app.state.tracker = tracker
    return app


class _CountedStream(StreamingResponse):
    """A live stream that says when it ends, however it ends (the client gone, the
    server stopping)."""

    def __init__(self, content: AsyncIterator[str], ended: Callable[[], None], **kw: Any):
        super().__init__(content, **kw)
        self.ended = ended

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.ended()


class SecurityHeaders:
    """Every response says: scripts and styles from this server only, no framing, no
    guessing content types, no referrer (the URL may carry a token)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


async def _changes(tracker: Tracker, request: HttpRequest, table_id: str) -> AsyncIterator[str]:
    """One ``change`` event per new version (the first at once), and a comment now and
    then to keep the connection open; ends when the client goes."""
    seen = -1
    while not tracker.hub.stopped and not await request.is_disconnected():
        version = await tracker.hub.wait(table_id, seen, STREAM_KEEPALIVE_S)
        if version > seen:
            seen = version
            yield f"event: change\ndata: {json.dumps({'version': version})}\n\n"
        else:
            yield ": still here\n\n"


FORM_NUMBERS = {
    "expected_version": 10**15,
    "roll_die": 1000,
    "steps": 10_000,
    "turns": 10_000,
    "days": 365,
    "seed": 2**64 - 1,
}
"""The whole numbers a page's form may carry, each with its largest value."""


def _check_form(data: Mapping[str, Any]) -> None:
    """Refuse a form the pages never send: text UTF-8 cannot carry, or a number
    field that is not a plain whole number (``²``, 5,000 digits).

    Raises:
        HTTPException: 422, saying which field and what it takes.
    """
    try:
        refuse_unencodable(dict(data), "form")
    except AffrayError as error:
        raise HTTPException(422, f"{error.message} — Tip: {error.hint}") from None
    for key, top in FORM_NUMBERS.items():
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            continue
        digits = value.strip()
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 20 and int(digits) <= top):
            raise HTTPException(
                422,
                f"{key} must be a whole number from 0 to {top:,}, not {shown(value)} — "
                f"Tip: digits 0-9 only, e.g. {key}=1",
            )


def _me(role: str) -> str | None:
    """The combatant of a player's own link (``"player:WHO"``), if the role is one."""
    return role.split(":", 1)[1] if role.startswith("player:") else None


def _token(request: HttpRequest) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return request.query_params.get("token") or None


def _unprocessable(message: str, tip: str) -> JSONResponse:
    return MendedJSON({"error": message, "tip": tip}, 422)


BUSY_S = 2.0
"""How long a write of the server waits for another affray writing to the database."""


def _waiting(what: str) -> None:
    """One line on stderr when a write waits for another affray's lock."""
    import sys

    print(f"affray serve: {what}", file=sys.stderr, flush=True)


def _refused(error: AffrayError) -> JSONResponse:
    """422: what the rules refuse; for a die or an answer they need, what it is and
    every face the command used so far (re-posted with the answer, they repeat those
    dice exactly; or the ``answer`` verb goes on with the command, which waits). 503
    when the database is busy with another affray's write (nothing was written)."""
    body: dict[str, Any] = {"error": error.message, "tip": error.hint}
    if isinstance(error, DatabaseBusyError):
        return MendedJSON(body, 503, headers={"Retry-After": "2"})
    if isinstance(error, InputNeededError):
        body["needs"] = needs(error)
        body["rolls"] = list(error.rolls)
    return MendedJSON(body, 422)


def _done_json(done: Done, shown: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "version": done.version,
        "events": [event.to_dict() for event in done.events],
        "lines": list(done.lines),
        "moved": [{"version": a.version, "what": describe(a.command)} for a in done.moved],
        "round": shown["round"],
        "turn": shown["turn"],
        "phase": shown["phase"],
        "winner": shown["winner"],
    }


def server(app: Starlette, host: str, port: int) -> Any:
    """A uvicorn server for the tracker that ends its live streams when it stops (an
    open stream would otherwise hold the shutdown up)."""
    import uvicorn

    tracker: Tracker = app.state.tracker
    limits = tracker.limits

    class TrackerServer(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            asyncio.get_running_loop().set_exception_handler(loop_errors(tracker.refusals))
            await super().startup(sockets)

        async def shutdown(self, sockets: Any = None) -> None:
            tracker.hub.stop()
            await super().shutdown(sockets)

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=2,
        timeout_keep_alive=limits.keep_alive_s,
        http=protocol(limits, tracker.refusals),
    )
    return TrackerServer(config)


def serve_forever(app: Starlette, host: str, port: int) -> None:  # pragma: no cover - the CLI's
    asyncio.run(server(app, host, port).serve())
