"""Bots that try to harm or read the other seat's process, or to remember a deal, in
tournament mode. Each plays exactly like ``Honest`` apart from its attack, so when the
attack achieves nothing its log is its honest twin's; an attack that works either
changes the opponent's results (a forfeit, a timeout) or answers ``CHEAT_MARK``."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: loaded as a file, it finds its package so

from attacks.common import CHEAT_MARK, Honest
from ginsim.engine.view import PlayerView

FORKED_NAME = b"ginsim-forked"
"""The name (``/proc/<pid>/comm``) of every process the forkers leave behind."""


def other_bots() -> list[int]:
    """The PIDs of the other bot processes this one can see."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        with contextlib.suppress(OSError):
            if b"bot_host" in Path(f"/proc/{name}/cmdline").read_bytes():
                found.append(int(name))
    return found


class _OnFirst(Honest):
    """Attacks on its first decision of each hand, then plays honestly."""

    def attack(self, view: PlayerView) -> Any:
        raise NotImplementedError

    def take_upcard(self, view: PlayerView) -> bool:
        if not getattr(self, "attacked", False):
            self.attacked = True
            if self.attack(view) is True:
                return CHEAT_MARK  # type: ignore[return-value]
        return super().take_upcard(view)


class Killer(_OnFirst):
    """SIGKILLs every other bot process it can see."""

    def attack(self, view: PlayerView) -> Any:
        for pid in other_bots():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


class Stopper(_OnFirst):
    """SIGSTOPs every other bot process it can see."""

    def attack(self, view: PlayerView) -> Any:
        for pid in other_bots():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGSTOP)


class MemReader(_OnFirst):
    """Reads the heap of another bot's process through ``/proc/<pid>/mem`` (where the
    requests holding that seat's hand lie); a success is the mark."""

    def attack(self, view: PlayerView) -> Any:
        for pid in other_bots():
            try:
                for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
                    if line.endswith("[heap]"):
                        lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
                        with open(f"/proc/{pid}/mem", "rb") as mem:
                            mem.seek(lo)
                            if mem.read(min(hi - lo, 1 << 16)):
                                return True
            except OSError:
                continue
        return None


def _name_me() -> None:
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(15, FORKED_NAME, 0, 0, 0)  # PR_SET_NAME


class Forker(_OnFirst):
    """Forks 40 children and a ``setsid`` daemon that would sleep for ten minutes."""

    def attack(self, view: PlayerView) -> Any:
        for _ in range(40):
            try:
                pid = os.fork()
            except OSError:  # its process limit
                break
            if pid == 0:
                _name_me()
                time.sleep(600)
                os._exit(0)
        with contextlib.suppress(OSError):
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    _name_me()
                    for _ in range(600):  # a daemon that kills bots of any pairing it sees
                        Killer.attack(self, view)
                        time.sleep(1)
                os._exit(0)


class DiskFiller(_OnFirst):
    """Writes up to 256 MiB into every folder it may write to (once per process)."""

    done = False

    def attack(self, view: PlayerView) -> Any:
        if DiskFiller.done:
            return
        DiskFiller.done = True
        block = b"x" * (1 << 20)
        for folder in {tempfile.gettempdir(), "/tmp", "/var/tmp", "/dev/shm", os.getcwd()}:
            try:
                with open(os.path.join(folder, f"ginsim-fill-{os.getpid()}"), "wb") as f:
                    for _ in range(256):
                        f.write(block)
            except OSError:
                continue


def _disjoint_hands(a: int, b: int) -> bool:
    return a != b and not a & b and bin(a).count("1") == 10 and bin(b).count("1") == 10


class Remember(_OnFirst):
    """Keeps the last hand it was dealt in module state: the copy of a duplicate deal
    played next by the same process deals that hand to the opponent (same upcard, the
    other role, cards disjoint from its own)."""

    last: tuple[int | None, bool, int] | None = None

    def attack(self, view: PlayerView) -> Any:
        last, Remember.last = Remember.last, (view.upcard, view.is_dealer, view.hand)
        if last is not None and last[0] == view.upcard and last[1] != view.is_dealer:
            return _disjoint_hands(last[2], view.hand)
        return None


SHARED = "ginsim-remember.json"


class Carrier(_OnFirst):
    """Keeps every hand it was dealt, by upcard, in a file of a folder every process may
    write to: another pairing dealt the same deck (its own hand again, exactly) finds the
    opponent's hand there."""

    def attack(self, view: PlayerView) -> Any:
        for folder in ("/dev/shm", "/var/tmp", "/tmp"):
            path = os.path.join(folder, SHARED)
            try:
                seen = json.loads(Path(path).read_text()) if os.path.exists(path) else {}
                hands = seen.setdefault(str(view.upcard), [])
                found = view.hand in hands and any(_disjoint_hands(h, view.hand) for h in hands)
                if view.hand not in hands:
                    hands.append(view.hand)
                Path(path).write_text(json.dumps(seen))
                os.chmod(path, 0o666)
                return found
            except OSError:
                continue
        return None


class Recaller(Remember):
    """Like ``Remember``, but what it recalls changes a move instead of answering the
    mark: it takes the upcard whenever it knows the opponent's hand."""

    def take_upcard(self, view: PlayerView) -> bool:
        if not getattr(self, "attacked", False):
            self.attacked = True
            if self.attack(view) is True:
                return True
        return Honest.take_upcard(self, view)
