"""One bot's process as the referee talks to it: started on demand, one request under way
at a time, every write and read under that request's deadline.

A request carries its number (in ``marshal`` form, ginsim.tournament.bot_host); its
answer is one line of JSON that must carry the same number. The pipes are non-blocking
and watched with ``select``, so a bot that stops reading, never answers or floods its
pipe cannot hold the referee: past the deadline its process is killed and the request
fails with ``DecisionTimeout``. An answer longer than ``MAX_ANSWER`` bytes (per
decision), not JSON, nested too deep, not an object, without the request's number or
sent while no request was under way is a ``BotFailure`` ("illegal"), a process that
ends is one ("crashed"); either way the process is killed, and the next request starts
a fresh one. ``wait_for`` waits on many processes at once: the referee's tables
(ginsim.tournament.tables) keep every bot's process busy together.
"""

from __future__ import annotations

import errno
import itertools
import json
import marshal
import os
import select
import subprocess
import time
from typing import Any

from ginsim.engine.guard import BotFailure, DecisionTimeout, check_user_stop
from ginsim.engine.spec import StrategySpec
from ginsim.engine.strategy import HOOKS
from ginsim.tournament.processes import Jail, end_process, spec_files, start_bot_process

_POLL = 0.25
"""Seconds between looks at the user's Ctrl-C while bots think."""

MAX_ANSWER = 1 << 16
"""Bytes one decision's answer may take (a list of melds is a few dozen); a batch's
answer may take this much per decision."""
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
    """One strategy's process for one copy of a pairing's deals: started on demand, killed
    on a timeout, a crash or a broken answer, and started afresh for the next hand. Each
    start is a new ``generation``: the instances of the one before are gone with it."""

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
        self.generation = 0  # starts so far
        self.tables = itertools.count(1)  # numbers of the instances it holds
        self.over: list[int] = []  # instances whose hands are over, told with the next request
        self.buf = b""  # answer bytes read so far
        self.out = memoryview(b"")  # request bytes not yet written
        self.deadline: float | None = None  # of the request under way
        self.expiry: tuple[float, bool] = (0.0, False)  # its DecisionTimeout's limit and clock flag
        self.waiting = False  # a request is under way
        self.ended = "killed"  # why the last process was ended (its other hands' forfeits say it)
        self._id = 0  # the number of the last request: its answer must carry it

    # -- the process ----------------------------------------------------------------
    def ensure(self) -> None:
        """A live process, started if need be; the failure that keeps it from starting."""
        if self.broken is not None:
            raise self.broken
        if self.proc is None:  # a process that died since its last answer: its next request says so
            self.start()

    def start(self) -> None:
        """A new process, its class loaded; BotFailure (and ``broken`` set) if it cannot."""
        start_together([self])
        if self.broken is not None:
            raise self.broken

    def launch(self) -> None:
        """Start a new process and send it its init request (``started`` reads the answer)."""
        self.proc, self.jail = start_bot_process(
            "ginsim.tournament.bot_host",
            subprocess.DEVNULL,
            "a bot's process",
            self.limits,
            spec_files([self.spec.target]),
        )
        os.set_blocking(self.proc.stdin.fileno(), False)  # type: ignore[union-attr]
        self.generation += 1
        self.buf = b""
        self.over = []
        spec = self.spec
        msg = {"op": "init", "spec": spec.text, "target": spec.target, "params": spec.params, "rules": self.rules}
        msg["limit"] = self.limit or 0
        self.post(msg, START_TIMEOUT)

    def started(self, result: Result) -> None:
        """Take the init answer (or failure): the class's hooks, or ``broken`` set."""
        try:
            if isinstance(result, BaseException):
                raise result
            if not isinstance(result.get("r"), list):
                error = result.get("error")
                raise BotFailure("raised", f"could not start: {str(error)[:200] if error else 'a nonsense answer'}")
        except (BotFailure, DecisionTimeout) as e:
            self.kill()
            self.broken = e if isinstance(e, BotFailure) else BotFailure("raised", "could not start in time")
            if not str(self.broken).startswith("could not start"):
                self.broken = BotFailure("raised", f"could not start: {self.broken}")
            return
        self.hooks = frozenset(h for h in result["r"] if isinstance(h, str) and h in HOOKS)

    def kill(self) -> None:
        proc, self.proc = self.proc, None
        self.waiting = False
        if proc is not None:
            end_process(proc, self.jail)
        self.jail = None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    # -- one request ----------------------------------------------------------------
    def post(self, msg: dict[str, Any], timeout: float | None, clock: bool = False, each: float = 0.0) -> None:
        """Start a request: number it, write what the pipe takes now. Its answer is
        due within ``timeout`` seconds (``clock``: a limit from the rules' clock; ``each``:
        the limit per decision its DecisionTimeout names, when it holds many)."""
        proc = self.proc
        if proc is None or proc.stdin is None or proc.stdout is None:
            raise BotFailure("raised", "crashed: its process is gone")
        if self.buf:
            self.kill()  # it wrote while no request was under way
            raise BotFailure("illegal", "answered out of turn")
        self._id += 1
        msg["i"] = self._id
        data = marshal.dumps(msg)  # the host's own format (ginsim.tournament.bot_host)
        self.out = memoryview(len(data).to_bytes(4, "little") + data)
        self.expiry = (each or timeout or 0.0, clock)
        self.deadline = None if timeout is None else time.monotonic() + timeout
        self.waiting = True
        self.write_more()

    def write_more(self) -> None:
        """Write what the (non-blocking) pipe takes of the request now."""
        proc = self.proc
        assert proc is not None and proc.stdin is not None
        while self.out:
            try:
                n = os.write(proc.stdin.fileno(), self.out)
            except BlockingIOError:
                return
            except OSError as e:
                if e.errno in (errno.EPIPE, errno.EBADF):
                    self._died()
                raise
            self.out = self.out[n:]

    def read_more(self, limit: int) -> dict[str, Any] | None:
        """Read what is there; the answer once its line is whole (BotFailure for a bad one)."""
        proc = self.proc
        assert proc is not None and proc.stdout is not None
        chunk = os.read(proc.stdout.fileno(), limit + 1)
        if not chunk:
            self._died()
        self.buf += chunk
        if b"\n" not in self.buf:
            if len(self.buf) > limit:
                self.kill()
                raise BotFailure("illegal", f"answered more than {limit} bytes")
            return None
        line, _, self.buf = self.buf.partition(b"\n")
        self.waiting = False
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

    def overdue(self, now: float) -> DecisionTimeout | None:
        """The request's DecisionTimeout (the process killed) once its deadline has passed."""
        if self.deadline is None or now < self.deadline:
            return None
        self.kill()
        limit, clock = self.expiry
        return DecisionTimeout(self.clock if clock and self.clock else limit, clock)

    def request(self, msg: dict[str, Any], timeout: float | None, clock: bool = False) -> dict[str, Any]:
        """Send one request and wait for its answer within ``timeout`` seconds;
        BotFailure or DecisionTimeout (the process then killed) otherwise."""
        self.post(msg, timeout, clock)
        while True:
            for _, result in wait_for([self]):
                if isinstance(result, BaseException):
                    raise result
                return result

    def _died(self) -> None:
        proc = self.proc
        code = proc.wait() if proc is not None else None
        self.kill()
        raise BotFailure("raised", f"crashed: its process ended (exit status {code})")


