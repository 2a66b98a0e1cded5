"""What the engine calls for a strategy: its class's methods as the class statement
defined them (ginsim.engine.strategy.entry_points), whatever happens to them later."""

from __future__ import annotations

from typing import Any

import pytest

from ginsim.engine.playhand import play_hand
from ginsim.engine.rules import Rules
from ginsim.engine.strategy import ENTRY_POINTS, Strategy, bound_entry, entry_points, overrides
from ginsim.run.seeding import deal_seed, deck_for

TAKE, DISCARD, KNOCK = (ENTRY_POINTS.index(n) for n in ("take_upcard", "discard", "knock"))


class Lowest(Strategy):
    name = "lowest-test"

    def take_upcard(self, view: Any) -> bool:
        return False

    def discard(self, view: Any) -> int:
        return view.best_discards()[0] if view.best_discards() else (view.hand & -view.hand).bit_length() - 1


class Quiet:
    """A mixin that is no Strategy."""

    def knock(self, view: Any) -> bool:
        return False


class Mixed(Quiet, Lowest):
    def choose_layoffs(self, view: Any) -> int | None:
        return None


def test_entry_points_follow_the_method_resolution_order() -> None:
    fns = entry_points(Mixed)
    assert fns[TAKE] is entry_points(Lowest)[TAKE]  # inherited: the base's own copy
    assert fns[KNOCK] is not None and fns[KNOCK](Mixed(), None) is False  # the mixin's
    assert overrides(Mixed, "choose_layoffs") and not overrides(Mixed, "observe")
    assert not overrides(Lowest, "choose_layoffs")


def test_a_class_patched_after_its_definition_plays_as_defined() -> None:
    class Patched(Lowest):
        def knock(self, view: Any) -> bool:
            return True

    Patched.knock = lambda _self, _view: "nonsense"  # type: ignore[method-assign]
    Patched.choose_melds = lambda _self, _view: "nonsense"  # type: ignore[assignment,method-assign]
    Patched.take_upcard.__code__ = (lambda _self, _view: "nonsense").__code__
    Lowest.take_upcard.__code__ = (lambda _self, _view: "nonsense").__code__  # a base's code too
    assert entry_points(Patched)[KNOCK](Patched(), None) is True
    assert not overrides(Patched, "choose_melds")
    assert entry_points(Patched)[TAKE](Patched(), None) is False


def test_instance_attributes_are_not_entry_points() -> None:
    s = Lowest()
    s.discard = lambda _view: -1  # type: ignore[method-assign]
    deck = deck_for(deal_seed(1, 0))
    honest = play_hand(Rules(), [Lowest(), Lowest()], deck, 0)
    assert play_hand(Rules(), [s, Lowest()], deck, 0) == honest
    assert bound_entry(s, "discard").__func__ is entry_points(Lowest)[DISCARD]  # type: ignore[attr-defined]


def test_descriptors_other_than_functions_still_work() -> None:
    class Static(Lowest):
        @staticmethod
        def knock(view: Any) -> bool:
            return view == "yes"

        @classmethod
        def take_upcard(cls, _view: Any) -> bool:
            return cls is Static

    fns = entry_points(Static)
    assert fns[KNOCK](Static(), "yes") is True
    assert fns[TAKE](Static(), None) is True


def test_a_class_built_by_type_is_recorded_with_its_namespace() -> None:
    Built = type("Built", (Lowest,), {"knock": lambda _self, _view: False})
    Built.knock = lambda _self, _view: True
    assert entry_points(Built)[KNOCK](Built(), None) is False


def test_a_class_that_is_no_strategy_has_its_decisions_and_no_hooks() -> None:
    class Duck:
        def take_upcard(self, _view: Any) -> bool:
            return False

        def discard(self, _view: Any) -> int:
            return 0

    fns = entry_points(Duck)
    assert fns[TAKE](Duck(), None) is False
    assert all(fn is None for fn in fns[3:])  # no hook is called
    with pytest.raises(AttributeError, match="Duck has no method knock"):
        fns[KNOCK](Duck(), None)
