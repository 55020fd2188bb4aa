"""Writing an export: a table's or a party's row and log as one document (with the
state and sheets a reader may want, rebuilt by replaying the log)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from affray import registry
from affray.table import party_rules
from affray.table.commands import Add
from affray.table.exchange.schema import FORMAT, NOT_IN_STATE, VERSION, affray_version, plain
from affray.table.fold import Fold
from affray.table.model import Rules
from affray.table.party_rules import PartyFold
from affray.table.party_store import PartyRow
from affray.table.store import ChangeRow, TableRow
from affray.table.view import show_data


def table_document(row: TableRow, changes: Sequence[ChangeRow]) -> dict[str, Any]:
    """The document of a table: ``changes`` are its whole log, as the store keeps it.

    Raises:
        TableError: the log does not replay (written by another version of the rules).
    """
    fold = _table_fold(Rules.of(row.system, row.options), changes)
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": "table",
        "affray": affray_version(),
        "table": {
            "id": row.id,
            "name": row.name,
            "system": row.system,
            "options": dict(row.options),
            "created": row.created,
            "archived": row.archived,
        },
        "log": [_change(change) for change in changes],
        "sheets": sheets_of(fold),
        "state": table_state(row, fold),
    }


def party_document(row: PartyRow, changes: Sequence[ChangeRow]) -> dict[str, Any]:
    """The document of a party: ``changes`` are its whole log, as the store keeps it."""
    folded = party_rules.fold([(c.version, c.verb, c.payload) for c in changes])
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": "party",
        "affray": affray_version(),
        "party": {"id": row.id, "name": row.name, "system": row.system, "created": row.created},
        "log": [_change(change) for change in changes],
        "state": party_state(registry.system(row.system), folded),
    }


def dumps(document: Mapping[str, Any]) -> str:
    """A document's text: the same document always gives the same bytes (ASCII, keys in
    the order written, two spaces of indent, a final newline)."""
    return json.dumps(document, indent=2) + "\n"


def _change(change: ChangeRow) -> dict[str, Any]:
    return {
        "version": change.version,
        "verb": change.verb,
        "at": change.created,
        "payload": change.payload,
    }


def _table_fold(rules: Rules, changes: Sequence[ChangeRow]) -> Fold:
    fold = Fold(rules)
    for change in changes:
        fold.feed(change.version, change.verb, change.payload)
    return fold


def table_state(row: TableRow, fold: Fold) -> dict[str, Any]:
    shown = show_data(row, fold)
    return plain({key: value for key, value in shown.items() if key not in NOT_IN_STATE})


def sheets_of(fold: Fold) -> dict[str, Any]:
    """Each combatant at the table now: the sheet it joined with (found by its serial,
    which follows renames)."""
    by_serial: dict[int, Mapping[str, Any]] = {}
    for applied in fold.done:
        command = applied.command
        if isinstance(command, Add):
            by_serial[applied.state.serials[command.combatant]] = command.sheet
    state = fold.state
    return plain({c.id: dict(by_serial[state.serials[c.id]]) for c in state.encounter.combatants})


def party_state(system: registry.AnySystem, folded: PartyFold) -> dict[str, Any]:
    ruleset = system.duel_ruleset()
    state = folded.state
    return plain(
        {
            "version": folded.version,
            "members": [
                {
                    **member.data(),
                    "state": party_rules.carried(
                        system, ruleset, party_rules.solo(system, ruleset, member), member.id
                    ),
                }
                for member in state.members
            ],
            "written": [{"table": t, "version": v} for t, v in sorted(state.written)],
        }
    )
