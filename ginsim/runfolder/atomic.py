"""Writing a run folder's files atomically, and environment failures as one line.

Every file a run writes (chunks, manifest, report.md, the CSV tables, charts) goes to a
temporary name beside its final one (``<name>.tmp-<pid>``) and is renamed over it with
``os.replace``, so a reader (or a crash, a full disk, a kill) finds either the old file
or the whole new one, never a half-written one. A failure to write (read-only folder,
disk full, a path too long) is a ``RunError`` naming the path and the cause; the
temporary file is removed.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from ginsim.errors import RunError

TMP_MARK = ".tmp-"
"""Temporary files of an atomic write are ``<name>.tmp-<pid>``: a resumed run deletes
them (under the run folder's lock, so never another live run's)."""

_CAUSES = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exhausted",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENAMETOOLONG: "the path is too long",
}


def describe_os_error(e: OSError) -> str:
    """What went wrong, in a few words (the errno's meaning, or the error's text)."""
    return _CAUSES.get(e.errno or 0) or e.strerror or str(e) or type(e).__name__


def write_failure(path: Path, e: OSError) -> RunError:
    """The one-line error of a file that could not be written."""
    return RunError(f"{path}: cannot write it ({describe_os_error(e)}); the run folder is kept as it was")


def tmp_name(path: Path) -> Path:
    return path.with_name(f"{path.name}{TMP_MARK}{os.getpid()}")


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; once the block has written it, rename it
    over ``path``. Any failure removes the temporary file; an OSError becomes a
    one-line RunError naming ``path``."""
    tmp = tmp_name(path)
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as e:
        _remove(tmp)
        raise write_failure(path, e) from None
    except BaseException:
        _remove(tmp)
        raise


def write_atomic(path: Path, writer: Callable[[Path], object]) -> None:
    """``writer(tmp)`` writes the file; it then replaces ``path`` at once."""
    with atomic_path(path) as tmp:
        writer(tmp)


def write_text_atomic(path: Path, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: Path, data: bytes) -> None:
    def write(tmp: Path) -> None:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())

    write_atomic(path, write)


def make_dir(path: Path, what: str = "") -> None:
    """``mkdir -p``, with a failure as one line naming the folder."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise RunError(f"{what or path}: cannot create it ({describe_os_error(e)})") from None


def _remove(tmp: Path) -> None:
    with suppress(OSError):
        tmp.unlink(missing_ok=True)
