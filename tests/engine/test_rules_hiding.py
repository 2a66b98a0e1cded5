"""R13: what a strategy's view holds, and what it never reaches,
each proved by rule id with explicit hands (support.rulebook has the seat convention
and deck layout)."""

from __future__ import annotations

import contextlib
import gc
import random
import types

import pytest
from support.deals import (
    Recorder,
    StockDrawer,
    apply,
    make_deck,
    mask,
    random_move,
)
from support.rulebook import (
    DEALER,
    DEFAULT,
    NONDEALER,
    simple,
)

from ginsim import (
    Rules,
    parse_card,
    parse_spec,
    play_hand,
)
from ginsim.engine.playhand import Hand
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import DISCARD, OVER, PlayerView
from ginsim.run.seeding import deck_for

# == R13 information hiding ==============================================================


def _reachable(root):
    """Every object reachable from ``root`` by references, not entering classes, modules
    or the module globals of functions (shared code, not state)."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen[id(obj)] = obj
        if isinstance(obj, type | types.ModuleType | int | float | str | bytes | bool | types.NoneType):
            continue
        if isinstance(obj, types.FunctionType):
            children = list(obj.__defaults__ or ()) + list((obj.__kwdefaults__ or {}).values())
            for cell in obj.__closure__ or ():
                with contextlib.suppress(ValueError):  # an empty cell
                    children.append(cell.cell_contents)
        elif isinstance(obj, types.BuiltinFunctionType):
            owner = obj.__self__
            children = [] if isinstance(owner, types.ModuleType) else [owner]
        else:
            children = gc.get_referents(obj)
        stack.extend(children)
    return seen


def test_r13_reference_walker_finds_hidden_references():
    # a control for the walker below: state reached through slots, closures, bound
    # methods and containers is found
    deck = make_deck()
    h = Hand(DEFAULT, deck, dealer=1)

    class Holder:
        __slots__ = ("ref",)

        def __init__(self, ref):
            self.ref = ref

    def closure():
        return h

    assert id(h) in _reachable(Holder([{"k": (closure,)}]))
    assert id(deck) in _reachable(Holder(deck.append))
    assert id(h.views[0].history) in _reachable(h.views[0].history.append)
    assert id(h.views[0].history) in _reachable(h.views[0])
    assert id(h.views[0].rules) in _reachable(h.views[0])


def test_r13_view_holds_no_reference_to_hand_deck_or_other_view():
    rng = random.Random(13)
    for i in range(12):
        deck = deck_for(1000 + i)
        log = []
        h = Hand(Rules(big_gin_bonus=31) if i % 2 else DEFAULT, deck, dealer=i % 2, log=log)
        for _ in range(rng.randrange(0, 40)):
            if h.phase is OVER:
                break
            random_move(h, rng)
        for seat in (0, 1):
            view = h.views[seat]
            _ = view.rng  # make the lazily built generator exist
            _ = view.best_discards() if h.phase is DISCARD and h.to_move == seat else None
            reach = _reachable(view)
            forbidden = {
                "hand": h,
                "deck": deck,
                "hands": h.hands,
                "pile": h.pile,
                "views": h.views,
                "other view": h.views[1 - seat],
                "log": log,
            }
            for what, obj in forbidden.items():
                assert id(obj) not in reach, f"seat {seat}'s view reaches the {what}"
            assert not any(isinstance(o, Hand) for o in reach.values())
            assert [o for o in reach.values() if isinstance(o, PlayerView)] == [view]


class _Walker(Strategy):
    """Plays like ``inner``, and at each decision walks its own view's references."""

    def __init__(self, inner, deck, others):
        self.inner = inner
        self.deck = deck
        self.others = others
        self.walks = 0

    def _check(self, view):
        reach = _reachable(view)
        self.walks += 1
        assert id(self.deck) not in reach
        for o in self.others:
            assert id(o) not in reach
        for o in reach.values():
            assert not isinstance(o, Hand | Strategy)
            assert not isinstance(o, PlayerView) or o is view

    def take_upcard(self, view):
        self._check(view)
        return self.inner.take_upcard(view)

    def discard(self, view):
        self._check(view)
        return self.inner.discard(view)

    def knock(self, view):
        self._check(view)
        return self.inner.knock(view)


