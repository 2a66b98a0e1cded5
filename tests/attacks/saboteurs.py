"""Strategies that try to harm others rather than learn: by gc on the opponent, on the
rules the engine scores with, on the meld tables it scores with. Each plays like
``Honest`` itself, so any change in the log is the sabotage's doing."""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: loaded as a file, it finds its package so

from attacks.common import Honest
from ginsim.engine.melds import tables_for
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import PlayerView


def _always_illegal(_view: PlayerView) -> Any:
    return -1


class GcSaboteur(Honest):
    """Finds every other strategy instance by gc and makes its discards illegal."""

    def take_upcard(self, view: PlayerView) -> bool:
        for obj in gc.get_objects():
            if isinstance(obj, Strategy) and obj is not self and not isinstance(obj, GcSaboteur):
                obj.discard = _always_illegal  # type: ignore[method-assign]
        return super().take_upcard(view)


class RulesTamperer(Honest):
    """Rewrites its view's rules (frozen, but object.__setattr__ does not care)."""

    def take_upcard(self, view: PlayerView) -> bool:
        rules = view.rules
        for name, value in (("gin_bonus", 500), ("undercut_bonus", 0)):
            object.__setattr__(rules, name, value)
        return super().take_upcard(view)


def _no_deadwood(_hand: int) -> int:
    return 0


class TableTamperer(Honest):
    """Between its own decisions, its view's meld tables and the public ones say every
    hand has no deadwood (its own play uses the true tables)."""

    def _restore(self, view: PlayerView) -> None:
        saved = getattr(self, "saved", None)
        if saved is not None:
            view._tables.deadwood_mask, tables_for(None).deadwood_mask = saved

    def _tamper(self, view: PlayerView) -> None:
        self.saved = (view._tables.deadwood_mask, tables_for(None).deadwood_mask)
        view._tables.deadwood_mask = _no_deadwood
        tables_for(None).deadwood_mask = _no_deadwood

    def take_upcard(self, view: PlayerView) -> bool:
        self._restore(view)
        out = super().take_upcard(view)
        self._tamper(view)
        return out

    def discard(self, view: PlayerView) -> Any:
        self._restore(view)
        out = super().discard(view)
        self._tamper(view)
        return out

    def knock(self, view: PlayerView) -> bool:
        self._restore(view)
        out = super().knock(view)
        self._tamper(view)
        return out
