"""``ginsim web``: the local table, an ASGI app (Starlette) served by uvicorn on localhost.

The page (static/index.html) plays a game against a bot, watches two bots, and browses a
run folder's hands. Every game's state stays here (ginsim.web.table, ginsim.web.watch);
the page sends moves and draws what it is sent. A move that does not fit answers 400
with one line (``{"error": ...}``) and changes nothing; so does any bad input, a bot
that cannot be loaded among them. Bots are loaded off the event loop, each step within
the decision limit (ginsim.web.limits), so a bot that never loads answers with one line
and holds up no other request.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool  # the engine and the bots play in threads
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ginsim.engine.guard import DEFAULT_DECISION_LIMIT, checked_limit
from ginsim.engine.presets import PRESETS
from ginsim.engine.registry import available
from ginsim.engine.rules import Rules, parse_rule_options, preset_rules
from ginsim.engine.spec import StrategySpec
from ginsim.engine.strategy import Strategy
from ginsim.errors import GinsimError
from ginsim.web.limits import LIMIT_NAMES, load_bot
from ginsim.web.moves import MoveError
from ginsim.web.page import fill_slots, static_text
from ginsim.web.table import Table
from ginsim.web.watch import WatchGame, hand_list, run_folder, run_folders, run_hand

KEEP = 16
"""Games kept at once (of each kind); the oldest is closed when a new one starts."""
STATIC = {"cards.css": "text/css", "cards.js": "text/javascript", "replay.js": "text/javascript",
          "app.js": "text/javascript", "app.css": "text/css", "browse.js": "text/javascript"}  # fmt: skip
NO_STORE = {"Cache-Control": "no-store"}


class Registry(OrderedDict[str, Any]):
    """Open games by id, the oldest dropped (and closed) past ``KEEP``."""

    def add(self, game: Any) -> str:
        gid = secrets.token_urlsafe(9)
        self[gid] = game
        while len(self) > KEEP:
            _, old = self.popitem(last=False)
            if isinstance(old, Table):
                old.close()
        return gid

    def get_game(self, gid: str) -> Any:
        if gid not in self:
            raise MoveError("no such game here (the server restarted, or it was closed): start a new one")
        return self[gid]


def _rules(body: dict[str, Any]) -> Rules:
    rules = preset_rules(str(body.get("preset") or "default"), "preset")
    options = [line.strip() for line in str(body.get("rules_text") or "").replace(",", "\n").splitlines()]
    options = [o for o in options if o]
    return rules.with_values(parse_rule_options(options), "--rule") if options else rules


def _seed(body: dict[str, Any]) -> int:
    seed = body.get("seed")
    if seed in (None, ""):
        return secrets.randbelow(2**31)
    try:
        value = int(seed)
    except (TypeError, ValueError):
        raise MoveError(f"seed: a whole number, not {seed!r}") from None
    if value < 0:
        raise MoveError("seed: a whole number from 0")
    return value


def error(text: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status, headers=NO_STORE)


async def body_of(request: Request) -> dict[str, Any]:
    """A request's JSON object, or MoveError."""
    try:
        body = await request.json()
    except ValueError:
        raise MoveError("the request's body is not JSON") from None
    if not isinstance(body, dict):
        raise MoveError("the request's body is not a JSON object")
    return body


def answer(fn: Any) -> Any:
    """An endpoint answering ``fn``'s dict as JSON, or a bad request with one line."""

    async def endpoint(request: Request) -> Response:
        try:
            return JSONResponse(await fn(request), headers=NO_STORE)
        except (MoveError, GinsimError) as e:
            text = e.message(LIMIT_NAMES) if isinstance(e, GinsimError) else str(e)
            return error(text.splitlines()[0] if text else type(e).__name__)

    return endpoint


async def index(_request: Request) -> Response:
    return HTMLResponse(fill_slots("index.html", {}), headers=NO_STORE)


