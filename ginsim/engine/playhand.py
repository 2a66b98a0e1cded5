"""Playing a hand with two strategies: the loop that asks them for their moves.

``play_hand`` drives a ``Hand`` (ginsim.engine.hand) by asking each seat's strategy through its
``PlayerView`` only. A strategy that raises, answers with an illegal move or runs out of
time forfeits the hand (R25, R26), and the result says who, what kind and why.
"""

from __future__ import annotations

import operator
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any, Final, cast

from ginsim.engine.cards import CARD_NAMES, Card
from ginsim.engine.guard import BotFailure, DecisionTimeout, passes, safe_repr, watch_calls
from ginsim.engine.hand import (
    BIG_GIN,
    DRAWN,
    FORFEIT,
    GIN,
    KNOCK_WON,
    MAX_TURNS,
    OUTCOMES,
    UNDERCUT,
    Forfeit,
    Hand,
    HandResult,
)
from ginsim.engine.rules import Rules
from ginsim.engine.strategy import ENTRY_POINTS, Strategy, entry_points
from ginsim.engine.view import KNOCK, LAYOFF, OVER, Event, PlayerView
from ginsim.errors import IllegalMoveError

__all__ = [
    "BIG_GIN",
    "DRAWN",
    "FORFEIT",
    "GIN",
    "KNOCK_WON",
    "MAX_TURNS",
    "OUTCOMES",
    "UNDERCUT",
    "Hand",
    "HandResult",
    "play_hand",
]


class _Watch:
    """Strategy calls so far in one thread: odd while a strategy of that thread is
    thinking. Each thread that plays counts its own (``thread_watch``), so hands played on
    several threads at once (``ginsim web``'s games, dask's thread workers) never change
    one another's count; the main thread's is ``WATCH``, the one the watchdog of
    ginsim.engine.guard reads (``guard.watch_calls`` is given it below), signals being
    handled in the main thread only.

    For the hard limit (ginsim.run.hardlimit), a supervised process also shares the count
    with its supervisor through ``shared`` (slot 1: the count as each call began, slot 2:
    the count when the hand began), and ``force`` names the call of the hand (its number since the hand
    began, counting from 1) that times out at once without reaching the strategy: the
    decision a killed process was stuck in, when its chunk is played again."""

    def __init__(self) -> None:
        self.calls = 0
        self.base = 0  # the count when the current hand began
        self.force = -1  # the call of this hand to time out unasked (-1: none)
        self.force_limit = 0.0  # the hard limit it went past, in seconds
        self.shared: Any = None  # a writable int64 memoryview shared with a supervisor, or None


WATCH: Final = _Watch()
"""The main thread's count of strategy calls (the watchdog's)."""
watch_calls(WATCH)  # the guard reads the count without importing the play loop

_OWN: Final = threading.local()  # each other thread's count, made when it first plays


def thread_watch() -> _Watch:
    """The calling thread's count of strategy calls: ``WATCH`` in the main thread, a count
    of its own in any other."""
    if threading.current_thread() is threading.main_thread():
        return WATCH
    w: _Watch | None = getattr(_OWN, "watch", None)
    if w is None:
        w = _Watch()
        _OWN.watch = w
    return w


def _enter(w: _Watch) -> None:
    """A strategy call begins (inside its guard: a forced timeout is that call's forfeit)."""
    w.calls += 1
    shared = w.shared
    if shared is not None:
        shared[1] = w.calls
    if w.force >= 0 and w.calls - w.base == w.force:
        raise DecisionTimeout(w.force_limit, hard=True)


def _leave(w: _Watch) -> None:
    """A strategy call has ended, however it ended. (The supervisor is not told: the next
    call, or the next hand, tells it soon enough, and one shared write a call is half
    the cost of two.)"""
    w.calls += 1


clock_time = time.perf_counter
"""The clock that times strategies when the rules set one (R25); read once per hand, so a
test can put a counting clock here."""


def _describe(value: object) -> str:
    if type(value) is int and 0 <= value < 52:
        return CARD_NAMES[value]
    return safe_repr(value)


# where each entry point sits in the tuple of ginsim.engine.strategy.entry_points
_TAKE: Final = 0
_DISCARD: Final = 1
_KNOCK: Final = 2
_OBSERVE: Final = 3
_MELDS: Final = 4
_LAYOFFS: Final = 5
_BIG_GIN: Final = 6
assert ENTRY_POINTS == ("take_upcard", "discard", "knock", "observe", "choose_melds", "choose_layoffs", "take_big_gin")


