import pytest

import affray
import affray.dice
import affray.encounter
import affray.narration
import affray.odds
import affray.rulesystems.midian
import affray.rulesystems.mst2
import affray.rulesystems.mst2.odds
import affray.rulesystems.mst2.sim
import affray.sheets
import affray.sim

MODULES = [
    affray,
    affray.dice,
    affray.encounter,
    affray.narration,
    affray.odds,
    affray.sheets,
    affray.sim,
    affray.rulesystems.midian,
    affray.rulesystems.mst2,
    affray.rulesystems.mst2.odds,
    affray.rulesystems.mst2.sim,
]


@pytest.mark.parametrize("module", MODULES)
def test_all_is_sorted_and_importable(module: object) -> None:
    names = module.__all__  # type: ignore[attr-defined]
    # isort-style, as ruff's RUF022 keeps it: CONSTANTS, then Classes, then functions
    assert names == sorted(
        names, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n)
    )
    for name in names:
        assert hasattr(module, name), name


def test_core_does_not_import_cli() -> None:
    import subprocess
    import sys

    code = (
        "import sys, affray, affray.rulesystems.mst2, affray.odds, affray.dice, affray.sheets;"
        "print(any(m.startswith('affray.cli') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
