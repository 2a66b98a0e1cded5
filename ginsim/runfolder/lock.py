"""The lock of a run folder: one run writes a folder at a time.

``<folder>/.lock`` holds the holder's PID, host and start time (JSON). It is created with
``O_CREAT | O_EXCL`` and held with an exclusive ``flock`` for as long as the run plays:
the kernel drops a ``flock`` when its process dies, however it dies, so a lock left by a
killed run is stale by construction and the next run takes it over (saying so). Where
the file system has no ``flock`` (some network mounts), the PID is checked instead: a
lock of this host whose process is gone is stale. A second run on a locked folder is
refused in one line naming the holder; ``holder`` tells readers (report, plot) that a
run is writing the folder.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ginsim.errors import RunError
from ginsim.runfolder.atomic import describe_os_error

LOCK = ".lock"

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Linux or macOS
    fcntl = None  # type: ignore[assignment]


@dataclass
class FolderLock:
    """A held lock; ``release`` (or the process's end) frees it."""

    path: Path
    fd: int
    took_over: dict[str, Any] | None = None  # the stale holder taken over, if any

    def release(self) -> None:
        if self.fd < 0:
            return
        with contextlib.suppress(OSError):
            if _same_file(self.fd, self.path):
                self.path.unlink()
        with contextlib.suppress(OSError):
            os.close(self.fd)
        self.fd = -1


def _same_file(fd: int, path: Path) -> bool:
    try:
        a, b = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _info() -> dict[str, Any]:
    return {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "since": datetime.now(UTC).astimezone().isoformat(timespec="seconds"),
    }


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def pid_alive(pid: Any) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def busy_error(folder: Path, holder: dict[str, Any]) -> RunError:
    who = f"pid {holder.get('pid', '?')} on {holder.get('host', '?')}"
    since = f" since {holder['since']}" if holder.get("since") else ""
    return RunError.about(
        "{out} {folder} is in use by another ginsim run ({who}{since}); wait for it to end or use another {out}",
        folder=folder,
        who=who,
        since=since,
    )


def acquire(folder: Path) -> FolderLock:
    """Take the lock of ``folder`` (which exists); RunError if a live run holds it."""
    path = folder / LOCK
    for _ in range(5):  # a racing run may create or remove the file between our steps
        created = True
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o644)
        except FileExistsError:
            created = False
            try:
                fd = os.open(path, os.O_RDWR)
            except FileNotFoundError:
                continue
            except OSError as e:
                raise RunError(f"{path}: cannot open the run folder's lock ({describe_os_error(e)})") from None
        except OSError as e:
            raise RunError(f"{path}: cannot create the run folder's lock ({describe_os_error(e)})") from None
        old = {} if created else _read(path)
        if not _flock(fd, path, old):
            os.close(fd)
            raise busy_error(folder, old)
        if not _same_file(fd, path):  # the holder released (unlinked) it meanwhile: try again
            os.close(fd)
            continue
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, (json.dumps(_info()) + "\n").encode(), 0)
        except OSError as e:
            os.close(fd)
            raise RunError(f"{path}: cannot write the run folder's lock ({describe_os_error(e)})") from None
        return FolderLock(path, fd, old if old and not created else None)
    raise RunError.about(
        "{out} {folder}: cannot take the run folder's lock (it keeps changing); try again", folder=folder
    )


def _flock(fd: int, path: Path, old: dict[str, Any]) -> bool:
    """Whether this process now holds the lock: an exclusive flock, or, without flock,
    a lock file of a process of this host that is gone."""
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False
        except OSError as e:
            if e.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL):
                raise RunError(f"{path}: cannot lock it ({describe_os_error(e)})") from None
    if not old:
        return True
    same_host = old.get("host") == socket.gethostname()
    return same_host and not pid_alive(old.get("pid"))


def holder(folder: Path) -> dict[str, Any] | None:
    """Who is writing ``folder`` right now (the lock's content), or None if nobody is."""
    path = folder / LOCK
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        info = _read(path)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                return None  # nobody holds it: a stale file
            except BlockingIOError:
                return info or {"pid": "?", "host": "?"}
            except OSError:
                pass
        if info.get("host") == socket.gethostname() and not pid_alive(info.get("pid")):
            return None
        return info or None
    finally:
        os.close(fd)


def run_in_progress(folder: Path) -> str | None:
    """Who is writing ``folder`` right now ("pid N on HOST"), or None if no run holds its lock."""
    h = holder(folder)
    return None if h is None else f"pid {h.get('pid', '?')} on {h.get('host', '?')}"