def _as_card(value: object) -> object:
    """A strategy's discard as a plain int when it is an integer of another type (numpy);
    anything else (a bool included) unchanged, for the discard check to name."""
    if isinstance(value, bool):  # tested on its own: narrowed together with int, a
        return value  # compiled build would hand back True as the int 1
    if type(value) is int:
        return value
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return value


def _raised(seat: int, method: str, e: BaseException) -> Forfeit:
    """The forfeit of a strategy call that raised anything at all (SystemExit and a bot's
    own KeyboardInterrupt included); only the user's Ctrl-C goes through, to stop the run."""
    if passes(e):
        raise e
    if isinstance(e, DecisionTimeout):
        what = "time_per_hand, R25" if e.clock else "the hard limit per decision"
        if e.hard:
            what += "; the process playing it was ended"
        return Forfeit(seat, "clock", f"{method}: no answer within {e.limit:g}s ({what})")
    if isinstance(e, BotFailure):
        return Forfeit(seat, e.kind, f"{method} {e}")
    try:
        text = str(e)
    except BaseException:  # noqa: BLE001 - an exception whose str() fails says nothing more
        text = ""
    if len(text) > 200:
        text = text[:197] + "..."
    return Forfeit(seat, "raised", f"{method} raised {type.__dict__['__name__'].__get__(type(e))}: {text}")


def _not_bool(seat: int, method: str, value: object) -> Forfeit:
    return Forfeit(seat, "illegal", f"{method} returned {safe_repr(value)}, not True or False")


def play_hand(
    rules: Rules,
    strategies: Sequence[Strategy],
    deck: Sequence[Card],
    dealer: int,
    scores: tuple[int, int] = (0, 0),
    seeds: tuple[int, int] = (0, 0),
    log: list[Event] | None = None,
    checked: bool = False,
) -> HandResult:
    """Play one hand: ``strategies[s]`` plays seat ``s``; seat ``dealer`` deals.

    A strategy that raises, answers with an illegal move or overruns the clock forfeits
    the hand (R25, R26); the result says who, what kind and why. ``checked`` says the
    deck is already known to be a list of the 52 card ints (``seeding.check_decks``)."""
    hand = Hand(rules, deck, dealer, scores, seeds, log, checked)
    w = thread_watch()
    w.base = w.calls
    if w.shared is not None:
        w.shared[2] = w.calls
    views = hand.views
    deadwood = hand.tables.deadwood_mask
    knock_limit = hand.knock_limit  # R14, R29
    big_gin = rules.big_gin_bonus is not None
    seats = _Seats(strategies, views, rules.time_per_hand, w)
    players = seats.players
    entries = seats.entries
    watching = seats.watching
    timed = seats.timed
    clock = seats.clock
    perf = clock_time
    started = 0.0

    try:
        # the first-turn offer: non-dealer, then dealer; if both pass the non-dealer
        # draws from the stock (R09)
        if watching:
            seats.notify()
        seat = hand.to_move
        if seats.take_or_pass(seat):
            hand.take()
        else:
            hand.pass_upcard()
            if watching:
                seats.notify()
            if seats.take_or_pass(1 - seat):
                hand.take()
            else:
                hand.pass_upcard()
        seat = hand.to_move
        while True:
            # the seat holds 11 cards: (big gin,) discard, knock?
            if watching:
                seats.notify()
            strategy = players[seat]
            fns = entries[seat]
            view = views[seat]
            if timed:
                started = perf()
            if big_gin and hand.can_big_gin():
                gin_now: object = True  # the default when the class has no take_big_gin
                big_gin_fn = fns[_BIG_GIN]
                if big_gin_fn is not None:
                    try:
                        _enter(w)
                        gin_now = big_gin_fn(strategy, view)
                    except BaseException as e:  # noqa: BLE001
                        raise _raised(seat, "take_big_gin", e) from None
                    finally:
                        _leave(w)
                if type(gin_now) is not bool:
                    gin_now = _plain_bool(gin_now)
                if gin_now is True:
                    if timed:
                        clock.charge(seat, perf() - started)
                    hand.big_gin()
                    break
                if gin_now is not False:
                    raise _not_bool(seat, "take_big_gin", gin_now)
            try:
                _enter(w)
                card: object = fns[_DISCARD](strategy, view)
                if type(card) is not int:
                    card = _as_card(card)  # may run the answer's own __index__: guarded too
            except BaseException as e:  # noqa: BLE001
                raise _raised(seat, "discard", e) from None
            finally:
                _leave(w)
            knock: object = False
            # Whether to ask about a knock: the seat's own best-discard answer for this
            # very hand saves a deadwood call; a knock itself is verified in discard().
            dw = knock_limit + 1  # no knock question unless the discard is a card of the hand
            c = cast(int, card) if type(card) is int else -1
            if 0 <= c < 52:
                held = hand.hands[seat]
                if view._memo_hand == held and view._memo[1] >> c & 1:
                    dw = view._memo[0]
                elif held >> c & 1:
                    dw = deadwood(held & ~(1 << c))
            if dw <= knock_limit:
                view.phase = KNOCK
                view.discard_choice = c
                view.discard_deadwood = dw
                try:
                    _enter(w)
                    knock = fns[_KNOCK](strategy, view)
                except BaseException as e:  # noqa: BLE001
                    raise _raised(seat, "knock", e) from None
                finally:
                    _leave(w)
                if type(knock) is not bool:
                    knock = _plain_bool(knock)
                    if knock is not True and knock is not False:
                        raise _not_bool(seat, "knock", knock)
            if timed:
                clock.charge(seat, perf() - started)
            try:
                hand.discard(card, knock is True)
            except IllegalMoveError as e:
                raise Forfeit(seat, "illegal", f"discard {_describe(card)}: {e}") from None
            if knock:
                if watching:
                    seats.notify()
                _showdown(hand, seats)
                break
            if hand.phase is OVER:
                break
            # the next seat's turn: the upcard or the stock (R10)
            seat = 1 - seat
            if watching:
                seats.notify()
            if seats.take_or_pass(seat):
                hand.take()
            else:
                hand.draw()
        if watching:
            seats.notify()
    except Forfeit as f:
        if hand.phase is not OVER:
            hand.forfeit(f.seat, f.kind, f.reason)
    except (TypeError, AttributeError, IndexError, ValueError) as e:
        # the engine's own step failed on a view a strategy broke (only the pure-Python
        # build lets a strategy store values of the wrong type in its view)
        s = _tampered_seat(views)
        if s < 0 or hand.phase is OVER:
            raise
        hand.forfeit(s, "illegal", f"its view was tampered with ({type(e).__name__}: {e})")
    return hand.result  # type: ignore[return-value]


