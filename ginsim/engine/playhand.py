"""Playing a hand with two strategies: the loop that asks them for their moves.

``play_hand`` drives a ``Hand`` (ginsim.engine.hand) by asking each seat's strategy through its
``PlayerView`` only. A strategy that raises, answers with an illegal move or runs out of
time forfeits the hand (R25, R26), and the result says who, what kind and why.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Final, cast

from ginsim.engine.calls import (
    WATCH,
    CallCount,
    as_card,
    describe,
    enter,
    hand_begins,
    leave,
    not_bool,
    plain_bool,
    plain_melds,
    raised,
    thread_watch,
)
from ginsim.engine.cards import Card
from ginsim.engine.guard import safe_repr
from ginsim.engine.hand import Hand
from ginsim.engine.result import (
    BIG_GIN,
    DRAWN,
    FORFEIT,
    GIN,
    KNOCK_WON,
    MAX_TURNS,
    OUTCOMES,
    UNDERCUT,
    Forfeit,
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
    "WATCH",
    "Hand",
    "HandResult",
    "play_hand",
    "thread_watch",
]


clock_time = time.perf_counter
"""The clock that times strategies when the rules set one (R25); read once per hand, so a
test can put a counting clock here."""


# where each entry point sits in the tuple of ginsim.engine.strategy.entry_points
_TAKE: Final = 0
_DISCARD: Final = 1
_KNOCK: Final = 2
_OBSERVE: Final = 3
_MELDS: Final = 4
_LAYOFFS: Final = 5
_BIG_GIN: Final = 6
assert ENTRY_POINTS == ("take_upcard", "discard", "knock", "observe", "choose_melds", "choose_layoffs", "take_big_gin")


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
    w = hand_begins()
    views = hand.views
    knock_limit = hand.knock_limit  # R14, R29
    big_gin = rules.big_gin_bonus is not None
    seats = _Seats(strategies, views, rules.time_per_hand, w)
    watching = seats.watching
    timed = seats.timed
    clock = seats.clock
    perf = clock_time
    started = 0.0

    try:
        seats.first_turn(hand)
        seat = hand.to_move
        while True:
            # the seat holds 11 cards: (big gin,) discard, knock?
            if watching:
                seats.notify()
            if timed:
                started = perf()
            if big_gin and hand.can_big_gin() and seats.big_gin(seat):
                if timed:
                    clock.charge(seat, perf() - started)
                hand.big_gin()
                break
            card = seats.discard(seat)
            knock = False
            c = cast(int, card) if type(card) is int else -1
            dw = _deadwood_after(hand, views[seat], c) if 0 <= c < 52 else knock_limit + 1
            if dw <= knock_limit:
                knock = seats.knock(seat, c, dw)
            if timed:
                clock.charge(seat, perf() - started)
            try:
                hand.discard(card, knock)
            except IllegalMoveError as e:
                raise Forfeit(seat, "illegal", f"discard {describe(card)}: {e}") from None
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


def _deadwood_after(hand: Hand, view: PlayerView, card: int) -> int:
    """The deadwood the mover's hand would keep after discarding ``card`` (a card int), to
    know whether to ask about a knock: the seat's own best-discard answer for this very
    hand saves a deadwood call (a knock itself is verified in ``Hand.discard``). A card
    the seat does not hold answers 99, above any knock limit (at most 10), so no knock
    question is asked."""
    held = hand.hands[hand.to_move]
    if view._memo_hand == held and view._memo[1] >> card & 1:
        return view._memo[0]
    if held >> card & 1:
        return hand.deadwood_after(card)
    return 99


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


class _Seats:
    """The two strategies as the engine asks them: each call
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
        watch: CallCount,
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
                        enter(self.watch)
                        w(self.players[s], view, ev)
                    except BaseException as e:  # noqa: BLE001 - any failure forfeits (R26)
                        raise raised(s, "observe", e) from None
                    finally:
                        leave(self.watch)
                    if timed:
                        self.clock.charge(s, perf() - t0)

    def ask(self, s: int, entry: int, method: str, melds: bool = True) -> object:
        """One guarded call of seat ``s``'s entry point: a failure forfeits (R26), the time
        is charged (R25); a showdown hook's list answer (``melds``) is copied inside the
        guard, since iterating it may run the strategy's code."""
        t0 = clock_time() if self.timed else 0.0
        w = self.watch
        try:
            enter(w)
            out = self.entries[s][entry](self.players[s], self.views[s])
            if melds and out is not None and type(out) is not int:
                out = plain_melds(out)
        except BaseException as e:  # noqa: BLE001 - any failure forfeits (R26)
            raise raised(s, method, e) from None
        finally:
            leave(w)
        if self.timed:
            self.clock.charge(s, clock_time() - t0)
        return out

    def first_turn(self, hand: Hand) -> None:
        """The first-turn offer of the upcard (R09): the non-dealer, then the dealer may
        take it; when both pass the non-dealer draws from the stock."""
        if self.watching:
            self.notify()
        seat = hand.to_move
        if self.take_or_pass(seat):
            hand.take()
            return
        hand.pass_upcard()
        if self.watching:
            self.notify()
        if self.take_or_pass(1 - seat):
            hand.take()
        else:
            hand.pass_upcard()

    def big_gin(self, seat: int) -> bool:
        """Whether ``seat``, whose eleven cards all meld, ends the hand with big gin (R22):
        its ``take_big_gin``, True when its class has none. Not timed here: the play loop
        charges the whole turn."""
        if self.entries[seat][_BIG_GIN] is None:
            return True
        return _yes_no(seat, "take_big_gin", self._untimed(seat, _BIG_GIN, "take_big_gin"))

    def discard(self, seat: int) -> object:
        """``seat``'s discard, read as a plain int when it is an integer of another type
        (checked by ``Hand.discard``). Not timed here: the play loop charges the whole turn."""
        w = self.watch
        try:
            enter(w)
            card: object = self.entries[seat][_DISCARD](self.players[seat], self.views[seat])
            if type(card) is not int:
                card = as_card(card)  # may run the answer's own __index__: guarded too
        except BaseException as e:  # noqa: BLE001 - any failure forfeits (R26)
            raise raised(seat, "discard", e) from None
        finally:
            leave(w)
        return card

    def knock(self, seat: int, card: int, deadwood: int) -> bool:
        """Whether ``seat`` knocks with its discard ``card``, which leaves ``deadwood``
        within the hand's knock limit (R14): its ``knock``, asked with the discard and its
        deadwood in the view. Not timed here: the play loop charges the whole turn."""
        view = self.views[seat]
        view.phase = KNOCK
        view.discard_choice = card
        view.discard_deadwood = deadwood
        return _yes_no(seat, "knock", self._untimed(seat, _KNOCK, "knock"))

    def _untimed(self, seat: int, entry: int, method: str) -> object:
        """One guarded call of ``seat``'s entry point (a failure forfeits, R26), its answer
        as it came."""
        w = self.watch
        try:
            enter(w)
            return self.entries[seat][entry](self.players[seat], self.views[seat])
        except BaseException as e:  # noqa: BLE001 - any failure forfeits (R26)
            raise raised(seat, method, e) from None
        finally:
            leave(w)

    def take_or_pass(self, seat: int) -> bool:
        """Ask ``seat`` whether it takes the upcard: the first-turn offer (R09) or a draw
        from the pile rather than the stock (R10)."""
        return _yes_no(seat, "take_upcard", self.ask(seat, _TAKE, "take_upcard", melds=False))


def _yes_no(seat: int, method: str, answer: object) -> bool:
    """A yes-or-no answer as a bool (numpy's bool made plain); any other answer is the
    seat's forfeit."""
    if type(answer) is not bool:
        answer = plain_bool(answer)
        if answer is not True and answer is not False:
            raise not_bool(seat, method, answer)
    return answer is True


class _Clock:
    """Thinking time per seat within one hand (R25)."""

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self.used = [0.0, 0.0]

    def charge(self, seat: int, seconds: float) -> None:
        self.used[seat] += seconds
        if self.limit is not None and self.used[seat] > self.limit:
            raise Forfeit(seat, "clock", f"clock: used {self.used[seat]:.3f}s of {self.limit:g}s for the hand")
