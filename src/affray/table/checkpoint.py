"""A checkpoint of a table's fold, so that a process that starts afresh reads only
the changes made since, not the whole log.

A checkpoint is a cache of the log, never its truth: it is kept beside the log (in
the ``checkpoints`` table), stamped with the affray that made it and how it plays a
change (:data:`STAMP`), and used only by the same; anything amiss (another stamp, a
version past the log's, a pickle it cannot read) and the log is folded from its first
change, as it always could be.

The fold is pickled, and read back by an unpickler that builds nothing but affray's
own dataclasses, named tuples and enums (:class:`_Unpickler`): a database file from elsewhere can
make it build values, never run code.
"""

from __future__ import annotations

import dataclasses
import enum
import io
import pickle
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from affray.dice.source import Purpose
from affray.table.fold import Fold
from affray.table.model import ERA, Rules

FORMAT = 5
"""How a checkpoint is laid out: a change of the fields of :class:`Fold` or of what it
holds (:class:`TableState`) bumps it (2: ``TableState.allowed``; 3: ``TableState.keys``;
4: ``Inputs.given``; 5: what each face did, ``Given.did``)."""


def _stamp() -> str:
    try:
        made_by = version("affray")
    except PackageNotFoundError:  # a source checkout on PYTHONPATH
        made_by = "source"
    return f"affray {made_by}, era {ERA}, format {FORMAT}"


STAMP = _stamp()
"""Which affray made a checkpoint, and how it played changes: one made by another is
not used."""

EVERY = 200
"""A checkpoint is written once this many changes (or a fiftieth of the log, if more)
were folded past the last one."""


def due(version: int, checkpointed: int) -> bool:
    """Whether a fold at ``version`` is worth a new checkpoint, the last being at
    ``checkpointed``: a verb afresh then reads at most this many changes."""
    return version - checkpointed >= max(EVERY, version // 50)


def dump(fold: Fold) -> bytes:
    """The fold as bytes (its rules are the table's, and are not kept)."""
    return pickle.dumps(
        (FORMAT, fold.version, fold.done, fold.undone, fold.initial),
        protocol=pickle.HIGHEST_PROTOCOL,
    )


def load(blob: bytes, rules: Rules) -> Fold | None:
    """The fold a checkpoint holds, playing by ``rules``; None if it cannot be read."""
    try:
        found = _Unpickler(io.BytesIO(blob)).load()
        layout, at, done, undone, initial = found
    except Exception:  # anything amiss: the log is folded from its start instead
        return None
    if layout != FORMAT or not isinstance(at, int) or not isinstance(done, list):
        return None
    if not isinstance(undone, list):
        return None
    return Fold(rules, at, done, undone, initial)


class _Unpickler(pickle.Unpickler):
    """Builds affray's own dataclasses, named tuples and enums, and nothing else."""

    def find_class(self, module: str, name: str) -> Any:
        if (module == "affray" or module.startswith("affray.")) and "." not in name:
            found = super().find_class(module, name)
            if isinstance(found, type) and (
                dataclasses.is_dataclass(found)
                or issubclass(found, enum.Enum)
                or (issubclass(found, tuple) and hasattr(found, "_fields"))  # a NamedTuple
                or issubclass(found, Purpose)  # a die's purpose that names someone
            ):
                return found
        raise pickle.UnpicklingError(f"a checkpoint may not hold {module}.{name}")
