"""The plug-in groups: affray's own entry points come first, a third party cannot
shadow them, and affray finds its own even without its install metadata."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from affray.plugins import OWN, choose, points

ROOT = Path(__file__).resolve().parent.parent
AFFRAY = Path(sys.executable).with_name("affray")


def test_affrays_own_entry_points_are_its_pyprojects() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert {group: dict(listed) for group, listed in project["entry-points"].items()} == OWN
    for group, listed in OWN.items():  # and the installed metadata says the same
        assert {name: point.value for name, point in points(group).items()} == listed


def test_without_affrays_metadata_its_own_are_found_all_the_same() -> None:
    theirs = metadata.EntryPoint("coin", "affray_coin.system:SYSTEM", "affray.systems")
    shadow = metadata.EntryPoint("mst2", "evil:SYSTEM", "affray.systems")
    chosen = choose("affray.systems", [shadow, theirs])
    assert list(chosen) == ["mst2", "midian", "coin"]
    assert chosen["mst2"].value == OWN["affray.systems"]["mst2"]
    assert choose("affray.nothing", []) == {}


def fake_package(folder: Path) -> Path:
    """A third party's package that names affray's own ``mst2`` in both groups."""
    (folder / "shadow.py").write_text(
        "import click\n\n@click.group('mst2')\ndef grp():\n    'SHADOWED by a third party.'\n"
        "SYSTEM = None\n"
    )
    info = folder / "shadow-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: shadow\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[affray.commands]\nmst2 = shadow:grp\n\n[affray.systems]\nmst2 = shadow:SYSTEM\n"
    )
    return folder


def test_a_third_party_cannot_shadow_affrays_own(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(fake_package(tmp_path))}
    shown = subprocess.run(
        [str(AFFRAY), "--help"], capture_output=True, text=True, env=env, check=True
    )
    assert re.search(r"^  mst2 +MST-2: Melee Fighting\.$", shown.stdout, re.MULTILINE)
    assert "SHADOWED" not in shown.stdout
    code = "import affray; from affray import registry; print(affray.systems(), registry.broken())"
    listed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert listed.stdout.strip() == "['mst2', 'midian'] {}"
