"""``affray coin ...``: the toy system's own command group."""

from __future__ import annotations

import click

from affray.cli.options import seed_option


@click.group("coin")
def coin() -> None:
    """Coin: the toy rule system of affray's tests."""


@coin.command("flip")
@click.argument("attacker")
@click.argument("target")
@seed_option
def flip(attacker: str, target: str, seed: int | None) -> None:
    """One flip of ATTACKER at TARGET (sheets or bestiary names such as coin:knave)."""
    from affray.dice import RandomDice
    from affray.sheets import load_system_sheet
    from affray_coin.rules import Coin

    a: Coin = load_system_sheet(attacker, "coin")
    b: Coin = load_system_sheet(target, "coin")
    face = RandomDice(seed).roll(6, f"{a.name}'s flip").face
    hit = face + a.knack >= 4
    click.echo(f"{a.name} flips {face} (+{a.knack}) at {b.name}: {'a hit' if hit else 'a miss'}")
