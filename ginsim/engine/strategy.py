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
from typing import Any, ClassVar

from ginsim.engine.cards import Card, Mask
from ginsim.engine.view import Event, PlayerView

DECISIONS = ("take_upcard", "discard", "knock")
"""The decisions every strategy answers."""
HOOKS = ("observe", "choose_melds", "choose_layoffs", "take_big_gin")
"""The optional hooks; the engine calls one only when the strategy's class overrides it."""


def overrides(cls: type, hook: str) -> bool:
    """Whether a strategy class overrides an optional hook of ``Strategy``."""
    return getattr(cls, hook) is not getattr(Strategy, hook)


class Strategy:
    """Base class of every strategy. Subclasses set ``name`` and override the decisions."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass that sets its own ``name`` is known by it in this process
        (``DEFINED``; ginsim.engine.registry): ``ginsim.match("patient", "simple")``. A
        later class of the same name replaces an earlier one (a notebook cell run again)."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("name")
        if cls.__module__.startswith("ginsim."):
            return  # ginsim's own classes: the built-ins are named in the registry, the rest are stand-ins
        if isinstance(own, str) and own:
            DEFINED.setdefault(own, []).append(cls)

    def take_upcard(self, view: PlayerView) -> bool:
        raise NotImplementedError

    def discard(self, view: PlayerView) -> Card:
        raise NotImplementedError

    def knock(self, view: PlayerView) -> bool:
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
