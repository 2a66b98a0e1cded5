"""R23-R25: the end of the stock, games to a target score and the clock,
each proved by rule id with explicit hands (support.rulebook has the seat convention
and deck layout)."""

from __future__ import annotations

import time

import pytest
from support.deals import (
    StockDrawer,
    apply,
    make_deck,
)
from support.rulebook import (
    DEFAULT,
    NONDEALER,
    Observer,
    PerHand,
    play,
    simple,
)

from ginsim import (
    IllegalMoveError,
    Rules,
    parse_spec,
    play_game,
    play_hand,
)
from ginsim.engine import playhand as engine_module
from ginsim.engine.cards import CARD_NAMES
from ginsim.engine.game import next_dealer
from ginsim.engine.playhand import Hand, HandResult
from ginsim.engine.result import forfeit_points
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import OVER
from ginsim.run.seeding import deck_for, game_deal_seed

# == End of the stock ========================================================================


def test_r23_stock_down_to_two_cards_ends_the_hand_with_no_score():
    deck = make_deck(fill_seed=23)
    log = []
    res = play(deck, StockDrawer(), StockDrawer(), log=log)
    assert res.outcome == "draw" and res.winner == -1 and res.knocker == -1 and res.points == 0
    assert res.stock_left == 2
    assert sum(1 for ev in log if ev[1] == "draw") == 29  # 31 - 2
    assert log[-1][1] == "discard"
    # the non-dealer drew the 1st, 3rd, ..., 29th card: the third-to-last
    assert [ev for ev in log if ev[1] == "draw"][-1][0] == 0
    for mode in ("alternate", "winner", "loser"):
        assert next_dealer(Rules(next_dealer=mode), 1, res) == 1
        assert next_dealer(Rules(next_dealer=mode), 0, res._replace(dealer=0)) == 0


def test_r23_the_player_who_took_the_third_to_last_card_may_still_knock():
    # the knocker keeps its dealt hand (deadwood 5) and knocks only when 2 cards are left
    deck = make_deck(nondealer=NONDEALER, dealer="8H 8S 8D QD QS QH 2D 4H 7S 7D", upcard="KC", fill_seed=4)
    knocker = StockDrawer(knock_when=lambda v: v.stock_size == 2)
    res = play(deck, knocker, StockDrawer())
    assert res.outcome == "knock" and res.knocker == 0 and res.stock_left == 2
    assert res.defender_deadwood_after == 20 and res.points == 20 - 5


def test_r23_hand_drawn_at_stock_end_via_hand():
    deck = make_deck(fill_seed=9)
    h = Hand(DEFAULT, deck, dealer=0)
    apply(h, "pass; pass")
    while h.phase is not OVER:
        apply(h, f"discard {CARD_NAMES[h.drawn]}")
        if h.phase is OVER:
            break
        assert h.stock_size > 2
        apply(h, "draw")
    assert h.result.outcome == "draw" and h.stock_size == 2
    with pytest.raises(IllegalMoveError):
        h.draw()
    with pytest.raises(IllegalMoveError):
        h.take()


@pytest.mark.parametrize("mode", ["alternate", "winner", "loser"])
@pytest.mark.parametrize("first_dealer", [0, 1])
def test_r23_same_dealer_deals_again_after_a_drawn_hand_in_a_game(mode, first_dealer):
    rules = Rules(next_dealer=mode, target_score=60)
    strategies = [PerHand(StockDrawer(), simple()), PerHand(StockDrawer(), simple())]
    game = play_game(
        rules, strategies, lambda h: deck_for(game_deal_seed(23, 0, h)), first_dealer, lambda h: (h + 1, h + 100)
    )
    assert game.hands[0].outcome == "draw"
    assert game.hands[0].dealer == first_dealer
    assert game.hands[1].dealer == first_dealer
    assert game.scores == (0, 0) or max(game.scores) >= 60


def test_r23_play_game_with_only_drawn_hands_keeps_the_dealer():
    game = play_game(DEFAULT, [StockDrawer(), StockDrawer()], lambda h: deck_for(h), 1, lambda h: (h, h), max_hands=5)
    assert game.winner == -1 and game.scores == (0, 0) and len(game.hands) == 5
    assert all(r.outcome == "draw" and r.dealer == 1 for r in game.hands)


# == Game and clock ===========================================================================


def _result(outcome, winner, dealer, points=10):
    return HandResult(
        outcome=outcome,
        knocker=winner,
        winner=winner,
        points=points,
        knocker_deadwood=0,
        defender_deadwood_before=0,
        defender_deadwood_after=0,
        layoff_cards=0,
        turns=3,
        stock_left=20,
        dealer=dealer,
    )


