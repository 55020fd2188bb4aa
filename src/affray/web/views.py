"""What the pages show, as plain data for their templates (view models): the home
page's tables and parties, the game master's action panel, a player's own turn and
own combatant."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from affray import registry
from affray.errors import AffrayError
from affray.sheets import bestiary
from affray.table import Phase, TableRow, Tables
from affray.table.fold import Fold
from affray.table.given import words_of
from affray.table.own_turn import own_actions, unseen_foes
from affray.table.view import show_data
from affray.web.sheets import Shelf


def listing(tables: Tables, shelf: Shelf | None = None) -> dict[str, Any]:
    """Every table for the home page: active and archived, each with where its fight
    stands, its last change, its two tokens, and the parties its members came from
    (whether this version of it was written back to them)."""
    from affray.table.parties import Parties

    parties = Parties(tables)
    active: list[dict[str, Any]] = []
    archived: list[dict[str, Any]] = []
    for row, _ in tables.store.tables():
        came: list[dict[str, Any]] = []
        try:
            fold = tables.fold(row)
            shown = show_data(row, fold)
            for party_id in sorted({o.party for o in parties.from_parties(row).values()}):
                try:
                    party = parties.party(party_id)
                except AffrayError:
                    continue  # a party deleted since
                written = (row.id, fold.version) in parties.fold(party).state.written
                came.append({"id": party.id, "name": party.name, "written": written})
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
            "last": (tables.store.last_change(row.id) or row.created).replace("T", " ")[:16],
            "gm_token": row.gm_token,
            "player_token": row.player_token,
            "parties": came,
        }
        (archived if row.archived else active).append(entry)
    return {"active": active, "archived": archived, "parties": party_listing(tables, shelf)}


def party_listing(tables: Tables, shelf: Shelf | None = None) -> list[dict[str, Any]]:
    """Every party for the home page: its members and what each carries, and what may
    join it (the bestiary's creatures, and the sheet files the server was given)."""
    from affray.table.parties import Parties

    parties = Parties(tables)
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
                "sheet_files": shelf.listing(row.system) if shelf is not None else [],
                "rest_options": registry.system(row.system).rest_options,
                "members": [
                    {
                        "id": m.id,
                        "carries": ", ".join(f"{k} {v}" for k, v in m.values.items()) or "fresh",
                    }
                    for m in state.members
                ],
            }
        )
    return listed


def panel(tables: Tables, row: TableRow) -> dict[str, Any]:
    """The game master's action panel: the legal actions of whoever's turn it is,
    each with the system's odds for it when it has them."""
    fold = tables.fold(row)
    state = fold.state
    actions: list[Any] = []
    if state.phase(fold.rules) is Phase.TURN and state.current is not None:
        actions = list(fold.rules.ruleset.actions(state.encounter, state.current))
    return _grouped(_entries(fold, actions, odds=True))


def own_turn(tables: Tables, row: TableRow, who: str) -> dict[str, Any] | None:
    """A player's own turn, when the game master lets the players choose and nothing
    waits: the actions ``who`` may take as its player sees them (none at a hidden
    combatant), with their odds if the game master lets the players see them; None
    otherwise."""
    fold = tables.fold(row)
    state = fold.state
    if not state.allows(fold.rules, "players_choose") or tables.waiting(row) is not None:
        return None
    actions = own_actions(fold, who)
    if not actions:
        return None
    found = _grouped(_entries(fold, actions, odds=state.allows(fold.rules, "players_odds")))
    found["unseen_foes"] = unseen_foes(fold, who)
    return found


def you(tables: Tables, row: TableRow, who: str) -> dict[str, Any] | None:
    """A player's own combatant in full, with its sheet (each line a label and its
    value); None if it has left the table."""
    fold = tables.fold(row)
    encounter = fold.state.encounter
    if who not in {c.id for c in encounter.combatants}:
        return None
    block = fold.rules.system.stat_block
    return {
        "id": who,
        "sheet": list(block(encounter.sheet(who))) if block is not None else [],
    }


def _entries(fold: Fold, actions: list[Any], *, odds: bool) -> list[dict[str, Any]]:
    state = fold.state
    system = fold.rules.system
    entries = []
    for action in actions:
        told = None
        if odds and system.live_odds is not None and state.current is not None:
            live = system.live_odds(
                fold.rules.ruleset, state.encounter, who=state.current, action=action
            )
            told = live.text if live is not None else None
        entries.append(
            {
                "label": action.label,
                "name": action.name,
                "target": action.target,
                "odds": told,
                "figures": figures(told) if told else None,
                "explain": action.explain,
            }
        )
    return entries


DICE_SHOWN = 12
"""How many of the latest changes that rolled dice the pages' dice log lists."""


def dice_log(newest_first: Iterable[Mapping[str, Any]], key: str) -> list[dict[str, Any]]:
    """The evening's rolls as the pages list them, newest change first: each change
    that used dice (``entry[key]``: its faces, :mod:`affray.table.given`) as
    ``{"version", "undone", "faces"}``, each face with who gave it in words."""
    found = []
    for entry in newest_first:
        faces = entry.get(key) or []
        if faces:
            told = [{**face, "words": words_of(face)} for face in faces]
            undone = not entry.get("in_effect", True)
            found.append({"version": entry["version"], "undone": undone, "faces": told})
            if len(found) == DICE_SHOWN:
                break
    return found


def figures(odds: str) -> str:
    """A live odds line's figures, short ("hit 55%, wound 51.6%, takes out 0%" of "odds
    of A against B if the attack goes ahead: hit 55.0%, wound 51.6%, takes out 0.0%"):
    less the words that name who attacks whom (the action's label says it), and less a
    tenth of nothing."""
    import re

    said = odds.split(": ", 1)[1] if ": " in odds else odds
    return re.sub(r"(\d+)\.0%", r"\1%", said)


def _grouped(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """Each foe's (or friend's) actions together, in the rules' order, then the
    actions at no one."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for index, entry in enumerate(actions, start=1):
        entry["index"] = index
        heading = f"at {entry['target']}" if entry["target"] else "the rest"
        groups.setdefault(heading, []).append(entry)
    rest = groups.pop("the rest", [])
    ordered = [*groups.items(), *([("the rest", rest)] if rest else [])]
    return {"actions": actions, "groups": ordered}
