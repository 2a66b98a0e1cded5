"""Tournament mode (``--isolate``): every strategy plays in a process of its own.

The referee (this module, in the process that plays the chunk) never imports a
strategy's code: for each seat it starts ``python -m ginsim.outside.sandbox_host``, and the
engine plays against a stand-in (``RemoteStrategy``) that, at each decision, sends the
bot a compact copy of its seat's view (its cards, the public events since the last
request, its random seed) and reads one line of JSON back. What the bot can reach by
gc, by walking frames or by monkeypatching is its own process: its view's copy and its
own code. A bot's answer is plain JSON checked by the engine like any other; an answer
longer than ``MAX_ANSWER`` bytes, a crash or silence is a forfeit.

Time is the referee's: each decision gets at most ``decision_limit`` seconds, or what is
left of the rules' clock (R25) when that is less; past it the bot's process is killed,
the seat forfeits, and a fresh process plays its next hand. The decks mix in the run's
secret (ginsim.run.secret), which bots never see. When the referee runs as root, bots run as
the user ``GINSIM_BOT_USER`` (default ``nobody``), so they cannot read the secret or
anything else the organiser did not make readable (docs/security.md).
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ginsim.engine.guard import BotFailure, DecisionTimeout, check_user_stop, guarded
from ginsim.engine.registry import StrategySpec
from ginsim.engine.rules import Rules
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import PlayerView
from ginsim.outside.sandbox_host import FIELDS

_POLL = 0.25
"""Seconds between looks at the user's Ctrl-C while a bot thinks."""

MAX_ANSWER = 1 << 16
"""Bytes one answer may take (a list of melds is a few dozen)."""
START_TIMEOUT = 60.0
"""Seconds a bot's process may take to start and load its class."""
_ENV_KEEP = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "PYTHONPATH", "GINSIM_PURE", "VIRTUAL_ENV", "TMPDIR")


def _bot_user() -> dict[str, Any]:
    """Popen's user and group for a bot: ``GINSIM_BOT_USER`` (default nobody) when the
    referee is root, so a bot can read nothing that is the organiser's alone."""
    if os.name != "posix" or os.geteuid() != 0:
        return {}
    import pwd

    name = os.environ.get("GINSIM_BOT_USER") or "nobody"
    if name == "root":
        return {}
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        from ginsim.errors import RunError

        raise RunError(f"--isolate as root: no user {name!r} to run the bots as (set GINSIM_BOT_USER)") from None
    return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}


def start_bot_process(module: str, stderr: int, what: str) -> subprocess.Popen[bytes]:
    """``python -m module`` as untrusted code runs: a minimal environment, a session of its
    own (the user's Ctrl-C is the referee's to handle), the bot user when run as root, pipes
    for its stdin and stdout. A failure to start is one line naming ``what``."""
    user = _bot_user()
    try:
        return subprocess.Popen(
            [sys.executable, "-m", module],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env={k: v for k, v in os.environ.items() if k in _ENV_KEEP},
            start_new_session=True,
            close_fds=True,
            **user,
        )
    except OSError as e:
        from ginsim.errors import RunError

        who = f" as user {os.environ.get('GINSIM_BOT_USER', 'nobody')}" if user else ""
        raise RunError(
            f"--isolate: cannot start {what}{who} ({e.strerror or e}: {sys.executable}); see docs/security.md"
        ) from None