Result = dict[str, Any] | BotFailure | DecisionTimeout


def wait_for(bots: list[BotProcess], answer_limit: int = MAX_ANSWER) -> list[tuple[BotProcess, Result]]:
    """Wait up to a slice for the requests under way of ``bots``: the answers (or
    failures) of those that ended. The user's Ctrl-C is looked at after each slice."""
    now = time.monotonic()
    done: list[tuple[BotProcess, Result]] = []
    readers: dict[int, BotProcess] = {}
    writers: dict[int, BotProcess] = {}
    wait = _POLL
    for bot in bots:
        timeout = bot.overdue(now)
        if timeout is not None:
            done.append((bot, timeout))
            continue
        proc = bot.proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        readers[proc.stdout.fileno()] = bot
        if bot.out:
            writers[proc.stdin.fileno()] = bot
        if bot.deadline is not None:
            wait = min(wait, max(bot.deadline - now, 0.0))
    if done:
        return done
    r, w, _ = select.select(list(readers), list(writers), [], wait)
    check_user_stop()  # in slices: the user's Ctrl-C stops the run at once, whatever bots do
    for fd in w:
        bot = writers[fd]
        try:
            bot.write_more()
        except BotFailure as e:
            done.append((bot, e))
            readers = {k: v for k, v in readers.items() if v is not bot}
    for fd in r:
        bot = readers.get(fd)  # not one whose write failed
        if bot is None:
            continue
        try:
            reply = bot.read_more(answer_limit)
        except BotFailure as e:
            done.append((bot, e))
            continue
        if reply is not None:
            done.append((bot, reply))
    return done


def start_together(bots: list[BotProcess]) -> None:
    """Start the processes of ``bots`` that are not running, all at once (each loads
    ginsim and its bot while the others do). One that cannot start is left ``broken``."""
    starting = [bot for bot in bots if bot.broken is None and not bot.alive()]
    waiting = []
    for bot in starting:
        bot.kill()
        try:
            bot.launch()
        except BotFailure as e:  # it died at once
            bot.started(e)
            continue
        waiting.append(bot)
    while waiting:
        for bot, result in wait_for(waiting):
            waiting.remove(bot)
            bot.started(result)


def batch_message(bot: BotProcess, items: list[list[Any]]) -> dict[str, Any]:
    """The request carrying ``items`` to ``bot`` (and the instances whose hands are over)."""
    msg: dict[str, Any] = {"op": "batch", "items": items}
    if bot.over:
        msg["x"], bot.over = bot.over, []
    return msg


def answers(bot: BotProcess, reply: dict[str, Any], n: int) -> list[Any]:
    """The ``n`` answers of a batch's reply; BotFailure (the process killed) if it has not them."""
    out = reply.get("r")
    if type(out) is not list or len(out) != n:
        bot.kill()
        raise BotFailure("illegal", "answered nonsense")
    return out


def outcome(bot: BotProcess, answer: Any) -> Any:
    """One decision's answer as the engine takes it, or (for an object) the exception its
    stand-in raises."""
    if type(answer) is not dict:
        return answer
    if "raised" in answer:
        failure = BotFailure("raised", f"raised {str(answer['raised'])[:300]}")
        failure.remote_traceback = str(answer.get("tb") or "")[:8000]
        return failure
    if "unbuilt" in answer:
        return BotFailure("raised", f"could not be built: {str(answer['unbuilt'])[:200]}")
    if "late" in answer:
        return DecisionTimeout(bot.limit or 0.0)
    return BotFailure("raised", f"failed: {str(answer.get('error'))[:200]}")
