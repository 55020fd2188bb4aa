"""`affray examples DIR` writes the README's examples (issue 28, item 4): the same files
as the repository's, and never over a folder already there without --force."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from affray.cli.main import cli
from tests.helpers import EXAMPLES


def test_the_examples_are_written_out_and_never_over_others(tmp_path: Path) -> None:
    runner = CliRunner()
    done = runner.invoke(cli, ["examples", str(tmp_path)])
    assert done.exit_code == 0, done.output
    written = sorted(
        p.relative_to(tmp_path / "examples") for p in (tmp_path / "examples").rglob("*.*")
    )
    shipped = sorted(
        p.relative_to(EXAMPLES) for p in EXAMPLES.rglob("*") if p.suffix in (".toml", ".json")
    )
    assert written == shipped and len(written) >= 20
    same = tmp_path / "examples" / "encounters" / "ambush.toml"
    assert same.read_bytes() == (EXAMPLES / "encounters" / "ambush.toml").read_bytes()
    again = runner.invoke(cli, ["examples", str(tmp_path)])
    assert again.exit_code == 2 and "is there already" in again.output
    assert runner.invoke(cli, ["examples", str(tmp_path), "--force"]).exit_code == 0
    # the copies run as the repository's do: encounter files find their sheets
    fight = runner.invoke(cli, ["fight", str(same), "-n", "200", "--seed", "1", "--workers", "1"])
    assert fight.exit_code == 0, fight.output
