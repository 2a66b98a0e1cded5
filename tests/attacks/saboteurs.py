"""Strategies that try to harm others rather than learn: by gc on the opponent (its
instance, its class, its functions' code), on the rules the engine scores with, on the
meld tables it scores with. Each plays like ``Honest`` itself, so any change in the log
is the sabotage's doing. Saboteurs of the opponent's class note how to undo what they
did in ``attacks.common.UNDO`` (a test process lives on after them)."""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: loaded as a file, it finds its package so

from attacks.common import UNDO, Honest
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


def _illegal_discard(_self: object, _view: PlayerView) -> Any:
    return -1


def opponent(me: Strategy) -> Strategy | None:
    """The strategy seated against ``me``: the other member of the pair the engine was
    handed (found through gc, among the objects that refer to ``me``)."""
    for ref in gc.get_referrers(me):
        if type(ref) in (tuple, list) and len(ref) == 2 and any(x is me for x in ref):
            other = ref[1] if ref[0] is me else ref[0]
            if isinstance(other, Strategy) and other is not me:
                return other
    return None


class ClassSaboteur(Honest):
    """Patches its opponent's class (and each base that defines it) so that every
    ``discard`` of that class is illegal, from its first decision on."""

    def take_upcard(self, view: PlayerView) -> bool:
        other = opponent(self)
        if other is not None:
            for klass in type(other).__mro__:
                old = klass.__dict__.get("discard")
                if old is not None and old is not _illegal_discard and klass is not Strategy:
                    klass.discard = _illegal_discard
                    UNDO.append(lambda klass=klass, old=old: setattr(klass, "discard", old))
        return super().take_upcard(view)


def _code_of_illegal_discard(_self: object, _view: PlayerView) -> Any:
    return -1


class CodeSaboteur(Honest):
    """Rewrites the code of its opponent's ``discard`` function (found through its class)
    so that it answers an illegal card."""

    def take_upcard(self, view: PlayerView) -> bool:
        other = opponent(self)
        fn = getattr(type(other), "discard", None) if other is not None else None
        code = getattr(fn, "__code__", None)
        evil = _code_of_illegal_discard.__code__
        if fn is not None and code is not None and code is not evil and not code.co_freevars:
            fn.__code__ = evil
            UNDO.append(lambda fn=fn, code=code: setattr(fn, "__code__", code))
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