async def static(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC:
        return error("not found", 404)
    return Response(static_text(name), media_type=STATIC[name])


class Api:
    """The JSON endpoints over the open games and the run folders under ``root``; a bot's
    loading steps and its decisions at a table each within ``decision_limit`` seconds
    (0: no limit)."""

    def __init__(self, runs_root: Path, decision_limit: float = DEFAULT_DECISION_LIMIT) -> None:
        self.tables, self.watches = Registry(), Registry()
        self.shown_root = runs_root
        self.root = runs_root.resolve()
        self.limit = checked_limit(decision_limit)

    async def load(self, text: str) -> tuple[StrategySpec, Strategy]:
        """Spec ``text`` checked and a bot built from it, in a thread (its module's code
        and constructor are a user's: never on the event loop), within the limit."""
        return await run_in_threadpool(load_bot, text, self.limit)

    async def options(self, _request: Request) -> dict[str, Any]:
        return {"strategies": sorted(available()), "presets": list(PRESETS), "runs": run_folders(self.root),
                "root": str(self.shown_root)}  # fmt: skip

    async def new_table(self, request: Request) -> dict[str, Any]:
        body = await body_of(request)
        rules = _rules(body)
        spec, bot = await self.load(str(body.get("bot") or "simple"))
        seed = _seed(body)
        table = await run_in_threadpool(Table, rules, spec, seed, bot, self.limit)  # the bot may move first
        return {"id": self.tables.add(table), **table.state()}

    async def table_state(self, request: Request) -> dict[str, Any]:
        return self.tables.get_game(request.path_params["gid"]).state()  # type: ignore[no-any-return]

    async def move(self, request: Request) -> dict[str, Any]:
        table: Table = self.tables.get_game(request.path_params["gid"])
        body = await body_of(request)
        return await run_in_threadpool(table.move, str(body.get("action", "")), body)

    async def check(self, request: Request) -> dict[str, Any]:
        table: Table = self.tables.get_game(request.path_params["gid"])
        return table.check(await body_of(request))

    async def new_watch(self, request: Request) -> dict[str, Any]:
        body = await body_of(request)
        a, bot_a = await self.load(str(body.get("a") or "simple"))
        b, bot_b = await self.load(str(body.get("b") or "simple"))
        game = WatchGame(_rules(body), a, b, _seed(body), (bot_a, bot_b), self.limit)
        return {"id": self.watches.add(game), "seed": game.seed}

    async def watch_hand(self, request: Request) -> dict[str, Any]:
        game: WatchGame = self.watches.get_game(request.path_params["gid"])
        return await run_in_threadpool(game.hand, int(request.path_params["h"]))

    async def hands(self, request: Request) -> dict[str, Any]:
        q = request.query_params
        folder = run_folder(self.root, q.get("run", ""))
        offset = _int(q.get("offset") or "0", "offset")
        return await run_in_threadpool(hand_list, folder, q.get("first"), q.get("where"), offset)

    async def replay(self, request: Request) -> dict[str, Any]:
        q = request.query_params
        folder = run_folder(self.root, q.get("run", ""))
        seat = q.get("seat") or None
        if seat not in (None, "0", "1"):
            raise MoveError("seat: 0 or 1")
        hand = _int(q.get("hand", ""), "hand")
        return await run_in_threadpool(run_hand, folder, hand, None if seat is None else int(seat))


def make_app(runs_root: Path, decision_limit: float = DEFAULT_DECISION_LIMIT) -> Starlette:
    """The app: the page, its static files and the JSON API; ``decision_limit``: seconds
    a bot may take to load (each step) and to decide at a table (0: no limit)."""
    api = Api(runs_root, decision_limit)
    routes = [
        Route("/", index),
        Route("/static/{name}", static),
        Route("/api/options", answer(api.options)),
        Route("/api/play", answer(api.new_table), methods=["POST"]),
        Route("/api/play/{gid}", answer(api.table_state)),
        Route("/api/play/{gid}/move", answer(api.move), methods=["POST"]),
        Route("/api/play/{gid}/check", answer(api.check), methods=["POST"]),
        Route("/api/watch", answer(api.new_watch), methods=["POST"]),
        Route("/api/watch/{gid}/hand/{h:int}", answer(api.watch_hand)),
        Route("/api/runs/hands", answer(api.hands)),
        Route("/api/runs/replay", answer(api.replay)),
    ]
    return Starlette(routes=routes)


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise MoveError(f"{what}: a whole number, not {text!r}") from None


def serve(
    host: str, port: int, runs_root: Path, ready: Any = None, decision_limit: float = DEFAULT_DECISION_LIMIT
) -> None:
    """Serve the app until Ctrl-C (uvicorn); ``ready(url)`` is called once it listens."""
    import uvicorn

    config = uvicorn.Config(make_app(runs_root, decision_limit), host=host, port=port, log_level="warning")
    server = uvicorn.Server(config)
    if ready is not None:
        original = server.startup

        async def startup(sockets: Any = None) -> None:
            await original(sockets)
            ready(f"http://{host}:{server.servers[0].sockets[0].getsockname()[1] if port == 0 else port}/")

        server.startup = startup  # type: ignore[method-assign]
    server.run()
