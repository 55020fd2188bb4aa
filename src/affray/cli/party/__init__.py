"""``affray party …``: the characters a campaign carries from fight to fight, with
their wounds (docs/table.md, "Parties").

Thin: options → :class:`affray.table.parties.Parties` → output. Every verb takes
``--db`` (the tables' database) and ``--json``. Each verb is in a module of its own
kind (:data:`affray.cli.party.group.VERBS` names it), loaded only when the verb runs.
"""

from affray.cli.party.group import party

__all__ = ["party"]
