"""The open format: a table or a party as one JSON document, to move a campaign
to another machine or to read it with another tool (docs/exchange.md; its JSON
Schema is docs/schema/affray-export.schema.json, made from the models below).

Pure: a document is built from what the store keeps (a row and its log), and read
back into what the store writes; files and terminals are the CLI's business.

A document carries the log whole: every change with the dice faces and answers it
used, undone changes and the undos too. So the table on the other machine is the
same table, undo and redo included, and exporting it there gives the same bytes.
Its ``state`` and ``sheets`` (a party's ``state``) are there for readers: an
import rebuilds them by replaying the log, through the same rules as the table
itself, and refuses a file where they disagree. A writer may leave them out.
"""

from affray.table.exchange.reader import (
    PartyImport,
    TableImport,
    read_party,
    read_table,
    renamed,
)
from affray.table.exchange.schema import (
    FORMAT,
    MAX_CHARACTERS,
    VERSION,
    CommandVerb,
    ExchangeError,
    schema_text,
)
from affray.table.exchange.writer import dumps, party_document, table_document

__all__ = [
    "FORMAT",
    "MAX_CHARACTERS",
    "VERSION",
    "CommandVerb",
    "ExchangeError",
    "PartyImport",
    "TableImport",
    "dumps",
    "party_document",
    "read_party",
    "read_table",
    "renamed",
    "schema_text",
    "table_document",
]
