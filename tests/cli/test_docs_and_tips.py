"""What a newcomer trips on (issue 41, item 5): the pages the tips cite can be read
where affray is installed (`affray docs TOPIC`, the tips say so); a long run without
the compiled engines says what to install."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers import EXAMPLES, run


def test_the_docs_the_tips_cite_are_at_hand() -> None:
    listed = run("docs")
    assert listed.exit_code == 0
    for topic in ("table", "sheets", "encounters", "design", "rules/mst2", "rules/midian"):
        assert topic in listed.stdout
    page = run("docs", "table")
    assert page.exit_code == 0 and page.stdout.startswith("# The table")
    assert run("docs", "docs/sheets.md").stdout.startswith("# Sheets")  # as a tip writes it
    assert run("docs", "mst2").stdout == run("docs", "rules/mst2").stdout
    wrong = run("docs", "tabel")
    assert wrong.exit_code == 2 and "did you mean 'table'" in wrong.stderr


def test_a_tip_says_how_to_read_the_page_it_cites(tmp_path: Path) -> None:
    broken = tmp_path / "fight.toml"
    broken.write_text('system = "mst2"\n[[sides]]\nname = "A"\nmembers = ["goblin"]\n')
    result = run("fight", str(broken))
    assert result.exit_code == 2
    assert "docs/encounters.md (`affray docs encounters`)" in result.stderr
    toml = tmp_path / "bad.toml"
    toml.write_text('system = "mst2"\n[[sides]\n')
    said = run("fight", str(toml)).stderr
    assert "not valid TOML" in said and "docs/sheets.md" in said and "encounters.md" in said


def test_a_long_run_without_numba_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['numba'] = None; sys.argv = ['affray'] + sys.argv[1:]; "
        "from affray.cli.main import main; main()"
    )
    ambush = str(EXAMPLES / "encounters" / "ambush.toml")
    done = subprocess.run(
        [sys.executable, "-c", code, "fight", ambush, "-n", "200", "--seed", "1", "--workers", "1"],
        capture_output=True,
        text=True,
        env={**os.environ, "AFFRAY_ESTIMATE_SECONDS": "0"},
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "pip install 'affray[fast]'" in done.stderr
