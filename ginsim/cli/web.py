"""``ginsim web``: the local table in the browser (ginsim.web.server, extra ``ginsim[web]``)."""

from __future__ import annotations

from pathlib import Path

import click

from ginsim.cli.options import decision_limit_option
from ginsim.errors import GinsimError


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (default: here only).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="Port (0: any free one).")
@click.option(
    "--runs",
    "runs_root",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("results"),
    show_default=True,
    help="Folder whose run folders the page can browse and replay.",
)
@decision_limit_option(
    "Limit on each step of loading a bot (its module run and checked, its constructor; past it the page "
    "gets one line) and on each decision of the bot a person plays (past it the game ends); 0: no limit."
)
def web(host: str, port: int, runs_root: Path, decision_limit: float) -> None:
    """Play, watch and replay Gin Rummy in the browser, served on this machine.

    Open the address it prints. Play a game against any strategy under any rules, watch
    two bots play a game at the speed you choose, or pick a hand of a run folder (by
    number, by outcome, or by a condition as replay --where takes it) and step through
    it. The server holds every game: the page is never sent a card its player may not
    see. Ctrl-C stops it.

    \b
    Examples:
      ginsim web
      ginsim web --port 9000 --runs results/
    """
    try:
        from ginsim.web.server import serve
    except ImportError as e:
        raise GinsimError(f"ginsim web needs the web extra ({e.name} is missing): pip install 'ginsim[web]'") from None

    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(
            f"ginsim web: listening on {host}: anyone who reaches it can start games and read the run folders "
            f"under {runs_root} (conditions run as pandas queries); keep it to a network you trust",
            err=True,
        )

    def ready(url: str) -> None:
        click.echo(f"ginsim web: open {url} in a browser (Ctrl-C stops it); run folders from {runs_root}")

    serve(host, port, runs_root, ready, decision_limit)


COMMANDS = [web]
