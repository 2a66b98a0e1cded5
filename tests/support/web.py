"""Shared by the web tests: the engine's own result for a game played by a fixed policy
at the web table, a server on a free local port and requests to it, bots held up until
a test lets them go, and the system's Chromium."""

from __future__ import annotations

import json
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import pytest

from ginsim.engine.cards import cards_of, sort_key
from ginsim.engine.game import GameResult, play_game
from ginsim.engine.rules import Rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import PlayerView
from ginsim.run.seeding import text_key
from ginsim.terminal.game import person_deal

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
CARD = re.compile(r"\b(?:[A2-9TJQK][CDHS])\b")


class LastLegal(Strategy):
    """What the tests click at the table: pass the first upcard, draw from the stock,
    discard the last legal card as the page lists them, never knock, lay off nothing."""

    name = "lastlegal"

    def take_upcard(self, view: PlayerView) -> bool:
        return False

    def discard(self, view: PlayerView) -> int:
        return max(cards_of(view.legal_discards()), key=sort_key)

    def knock(self, view: PlayerView) -> bool:
        return False

    def choose_layoffs(self, view: PlayerView) -> int:
        return 0


def engine_game(rules: Rules, bot: str, seed: int) -> GameResult:
    """The game ``LastLegal`` plays against ``bot`` with the web table's deals for ``seed``."""
    spec = parse_spec(bot)
    key = text_key("play", spec.canonical)
    return play_game(
        rules,
        (LastLegal(), spec.build()),
        lambda h: person_deal(seed, key, h)[0],
        seed % 2,
        lambda h: person_deal(seed, key, h)[1],
    )


def card_names(text: str) -> set[str]:
    """Every card name in a text (``7H``, ``TD``)."""
    return set(CARD.findall(text))


def secret_cards(result: dict, events: list[str]) -> set[str]:
    """The bot's cards at the end of a hand that no public event named: cards the page
    must not have held before the showdown."""
    bot = set(result["hands"][1]["cards"])
    return bot - card_names(" ".join(events))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(runs_root: Path, **app: Any) -> Iterator[str]:
    """``ginsim web``'s app (``make_app``'s keywords ``app``) on a free port of 127.0.0.1
    for the duration; yields its URL."""
    import uvicorn

    from ginsim.web.server import make_app

    port = free_port()
    config = uvicorn.Config(make_app(runs_root, **app), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(10)


def request_json(url: str, body: dict[str, Any] | None = None, timeout: float = 20) -> tuple[int, dict[str, Any]]:
    """The status and JSON answer of a GET (``body`` None) or a POST of ``body`` to the
    test server; a server that does not answer within ``timeout`` seconds fails the test."""
    data = None if body is None else json.dumps(body).encode()
    req = Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except HTTPError as e:
        return e.code, json.loads(e.read())


HELD: dict[str, tuple[threading.Event, threading.Event]] = {}
"""Bots held up by ``hold``, by name: (arrived, released)."""


def held(name: str) -> tuple[threading.Event, threading.Event]:
    """The events of hold ``name``: set when a bot arrives there, and to let it go."""
    return HELD.setdefault(name, (threading.Event(), threading.Event()))


def hold(name: str) -> None:
    """Called by a test's bot (its module's code, its constructor, a decision): waits,
    without using the processor, until the test lets it go (``release_all``)."""
    arrived, released = held(name)
    arrived.set()
    released.wait()


def release_all() -> None:
    """Let every held bot go on (a test's end: no thread stays blocked behind it); a bot
    that arrives at a hold afterwards goes straight on."""
    for _, released in HELD.values():
        released.set()


def chromium_or_skip() -> str:
    """The system's Chromium for Playwright to drive, or a skip saying why there is none
    (Playwright's own browser download is never used)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("the browser tests need playwright: pip install -e '.[test]'")
    path = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if not path:
        pytest.skip(f"no Chromium at {CHROMIUM} nor on PATH: apt-get install chromium (.ci/run installs it)")
    return path