def test_r13_view_given_to_a_strategy_reaches_no_engine_state():
    deck = deck_for(77)
    opp = simple()
    me = _Walker(simple(), deck, [opp])
    me.others.append(me)
    play_hand(DEFAULT, [me, opp], deck, dealer=1, seeds=(3, 4))
    assert me.walks >= 3


def _swap_hidden(deck, opp_slots, drawn_count, rng):
    """A deck where the opponent's dealt cards are swapped with stock cards that were never
    drawn, and those undrawn stock cards are reordered."""
    new = list(deck)
    undrawn_pos = list(range(21 + drawn_count, 52))
    k = min(10, len(undrawn_pos))
    for slot, pos in zip(opp_slots[:k], rng.sample(undrawn_pos, k), strict=True):
        new[slot], new[pos] = new[pos], new[slot]
    tail = new[21 + drawn_count :]
    rng.shuffle(tail)
    new[21 + drawn_count :] = tail
    return new, k


@pytest.mark.parametrize("me_dealer", [False, True])
@pytest.mark.parametrize("spec", ["simple", "random", "threshold:knock_at=2"])
def test_r13_opponent_hidden_cards_and_stock_order_do_not_change_a_view(spec, me_dealer):
    rng = random.Random(1313)
    full_swaps = 0
    for i in range(25):
        deck = deck_for(5000 + i)
        dealer = 1 if not me_dealer else 0  # I am seat 0
        opp_slots = list(range(1, 20, 2)) if not me_dealer else list(range(0, 20, 2))
        runs = []
        decks = [deck]
        for attempt in range(3):
            me = Recorder(parse_spec(spec).build())
            log = []
            res = play_hand(DEFAULT, [me, StockDrawer()], decks[-1], dealer, seeds=(11 + i, 12 + i), log=log)
            assert res.outcome != "forfeit"
            runs.append((me.snapshots, res))
            if attempt == 0:
                drawn = sum(1 for ev in log if ev[1] == "draw")
            new, k = _swap_hidden(deck, opp_slots, drawn, rng)
            full_swaps += k == 10
            opp_old = sum(1 << deck[s] for s in opp_slots)
            opp_new = sum(1 << new[s] for s in opp_slots)
            assert opp_old != opp_new
            decks.append(new)
        first = runs[0][0]
        assert first, "the seat made no decision"
        for snaps, _res in runs[1:]:
            assert len(snaps) == len(first)
            for (what_a, a), (what_b, b) in zip(first, snaps, strict=True):
                assert what_a == what_b
                assert a == b
    if not spec.startswith("random"):
        assert full_swaps > 10  # most hands end early enough to swap all ten cards


def test_r13_opponent_stock_draws_are_hidden_and_takes_are_shown():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="2H 3H")
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "pass; pass")
    assert h.views[0].history[-1] == (0, "draw", parse_card("2H"))
    assert h.views[1].history[-1] == (0, "draw", None)
    assert h.views[1].opp_passed == mask("7C")  # the non-dealer passed on 7C
    apply(h, "discard 2H; take")
    assert h.views[0].history[-1] == (1, "take", parse_card("2H"))
    assert h.views[0].opp_known == mask("2H")
    assert h.views[1].unseen() & h.hands[0] == h.hands[0]  # the non-dealer's hand: unseen
    apply(h, "discard 5H; draw")  # the non-dealer leaves 5H on the pile: passed on
    assert h.views[1].opp_passed & mask("5H")
    assert h.views[1].history[-1] == (0, "draw", None)


def test_r13_observe_hook_sees_only_public_events():
    class Watch(Strategy):
        def __init__(self):
            self.inner = simple()
            self.events = []

        def take_upcard(self, view):
            return self.inner.take_upcard(view)

        def discard(self, view):
            return self.inner.discard(view)

        def observe(self, view, event):
            self.events.append((view.seat, event))

    w0, w1 = Watch(), Watch()
    log = []
    play_hand(DEFAULT, [w0, w1], deck_for(131), dealer=0, log=log)
    for w, seat in ((w0, 0), (w1, 1)):
        assert w.events and all(s == seat for s, _ in w.events)
        events = [e for _, e in w.events]
        assert len(events) == len(log)
        for mine, true in zip(events, log, strict=True):
            if true[1] == "draw" and true[0] != seat:
                assert mine == (true[0], "draw", None)  # the opponent's stock card: hidden
            else:
                assert mine == true
