"""Tournament mode (``--isolate``): every strategy plays in a process of its own.

The referee (this module, in the process that plays the chunk) never imports a
strategy's code: for each seat and each copy of the deals it starts ``python -m
ginsim.outside.sandbox_host``, confined before any bot code runs (ginsim.outside.jail,
ginsim.run.jailer: a user of its own, namespaces, resource limits), and the engine plays
against a stand-in (``RemoteStrategy``) that, at each decision, sends the bot what
changed in its seat's view and reads one line of JSON back. The two copies of a
duplicate deal are played by different processes, so nothing the bot keeps in memory
from copy 0 reaches copy 1.

Nothing a bot does can block or kill the referee: every write and every read is under
the decision's deadline (non-blocking pipes and ``select``); an answer that is longer
than ``MAX_ANSWER`` bytes, not JSON, nested too deep, not an object, or sent out of
turn, a crash, a process killed from outside, or silence is that seat's forfeit with a
one-line reason. A process that could not start (its module exits or sleeps when the
play process imports it, its init answer is nonsense) forfeits every remaining hand of
that copy of the chunk at once.

Time is the referee's: each decision gets at most ``decision_limit`` seconds, or what is
left of the rules' clock (R25) when that is less; past it the bot's process is killed,
the seat forfeits, and a fresh process plays its next hand. The decks mix in the run's
secret (ginsim.runfolder.secret), which bots never see.
"""

from __future__ import annotations

import atexit
import errno
import json
import os
import select
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ginsim.engine.guard import BotFailure, DecisionTimeout, check_user_stop, guarded
from ginsim.engine.registry import StrategySpec
from ginsim.engine.rules import Rules
from ginsim.engine.strategy import HOOKS, Strategy
from ginsim.engine.view import PlayerView
from ginsim.outside.sandbox_host import FIELDS
from ginsim.run.jailer import Jail, end_process, spec_files, start_bot_process

_POLL = 0.25
"""Seconds between looks at the user's Ctrl-C while a bot thinks."""

MAX_ANSWER = 1 << 16
"""Bytes one answer may take (a list of melds is a few dozen)."""
START_TIMEOUT = 60.0
"""Seconds a bot's process may take to start and load its class."""


def _reply(line: bytes) -> dict[str, Any]:
    """One answer line as an object; BotFailure for anything else (nested past what
    Python's parser allows included)."""
    try:
        reply = json.loads(line)
    except (ValueError, RecursionError):
        reply = None
    if not isinstance(reply, dict):
        raise BotFailure("illegal", "answered something that is not a plain value")
    return reply


