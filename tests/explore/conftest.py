"""Sweep files written into a test's folder, beside copies of the example sheets."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import EXAMPLES

WriteSweep = Callable[[str], Path]


@pytest.fixture
def write_sweep(tmp_path: Path) -> WriteSweep:
    """Write a sweep file's text into tmp_path, beside the example sheets (under their
    own names, both systems), and return its path."""
    for system in ("mst2", "midian"):
        for sheet in (EXAMPLES / system).iterdir():
            shutil.copy(sheet, tmp_path / sheet.name)

    def write(text: str, name: str = "sweep.toml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write
