"""A tournament run's secret: 32 random bytes in ``<run>/secret``, mixed into every deal
seed (``seeding.mix_secret``) so that no one who knows the master seed, and no strategy,
can compute the decks. Written once when the run folder is made, readable by its owner
only (mode 0600), read again on resume and replay."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from ginsim.errors import RunError

SECRET = "secret"
SIZE = 32


def run_secret(folder: Path, create: bool = False) -> bytes:
    """The secret of the run in ``folder``; with ``create``, a new one (the folder is new)."""
    path = folder / SECRET
    if create and not path.exists():
        data = secrets.token_bytes(SIZE)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        return data
    try:
        data = path.read_bytes()
    except OSError as e:
        raise RunError(f"{path}: cannot read the run's secret ({e.strerror or e}); it decides every deck") from None
    if len(data) != SIZE:
        raise RunError(f"{path}: not a run secret ({len(data)} bytes, expected {SIZE})")
    return data
