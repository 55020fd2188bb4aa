"""Where parties live: one row each in the table database, and a log of changes,
each change one transaction (as a table's, :mod:`affray.table.store`)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from affray.errors import TableError
from affray.table.payloads import checked, repaired
from affray.table.store import ChangeRow, Store, now, refuse_taken, unused_id


@dataclass(frozen=True, slots=True)
class PartyRow:
    id: str
    name: str
    system: str
    created: str


class PartyStore:
    """The parties of a table database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, name: str, system: str) -> PartyRow:
        """A new party with a short id made from ``name``."""
        with self.store.transaction() as db:
            taken = {row[0] for row in db.execute("SELECT id FROM parties")}
            row = PartyRow(unused_id(name, "party", taken), name, system, now())
            db.execute(
                "INSERT INTO parties VALUES (?, ?, ?, ?)", (row.id, name, system, row.created)
            )
        return row

    def party(self, ref: str) -> PartyRow:
        """The party with id ``ref`` (or, failing that, the one called ``ref``, case
        and spacing forgiven).

        Raises:
            TableError: there is none.
        """
        with self.store.reading() as db:
            found = db.execute("SELECT * FROM parties WHERE id = ?", (ref,)).fetchone()
            if found is None:
                named = db.execute(
                    "SELECT * FROM parties WHERE lower(name) = lower(?)", (" ".join(ref.split()),)
                ).fetchall()
                found = named[0] if len(named) == 1 else None
            if found is None:
                ids = [row[0] for row in db.execute("SELECT id FROM parties ORDER BY created, id")]
                raise TableError(
                    f"no party {ref!r} in {self.store.path}",
                    hint=("parties here: " + ", ".join(ids))
                    if ids
                    else "make one with `affray party new NAME --system mst2`",
                )
        return PartyRow(*repaired(tuple(found)))

    def parties(self) -> list[tuple[PartyRow, int]]:
        """Every party, oldest first, with its version."""
        rows = self.store.db.execute(
            "SELECT id, name, system, created, (SELECT coalesce(max(version), 0) "
            "FROM party_changes c WHERE c.party_id = parties.id) FROM parties "
            "ORDER BY created, id"
        ).fetchall()
        return [(PartyRow(*repaired(tuple(row[:4]))), int(row[4])) for row in rows]

    def version(self, party_id: str) -> int:
        (version,) = self.store.db.execute(
            "SELECT coalesce(max(version), 0) FROM party_changes WHERE party_id = ?", (party_id,)
        ).fetchone()
        return int(version)

    def changes(self, party_id: str) -> list[ChangeRow]:
        """The changes of a party, in order."""
        rows = self.store.db.execute(
            "SELECT version, verb, payload, created FROM party_changes "
            "WHERE party_id = ? ORDER BY version",
            (party_id,),
        ).fetchall()
        return [
            ChangeRow(v, verb, checked(self.store.path, party_id, v, verb, payload, "party"), at)
            for v, verb, payload, at in rows
        ]

    @contextmanager
    def writing(self, party_id: str) -> Iterator[PartyWriter]:
        """One change of a party, as one transaction (rolled back if the block raises)."""
        with self.store.transaction():
            yield PartyWriter(self.store, party_id, self.version(party_id))

    def restore(
        self, *, party_id: str, name: str, system: str, created: str, changes: Sequence[ChangeRow]
    ) -> PartyRow:
        """A party brought from elsewhere (an export): its row and its whole log as
        they were (times included), as one transaction.

        Raises:
            TableError: a party here has this id or this name (nothing is written).
        """
        with self.store.transaction() as db:
            refuse_taken(db, "parties", "party", party_id, name)
            db.execute("INSERT INTO parties VALUES (?, ?, ?, ?)", (party_id, name, system, created))
            db.executemany(
                "INSERT INTO party_changes VALUES (?, ?, ?, ?, ?)",
                [(party_id, c.version, c.verb, json.dumps(c.payload), c.created) for c in changes],
            )
        return PartyRow(party_id, name, system, created)


@dataclass(slots=True)
class PartyWriter:
    store: Store
    party_id: str
    version: int

    def append(self, verb: str, payload: Mapping[str, Any]) -> int:
        self.version += 1
        self.store.db.execute(
            "INSERT INTO party_changes VALUES (?, ?, ?, ?, ?)",
            (self.party_id, self.version, verb, json.dumps(payload), now()),
        )
        return self.version
