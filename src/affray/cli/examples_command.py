"""``affray examples [DIR]``: the example sheets, encounters and sweeps, written out, so
that every line of the README runs after ``pip install affray`` as in the repository."""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

import click

from affray.errors import AffrayError


def examples_root() -> Traversable:
    """The examples shipped in the wheel (``affray/examples``), or the repository's
    beside the package (an editable install)."""
    shipped = resources.files("affray").joinpath("examples")
    if shipped.is_dir():
        return shipped
    checkout = Path(__file__).resolve().parents[3] / "examples"
    if checkout.is_dir():
        return checkout
    raise AffrayError(  # pragma: no cover - a broken installation
        "this installation of affray has no examples", hint="reinstall affray"
    )


def _copy(source: Traversable, target: Path, written: list[Path]) -> None:
    for item in sorted(source.iterdir(), key=lambda t: t.name):
        if item.name.startswith((".", "__")):
            continue
        if item.is_dir():
            _copy(item, target / item.name, written)
        elif item.name.endswith((".toml", ".json")):
            (target / item.name).parent.mkdir(parents=True, exist_ok=True)
            (target / item.name).write_bytes(item.read_bytes())
            written.append(target / item.name)


@click.command("examples")
@click.argument("folder", default=".", type=click.Path(file_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Write over an examples folder already there.")
def examples_command(folder: Path, force: bool) -> None:
    """Write the example sheets, encounters and sweeps into FOLDER/examples (the README's
    lines then run from FOLDER, with `affray` for `.venv/bin/affray`)."""
    target = folder / "examples"
    if target.exists() and not force:
        raise AffrayError(
            f"{target} is there already: nothing was written",
            hint="choose another folder, or add --force to write over it",
        )
    written: list[Path] = []
    try:
        _copy(examples_root(), target, written)
    except OSError as error:
        raise AffrayError(
            f"cannot write {target}: {error.strerror or error}", hint="choose another folder"
        ) from None
    click.echo(f"wrote {len(written)} example files into {target}")
