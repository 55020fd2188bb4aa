"""The home page (``/?key=KEY``): every table with its links, the parties, and the
forms that make and put away tables and parties."""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response

from affray import registry
from affray.errors import AffrayError, TableError
from affray.web.access import check_home_key
from affray.web.forms import read_form
from affray.web.tracker import Tracker, tracker_of
from affray.web.views import listing


async def home(request: Request) -> Response:
    tracker = tracker_of(request)
    key = await check_home_key(tracker, request)
    return tracker.page(
        "home.html",
        key=key,
        db=tracker.tables.store.path,
        systems=registry.all_systems(),
        listing=await tracker.call(listing, tracker.tables, tracker.shelf),
        message=None,
    )


async def home_list(request: Request) -> Response:
    tracker = tracker_of(request)
    await check_home_key(tracker, request)
    return tracker.page(
        "_home.html",
        listing=await tracker.call(listing, tracker.tables, tracker.shelf),
        message=None,
    )


async def home_change(request: Request) -> Response:
    tracker = tracker_of(request)
    await check_home_key(tracker, request)
    data = {k: v for k, v in (await read_form(request)).items() if isinstance(v, str)}
    failed = False
    try:
        message = await tracker.call(home_do, tracker, data)
    except AffrayError as error:
        message = error.message + (f" — {error.hint}" if error.hint else "")
        failed = True
    return tracker.page(
        "_home.html",
        listing=await tracker.call(listing, tracker.tables, tracker.shelf),
        message=message,
        failed=failed,
    )


def home_do(tracker: Tracker, form: Mapping[str, str]) -> str | None:
    """A change from the home page; a message to show, if any."""
    verb = form.get("verb")
    if verb is not None and verb.startswith("party-"):
        return party_do(tracker, form)
    if verb == "new":
        from affray.table.commands import parse_pairs

        options = parse_pairs(form.get("options", "").split(), flag="option")
        row = tracker.tables.new(form.get("name", ""), form.get("system", ""), options)
        return f"Made {row.name}."
    if verb == "end":  # the party members' state written back to their parties
        from affray.table.parties import Parties

        dones = Parties(tracker.tables).end(tracker.tables.table(form.get("table", "")))
        return " ".join(line for done in dones for line in done.lines)
    if verb not in ("archive", "restore", "delete"):
        raise TableError(
            f"unknown verb {verb!r}",
            hint="the home page's forms send new, end, archive, restore, delete and party-…",
        )
    row = tracker.tables.table(form.get("table", ""))
    if verb in ("archive", "restore"):
        tracker.tables.store.archive(row.id, verb == "archive")
        return None
    if verb == "delete":
        if not row.archived:
            raise TableError("archive a table before deleting it")
        tracker.tables.store.delete(row.id)
        tracker.tables.forget(row.id)
        return f"Deleted {row.name}."
    raise TableError(f"unknown verb {verb!r}")


def party_do(tracker: Tracker, form: Mapping[str, str]) -> str | None:
    """A party change from the home page: new, add (a bestiary creature), rest,
    undo; a message to show."""
    from affray.table.parties import Parties

    parties = Parties(tracker.tables)
    verb = form.get("verb")
    if verb == "party-new":
        row = parties.new(form.get("name", ""), form.get("system", ""))
        return f"Made the party {row.name}."
    row = parties.party(form.get("party", ""))
    if verb == "party-add":
        sheet = form.get("sheet", "")
        tracker.shelf.sheet(row.system, sheet)  # refuses what the page may not read
        found = tracker.shelf.file(sheet)
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
        done = parties.rest(row, int(days), tracker.dice, options)
    elif verb == "party-undo":
        done = parties.undo(row)
    else:
        raise TableError(f"unknown verb {verb!r}")
    return " ".join(done.lines) or None