@pytest.mark.parametrize(
    ("mode", "dealer", "winner", "expected"),
    [
        ("alternate", 0, 0, 1),
        ("alternate", 0, 1, 1),
        ("alternate", 1, 0, 0),
        ("alternate", 1, 1, 0),
        ("winner", 0, 0, 0),
        ("winner", 0, 1, 1),
        ("winner", 1, 0, 0),
        ("winner", 1, 1, 1),
        ("loser", 0, 0, 1),
        ("loser", 0, 1, 0),
        ("loser", 1, 0, 1),
        ("loser", 1, 1, 0),
    ],
)
def test_r24_next_dealer_rule(mode, dealer, winner, expected):
    rules = Rules(next_dealer=mode)
    assert next_dealer(rules, dealer, _result("knock", winner, dealer)) == expected
    assert next_dealer(rules, dealer, _result("undercut", winner, dealer)) == expected
    assert next_dealer(rules, dealer, _result("draw", -1, dealer, 0)) == dealer


class _ScoreSpy(Strategy):
    """Delegates to ``inner``; records view.scores and dealer at each hand's first decision."""

    def __init__(self, inner):
        self.inner = inner
        self.seen = []
        self._last = None

    def _spy(self, view):
        if view is not self._last:
            self._last = view
            self.seen.append((view.scores, view.dealer))

    def take_upcard(self, view):
        self._spy(view)
        return self.inner.take_upcard(view)

    def discard(self, view):
        self._spy(view)
        return self.inner.discard(view)

    def knock(self, view):
        self._spy(view)
        return self.inner.knock(view)


@pytest.mark.parametrize("mode", ["alternate", "winner", "loser"])
@pytest.mark.parametrize("target", [1, 50, 100, 250])
def test_r24_game_to_target_score(mode, target):
    rules = Rules(next_dealer=mode, target_score=target)
    for g in range(6):
        spies = [_ScoreSpy(simple()), _ScoreSpy(parse_spec("threshold:knock_at=5").build())]
        first = g % 2
        game = play_game(
            rules, spies, lambda h, g=g: deck_for(game_deal_seed(24, g, h)), first, lambda h: (2 * h + 1, 2 * h + 2)
        )
        assert game.first_dealer == first
        assert game.hands[0].dealer == first
        scores = [0, 0]
        dealer = first
        for i, res in enumerate(game.hands):
            assert res.dealer == dealer
            assert res.outcome != "forfeit"
            assert max(scores) < target  # no hand is dealt after the target is reached
            if res.winner >= 0:
                scores[res.winner] += res.points
            if res.outcome == "draw":
                expected = dealer
            elif mode == "alternate":
                expected = 1 - dealer
            elif mode == "winner":
                expected = res.winner
            else:
                expected = 1 - res.winner
            if i + 1 < len(game.hands):
                assert game.hands[i + 1].dealer == expected
            dealer = expected
        assert tuple(scores) == game.scores
        assert game.winner in (0, 1)
        assert game.scores[game.winner] >= target > game.scores[1 - game.winner]
        # each seat saw the scores before each hand, as (own, opponent), and the dealer:
        # its records are the expected ones of the hands where it had a decision
        running = [0, 0]
        expected = [[], []]
        for res in game.hands:
            for seat in (0, 1):
                expected[seat].append(((running[seat], running[1 - seat]), res.dealer))
            if res.winner >= 0:
                running[res.winner] += res.points
        for seat in (0, 1):
            it = iter(expected[seat])
            assert all(any(x == e for e in it) for x in spies[seat].seen), (spies[seat].seen, expected[seat])
            assert len(spies[seat].seen) >= len(game.hands) - 2


def test_r24_undecided_game_stops_at_max_hands():
    game = play_game(
        DEFAULT, [StockDrawer(), StockDrawer()], lambda h: deck_for(h + 5), 0, lambda _h: (0, 0), max_hands=3
    )
    assert game.winner == -1 and len(game.hands) == 3


class _SimClock:
    """The engine's clock in the R25 tests: time moves only when a ``_Sleeper`` "sleeps",
    so the tests decide the same on an idle or a busy machine (no wall-clock assertion)."""

    now = 0.0

    @classmethod
    def read(cls) -> float:
        return cls.now


@pytest.fixture
def sim_clock(monkeypatch):
    monkeypatch.setattr(_SimClock, "now", 0.0)
    monkeypatch.setattr(engine_module, "clock_time", _SimClock.read)
    return _SimClock


