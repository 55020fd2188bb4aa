"""Every usage line of the README and of docs/start.md runs as written, from the
repository's root."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest

from tests.helpers import SCRIPT

ROOT = Path(__file__).resolve().parent.parent
USAGE = [
    line.split("  #")[0].strip()
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    if line.startswith(".venv/bin/affray ")
]
TABLE = [line for line in USAGE if line.startswith(".venv/bin/affray table ")]
LINES = [line for line in USAGE if line not in TABLE]


def test_the_readme_has_usage_lines() -> None:
    assert len(LINES) >= 20


@pytest.mark.parametrize("line", LINES)
def test_a_readme_usage_line_runs_as_written(line: str) -> None:
    _run(line)


def test_the_readme_table_lines_run_in_order(tmp_path: Path) -> None:
    assert len(TABLE) >= 6
    for line in TABLE:
        _run(line, {"AFFRAY_DB": str(tmp_path / "tables.db")})


START = [
    line
    for line in (ROOT / "docs" / "start.md").read_text(encoding="utf-8").splitlines()
    if line.startswith(".venv/bin/affray ")
]


def test_the_start_pages_lines_run_in_order(tmp_path: Path) -> None:
    """Each reader's commands, in order, on one database; a line that says it asks (a
    table of physical dice starting) waits for a die: exit 2 naming it."""
    assert len(START) >= 15
    for line in START:
        asks = "# asks" in line
        _run(
            line.split("  #")[0].strip(),
            {"AFFRAY_DB": str(tmp_path / "t.db")},
            code=2 if asks else 0,
        )


def _run(line: str, env: dict[str, str] | None = None, *, code: int = 0) -> None:
    args = shlex.split(line)[1:]
    expanded: list[str] = []
    for arg in args:  # the shell's globbing, for lines such as examples/midian/*.toml
        expanded.extend(
            sorted(str(p.relative_to(ROOT)) for p in ROOT.glob(arg)) if "*" in arg else [arg]
        )
    result = subprocess.run(
        [*SCRIPT, *expanded],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,  # a guard against a hang, not a measure of speed
        env={**os.environ, **(env or {})},
    )
    assert result.returncode == code, f"{line}\n{result.stderr}"
    assert result.stdout.strip() if code == 0 else "the next die is" in result.stderr
