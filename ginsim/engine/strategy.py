"""The strategy interface: a small class with three decisions, and optional hooks.

A strategy answers, through its seat's ``PlayerView`` only:
- ``take_upcard(view)``: take the top of the discard pile? (the first-turn offer and
  every draw; False on a normal turn draws from the stock);
- ``discard(view)``: which card to discard;
- ``knock(view)``: knock now? (asked only when the chosen discard allows it; the
  discard is ``view.discard_choice``).
Optional: ``observe(view, event)`` sees each public event, ``choose_melds(view)`` picks
the melds to show when knocking, ``choose_layoffs(view)`` picks the lay-offs when the
opponent knocks (default: the optimal ones), ``take_big_gin(view)`` (default: yes).
Parameters are keyword arguments of ``__init__`` with defaults; randomness comes only
from ``view.rng``.
"""

from __future__ import annotations

import inspect
import types
import weakref
from collections.abc import Callable
from typing import Any, ClassVar

from ginsim.engine.cards import Card, Mask
from ginsim.engine.policy import FastPolicy
from ginsim.engine.view import Event, PlayerView

DECISIONS = ("take_upcard", "discard", "knock")
"""The decisions every strategy answers."""
HOOKS = ("observe", "choose_melds", "choose_layoffs", "take_big_gin")
"""The optional hooks; the engine calls one only when the strategy's class overrides it."""


HAND = "hand"
MATCH = "match"
LIFETIMES = (HAND, MATCH)
"""``Strategy.lifetime``: a fresh instance per hand (per game in game mode), or one per seat
for a whole chunk of its pairing."""

ENTRY_POINTS = (*DECISIONS, *HOOKS)
"""Every method the engine calls, in the order of ``entry_points``' tuple."""


def overrides(cls: type, hook: str) -> bool:
    """Whether a strategy class overrides an optional hook of ``Strategy`` (as defined:
    see ``entry_points``)."""
    return entry_points(cls)[ENTRY_POINTS.index(hook)] is not None


class Strategy:
    """Base class of every strategy. Subclasses set ``name`` and override the decisions.

    Parameters are keyword arguments of ``__init__`` with defaults, stored on the instance
    under the same name (``threshold:knock_at=4`` builds ``Threshold(knock_at=4)``). Each
    hand (each game, in game mode) gets fresh instances, and randomness comes only from
    ``view.rng``, so a run replays from its seed.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    lifetime: ClassVar[str] = HAND
    """How long one instance plays. ``"hand"`` (the default): a fresh instance for every
    hand (every game, in game mode), so nothing carries over. ``"match"``: one instance
    per seat for a whole chunk of its pairing (each seat order of duplicate deals apart),
    playing its hands and games in order and told of each by ``new_game`` and
    ``new_hand``, so it may learn its opponent; the run's chunk size then shapes what it
    learns (docs/strategy-api.md, "State across a match")."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass that sets its own ``name`` is known by it in this process
        (``DEFINED``; ginsim.engine.registry): ``ginsim.match("patient", "simple")``. A
        later class of the same name replaces an earlier one (a notebook cell run again)."""
        super().__init_subclass__(**kwargs)
        _record(cls)
        own = cls.__dict__.get("name")
        if cls.__module__.startswith("ginsim."):
            return  # ginsim's own classes: the built-ins are named in the registry, the rest are stand-ins
        if isinstance(own, str) and own:
            DEFINED.setdefault(own, []).append(cls)

    def take_upcard(self, view: PlayerView) -> bool:
        """Take the top of the discard pile (``view.upcard``)? Asked at the first-turn offer
        and at every draw; False on a normal turn draws from the stock instead."""
        raise NotImplementedError

    def discard(self, view: PlayerView) -> Card:
        """The card to discard: one of ``view.legal_discards()`` (never the upcard just
        taken, unless the rules allow it). Anything else forfeits the hand."""
        raise NotImplementedError

    def knock(self, view: PlayerView) -> bool:
        """Knock now? Asked only when the chosen discard (``view.discard_choice``) leaves
        deadwood (``view.discard_deadwood``) within the hand's knock limit; gin is a knock
        at 0. The default knocks whenever it may."""
        return True

    # optional hooks; the engine calls them only when a subclass overrides them
    def observe(self, view: PlayerView, event: Event) -> None:
        """A public event just happened (the view is already up to date)."""

    def choose_melds(self, view: PlayerView) -> list[Mask] | None:
        """Melds to show when knocking; None shows a least-deadwood arrangement."""
        return None

    def choose_layoffs(self, view: PlayerView) -> Mask | None:
        """Cards to lay off on ``view.knocker_melds``; None lays off optimally."""
        return None

    def take_big_gin(self, view: PlayerView) -> bool:
        """With big gin on and all 11 cards melded: end the hand now?"""
        return True

    # match lifetime: called by the runner, in order, before each game and each hand
    def new_game(self, game: int) -> None:
        """A game begins (game mode, ``lifetime = "match"``): ``game`` is its index in the run."""

    def new_hand(self, hand: int) -> None:
        """A hand begins (``lifetime = "match"``): in hand mode ``hand`` is the deal's index
        in the run, in game mode the hand's number within its game (from 0)."""

    # -- description ----------------------------------------------------------------
    @classmethod
    def parameters(cls) -> dict[str, Any]:
        """The constructor's keyword parameters and their defaults."""
        sig = inspect.signature(cls.__init__)
        return {
            p.name: p.default
            for p in sig.parameters.values()
            if p.name != "self" and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
        }

    @classmethod
    def fast_policy(cls, params: dict[str, Any]) -> FastPolicy | None:  # noqa: ARG003 - the built-ins read it
        """The policy the fast path plays in place of this class built with ``params``, or
        None (the default: every hand goes through the general engine). The built-in
        parametric policies return one for their own class only, never for a subclass,
        and check ``params`` as building the class does."""
        return None

    def params(self) -> dict[str, Any]:
        """This instance's parameter values (read back from attributes of the same name)."""
        return {k: getattr(self, k, v) for k, v in self.parameters().items()}

    def spec(self) -> str:
        """The text that rebuilds this strategy: ``name:key=value,...``."""
        vals = {k: v for k, v in self.params().items() if v != self.parameters().get(k)}
        if not vals:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in vals.items())

    def __repr__(self) -> str:
        return self.spec()