class _Sleeper(Strategy):
    """Plays like ``inner``; "sleeps" ``seconds`` (advances ``_SimClock``) at the decisions
    numbered in ``at`` (per hand, counted from 0), or at every decision when ``at`` is None."""

    def __init__(self, inner, seconds, at=(0,)):
        self.inner = inner
        self.seconds = seconds
        self.at = at
        self._view = None
        self._n = 0

    def _tick(self, view):
        if view is not self._view:
            self._view = view
            self._n = 0
        if self.at is None or self._n in self.at:
            _SimClock.now += self.seconds
        self._n += 1

    def take_upcard(self, view):
        self._tick(view)
        return self.inner.take_upcard(view)

    def discard(self, view):
        self._tick(view)
        return self.inner.discard(view)

    def knock(self, view):
        self._tick(view)
        return self.inner.knock(view)


@pytest.mark.parametrize("slow_seat", [0, 1])
@pytest.mark.usefixtures("sim_clock")
def test_r25_clock_runs_out_forfeits(slow_seat):
    rules = Rules(time_per_hand=0.05)
    strategies = [simple(), simple()]
    strategies[slow_seat] = _Sleeper(simple(), 0.12)
    res = play_hand(rules, strategies, deck_for(25), dealer=1, seeds=(1, 2))
    assert res.outcome == "forfeit" and res.forfeit_kind == "clock"
    assert res.forfeit_seat == slow_seat and res.winner == 1 - slow_seat
    assert res.points == forfeit_points(rules)  # a forfeit never pays
    assert "clock" in res.forfeit_reason and "0.05" in res.forfeit_reason


@pytest.mark.usefixtures("sim_clock")
def test_r25_clock_is_per_seat_and_runs_only_on_own_turns():
    # each seat thinks 0.15 s once: together 0.3 s of wall time, each under its 0.25 s
    rules = Rules(time_per_hand=0.25)
    res = play_hand(rules, [_Sleeper(simple(), 0.15), _Sleeper(simple(), 0.15)], deck_for(26), dealer=1)
    assert res.outcome != "forfeit"


@pytest.mark.usefixtures("sim_clock")
def test_r25_clock_is_per_hand_and_a_forfeit_loses_the_game():
    rules = Rules(time_per_hand=0.25, target_score=100)
    # 0.15 s per hand is under the clock, however many hands are played
    game = play_game(
        rules, [_Sleeper(simple(), 0.15), simple()], lambda h: deck_for(300 + h), 0, lambda h: (h, h), max_hands=3
    )
    assert all(r.outcome != "forfeit" for r in game.hands) and len(game.hands) >= 2
    # over the clock in a game: the slow seat loses the game at once
    game = play_game(
        Rules(time_per_hand=0.05), [simple(), _Sleeper(simple(), 0.1)], lambda h: deck_for(h), 0, lambda h: (h, h)
    )
    assert game.winner == 0 and len(game.hands) == 1
    assert game.hands[0].outcome == "forfeit" and game.hands[0].forfeit_kind == "clock"


@pytest.mark.usefixtures("sim_clock")
def test_r25_clock_counts_accumulated_thinking_time():
    # 0.04 s at each of the first three decisions: the third one passes 0.1 s
    rules = Rules(time_per_hand=0.1)
    res = play_hand(rules, [_Sleeper(simple(), 0.04, at=(0, 1, 2, 3, 4)), StockDrawer()], deck_for(27), dealer=1)
    assert res.outcome == "forfeit" and res.forfeit_kind == "clock" and res.forfeit_seat == 0


class _FakeTime:
    def __init__(self):
        self.calls = 0

    def perf_counter(self):
        self.calls += 1
        return time.perf_counter()


def test_r25_without_a_clock_nothing_is_measured(monkeypatch):
    fake = _FakeTime()
    monkeypatch.setattr(engine_module, "clock_time", fake.perf_counter)
    slow = _Sleeper(simple(), 0.02, at=None)
    res = play_hand(DEFAULT, [slow, simple()], deck_for(28), dealer=1)
    assert res.outcome != "forfeit"
    obs = Observer()
    res = play_hand(DEFAULT, [obs, _Sleeper(simple(), 0.01, at=None)], deck_for(29), dealer=0)
    assert res.outcome != "forfeit" and obs.events > 0
    assert fake.calls == 0
    play_hand(Rules(time_per_hand=60), [simple(), simple()], deck_for(28), dealer=1)
    assert fake.calls > 0  # with a clock, the engine does time the strategies
