"""Bots that attack the referee through tournament mode's protocol: they find the
channel their host answers on (a writable pipe among its open objects) and write to it
themselves, or stop reading, or fail only in the process that plays.

``bot_host`` is the play process; ``spec_host`` checks the spec. A module that acts
only when imported by the play process passes the spec check and then fails at start."""

from __future__ import annotations

import gc
import io
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: loaded as a file, it finds its package so

from attacks.common import Honest
from ginsim.engine.view import PlayerView

PLAYING = sys.argv[0].endswith("bot_host.py")


def channel() -> Any:
    """The host's protocol writer: a BufferedWriter on a pipe that is not stdout/stderr."""
    for obj in gc.get_objects():
        if isinstance(obj, io.BufferedWriter) and not obj.closed:
            try:
                if obj.fileno() > 2:
                    return obj
            except (OSError, ValueError):
                continue
    return None


def _say(data: bytes) -> None:
    out = channel()
    if out is not None:
        out.write(data)
        out.flush()


class NestBomb(Honest):
    """Answers its first decision with a JSON nesting bomb (under the size limit)."""

    def take_upcard(self, view: PlayerView) -> bool:
        _say(b"[" * 30000 + b"]" * 30000 + b"\n")
        return super().take_upcard(view)


class Staller(Honest):
    """Stops reading requests while a thread floods the channel with answers."""

    def take_upcard(self, view: PlayerView) -> bool:
        out = channel()

        def flood() -> None:
            while True:
                out.write(b'{"r":false}\n' * 64)
                out.flush()

        threading.Thread(target=flood, daemon=True).start()
        time.sleep(3600)
        return False


class OutOfTurn(Honest):
    """Writes an extra answer before its real one."""

    def take_upcard(self, view: PlayerView) -> bool:
        _say(b'{"r":true}\n')
        return super().take_upcard(view)


class ForgedInit(Honest):
    """Its module, imported by the play process, answers the init request itself with
    hooks named ``__init__`` and ``__getattr__``."""


class ExitAtStart(Honest):
    """Its module exits when the play process imports it (not at the spec check)."""


class SleepAtStart(Honest):
    """Its module sleeps for an hour when the play process imports it."""


class CrashAtStart(Honest):
    """Its module's process dies of a signal (a segmentation fault) as the play process
    imports it."""


def _requested() -> str:
    """The class the host is loading (its init request, found by walking up the frames)."""
    frame = sys._getframe(1)
    while frame is not None:
        msg = frame.f_locals.get("msg")
        if isinstance(msg, dict) and "target" in msg:
            return str(msg["target"]).rpartition(":")[2]
        frame = frame.f_back
    return ""


if PLAYING:
    _wanted = _requested()
    if _wanted == "ForgedInit":
        _say(b'{"r":["__init__","__getattr__","choose_melds"]}\n')
    elif _wanted == "ExitAtStart":
        sys.exit(0)
    elif _wanted == "SleepAtStart":
        time.sleep(3600)
    elif _wanted == "CrashAtStart":
        import ctypes

        ctypes.string_at(0)
