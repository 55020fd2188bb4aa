"""docs/table.md's worked rounds are real: each command, typed in again on a fresh
database, prints what the page shows (tokens and paths aside)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from affray.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent.parent
BLOCKS = re.findall(r"```console\n(.*?)```", (ROOT / "docs/table.md").read_text("utf-8"), re.S)
VARIES = re.compile(r"^(game master token:|player token:|Table \S+ \(\S+\) in|\*\w+\*,) .*$", re.M)


def transcript(block: str) -> list[tuple[str, str]]:
    """``[(command, output), ...]`` from a console block."""
    pairs: list[tuple[str, str]] = []
    for chunk in block.split("$ affray ")[1:]:
        command, _, output = chunk.partition("\n")
        pairs.append((command, output))
    return pairs


@pytest.mark.parametrize("block", BLOCKS, ids=["mst2", "midian"])
def test_the_worked_round_prints_what_the_page_shows(
    block: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    env = {"AFFRAY_DB": str(tmp_path / "tables.db"), "COLUMNS": "100"}
    steps = transcript(block)
    assert len(steps) >= 10
    for command, shown in steps:
        result = CliRunner().invoke(cli, shlex.split(command), env=env)
        assert result.exit_code in (0, 2), result.output
        printed = result.stdout + result.stderr
        assert VARIES.sub(r"\1", printed) == VARIES.sub(r"\1", shown), command