DEFINED: dict[str, list[type[Strategy]]] = {}
"""Strategy classes defined in this process that set their own ``name``, by that name,
oldest first (the registry takes the newest that can be found by ``module:Class``)."""


Entry = Callable[..., Any]
"""An entry point as the engine calls it: ``fn(strategy, view)`` (``observe``: ``fn(strategy,
view, event)``)."""

# each class's own entry points, copied when defined, and its resolved tuple (weak: the
# stand-in classes that forfeit tracing and replay make go when they are done with)
_OWN: weakref.WeakKeyDictionary[type, dict[str, Entry]] = weakref.WeakKeyDictionary()
_ENTRIES: weakref.WeakKeyDictionary[type, tuple[Entry | None, ...]] = weakref.WeakKeyDictionary()


def _record(cls: type) -> None:
    """Copy the entry points ``cls``'s own body defines (``Strategy.__init_subclass__``)."""
    _OWN[cls] = {name: _private(cls.__dict__[name]) for name in ENTRY_POINTS if name in cls.__dict__}


def missing_decisions(cls: type) -> list[str]:
    """The decisions ``cls`` leaves to ``Strategy``'s own, which only raise (``take_upcard``
    and ``discard``; ``knock`` has a default): what a class must define to be played."""
    base = entry_points(Strategy)
    own = entry_points(cls)
    return [name for i, name in enumerate(DECISIONS) if name != "knock" and own[i] is base[i]]


def entry_points(cls: type) -> tuple[Entry | None, ...]:
    """The functions the engine calls for ``cls``, one per name of ``ENTRY_POINTS``: a
    decision's function, or a hook's when the class overrides it (None when it does not).

    Each ``Strategy`` class's own methods are copied when its ``class`` statement runs
    (``__init_subclass__``), and ``cls``'s entry points are found through those copies
    along its method resolution order: an attribute set later on an instance, a method
    patched or deleted on the class or on one of its bases, a function's ``__code__`` or
    defaults rewritten: none of these changes what the engine calls (docs/security.md).
    A base that is no ``Strategy`` (a mixin) is read as it is the first time ``cls`` is
    asked about."""
    known = _ENTRIES.get(cls)
    if known is None:
        known = _ENTRIES[cls] = _resolve(cls)
    return known


def _resolve(cls: type) -> tuple[Entry | None, ...]:
    base = _OWN[Strategy]
    out: list[Entry | None] = []
    for name in ENTRY_POINTS:
        found: Entry | None = None
        for klass in cls.__mro__:
            own = _OWN.get(klass)
            if own is None and name in klass.__dict__:
                found = _private(klass.__dict__[name])
            elif own is not None and name in own:
                found = own[name]
            else:
                continue
            break
        if name in HOOKS and (found is None or found is base[name]):
            out.append(None)  # not overridden: never called
        else:
            out.append(found if found is not None else _missing(name))
    return tuple(out)


def _private(raw: Any) -> Entry:
    """A function calling ``raw`` as a method, unaffected by later changes to ``raw``'s
    code and defaults (a plain function is copied; any other descriptor is bound per call)."""
    if type(raw) is types.FunctionType:
        fn = types.FunctionType(raw.__code__, raw.__globals__, raw.__name__, raw.__defaults__, raw.__closure__)
        fn.__kwdefaults__ = dict(raw.__kwdefaults__) if raw.__kwdefaults__ else None
        fn.__qualname__ = raw.__qualname__
        fn.__module__ = raw.__module__
        fn.__doc__ = raw.__doc__
        return fn
    get = getattr(type(raw), "__get__", None)
    if get is None:  # a plain callable object in the class: called as it is, without self

        def unbound(_self: Any, *args: Any) -> Any:
            return raw(*args)

        return unbound

    def bound(self: Any, *args: Any) -> Any:
        return get(raw, self, type(self))(*args)

    return bound


def _missing(name: str) -> Entry:
    def absent(self: Any, *_args: Any) -> Any:
        raise AttributeError(f"{type(self).__name__} has no method {name}")

    return absent


_record(Strategy)


def bound_entry(strategy: Any, name: str) -> Callable[..., Any]:
    """``strategy``'s entry point ``name`` bound to it, as the engine calls it (for the
    stand-ins that wrap a strategy: forfeit tracing, replay, the contract). An optional
    hook the class does not override is the base class's."""
    fn = entry_points(type(strategy))[ENTRY_POINTS.index(name)] or _OWN[Strategy][name]
    return types.MethodType(fn, strategy)