class BotProcess:
    """One strategy's process for one copy of a chunk's deals: started on demand, killed
    on a timeout or a crash and started afresh for the next instance."""

    def __init__(
        self,
        spec: StrategySpec,
        rules: dict[str, Any],
        limit: float | None,
        clock: float | None,
        limits: dict[str, int] | None = None,
    ) -> None:
        self.spec = spec
        self.rules = rules
        self.limit = limit or None  # seconds per decision; None: none
        self.clock = clock  # the rules' time_per_hand (R25), or None
        self.limits = limits  # the jail's resource limits (None: the defaults)
        self.proc: subprocess.Popen[bytes] | None = None
        self.jail: Jail | None = None
        self.broken: BotFailure | None = None  # it could not start: every hand forfeits
        self.hooks: frozenset[str] = frozenset()
        self.buf = b""
        self.view: PlayerView | None = None  # the engine's view the bot's copy follows
        self.sent = 0  # events of that view's history already sent
        self.used = 0.0  # thinking time this hand
        self._timeout: float | None = None  # the request under way's limit
        self._id = 0  # the number of the last request: its answer must carry it
        self.last: list[Any] = []  # the view's fields as last sent (FIELDS, then the pile and the knocker's melds)

    # -- the process ----------------------------------------------------------------
    def start(self) -> None:
        """A new process, its class loaded; BotFailure (and ``broken`` set) if it cannot."""
        self.proc, self.jail = start_bot_process(
            "ginsim.outside.sandbox_host",
            subprocess.DEVNULL,
            "a bot's process",
            self.limits,
            spec_files([self.spec.target]),
        )
        os.set_blocking(self.proc.stdin.fileno(), False)  # type: ignore[union-attr]
        self.buf = b""
        self.view = None
        spec = self.spec
        msg = {"op": "init", "spec": spec.text, "target": spec.target, "params": spec.params, "rules": self.rules}
        try:
            reply = self._request(msg, START_TIMEOUT)
            if not isinstance(reply.get("r"), list):
                error = reply.get("error")
                raise BotFailure("raised", f"could not start: {str(error)[:200] if error else 'a nonsense answer'}")
        except (BotFailure, DecisionTimeout) as e:
            self.kill()
            self.broken = e if isinstance(e, BotFailure) else BotFailure("raised", "could not start in time")
            if not str(self.broken).startswith("could not start"):
                self.broken = BotFailure("raised", f"could not start: {self.broken}")
            raise self.broken from None
        self.hooks = frozenset(h for h in reply["r"] if isinstance(h, str) and h in HOOKS)

    def kill(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None:
            end_process(proc, self.jail)
        self.jail = None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def _send(self, data: bytes, deadline: float | None) -> None:
        """Write the whole request before ``deadline`` (the pipe is non-blocking: a bot
        that stops reading cannot hold the referee)."""
        proc = self.proc
        assert proc is not None and proc.stdin is not None
        fd = proc.stdin.fileno()
        view = memoryview(data)
        while view:
            try:
                n = os.write(fd, view)
            except BlockingIOError:
                n = 0
            except OSError as e:
                if e.errno in (errno.EPIPE, errno.EBADF):
                    self._died()
                raise
            view = view[n:]
            if view:
                self._wait(fd, deadline, write=True)

    def _wait(self, fd: int, deadline: float | None, write: bool = False, clock: bool = False) -> bool:
        """Wait up to a slice for ``fd``; DecisionTimeout (the process killed) past ``deadline``."""
        wait = None if deadline is None else deadline - time.monotonic()
        if wait is not None and wait <= 0:
            self.kill()
            raise DecisionTimeout(self.clock if clock and self.clock else self._timeout or 0.0, clock)
        # in slices, so that the user's Ctrl-C (a flag the guard's handler sets) stops
        # the run at once rather than when the bot answers or runs out of time
        slice_ = _POLL if wait is None else min(wait, _POLL)
        r, w, _ = select.select([] if write else [fd], [fd] if write else [], [], slice_)
        check_user_stop()
        return bool(r or w)

    def _request(self, msg: dict[str, Any], timeout: float | None, clock: bool = False) -> dict[str, Any]:
        """Send one request and read its answer within ``timeout`` seconds; BotFailure or
        DecisionTimeout (the process then killed) otherwise."""
        proc = self.proc
        if proc is None or proc.stdin is None or proc.stdout is None:
            raise BotFailure("raised", "crashed: its process is gone")
        self._timeout = timeout
        deadline = None if timeout is None else time.monotonic() + timeout
        if self.buf:
            self.kill()  # it wrote while no request was under way
            raise BotFailure("illegal", "answered out of turn")
        self._id += 1
        msg["i"] = self._id
        self._send(json.dumps(msg, separators=(",", ":")).encode() + b"\n", deadline)
        fd = proc.stdout.fileno()
        while b"\n" not in self.buf:
            if not self._wait(fd, deadline, clock=clock):
                continue
            chunk = os.read(fd, MAX_ANSWER + 1)
            if not chunk:
                self._died()
            self.buf += chunk
            if len(self.buf) > MAX_ANSWER and b"\n" not in self.buf:
                self.kill()
                raise BotFailure("illegal", f"answered more than {MAX_ANSWER} bytes")
        line, _, self.buf = self.buf.partition(b"\n")
        try:
            if self.buf:
                raise BotFailure("illegal", "answered out of turn")
            reply = _reply(line)
            if reply.get("i") != self._id:
                raise BotFailure("illegal", "answered out of turn")
            return reply
        except BotFailure:
            self.kill()
            raise

    def _died(self) -> None:
        proc = self.proc
        code = proc.wait() if proc is not None else None
        self.kill()
        raise BotFailure("raised", f"crashed: its process ended (exit status {code})")

    # -- the strategy -----------------------------------------------------------------
    def new_instance(self) -> None:
        """A fresh strategy instance (a new process if the last one was killed)."""
        if self.broken is not None:
            raise self.broken
        if not self.alive():
            self.kill()
            self.start()
        reply = self._request({"op": "new"}, START_TIMEOUT)
        if reply.get("r") is not True:
            raise BotFailure("raised", f"could not be built: {str(reply.get('error'))[:200]}")
        self.view = None

    def call(self, method: str, view: PlayerView, event: Any = None) -> Any:
        """One decision: what changed in the view out, the answer back (plain JSON values)."""
        if not self.alive():
            raise BotFailure("raised", "crashed: its process is gone")
        msg: dict[str, Any] = {"op": "call", "m": method}
        if view is not self.view:  # a new hand: every field
            self.view, self.sent, self.used = view, 0, 0.0
            msg["start"] = (view.seat, view.dealer, view.scores, view._seed)
            self.last = [None] * (len(FIELDS) + 2)
        # only the fields that changed since its last request: [index, value] pairs
        values = [getattr(view, name) for name in FIELDS]
        values += [view._pile, view.knocker_melds]
        last = self.last
        changed = [[i, v] for i, v in enumerate(values) if v != last[i] or last[i] is None]
        self.last = [list(v) if type(v) is list else v for v in values]  # the pile is a list the engine extends
        msg["d"] = changed
        history = view.history
        msg["hist"] = history[self.sent :]
        self.sent = len(history)
        if event is not None:
            msg["ev"] = event
        timeout = self.limit
        clock = False
        if self.clock is not None:
            left = max(self.clock - self.used, 0.0) + 0.01  # the rest of its time for the hand
            clock = timeout is None or left < timeout
            timeout = left if clock else timeout
        t0 = time.monotonic()
        reply = self._request(msg, timeout, clock)
        self.used += time.monotonic() - t0
        if "r" in reply:
            return reply["r"]
        if "raised" in reply:
            failure = BotFailure("raised", f"raised {str(reply['raised'])[:300]}")
            failure.remote_traceback = str(reply.get("tb") or "")[:8000]
            raise failure
        raise BotFailure("raised", f"failed: {str(reply.get('error'))[:200]}")


class RemoteStrategy(Strategy):
    """The engine's stand-in for a strategy in its own process."""

    name = ""  # a stand-in: no name of its own (nor a registry entry)

    def __init__(self, bot: BotProcess, broken: BotFailure | None = None) -> None:
        self._bot = bot
        self._broken = broken  # its process could not give it an instance: each decision forfeits

    def _call(self, method: str, view: PlayerView, event: Any = None) -> Any:
        if self._broken is not None:
            raise self._broken
        return self._bot.call(method, view, event)

    def take_upcard(self, view: PlayerView) -> bool:
        return self._call("take_upcard", view)  # type: ignore[no-any-return]

    def discard(self, view: PlayerView) -> Any:
        return self._call("discard", view)

    def knock(self, view: PlayerView) -> bool:
        return self._call("knock", view)  # type: ignore[no-any-return]


def _hook(name: str) -> Callable[..., Any]:
    if name == "observe":

        def observe(self: RemoteStrategy, view: PlayerView, event: Any) -> None:
            self._call("observe", view, event)

        return observe

    def hook(self: RemoteStrategy, view: PlayerView) -> Any:
        out = self._call(name, view)
        return tuple(out) if name == "choose_melds" and type(out) is list else out

    return hook


_CLASSES: dict[frozenset[str], type[RemoteStrategy]] = {}


def remote_class(hooks: frozenset[str]) -> type[RemoteStrategy]:
    """The stand-in class that overrides exactly the optional hooks the bot's class does
    (the engine calls a hook only when it is overridden)."""
    cls = _CLASSES.get(hooks)
    if cls is None:
        body = {h: _hook(h) for h in sorted(hooks)}
        cls = _CLASSES[hooks] = type("RemoteStrategy_" + "_".join(sorted(hooks)), (RemoteStrategy,), body)
    return cls


def remote_strategy(bot: BotProcess) -> RemoteStrategy:
    """A stand-in for a fresh instance in ``bot``'s process (started if need be)."""
    try:
        bot.new_instance()
    except (BotFailure, DecisionTimeout) as e:  # its first decision then forfeits
        failure = e if isinstance(e, BotFailure) else BotFailure("raised", "could not be built in time")
        return remote_class(bot.hooks)(bot, failure)
    return remote_class(bot.hooks)(bot)


Factories = tuple[Callable[..., Strategy], Callable[..., Strategy]]


_POOL: dict[tuple[Any, ...], BotProcess] = {}
"""The bot processes this (referee) process keeps between the chunks of one pairing: a
process plays one copy of that pairing's deals, chunk after chunk (what it keeps from
one deal tells nothing of another's cards). A new pairing kills the others."""


def close_pool() -> None:
    """Kill every bot process kept between chunks (the run is over, or stopped)."""
    while _POOL:
        _POOL.popitem()[1].kill()


atexit.register(close_pool)


@contextmanager
def isolated_factories(
    specs: tuple[StrategySpec, StrategySpec],
    rules: Rules,
    decision_limit: float | None,
    limits: dict[str, int] | None = None,
    pairing_key: int = 0,
) -> Iterator[Callable[[int], Factories]]:
    """Tournament mode for one chunk of the pairing ``specs`` (a chunk task's, strategy a
    first): yields ``for_copy(copy)``, the two factories the worker builds the stand-ins
    of that copy of the deals with (in place of the strategies' classes). Each strategy
    has a process of its own per copy, started when first needed and kept for the
    pairing's next chunk, so no process plays both copies of a deal; a chunk that ends
    otherwise than normally kills them."""
    rules_dict = rules.to_dict()
    base = (pairing_key, specs[0].text, specs[1].text, repr(rules_dict), decision_limit, repr(limits))
    for key in [k for k in _POOL if k[2:] != base]:
        _POOL.pop(key).kill()  # another pairing's
    for bot in _POOL.values():
        bot.broken = None  # each chunk tries a process that could not start once more

    def factory(side: int, copy: int) -> Callable[..., Strategy]:
        key = (side, copy, *base)

        def build(**_params: Any) -> Strategy:
            bot = _POOL.get(key)
            if bot is None:
                bot = _POOL[key] = BotProcess(specs[side], rules_dict, decision_limit, rules.time_per_hand, limits)
            return remote_strategy(bot)

        return build

    made = {copy: (factory(0, copy), factory(1, copy)) for copy in (0, 1)}
    try:
        with guarded(None):  # Ctrl-C marked as the user's; the bots' time is kept here
            yield made.__getitem__
    except BaseException:
        close_pool()
        raise
