"""``affray serve``: the web tracker (docs/tracker.md)."""

from __future__ import annotations

import errno
import socket
import threading
import time
import webbrowser

import click

from affray.cli.table.opening import db_option
from affray.errors import AffrayError
from affray.table.db import chosen_path
from affray.web import app as web_app
from affray.web.tracker import SERVED_AT


@click.command("serve")
@db_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--sheets",
    "sheets",
    multiple=True,
    metavar="DIR",
    type=click.Path(exists=True, file_okay=False, dir_okay=True),
    help="A folder of sheet files the pages may add from (repeatable); without it, "
    "only the bestiary and uploaded sheets.",
)
@click.option(
    "--open", "open_page", is_flag=True, help="Open the home page in a browser once it is up."
)
def serve_command(
    db: str | None, host: str, port: int, sheets: tuple[str, ...], open_page: bool
) -> None:
    """The web tracker: a game master's page and a live player page for each table.

    Binds 127.0.0.1 unless told otherwise; with --host 0.0.0.0 the players' phones
    on the same network can open the player page (its link is printed). The pages
    read no file on this machine but the sheets in the --sheets folders."""
    _refuse_taken(host, port)
    path, make_folder = chosen_path(db)
    app = web_app.create_app(path, sheets=sheets, make_folder=make_folder)
    shown = _lan_address() if host in ("0.0.0.0", "::") else host
    base = f"http://{shown}:{port}"
    store = app.state.tracker.tables.store  # the server's own: one Database per process
    tables = store.tables()
    key = store.home_key()
    store.set_setting(SERVED_AT, base)  # `table link` prints links to it
    app.state.tracker.address = base  # the links and QR codes of the pages
    click.echo(f"affray tracker on {base} (database {path}); Ctrl-C stops it")
    click.echo(f"  home (every table, and new ones): {base}/?key={key}")
    for folder in app.state.tracker.shelf.folders:
        click.echo(f"  sheet files from {folder}")
    if not tables:
        click.echo("No tables yet: make one on the home page.")
    for row, _ in (t for t in tables if not t[0].archived):
        click.echo(f"  {row.name}: game master {base}/t/{row.id}?token={row.gm_token}")
        click.echo(
            f"  {' ' * len(row.name)}  players     {base}/p/{row.id}?token={row.player_token}"
        )
    if open_page:
        open_when_up("127.0.0.1" if host in ("0.0.0.0", "::") else host, port, f"/?key={key}")
    # looked up when it serves, not bound at import: a test puts a stand-in there
    web_app.serve_forever(app, host, port)


def _refuse_taken(host: str, port: int) -> None:
    """Refuse a port another program listens on (before any link is printed), or an
    address this machine does not have.

    Raises:
        AffrayError: the port is taken, or the address cannot be used.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise AffrayError(
                    f"port {port} on {host} is taken: another program (another affray "
                    "serve?) listens on it",
                    hint=f"stop it, or serve on another port: affray serve --port {port + 1}",
                ) from None
            raise AffrayError(
                f"cannot serve on {host}:{port}: {error.strerror or error}",
                hint="give an address of this machine with --host (127.0.0.1, 0.0.0.0)",
            ) from None


def open_when_up(host: str, port: int, path: str, *, within_s: float = 15.0) -> None:
    """Open ``path`` of the server in a browser as soon as it takes connections (from
    a thread of its own: the server starts meanwhile)."""

    def wait_and_open() -> None:
        until = time.monotonic() + within_s
        while time.monotonic() < until:
            try:
                with socket.create_connection((host, port), timeout=0.5):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            return
        webbrowser.open(f"http://{host}:{port}{path}")

    threading.Thread(target=wait_and_open, name="open the home page", daemon=True).start()


def _lan_address() -> str:
    """This machine's address on the local network (the players' phones use it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # no packet is sent
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
