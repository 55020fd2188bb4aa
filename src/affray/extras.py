"""Optional parts of affray and the extra that installs each (``pip install
'affray[plot]'``): a command that needs one that is missing says which to install.

- ``fast``: numba, the compiled kernels (without it the numpy and plain-Python
  engines give the same answers, more slowly);
- ``plot``: matplotlib, for ``--plot`` and the explorer's heatmap;
- ``dask``: Dask's distributed scheduler, for ``explore --dask``.
"""

from __future__ import annotations

import importlib.util

from affray.errors import AffrayError

EXTRAS = {"numba": "fast", "matplotlib": "plot", "distributed": "dask"}
"""The module each extra brings, by its name."""


class MissingExtraError(AffrayError):
    """Something asked for needs an optional part of affray that is not installed."""


def installed(module: str) -> bool:
    """Whether ``module`` can be imported here (found, not imported: cheap)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def need(module: str, purpose: str) -> None:
    """Refuse ``purpose`` at once, naming the extra to install, when ``module`` (one of
    :data:`EXTRAS`) is missing.

    Raises:
        MissingExtraError: it is not installed.
    """
    if installed(module):
        return
    extra = EXTRAS[module]
    raise MissingExtraError(
        f"{purpose} needs {module}, which is not installed here",
        hint=f"install affray's {extra!r} extra: pip install 'affray[{extra}]' "
        "(or 'affray[all]' for every extra)",
    )