_VIEW_INTS: Final = ("hand", "pile_mask", "opp_known", "opp_passed", "opp_discards", "stock_size", "turn")


def _tampered_seat(views: tuple[PlayerView, PlayerView]) -> int:
    """The seat whose view holds values of the wrong type where the engine writes, or -1."""
    for s in (0, 1):
        v = views[s]
        if type(v._pile) is not list or type(v.history) is not list or type(v._memo_hand) is not int:
            return s
        if type(v._memo) is not tuple or len(v._memo) != 2 or any(type(x) is not int for x in v._memo):
            return s
        if any(type(getattr(v, name)) is not int for name in _VIEW_INTS):
            return s
    return -1


def _showdown(hand: Hand, seats: _Seats) -> HandResult:
    """Knocker's melds, defender's lay-offs, score. A hook that fails, or answers with
    melds or lay-offs the rules refuse, forfeits its own seat."""
    k = hand.knocker
    d = 1 - k
    entries = seats.entries
    ask = seats.ask
    melds = ask(k, _MELDS, "choose_melds") if entries[k][_MELDS] is not None else None
    if melds is not None and type(melds) is not tuple:
        return hand.forfeit(k, "illegal", f"choose_melds: returned {safe_repr(melds)}, not a list of card masks")
    try:
        shown, kd = hand.knocker_show(melds)
    except IllegalMoveError as e:
        return hand.forfeit(k, "illegal", f"choose_melds: {e}")
    layoff = None
    if kd > 0 and entries[d][_LAYOFFS] is not None:
        dv = hand.views[d]
        dv.knocker_melds = shown  # R16: the knocker shows its melds and its deadwood
        melded = 0
        for m in shown:
            melded |= m
        dv.knocker_deadwood_cards = hand.hands[k] & ~melded
        dv.knocker_deadwood = kd
        dv.phase = LAYOFF
        layoff = ask(d, _LAYOFFS, "choose_layoffs")
        if layoff is not None and type(layoff) is not int:
            return hand.forfeit(d, "illegal", f"choose_layoffs: returned {safe_repr(layoff)}, not a card mask")
        if layoff is not None:
            try:
                hand.verify_layoff(layoff, shown)
            except IllegalMoveError as e:
                return hand.forfeit(d, "illegal", f"choose_layoffs: {e}")
    return hand._score(shown, kd, layoff)  # type: ignore[arg-type]


