"""``affray table …``: a tracked fight at a real table (docs/table.md).

Thin: options → :class:`affray.table.Tables` → output. Every verb takes ``--db``
(default: the user's data directory, or ``AFFRAY_DB``) and ``--json``. The verbs are
registered on the group as their modules load.
"""

from affray.cli.table import fiat, play, reports, setup
from affray.cli.table.group import table

__all__ = ["fiat", "play", "reports", "setup", "table"]
