"""The process one strategy plays in, in tournament mode (``python -m ginsim.tournament.bot_host``).

The referee (ginsim.tournament.referee) writes requests on this process's stdin (each
its length in 4 bytes, then its ``marshal`` form: quick to make and read, and this
process trusts its referee) and reads one JSON answer per line from its stdout (the
referee trusts no bot: JSON, read with bounds). This process holds
the strategy's class and an instance per table the referee plays with it at once (each
hand, or game, a fresh one), each with its own ``PlayerView``, rebuilt from what changed
in the engine's view since that table's last request; gc, frame walking and
monkeypatching reach nothing but these copies. Nothing the referee sends is hidden from
the seat: its cards, public events, the rules, its own random seed.

Requests (``op``), each with its number ``i``, which the answer repeats: ``init`` (the
strategy spec, the rules and the decision limit; answers ``{"r": [the optional hooks the
class overrides]}``) and ``batch`` (``items``: the pending decisions of every table,
``[table, method, start, values, history, event]`` each: the view's fields now, the
events since the table's last decision; ``x``: the tables whose hands
are over). A batch's answer is ``{"r": [one per item]}``: a plain value, or ``{"raised":
"Type: message", "tb": traceback}``, ``{"unbuilt": "Type: message"}`` (the constructor
failed), ``{"late": true}`` (the decision took longer than the limit) or ``{"error":
text}``. The strategy's own prints go to stderr: the protocol has stdout to itself.
"""

from __future__ import annotations

import json
import marshal
import operator
import os
import signal
import sys
import time
from typing import Any, BinaryIO

from ginsim.engine.melds import tables_for
from ginsim.engine.strategy import DECISIONS, HOOKS, bound_entry, overrides
from ginsim.engine.view import MOVING_FIELDS, PlayerView
from ginsim.engine.vocab import Action
from ginsim.tournament.confine import confine

METHODS = frozenset((*DECISIONS, *HOOKS))
ACTIONS = {a.value: a for a in Action}
"""The events' action words as the engine's history holds them."""

FIELDS = MOVING_FIELDS
"""The view's fields each decision carries, in this order (then the pile and the knocker's
melds)."""


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
    """One strategy class and its instances (one per table the referee plays at once),
    each with its own view, driven by the referee's requests."""

    def __init__(self) -> None:
        self.cls: Any = None
        self.params: dict[str, Any] = {}
        self.rules: Any = None
        self.limit = 0.0  # seconds per decision (0: none): a decision past it is answered late
        self.tables: dict[int, list[Any]] = {}  # instance number -> [strategy or failure text, view]

    def init(self, msg: dict[str, Any]) -> dict[str, Any]:
        from ginsim.engine.registry import load_class
        from ginsim.engine.rules import Rules

        self.rules = Rules(**msg["rules"])
        self.cls = load_class(msg["target"], msg["spec"])
        self.params = msg["params"]
        self.limit = float(msg.get("limit") or 0.0)
        hooks = [h for h in HOOKS if overrides(self.cls, h)]
        return {"r": hooks}

    def batch(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Every decision of the request, in order: one answer each (``ITEM``)."""
        for n in msg.get("x", ()):  # the tables whose hands are over
            self.tables.pop(n, None)
        return {"r": [self._decide(item) for item in msg["items"]]}

    def _table(self, n: int) -> list[Any]:
        table = self.tables.get(n)
        if table is None:  # a new instance: the first decision of its hand (or game)
            try:
                built: Any = self.cls(**self.params)
            except BaseException as e:  # noqa: BLE001 - a constructor that fails: the hand's forfeit
                built = f"{type(e).__name__}: {_text(e)}"
            table = self.tables[n] = [built, None, {}]  # the instance, its view, its bound entry points
        return table

    def _update(self, table: list[Any], start: Any, values: Any, history: Any) -> Any:
        """The table's view as the engine's is now: a new one at a hand's start, then
        every field (``FIELDS``, the pile, the knocker's melds) and the new events."""
        if start or table[1] is None:
            seat, dealer, scores, seed, knock_limit = start
            melds = tables_for(self.rules.max_run_length).copy()
            own = (scores[0], scores[1])
            # the view copies the rules for the strategy when it first reads them
            table[1] = PlayerView(self.rules, melds, seat, dealer, own, seed, 0, None, knock_limit)
        v = table[1]
        for name, value in zip(FIELDS, values, strict=False):
            setattr(v, name, value)
        v._pile = values[-2]  # a list of its own (marshal made it)
        v.knocker_melds = values[-1]
        if history:
            v.history.extend([(s, ACTIONS[a], c) for s, a, c in history])
        return v

    def _decide(self, item: list[Any]) -> Any:
        """One decision (``[table, method, start, values, history, event]``): its answer as
        a plain value, or an object saying why there is none."""
        n, method, start, values, history, event = item
        table = self._table(n)
        strategy = table[0]
        if type(strategy) is str:
            return {"unbuilt": strategy}
        try:
            view = self._update(table, start, values, history)
            fn = table[2].get(method)
            if fn is None:
                if method not in METHODS:
                    return {"error": f"unknown method {method!r}"}
                fn = table[2][method] = bound_entry(strategy, method)  # as the engine calls it in-process
        except Exception as e:  # noqa: BLE001 - its copy of the view broken (by its own code): its forfeit
            return {"error": f"its view could not be updated ({type(e).__name__}: {_text(e)})"}
        t0 = time.perf_counter()
        try:
            out = fn(view, (event[0], ACTIONS[event[1]], event[2])) if method == "observe" else fn(view)
            answer = plain(out)
        except BaseException as e:  # noqa: BLE001 - the referee makes any failure a forfeit
            return {"raised": f"{type(e).__name__}: {_text(e)}", "tb": _traceback(e)}
        if self.limit and time.perf_counter() - t0 > self.limit:
            return {"late": True}
        return answer


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
        head = proto_in.read(4)
        if len(head) < 4:
            return
        msg = marshal.loads(proto_in.read(int.from_bytes(head, "little")))
        op = msg.get("op")
        try:
            if op == "batch":
                reply = host.batch(msg)
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
