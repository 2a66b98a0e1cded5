"""The process one strategy plays in, in tournament mode (``python -m ginsim.tournament.bot_host``).

The referee (ginsim.tournament.referee) writes one JSON request per line on this process's stdin
and reads one JSON answer per line from its stdout. This process holds the strategy and
its own ``PlayerView``, rebuilt from the compact copy each request carries, so gc, frame
walking and monkeypatching reach nothing but this copy. Nothing the referee sends is
hidden from the seat: its cards, public events, the rules, its own random seed.

Requests (``op``): ``init`` (the strategy spec and the rules; answers the optional hooks
the class overrides), ``new`` (a fresh instance: each hand, or each game), ``call`` (one
decision: the method, the view's state, for ``observe`` the event). Answers: ``{"r":
value}``, ``{"raised": "Type: message"}`` or ``{"error": text}``. The strategy's own
prints go to stderr: the protocol has stdout to itself.
"""

from __future__ import annotations

import json
import operator
import os
import signal
import sys
from typing import Any, BinaryIO

from ginsim.engine.strategy import DECISIONS, HOOKS, bound_entry, overrides
from ginsim.tournament.confine import confine

METHODS = frozenset((*DECISIONS, *HOOKS))

# order of the per-call view fields (ginsim.tournament.referee writes them in this order)
FIELDS = (
    "phase",
    "hand",
    "upcard",
    "stock_size",
    "turn",
    "drawn",
    "drawn_from_pile",
    "discard_choice",
    "discard_deadwood",
    "opp_known",
    "opp_passed",
    "opp_discards",
    "pile_mask",
    "knocker_deadwood",
    "knocker_deadwood_cards",
)


def plain(value: Any, depth: int = 0) -> Any:
    """A strategy's answer as JSON-able plain values: bools, ints (numpy's too), lists;
    anything else as a short text the referee will refuse."""
    if type(value) is int and value.bit_length() > 256:
        return f"<an int of {value.bit_length()} bits>"  # JSON would not carry it
    if value is None or type(value) is bool or type(value) is int:
        return value
    if isinstance(value, list | tuple) and depth < 2:
        return [plain(v, depth + 1) for v in value[:64]]
    try:
        return plain(operator.index(value), depth)
    except TypeError:
        return f"<a {type.__dict__['__name__'].__get__(type(value))} object>"


class Host:
    """One strategy and its view, driven by the referee's requests."""

    def __init__(self) -> None:
        self.cls: Any = None
        self.params: dict[str, Any] = {}
        self.rules: Any = None
        self.strategy: Any = None
        self.view: Any = None

    def init(self, msg: dict[str, Any]) -> dict[str, Any]:
        from ginsim.engine.registry import load_class
        from ginsim.engine.rules import Rules

        self.rules = Rules(**msg["rules"])
        self.cls = load_class(msg["target"], msg["spec"])
        self.params = msg["params"]
        hooks = [h for h in HOOKS if overrides(self.cls, h)]
        return {"r": hooks}

    def new(self) -> dict[str, Any]:
        self.strategy = self.cls(**self.params)
        self.view = None
        return {"r": True}

    def _update(self, msg: dict[str, Any]) -> Any:
        from ginsim.engine.melds import tables_for
        from ginsim.engine.view import PlayerView

        start = msg.get("start")
        if start is not None or self.view is None:
            seat, dealer, scores, seed = start
            tables = tables_for(self.rules.max_run_length).copy()
            self.view = PlayerView(self.rules.copy(), tables, seat, dealer, (scores[0], scores[1]), seed)
        v = self.view
        n = len(FIELDS)
        for i, value in msg["d"]:  # the fields that changed since the last request
            if i < n:
                setattr(v, FIELDS[i], value)
            elif i == n:
                v._pile = value
            else:
                v.knocker_melds = tuple(value)
        v.history.extend((s, a, c) for s, a, c in msg["hist"])
        return v

    def call(self, msg: dict[str, Any]) -> dict[str, Any]:
        method = msg["m"]
        if method not in METHODS:
            return {"error": f"unknown method {method!r}"}
        view = self._update(msg)
        fn = bound_entry(self.strategy, method)  # as the engine calls it in-process
        try:
            if method == "observe":
                s, a, c = msg["ev"]
                out = fn(view, (s, a, c))
            else:
                out = fn(view)
            return {"r": plain(out)}
        except BaseException as e:  # noqa: BLE001 - the referee makes any failure a forfeit
            return {"raised": f"{type(e).__name__}: {_text(e)}", "tb": _traceback(e)}


def _traceback(e: BaseException) -> str:
    """The traceback from the strategy's own frame on (this module's frame left out)."""
    import traceback

    try:
        tb = e.__traceback__
        return "".join(traceback.format_exception(type(e), e, tb.tb_next if tb is not None else None))[-8000:]
    except BaseException:  # noqa: BLE001 - an exception whose text fails
        return ""


def _text(e: BaseException) -> str:
    try:
        text = str(e)
    except BaseException:  # noqa: BLE001
        return ""
    return text if len(text) <= 200 else text[:197] + "..."


def _channels() -> tuple[BinaryIO, BinaryIO]:
    """The protocol's own copies of stdin and stdout; the strategy's fds 0 and 1 become
    /dev/null and stderr."""
    proto_in = os.fdopen(os.dup(0), "rb")
    proto_out = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return proto_in, proto_out


def main() -> None:
    confine()  # before any of the bot's code runs (ginsim.tournament.confine)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the referee decides when a run stops
    proto_in, proto_out = _channels()
    host = Host()
    while True:
        line = proto_in.readline()
        if not line:
            return
        msg = json.loads(line)
        op = msg.get("op")
        try:
            if op == "call":
                reply = host.call(msg)
            elif op == "new":
                reply = host.new()
            elif op == "init":
                reply = host.init(msg)
            else:
                reply = {"error": f"unknown request {op!r}"}
        except BaseException as e:  # noqa: BLE001 - a constructor that fails, a spec that will not load
            reply = {"error": f"{type(e).__name__}: {_text(e)}"}
        reply["i"] = msg.get("i")  # the request it answers
        proto_out.write(json.dumps(reply, separators=(",", ":")).encode() + b"\n")
        proto_out.flush()


if __name__ == "__main__":
    main()
