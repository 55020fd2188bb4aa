"""numba where it is installed (the ``fast`` extra), plain Python where it is not: the
decorators the kernels of the fast engines are written with.

A kernel's functions run the same either way (they are written in the subset of
Python numba compiles); compiled, they keep their machine code in ``__pycache__``
beside the kernel's file (``cache=True``), compiled once per machine and per change of
that file.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

Function = Callable[..., Any]

try:
    import numba

    COMPILED = not bool(getattr(numba.config, "DISABLE_JIT", False))
    """Whether the kernels run as machine code (numba installed and switched on)."""

    def inline(function: Function) -> Function:
        """A helper of a kernel, compiled into the functions that call it."""
        return numba.njit(inline="always")(function)

    def entry(function: Function) -> Function:
        """A kernel's door, called from Python: compiled once and kept in the cache."""
        return numba.njit(cache=True, nogil=True)(function)

    def bare(function: Function) -> Function:
        """An :func:`entry` that makes no array (every array it uses, its scratch too,
        is the caller's), compiled without numba's reference counts: a loop of helpers
        that take arrays counts each array in and out, atomically, at every call, and
        in the exact Midian chain's walk that was four fifths of the time."""
        options: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}
        door: Function = numba.njit(**options)(function)
        return door

except ImportError:  # pragma: no cover - numba is an optional speed-up
    COMPILED = False

    def inline(function: Function) -> Function:
        return function

    entry = inline
    bare = inline


def needs_compiling(door: Function) -> bool:
    """Whether the first call of ``door`` (an :func:`entry`) will compile it: numba on,
    and no machine code in its cache yet (a numba that keeps its cache elsewhere, or
    says nothing of it, is taken to have it)."""
    cache = getattr(getattr(door, "_cache", None), "_cache_file", None)
    index = getattr(cache, "_index_path", None)
    return COMPILED and isinstance(index, str) and not os.path.exists(index)