class BotProcess:
    """One strategy's process: started on demand, killed on a timeout or a crash and
    started afresh for the next instance."""

    def __init__(self, spec: StrategySpec, rules: dict[str, Any], limit: float | None, clock: float | None) -> None:
        self.spec = spec
        self.rules = rules
        self.limit = limit or None  # seconds per decision; None: none
        self.clock = clock  # the rules' time_per_hand (R25), or None
        self.proc: subprocess.Popen[bytes] | None = None
        self.hooks: frozenset[str] = frozenset()
        self.buf = b""
        self.view: PlayerView | None = None  # the engine's view the bot's copy follows
        self.sent = 0  # events of that view's history already sent
        self.used = 0.0  # thinking time this hand
        self.start()

    # -- the process ----------------------------------------------------------------
    def start(self) -> None:
        self.proc = start_bot_process("ginsim.outside.sandbox_host", subprocess.DEVNULL, "a bot's process")
        self.buf = b""
        self.view = None
        spec = self.spec
        reply = self._request(
            {"op": "init", "spec": spec.text, "target": spec.target, "params": spec.params, "rules": self.rules},
            START_TIMEOUT,
        )
        if "r" not in reply or not isinstance(reply["r"], list):
            self.kill()
            from ginsim.errors import StrategySpecError

            raise StrategySpecError(f"strategy {spec.text!r}: its process failed to start ({reply.get('error')})")
        self.hooks = frozenset(h for h in reply["r"] if isinstance(h, str))

    def kill(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        proc.kill()
        for f in (proc.stdin, proc.stdout):
            if f is not None:
                f.close()
        proc.wait()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def _request(self, msg: dict[str, Any], timeout: float | None, clock: bool = False) -> dict[str, Any]:
        """Send one request and read its answer within ``timeout`` seconds; BotFailure or
        DecisionTimeout (the process then killed) otherwise."""
        proc = self.proc
        if proc is None or proc.stdin is None or proc.stdout is None:
            raise BotFailure("raised", "crashed: its process is gone")
        try:
            proc.stdin.write(json.dumps(msg, separators=(",", ":")).encode() + b"\n")
            proc.stdin.flush()
        except OSError:
            self._died()
        fd = proc.stdout.fileno()
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buf:
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                self.kill()
                raise DecisionTimeout(self.clock if clock and self.clock else timeout or 0.0, clock)
            # in slices, so that the user's Ctrl-C (a flag the guard's handler sets) stops
            # the run at once rather than when the bot answers or runs out of time
            ready, _, _ = select.select([fd], [], [], _POLL if wait is None else min(wait, _POLL))
            check_user_stop()
            if not ready:
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
            reply = json.loads(line)
        except ValueError:  # not JSON, or an int too long to read
            self.kill()
            raise BotFailure("illegal", "answered something that is not a plain value") from None
        if not isinstance(reply, dict):
            self.kill()
            raise BotFailure("illegal", "answered something that is not a plain value")
        return reply

    def _died(self) -> None:
        proc = self.proc
        code = proc.wait() if proc is not None else None
        self.kill()
        raise BotFailure("raised", f"crashed: its process ended (exit status {code})")

    # -- the strategy -----------------------------------------------------------------
    def new_instance(self) -> None:
        """A fresh strategy instance (a new process if the last one was killed)."""
        if not self.alive():
            self.kill()
            self.start()
        reply = self._request({"op": "new"}, START_TIMEOUT)
        if reply.get("r") is not True:
            raise BotFailure("raised", f"could not be built: {reply.get('error')}")
        self.view = None

    def call(self, method: str, view: PlayerView, event: Any = None) -> Any:
        """One decision: the view's state out, the answer back (plain JSON values)."""
        if not self.alive():
            raise BotFailure("raised", "crashed: its process is gone")
        msg: dict[str, Any] = {"op": "call", "m": method}
        if view is not self.view:  # a new hand
            self.view, self.sent, self.used = view, 0, 0.0
            msg["start"] = (view.seat, view.dealer, view.scores, view._seed)
        msg["v"] = [getattr(view, name) for name in FIELDS]
        msg["pile"] = view._pile
        msg["km"] = view.knocker_melds
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
            raise BotFailure("raised", f"raised {reply['raised']}")
        raise BotFailure("raised", f"failed: {reply.get('error')}")


class RemoteStrategy(Strategy):
    """The engine's stand-in for a strategy in its own process."""

    name = ""  # a stand-in: no name of its own (nor a registry entry)

    def __init__(self, bot: BotProcess) -> None:
        self._bot = bot
        self._broken: BotFailure | None = None
        try:
            bot.new_instance()
        except (BotFailure, DecisionTimeout) as e:  # its first decision then forfeits
            self._broken = e if isinstance(e, BotFailure) else BotFailure("raised", "could not be built in time")

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


@contextmanager
def isolated_factories(
    specs: tuple[StrategySpec, StrategySpec], rules: Rules, decision_limit: float | None
) -> Iterator[tuple[Callable[..., Strategy], Callable[..., Strategy]]]:
    """Tournament mode for one chunk of the pairing ``specs`` (a chunk task's, strategy a
    first): start each strategy's own process and yield the two factories the worker
    builds its stand-ins with (in place of the strategies' classes); the processes are
    killed when the chunk ends, however it ends."""
    rules_dict = rules.to_dict()
    bots: list[BotProcess] = []
    try:
        for spec in specs:
            bots.append(BotProcess(spec, rules_dict, decision_limit, rules.time_per_hand))

        def factory(bot: BotProcess) -> Callable[..., Strategy]:
            def build(**_params: Any) -> Strategy:
                return remote_class(bot.hooks)(bot)

            return build

        with guarded(None):  # Ctrl-C marked as the user's; the bots' time is kept here
            yield factory(bots[0]), factory(bots[1])
    finally:
        for bot in bots:
            bot.kill()
