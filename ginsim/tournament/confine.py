"""Confining a bot's process in tournament mode, before any of the bot's code runs.

The referee (ginsim.tournament.referee) starts each bot's process (``bot_host``, and
``spec_host`` for the spec check) with ``GINSIM_JAIL`` in its environment: the user id the
process is to run as (one of its own, unique among the live bot processes) and the
resource limits. The host's first act is ``confine()``:

- As root on Linux, it moves into new mount, PID, network, IPC and UTS namespaces and
  forks: the child, PID 1 of its namespace, plays; the parent only waits for it. The
  folders it must read (Python, ginsim, the bot's files: ``reach`` in the spec) are opened
  to its user in its own mount namespace only: a folder on the way that other users
  cannot enter (``/root`` holding a pyenv or conda Python, say) is covered by an empty
  tmpfs holding just the entries on the way, bound from the original, so the bot sees
  those and nothing else of that folder. Every mount is made read-only and private
  (``/tmp``, ``/var/tmp`` and ``/dev/shm`` too: no folder is writable), and the private
  temporary folder the referee made (``TMPDIR``) becomes an empty tmpfs of the bot's own
  (``tmp`` MiB, gone when the namespace ends). ``/proc`` shows the namespace's processes
  only. When PID 1 dies the kernel kills every process left in the namespace, so no
  child, grandchild or ``setsid`` daemon of a bot outlives it; there is no network.
- It lowers the resource limits (address space, CPU seconds, processes, open files,
  file size, no core dumps) to ``LIMITS``'s values or the user's, drops every group and
  becomes the bot's user id, forbids new privileges (no setuid programs) and turns
  ``PR_SET_DUMPABLE`` off: no other process of another user can signal, trace or read it.
- Where namespaces are not available (not root, another kernel, a container that forbids
  them) it does what it can: the limits, the dumpable flag, the private ``TMPDIR`` the
  referee made (docs/security.md says what remains then).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import stat
import struct
import sys
from typing import Any

JAIL_ENV = "GINSIM_JAIL"

LIMITS: dict[str, int] = {
    "memory": 4096,  # MiB of address space per process (RLIMIT_AS)
    "cpu": 3600,  # CPU seconds per process (RLIMIT_CPU); a process plays one copy of one chunk
    "procs": 64,  # processes and threads of the bot's user (RLIMIT_NPROC)
    "files": 256,  # open files (RLIMIT_NOFILE)
    "fsize": 64,  # MiB one file may grow to (RLIMIT_FSIZE)
    "tmp": 64,  # MiB of the bot's private /tmp
}
"""The default limits of one bot process (``--bot-limit NAME=VALUE``; 0: no limit)."""

_MS_BIND, _MNT_DETACH = 0x1000, 2
_NEWNS, _NEWUTS, _NEWIPC, _NEWPID, _NEWNET = 0x00020000, 0x04000000, 0x08000000, 0x20000000, 0x40000000
_MS_NOSUID, _MS_NODEV, _MS_NOEXEC, _MS_REC, _MS_PRIVATE = 2, 4, 8, 0x4000, 1 << 18
_MOUNT_ATTR_RDONLY, _AT_RECURSIVE, _AT_FDCWD, _SYS_MOUNT_SETATTR = 1, 0x8000, -100, 442
_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE, _PR_SET_NO_NEW_PRIVS = 1, 4, 38
_MIB = 1 << 20


def parse_limits(items: list[str] | tuple[str, ...]) -> dict[str, int]:
    """``NAME=VALUE`` items over ``LIMITS``; a ValueError names the bad item."""
    out = dict(LIMITS)
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or name not in LIMITS:
            raise ValueError(f"{item!r}: expected NAME=VALUE with NAME one of {', '.join(LIMITS)}")
        try:
            n = int(value)
        except ValueError:
            raise ValueError(f"{item!r}: {value!r} is not a whole number") from None
        if n < 0 or (name == "tmp" and n == 0):
            raise ValueError(f"{item!r}: must be {'positive' if name == 'tmp' else '0 (no limit) or more'}")
        out[name] = n
    return out


def jail_env(uid: int | None, limits: dict[str, int], tmpdir: str, reach: list[str] | None = None) -> str:
    """The ``GINSIM_JAIL`` value for one bot process (``reach``: the paths it must read)."""
    return json.dumps({"uid": uid, "limits": limits, "tmpdir": tmpdir, "reach": reach or []})


def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)


def confine() -> None:
    """Confine this process as ``GINSIM_JAIL`` says (nothing when it is not set)."""
    text = os.environ.pop(JAIL_ENV, None)
    if not text:
        return
    spec = json.loads(text)
    uid = spec.get("uid")
    limits = {**LIMITS, **spec.get("limits", {})}
    tmp = spec.get("tmpdir") or ""
    if tmp:
        os.environ["TMPDIR"] = tmp
    if uid is not None and tmp and sys.platform.startswith("linux"):
        _namespaces(int(uid), tmp, limits, [str(r) for r in spec.get("reach", [])])
    _limit(limits)
    if uid:  # 0: the referee asked to keep root (testing)
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    _prctl()


def _namespaces(uid: int, tmp: str, limits: dict[str, int], reach: list[str]) -> bool:
    """New namespaces, this process forked into them as PID 1 (the parent waits); False
    when the kernel refuses (then nothing changed)."""
    libc = _libc()
    if libc.unshare(_NEWNS | _NEWPID | _NEWNET | _NEWIPC | _NEWUTS) != 0:
        return False
    pid = os.fork()
    if pid:
        _wait_for(pid)
    _mounts(libc, uid, tmp, limits["tmp"], reach if uid else [])
    return True


_namespace_check: list[bool] = []


def namespaces_available() -> bool:
    """Whether this process (root on Linux) may make the namespaces a bot is confined in:
    tried once in a forked child (a container may forbid ``unshare``)."""
    if not _namespace_check:
        ok = False
        if sys.platform.startswith("linux") and os.geteuid() == 0:
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the child only reports
                import posix  # its _exit, never a hook a run may have put on os._exit

                posix._exit(0 if _libc().unshare(_NEWNS | _NEWPID | _NEWNET | _NEWIPC | _NEWUTS) == 0 else 1)
            _, status = os.waitpid(pid, 0)
            ok = os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        _namespace_check.append(ok)
    return _namespace_check[0]


def _wait_for(pid: int) -> None:
    """The parent outside the namespaces: hold nothing of the protocol, wait, exit alike."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except ChildProcessError:
            os._exit(1)
        except InterruptedError:  # pragma: no cover - PEP 475 retries
            continue
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))


