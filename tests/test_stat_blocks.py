"""Each system's stat block (``RuleSystem.stat_block``): a sheet as people read it, what
the sheet derives included (a player's phone shows its character's)."""

from __future__ import annotations

from affray import registry
from affray.sheets import load_sheet
from tests.helpers import EXAMPLES


def block(path: str) -> dict[str, str]:
    sheet = load_sheet(EXAMPLES / path)
    system = next(s for s in map(registry.system, registry.systems()) if s.owns(sheet))
    assert system.stat_block is not None
    return dict(system.stat_block(sheet))


def test_an_mst2_block_says_what_the_shield_makes_of_the_armour() -> None:
    spearman = block("mst2/spearman.toml")  # leather (evasion 13, protection 1) and shield
    assert spearman == {
        "skill": "+2",
        "weapon": "spear, one-handed 2d8, far reach",
        "armour": "leather and shield",
        "evasion": "12",
        "protection": "2",
        "hit dice": "1d10",
    }
    assert block("mst2/archer.toml")["missile"] == "arrow (long bow) 2d10"


def test_a_midian_block_is_its_sheet_in_words() -> None:
    guard = block("midian/guard.toml")
    assert guard["attributes"] == "strength 12, agility 10, wits 9, willpower 11, stamina 12"
    assert guard["weapon"] == "Claymore: 2d6 hacking, two hands, skill 2"
    assert (guard["armour class"], guard["hit points"], guard["life points"]) == ("12", "20", "10")
    assert guard["system shock"] == "85%" and guard["resistances"] == "hacking 20%, smashing 10%"
