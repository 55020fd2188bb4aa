"""Loading and validating sheets and encounter files: the only file I/O of the core.

A sheet is a TOML or JSON file describing one combatant (keys in docs/sheets.md and
docs/sheets.md); an encounter file describes sides of combatants
(docs/encounters.md). Everything a user can get wrong becomes a
:class:`~affray.errors.SheetError` naming the file, the key, the bad value and
what is allowed; nothing lets a traceback, a hang or a huge allocation through:
files are capped in size and nesting before they are parsed further.
"""

from affray.sheets.combatants import Sheet, load_sheet, load_system_sheet, sheet_from_data
from affray.sheets.documents import MAX_FILE_BYTES, MAX_NESTING, load_document, parse_document
from affray.sheets.encounters import (
    MAX_COMBATANTS,
    EncounterSetup,
    encounter_from_data,
    load_encounter,
)

__all__ = [
    "MAX_COMBATANTS",
    "MAX_FILE_BYTES",
    "MAX_NESTING",
    "EncounterSetup",
    "Sheet",
    "encounter_from_data",
    "load_document",
    "load_encounter",
    "load_sheet",
    "load_system_sheet",
    "parse_document",
    "sheet_from_data",
]