def _mounts(libc: Any, uid: int, tmp: str, tmp_mib: int, reach: list[str]) -> None:
    """Every mount private, the folders on the way to ``reach`` opened, every mount
    read-only; a tmpfs of the bot's own on ``tmp``; ``/proc`` of this PID namespace."""
    libc.mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None)  # nothing below reaches the host's mounts
    _open_up(libc, reach, tmp)
    attr = ctypes.create_string_buffer(struct.pack("QQQQ", _MOUNT_ATTR_RDONLY, 0, _MS_PRIVATE, 0))
    if libc.syscall(_SYS_MOUNT_SETATTR, _AT_FDCWD, b"/", _AT_RECURSIVE, attr, 32) != 0:
        libc.mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None)  # older kernels: private, still writable
    flags = _MS_NOSUID | _MS_NODEV
    own = f"size={tmp_mib}m,nr_inodes=4096,mode=0700,uid={uid},gid={uid}".encode()
    if libc.mount(b"tmpfs", os.fsencode(tmp), b"tmpfs", flags, own) != 0:
        raise OSError(ctypes.get_errno(), f"cannot mount the bot's temporary folder {tmp}")
    libc.mount(b"proc", b"/proc", b"proc", flags | _MS_NOEXEC, None)


def closed_folders(paths: list[str]) -> dict[str, set[str]]:
    """The folders on the way to ``paths`` that other users cannot enter (no ``o+x``),
    each with the names of its entries on the way, outermost first."""
    closed: dict[str, set[str]] = {}
    for text in paths:
        try:
            path = os.path.realpath(text)
        except (OSError, ValueError):
            continue
        parts = [p for p in path.split(os.sep) if p]
        folder = os.sep
        for name in parts:
            try:
                mode = os.stat(folder).st_mode
            except OSError:
                break
            if not mode & stat.S_IXOTH:
                closed.setdefault(folder, set()).add(name)
            folder = os.path.join(folder, name)
    return dict(sorted(closed.items(), key=lambda kv: kv[0].count(os.sep) - (kv[0] == os.sep)))


def _open_up(libc: Any, reach: list[str], staging: str) -> None:
    """Cover each closed folder on the way to ``reach`` with a tmpfs (mode 0755) holding
    only its entries on the way, each bound from the original (seen through a bind
    mount of the folder on ``staging`` meanwhile). Outer folders first, so a closed
    folder inside an opened one is found and opened in turn."""
    done: set[str] = set()
    while todo := {k: v for k, v in closed_folders(reach).items() if k not in done}:
        folder, names = next(iter(todo.items()))
        done.add(folder)
        if libc.mount(b"tmpfs", os.fsencode(staging), b"tmpfs", _MS_NOSUID | _MS_NODEV, b"size=1m,mode=0700") != 0:
            raise OSError(ctypes.get_errno(), f"cannot mount a staging folder on {staging}")
        seen = os.path.join(staging, "seen")
        os.mkdir(seen)
        _bind(libc, folder, seen)
        cover = b"size=1m,nr_inodes=1024,mode=0755"
        if libc.mount(b"tmpfs", os.fsencode(folder), b"tmpfs", _MS_NOSUID | _MS_NODEV, cover) != 0:
            raise OSError(ctypes.get_errno(), f"cannot cover {folder}")
        for name in sorted(names):
            source, target = os.path.join(seen, name), os.path.join(folder, name)
            if os.path.isdir(source):
                os.mkdir(target)
            else:
                os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))
            _bind(libc, source, target)
        libc.umount2(os.fsencode(seen), _MNT_DETACH)
        libc.umount2(os.fsencode(staging), _MNT_DETACH)


def _bind(libc: Any, source: str, target: str) -> None:
    if libc.mount(os.fsencode(source), os.fsencode(target), None, _MS_BIND | _MS_REC, None) != 0:
        raise OSError(ctypes.get_errno(), f"cannot bind {source} on {target}")


def _limit(limits: dict[str, int]) -> None:
    import resource

    def lower(which: int, value: int) -> None:
        with contextlib.suppress(ValueError, OSError):
            _, hard = resource.getrlimit(which)
            if hard != resource.RLIM_INFINITY and value > hard:
                value = hard
            resource.setrlimit(which, (value, value))

    lower(resource.RLIMIT_CORE, 0)
    for name, which, scale in (
        ("memory", resource.RLIMIT_AS, _MIB),
        ("cpu", resource.RLIMIT_CPU, 1),
        ("procs", resource.RLIMIT_NPROC, 1),
        ("files", resource.RLIMIT_NOFILE, 1),
        ("fsize", resource.RLIMIT_FSIZE, _MIB),
    ):
        if limits.get(name):
            lower(which, limits[name] * scale)


def _prctl() -> None:
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = _libc()
        libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
