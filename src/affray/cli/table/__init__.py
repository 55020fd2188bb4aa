"""``affray table …``: a tracked fight at a real table (docs/table.md).

Thin: options → :class:`affray.table.Tables` → output. Every verb takes ``--db``
(default: the user's data directory, or ``AFFRAY_DB``) and ``--json``. Each verb is
in a module of its own kind (:data:`affray.cli.table.group.VERBS` names it), loaded
only when the verb runs.
"""

from affray.cli.table.group import table

__all__ = ["table"]
