"""One cheater per route to hidden cards. Each looks for this hand's deck on
its first decision and, if it finds it (checked against its own dealt cards), answers
the marker (see attacks.common); otherwise it plays exactly like ``Honest``."""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: loaded as a file, it finds its package so

from attacks.common import Cheater, deals_my_hand
from ginsim.engine.view import PlayerView
from ginsim.run.seeding import deal_seed, deck_for


def _decks_in(obj: Any, view: PlayerView, depth: int = 0) -> list[int] | None:
    """A deck dealing this hand inside ``obj``: the object itself, an attribute ``deck``,
    or (one level down) an item of a list or tuple."""
    if type(obj) is list and len(obj) == 52 and all(type(c) is int for c in obj):
        return obj if deals_my_hand(obj, view) else None
    deck = getattr(obj, "deck", None) if not isinstance(obj, type) else None
    if deck is not None and deck is not obj:
        found = _decks_in(list(deck) if isinstance(deck, tuple) else deck, view, depth + 1)
        if found:
            return found
    if depth == 0 and isinstance(obj, list | tuple):
        for item in obj[:10000]:
            found = _decks_in(item, view, 1)
            if found:
                return found
    return None


class GcReferrers(Cheater):
    """Who refers to my view? (the engine's hand, two steps up)"""

    def route(self, view: PlayerView) -> Any:
        seen = [view]
        for _ in range(3):
            nxt = []
            for obj in seen:
                for ref in gc.get_referrers(obj):
                    found = _decks_in(ref, view)
                    if found:
                        return found
                    nxt.append(ref)
            seen = nxt[:200]
        return None


class GcObjects(Cheater):
    """Every object the collector tracks."""

    def route(self, view: PlayerView) -> Any:
        for obj in gc.get_objects():
            found = _decks_in(obj, view)
            if found:
                return found
        return None


class FrameWalker(Cheater):
    """The locals of every frame that called me."""

    def route(self, view: PlayerView) -> Any:
        frame = sys._getframe().f_back
        while frame is not None:
            for value in list(frame.f_locals.values()):
                found = _decks_in(value, view)
                if found:
                    return found
            frame = frame.f_back
        return None


def _cmdline(pid: str) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


def _parent(pid: str) -> str | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("PPid:"):
                return line.split()[1]
    except OSError:
        pass
    return None


class ProcSeed(Cheater):
    """This process and its ancestors' command lines -> --out -> manifest -> master seed
    -> the decks of the first deals."""

    def route(self, view: PlayerView) -> Any:
        pid: str | None = "self"
        for _ in range(5):
            if pid is None or pid == "0":
                return None
            args = _cmdline(pid)
            if "--out" in args[:-1]:
                out = Path(args[args.index("--out") + 1])
                if not out.is_absolute():
                    out = Path(f"/proc/{pid}/cwd").resolve() / out
                seed = json.loads((out / "manifest.json").read_text())["seed"]
                for i in range(400):
                    deck = deck_for(deal_seed(seed, i))
                    if deals_my_hand(deck, view):
                        return deck
                return None
            pid = _parent(pid)
        return None


class SecretReader(Cheater):
    """The ProcSeed route, but it reads the run's secret file as well (same OS user)."""

    def route(self, view: PlayerView) -> Any:
        from ginsim.run.seeding import mix_secret

        pid: str | None = "self"
        for _ in range(5):
            if pid is None or pid == "0":
                return None
            args = _cmdline(pid)
            if "--out" in args[:-1]:
                out = Path(args[args.index("--out") + 1])
                if not out.is_absolute():
                    out = Path(f"/proc/{pid}/cwd").resolve() / out
                seed = json.loads((out / "manifest.json").read_text())["seed"]
                secret = (out / "secret").read_bytes()
                for i in range(400):
                    deck = deck_for(mix_secret(deal_seed(seed, i), secret))
                    if deals_my_hand(deck, view):
                        return deck
                return None
            pid = _parent(pid)
        return None
