"""``affray docs [TOPIC]``: the documentation the tips cite (docs/*.md, and the rules
docs), shipped with affray, so that a pip install can read what a tip points at."""

from __future__ import annotations

import difflib
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

import click

from affray.errors import AffrayError


def docs_root() -> Traversable:
    """The docs shipped in the wheel (``affray/docs``), or the repository's beside the
    package (an editable install)."""
    shipped = resources.files("affray").joinpath("docs")
    if shipped.is_dir():
        return shipped
    checkout = Path(__file__).resolve().parents[3] / "docs"
    if checkout.is_dir():
        return checkout
    raise AffrayError(  # pragma: no cover - a broken installation
        "this installation of affray has no documentation", hint="reinstall affray"
    )


def pages() -> dict[str, Traversable]:
    """Each page by its topic: ``table`` for docs/table.md, ``rules/mst2`` for
    docs/rules/mst2.md."""
    root = docs_root()
    found: dict[str, Traversable] = {}
    for item in sorted(root.iterdir(), key=lambda t: t.name):
        if item.name.endswith(".md"):
            found[item.name[:-3]] = item
        elif item.is_dir():
            for inner in sorted(item.iterdir(), key=lambda t: t.name):
                if inner.name.endswith(".md"):
                    found[f"{item.name}/{inner.name[:-3]}"] = inner
    return found


def topics() -> dict[str, Traversable]:
    """:func:`pages`, and each page in a folder by its own name too where no other page
    is called that (``mst2`` for ``rules/mst2``)."""
    found = pages()
    for name, page in list(found.items()):
        found.setdefault(name.rpartition("/")[2], page)
    return found


def title(page: Traversable) -> str:
    for line in page.read_text("utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return ""


@click.command("docs")
@click.argument("topic", required=False)
def docs_command(topic: str | None) -> None:
    """The documentation a tip cites: TOPIC's page (table, sheets, design, rules/mst2 …),
    or, without one, every topic with its title. docs/table.md is `affray docs table`."""
    if topic is None:
        for name, listed in pages().items():
            click.echo(f"{name:<16} {title(listed)}")
        return
    known = topics()
    key = topic.strip().removeprefix("docs/").removesuffix(".md").lower()
    found = known.get(key)
    if found is None:
        near = difflib.get_close_matches(key, list(known), n=1)
        raise AffrayError(
            f"no documentation called {topic!r}"
            + (f" (did you mean {near[0]!r}?)" if near else ""),
            hint="affray docs lists them: " + ", ".join(pages()),
        )
    click.echo(found.read_text("utf-8"), nl=False)
