"""Coin as a rule system: the one object affray needs, named by the entry point
``coin = "affray_coin.system:SYSTEM"`` in this package's pyproject.toml."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources

from pydantic import Field

from affray.dice import Dice
from affray.encounter import Targeting
from affray.narration.core import Narration, Segment
from affray.registry import EncounterKeys, RuleSystem
from affray.sheets.validation import Strict, validate
from affray_coin.rules import Coin, CoinAI, CoinRuleset, CoinState, CoinTopic, Flipped


class CoinSheet(Strict):
    system: str
    name: str = Field(min_length=1)
    hits: int = Field(ge=1, le=20)
    knack: int = Field(default=0, ge=0, le=5)


class CoinOptions(Strict):
    knack_bonus: int = 0


def _narrate(event: Flipped) -> tuple[list[Segment], bool]:
    result = ("ducks" if event.ducked else "hits") if event.hit else "misses"
    return [
        (event.attacker, "name"),
        (f" flips {event.face} at {event.target}: {result} ({event.hits_left} left)", ""),
    ], False


def _sheet(data: Mapping[str, object], /, *, where: str | None) -> Coin:
    sheet = validate(CoinSheet, data, where)
    return Coin(sheet.name, sheet.hits, sheet.knack)


def _ruleset(keys: EncounterKeys) -> CoinRuleset:
    return CoinRuleset(knack_bonus=validate(CoinOptions, keys.options, keys.where).knack_bonus)


def _tactics(target: Targeting, keys: Mapping[str, object], /, *, where: str, at: str) -> Targeting:
    return target


def _ai(ruleset: CoinRuleset, tactics: Mapping[str, Targeting], /, *, dice: Dice) -> CoinAI:
    return CoinAI(ruleset, dice, tactics)


SYSTEM: RuleSystem[Coin, CoinState, CoinRuleset, Targeting] = RuleSystem(
    name="coin",
    title="Coin",
    sheet_type=Coin,
    read_sheet=_sheet,
    option_keys=frozenset(CoinOptions.model_fields),
    side_keys=frozenset(),
    tactics_keys=frozenset(),
    ruleset=_ruleset,
    duel_ruleset=CoinRuleset,
    tactics=_tactics,
    ai=_ai,
    narration=Narration().on(Flipped, _narrate),
    topics=tuple(topic.value for topic in CoinTopic),
    bestiary=resources.files(__package__) / "bestiary",
)
