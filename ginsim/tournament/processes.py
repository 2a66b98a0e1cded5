"""Starting and ending bots' processes in tournament mode: the referee's side of the jail.

Each process gets a user id of its own when the referee runs as root (``bot_uid``: no
two live bot processes share one, so none can signal, trace or read another), a
private temporary folder, and ``GINSIM_JAIL`` telling the host how to confine itself
before any bot code runs (ginsim.tournament.confine). ``end_process`` kills its whole process
group; under namespaces the kernel kills whatever else the bot started. What a bot's
process writes to a pipe is read with a bound (``read_bounded``), so no output can fill
the referee's memory.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ginsim.errors import RunError
from ginsim.tournament.confine import JAIL_ENV, LIMITS, jail_env, namespaces_available

UID_BASE = 1 << 30
"""Bot user ids are ``UID_BASE + (referee pid << 8) + n``: users no one else has
(``GINSIM_BOT_UID_BASE`` overrides the base)."""
_ENV_KEEP = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "PYTHONPATH", "GINSIM_PURE", "VIRTUAL_ENV")
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""The environment that starts a bot's BLAS and OpenMP pools with one thread."""
_count = itertools.count()
_reachable: dict[str, str] = {}


def as_root() -> bool:
    """Whether the referee runs as root on a POSIX system: bots are then confined in
    namespaces and drop to users of their own."""
    return os.name == "posix" and os.geteuid() == 0


def keep_root() -> bool:
    """``GINSIM_BOT_USER=root``: bots stay root (in their namespaces): for testing only."""
    return os.environ.get("GINSIM_BOT_USER") == "root"


def bot_uid() -> int:
    """A user id for one new bot process, unique among the live ones of this machine's
    referees (the referee's PID in the high bits, a counter in the low 8)."""
    base = int(os.environ.get("GINSIM_BOT_UID_BASE") or UID_BASE)
    return base + ((os.getpid() & 0x3FFFFF) << 8) + (next(_count) & 0xFF)


def unreachable() -> str:
    """Why a user with no group and no file of its own cannot run this Python and ginsim
    (the first folder on the way it cannot enter), or ''."""
    key = sys.executable
    if key in _reachable:
        return _reachable[key]
    why = ""
    paths = [
        Path(sys.executable).resolve(),
        Path(os.__file__).resolve(),
        Path(__file__).resolve(),
    ]  # ginsim's own files
    for path in paths:
        for folder in reversed(path.parents):
            try:
                mode = folder.stat().st_mode
            except OSError:
                continue
            if not mode & stat.S_IXOTH:
                why = f"it cannot enter {folder} (mode {stat.S_IMODE(mode):04o}), which holds {path}"
                break
        if why:
            break
    _reachable[key] = why
    return why


def reach_paths(extra: tuple[str, ...] = ()) -> list[str]:
    """What a bot's process must be able to read: this Python (its prefixes and the
    folder of its executable), every folder on ``sys.path`` (ginsim, the installed
    packages), the working folder (relative spec paths) and ``extra`` (a bot's file)."""
    paths = [sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))]
    paths += [p for p in sys.path if p and os.path.exists(p)]
    paths += [os.getcwd(), *extra]
    return list(dict.fromkeys(os.path.abspath(p) for p in paths))


def spec_files(texts: list[str]) -> tuple[str, ...]:
    """The folders of the ``file.py`` strategies among spec texts (or targets)."""
    out = []
    for text in texts:
        head = text.strip().split(":", 1)[0]
        if head.endswith(".py"):
            out.append(os.path.dirname(os.path.abspath(head)))
    return tuple(out)


def preflight() -> None:
    """RunError (one line naming the folder at fault) when bots will run as users of their
    own who cannot run this Python or ginsim: without namespaces, no folder on the way
    can be opened to them. Checked before a run folder is made."""
    if as_root() and not keep_root() and (why := unreachable()) and not namespaces_available():
        raise RunError(
            f"--isolate as root: the bots' users cannot run ginsim: {why}, and this system forbids the "
            "namespaces that would open it to them; install ginsim and its Python where every user can "
            "read them (see docs/security.md), or set GINSIM_BOT_USER=root to test"
        )


class Jail:
    """One bot process's user and private temporary folder (removed by ``close``)."""

    def __init__(self, limits: dict[str, int] | None, reach: tuple[str, ...] = ()) -> None:
        self.limits = dict(LIMITS if limits is None else limits)
        self.reach = reach_paths(reach)
        self.uid = (0 if keep_root() else bot_uid()) if as_root() else None
        self.tmp = tempfile.mkdtemp(prefix="ginsim-bot-")
        if self.uid:
            os.chown(self.tmp, self.uid, self.uid)

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k in _ENV_KEEP}
        env["TMPDIR"] = self.tmp
        env.update(ONE_THREAD)  # a bot's numerical libraries, as in every process that plays (ginsim.run.worker)
        env[JAIL_ENV] = jail_env(self.uid, self.limits, self.tmp, self.reach)
        return env

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


def start_bot_process(
    module: str, stderr: int, what: str, limits: dict[str, int] | None = None, reach: tuple[str, ...] = ()
) -> tuple[subprocess.Popen[bytes], Jail]:
    """``python -m module`` as untrusted code runs: a minimal environment, a session of its
    own (the user's Ctrl-C is the referee's to handle), confined by ginsim.tournament.confine,
    pipes for its stdin and stdout. A failure to start is one line naming ``what``."""
    preflight()
    jail = Jail(limits, reach)
    try:
        proc = subprocess.Popen(
            [sys.executable, "-s", "-m", module],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=jail.env(),
            start_new_session=True,
            close_fds=True,
        )
    except OSError as e:
        jail.close()
        raise RunError(
            f"--isolate: cannot start {what} ({e.strerror or e}: {sys.executable}); see docs/security.md"
        ) from None
    return proc, jail


def end_process(proc: subprocess.Popen[bytes], jail: Jail | None) -> None:
    """Kill a bot's process and its process group, close its pipes, reap it, wipe its
    temporary folder."""
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        proc.kill()
    for f in (proc.stdin, proc.stdout, proc.stderr):
        if f is not None:
            with contextlib.suppress(OSError):
                f.close()
    proc.wait()
    if jail is not None:
        jail.close()


def read_bounded(proc: subprocess.Popen[bytes], timeout: float, limit: int) -> tuple[bytes, bytes, bool]:
    """Everything a process writes to its stdout and stderr until both close, keeping the
    first ``limit`` bytes of stdout and the last ``limit`` of stderr; (out, err, in time).
    Past ``timeout`` seconds the process is killed."""
    files = {f.fileno(): f for f in (proc.stdout, proc.stderr) if f is not None}
    out = bytearray()
    err = bytearray()
    deadline = time.monotonic() + timeout
    while files:
        left = deadline - time.monotonic()
        if left <= 0:
            return bytes(out), bytes(err), False
        ready, _, _ = select.select(list(files), [], [], min(left, 0.25))
        for fd in ready:
            data = os.read(fd, 1 << 16)
            if not data:
                del files[fd]
            elif proc.stdout is not None and fd == proc.stdout.fileno():
                out += data[: max(0, limit - len(out))]
            else:
                err += data
                del err[: max(0, len(err) - limit)]
    return bytes(out), bytes(err), True
