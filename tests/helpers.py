"""Builders shared by the tests."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from affray.cli.main import cli
from affray.rulesystems.mst2 import Fighter, HitDice, armor, weapon
from affray.sheets import load_sheet

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SCRIPT = [
    sys.executable,
    "-c",
    "import sys; sys.argv[0] = 'affray'; from affray.cli.main import main; main()",
]
"""The real console script in a fresh process (its own error handling included)."""


def ctrl_c_as_at_a_terminal() -> None:
    """Ctrl-C's default action in a child process, whatever the test runner was started
    with (a shell's background job ignores SIGINT, and its children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def make_fighter(
    name: str = "F",
    *,
    skill: int = 0,
    weapon_name: str = "sword",
    armor_name: str = "none",
    hit_dice: str = "1d6",
    **kwargs: object,
) -> Fighter:
    """A fighter built in code, for tests that need exact statistics."""
    return Fighter(
        name=name,
        skill=skill,
        weapon=weapon(weapon_name),
        armor=armor(armor_name),
        hit_dice=HitDice.parse(hit_dice),
        **kwargs,  # type: ignore[arg-type]
    )


def example(name: str) -> Fighter:
    return load_sheet(EXAMPLES / "mst2" / name)


def run(*args: str) -> Result:
    """Invoke the CLI in-process."""
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def run_json(*args: str) -> dict[str, object]:
    """Invoke the CLI with --json and parse the output (which must succeed)."""
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


SLOWDOWN = float(os.environ.get("AFFRAY_TEST_SLOWDOWN", "3"))
"""The one factor every wall-clock bound of the tests is scaled by: a loaded machine
(the suite beside other work on two cores) is this much slower than the promise. The
promises themselves are measured in bench/."""


def terminal(db: Path | str, *args: str) -> dict[str, Any]:
    """``affray ARGS --db DB --json`` as a real terminal runs it (its own process, as
    a game master types it beside a running server): its JSON answer.

    Raises:
        AssertionError: it did not exit 0.
    """
    import json
    import subprocess

    done = subprocess.run(
        [*SCRIPT, *args, "--db", str(db), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found