def _plain_bool(value: object) -> object:
    """A yes-or-no answer as True or False when it is numpy's bool (a NumPy- or
    torch-based bot's comparison); anything else unchanged, to be refused. Only the type
    is looked at, so no code of the strategy's runs here."""
    np = sys.modules.get("numpy")
    if np is not None and type(value) is np.bool_:
        return value is np.True_
    return value


def _plain_melds(value: object) -> object:
    """A hook's list or tuple answer as a tuple (its items checked later, numpy's ints
    made plain), a numpy int mask as an int; anything else (a generator, an object of the
    strategy's own class) unchanged, to be refused. Called inside the hook's guard: an
    item's ``__index__`` may be the strategy's code."""
    if type(value) is list or type(value) is tuple:
        return tuple(_as_card(v) for v in cast(Sequence[object], value))
    return _as_card(value)


class _Seats:
    """The two strategies as the engine asks them (the main loop asks discard, knock and
    big gin itself, in line): each call
    guarded (a strategy that raises forfeits, R26) and, under a clock, timed (R25).
    Each seat's functions are bound here, once per hand, from its class as the class
    was defined (``entry_points``): not from the instance, nor from the class as it may
    have been patched since. Strategies' answers are untrusted: they are read as plain
    objects and checked, never assumed to have the types ``Strategy``'s signatures promise."""

    __slots__ = ("clock", "entries", "players", "seen", "timed", "views", "watch", "watchers", "watching")

    def __init__(
        self,
        strategies: Sequence[Strategy],
        views: tuple[PlayerView, PlayerView],
        limit: float | None,
        watch: _Watch,
    ) -> None:
        self.players: Sequence[Any] = strategies
        self.entries: tuple[tuple[Any, ...], tuple[Any, ...]] = (
            entry_points(type(strategies[0])),
            entry_points(type(strategies[1])),
        )
        self.views = views
        self.watchers: tuple[Any, Any] = (self.entries[0][_OBSERVE], self.entries[1][_OBSERVE])
        self.watching = self.watchers[0] is not None or self.watchers[1] is not None
        self.seen = [0, 0]
        self.timed = limit is not None
        self.clock = _Clock(limit)  # charged only when timed
        self.watch = watch  # the playing thread's count of strategy calls

    def notify(self) -> None:
        """Pass new public events to the strategies that watch them."""
        timed = self.timed
        perf = clock_time
        seen = self.seen
        for s in (0, 1):
            w = self.watchers[s]
            view = self.views[s]
            history = view.history
            while seen[s] < len(history):
                ev = history[seen[s]]
                seen[s] += 1
                if w is not None:
                    t0 = perf() if timed else 0.0
                    try:
                        _enter(self.watch)
                        w(self.players[s], view, ev)
                    except BaseException as e:  # noqa: BLE001 - any failure forfeits (R26)
                        raise _raised(s, "observe", e) from None
                    finally:
                        _leave(self.watch)
                    if timed:
                        self.clock.charge(s, perf() - t0)

    def ask(self, s: int, entry: int, method: str, melds: bool = True) -> object:
        """One guarded call of seat ``s``'s entry point: a failure forfeits (R26), the time
        is charged (R25); a showdown hook's list answer (``melds``) is copied inside the
        guard, since iterating it may run the strategy's code."""
        t0 = clock_time() if self.timed else 0.0
        w = self.watch
        try:
            _enter(w)
            out = self.entries[s][entry](self.players[s], self.views[s])
            if melds and out is not None and type(out) is not int:
                out = _plain_melds(out)
        except BaseException as e:  # noqa: BLE001 - any failure forfeits (R26)
            raise _raised(s, method, e) from None
        finally:
            _leave(w)
        if self.timed:
            self.clock.charge(s, clock_time() - t0)
        return out

    def take_or_pass(self, seat: int) -> bool:
        """Ask ``seat`` whether it takes the upcard: the first-turn offer (R09) or a draw
        from the pile rather than the stock (R10)."""
        take = self.ask(seat, _TAKE, "take_upcard", melds=False)
        if type(take) is not bool:
            take = _plain_bool(take)
            if take is not True and take is not False:
                raise _not_bool(seat, "take_upcard", take)
        return take is True


class _Clock:
    """Thinking time per seat within one hand (R25)."""

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self.used = [0.0, 0.0]

    def charge(self, seat: int, seconds: float) -> None:
        self.used[seat] += seconds
        if self.limit is not None and self.used[seat] > self.limit:
            raise Forfeit(seat, "clock", f"clock: used {self.used[seat]:.3f}s of {self.limit:g}s for the hand")
